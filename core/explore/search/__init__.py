"""Nearest-neighbour search: exact top-k and recall (`exact`), the index that picks exact/HNSW/IVF (`index`),
IVF-PQ with exact re-ranking for very large corpora (`compressed`), similar-paper search over a corpus (`similar`),
finding a paper by its DOI or title words (`lookup`), the BM25 word index (`lexical`) and the one search
that fuses words and meaning for any query (`hybrid`).

Public names load lazily (PEP 562).
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "IVF_NPROBES": "exact",
    "exact_topk": "exact",
    "recall_at_k": "exact",
    "IVF_ABOVE": "index",
    "VectorIndex": "index",
    "choose_kind": "index",
    "CompressedSearch": "compressed",
    "find_papers": "lookup",
    "LexicalIndex": "lexical",
    "corpus_lexical": "lexical",
    "hybrid_search": "hybrid",
    "clip_query": "similar",
    "corpus_index": "similar",
    "query_warning": "similar",
    "similar_papers": "similar",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
