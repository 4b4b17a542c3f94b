"""What users do with vectors: nearest-neighbour indexes and similar-paper search, 2-D projections and cached maps,
clusters and their keyword names, highlight search, and journal suggestions. Imports `core.embedding` and
`core.store`.

Public names load lazily (PEP 562), so importing the package costs nothing until a name is used.
"""

from __future__ import annotations

from core.lazy import exporter

_EXPORTS = {
    "KNN_NEIGHBOURS": "journals",
    "KNN_PRIOR_STRENGTH": "journals",
    "KNN_TEMPERATURE": "journals",
    "knn_vote": "journals",
    "knn_vote_details": "journals",
    "DEFAULT_PARAMS": "projection",
    "IVF_ABOVE": "index",
    "IVF_NPROBES": "index",
    "METHODS": "projection",
    "VectorIndex": "index",
    "cached_map": "maps",
    "citation_relation": "citations",
    "paper_citations": "citations",
    "choose_kind": "index",
    "clip_query": "search",
    "cluster_centres_2d": "clusters",
    "cluster_keywords": "clusters",
    "cluster_names": "clusters",
    "corpus_index": "search",
    "corpus_map": "maps",
    "exact_topk": "index",
    "figures_document": "figures",
    "rank_figures": "figures",
    "visual_summary": "figures",
    "highlight_mask": "maps",
    "hover_frame": "maps",
    "kmeans": "clusters",
    "map_coordinates": "maps",
    "map_fitted": "maps",
    "sampled_projection": "big_maps",
    "params_key": "projection",
    "place_points": "projection",
    "predict_corpus_labels": "journals",
    "predict_journals": "journals",
    "prediction_balance": "journals",
    "project": "projection",
    "query_warning": "search",
    "recall_at_k": "index",
    "similar_papers": "search",
    "start_map": "maps",
    "Topics": "topics",
    "topic_hierarchy": "topics",
    "topic_names": "topics",
    "warm_numba": "projection",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
