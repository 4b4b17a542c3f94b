"""What users do with vectors. Three subpackages by concern: `search/` (nearest-neighbour indexes, compressed
search, similar papers), `maps/` (2-D projections, cached and sampled maps, highlight), `topics/` (clusters, keyword
names, the topic hierarchy and its cache); at the top, journal suggestions, model comparison, citations, figures and
papers per year. Imports `core.embedding` and `core.store`.

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
    "DEFAULT_PARAMS": "maps.projection",
    "IVF_ABOVE": "search.index",
    "IVF_NPROBES": "search.exact",
    "METHODS": "maps.projection",
    "VectorIndex": "search.index",
    "cached_map": "maps.cached",
    "citation_relation": "citations",
    "paper_citations": "citations",
    "choose_kind": "search.index",
    "clip_query": "search.similar",
    "corpus_lexical": "search.lexical",
    "hybrid_search": "search.hybrid",
    "cluster_keywords": "topics.clusters",
    "cluster_names": "topics.clusters",
    "corpus_index": "search.similar",
    "corpus_map": "maps.cached",
    "exact_topk": "search.exact",
    "figures_document": "figures",
    "rank_figures": "figures",
    "visual_summary": "figures",
    "choice_margin": "figures",
    "highlight_mask": "maps.highlight",
    "highlight_text": "maps.highlight",
    "kept_highlight": "maps.highlight",
    "warm_highlight": "maps.highlight",
    "hover_frame": "maps.cached",
    "kmeans": "topics.clusters",
    "map_coordinates": "maps.cached",
    "map_fitted": "maps.cached",
    "sampled_projection": "maps.sampled",
    "params_key": "maps.projection",
    "place_points": "maps.projection",
    "predict_corpus_labels": "journals",
    "predict_journals": "journals",
    "prediction_balance": "journals",
    "project": "maps.projection",
    "query_warning": "search.similar",
    "recall_at_k": "search.exact",
    "similar_papers": "search.similar",
    "start_map": "maps.cached",
    "StableMap": "maps.stable",
    "not_kept_reason": "maps.stable",
    "stable_coordinates": "maps.stable",
    "stable_map": "maps.stable",
    "refit_job": "maps.refit",
    "refit_map": "maps.refit",
    "start_refit": "maps.refit",
    "undo_refit": "maps.refit",
    "Topics": "topics.hierarchy",
    "topic_hierarchy": "topics.hierarchy",
    "topic_names": "topics.hierarchy",
    "warm_numba": "maps.projection",
}
__all__ = sorted(_EXPORTS)
__getattr__ = exporter(__name__, _EXPORTS)
