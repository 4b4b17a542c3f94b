"""Corpus maps: cached per corpus version, and computed in the background while a page shows a preview."""

import time

import numpy as np

from core.embedding import embed_corpus, get_model
from core.explore import cached_map, map_coordinates, start_map
from tests.helpers import make_papers


def _wait(job, seconds: float = 120.0):
    deadline = time.time() + seconds
    while not job.done and time.time() < deadline:
        time.sleep(0.05)
    assert job.done, "the background map did not finish"
    return job


def test_a_background_map_is_computed_once_then_served_from_the_cache(embedded):
    spec = get_model("tiny", embedded)
    params = {"perplexity": 5.0}
    assert cached_map(embedded, "c", spec, "tsne", params) is None
    job = start_map(embedded, "c", spec, "tsne", params)
    assert start_map(embedded, "c", spec, "tsne", params) is job  # a second page asking joins the same job
    _wait(job)
    assert job.error is None and job.fraction == 1.0
    coords = cached_map(embedded, "c", spec, "tsne", params)
    assert coords.shape == (embedded.corpus("c").papers, 2) and np.isfinite(coords).all()
    again, was_cached = map_coordinates(embedded, "c", spec, "tsne", params)
    assert was_cached and np.array_equal(again, coords)
    assert start_map(embedded, "c", spec, "tsne", params) is job  # done: nothing recomputed


def test_a_new_corpus_version_needs_a_new_map(embedded):
    spec = get_model("tiny", embedded)
    map_coordinates(embedded, "c", spec, "pca")
    embedded.import_papers("c", make_papers(6)[-3:])
    embed_corpus(embedded, "c", "tiny")
    assert cached_map(embedded, "c", spec, "pca") is None
    coords, was_cached = map_coordinates(embedded, "c", spec, "pca")
    assert not was_cached and len(coords) == embedded.corpus("c").papers


def test_a_failing_background_map_reports_one_sentence(embedded):
    spec = get_model("tiny", embedded)
    job = _wait(start_map(embedded, "c", spec, "tsne", {"perplexity": "many"}))
    assert job.error and "\n" not in job.error and "Traceback" not in job.error
