"""A corpus's topic hierarchy under a model, computed once per (corpus version, vectors fingerprint, k, seed) and kept
in the workspace beside the maps: the fine cluster of each paper as .npy, the coarse parents and keywords as JSON.

Kept on disk in core, not in a page cache: k-means and the keywords take seconds at 200k papers, and a stored
hierarchy survives server restarts, is shared by every browser session, and is what the topic names a user gives
(core/store/topics.py, keyed by `clustering_key`) refer to.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from core.explore.topics.hierarchy import LEVELS, Topics, clustering_key, coarse_count, topic_hierarchy
from core.store.files import load_npy

if TYPE_CHECKING:
    from core.embedding import ModelSpec
    from core.store import Store

FORMAT = 1  # bump when topic_hierarchy or the keywords change; an edited stop word list is noticed by itself


@lru_cache(maxsize=1)
def labelling_key() -> str:
    """Names how the keywords are made: the format and a digest of the stop word list."""
    from core.explore.topics.keywords import STOP_FILE

    return f"t{FORMAT}{hashlib.sha1(STOP_FILE.read_bytes()).hexdigest()[:6]}"


def topics_files(store: Store, corpus: str, spec: ModelSpec, fine_k: int, seed: int = 0) -> tuple[Path, Path, str]:
    """(fine labels .npy, parents and keywords .json, clustering key) of one hierarchy."""
    from core.embedding import vectors_fingerprint

    version = store.corpus_version(corpus)
    key = clustering_key(version, fine_k, coarse_count(fine_k), seed)
    stem = f"{vectors_fingerprint(spec)}-{key}-{labelling_key()}"
    return (store.array_path("topics", corpus, stem), store.array_path("topics", corpus, stem, ".json"), key)


def cached_topics(store: Store, corpus: str, spec: ModelSpec, fine_k: int, seed: int = 0) -> Topics | None:
    """The stored hierarchy when it was computed for this corpus version, model vectors and k; else None."""
    labels_path, meta_path, _ = topics_files(store, corpus, spec, fine_k, seed)
    try:
        fine = load_npy(labels_path)
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        parent = np.asarray(meta["parent"], dtype=np.int64)
        keywords = {level: {int(c): list(words) for c, words in meta["keywords"][level].items()} for level in LEVELS}
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None
    if fine.ndim != 1 or len(fine) != meta.get("papers") or (len(fine) and fine.max() >= len(parent)):
        return None
    fine = fine.astype(np.int64)
    return Topics(fine=fine, coarse=parent[fine] if len(fine) else fine, parent=parent, keywords=keywords)


def corpus_topics(store: Store, corpus: str, spec: ModelSpec, fine_k: int, seed: int = 0) -> tuple[Topics, str]:
    """(the corpus's topic hierarchy with fine_k clusters, its clustering key), computed on first use, then read."""
    from core.embedding import vectors_fingerprint
    from core.store import atomic_save_npy
    from core.store.files import atomic_write_text

    labels_path, meta_path, key = topics_files(store, corpus, spec, fine_k, seed)
    topics = cached_topics(store, corpus, spec, fine_k, seed)
    if topics is not None:
        return topics, key
    vectors = store.embeddings(corpus, vectors_fingerprint(spec))
    frame = store.papers_frame(corpus)
    texts = (frame["title"].fillna("") + ". " + frame["abstract"].fillna("")).tolist()
    topics = topic_hierarchy(np.asarray(vectors), texts, int(fine_k), seed=seed)
    meta = {"papers": len(topics.fine), "parent": topics.parent.tolist(),
            "keywords": {level: {str(c): words for c, words in topics.keywords[level].items()} for level in LEVELS}}
    atomic_write_text(meta_path, json.dumps(meta))
    atomic_save_npy(labels_path, topics.fine)  # written last: the labels without their JSON are never read
    return topics, key
