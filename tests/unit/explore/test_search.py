"""Search correctness: exact and HNSW against brute force; filters; excluding the query paper."""

import numpy as np
import pytest

from core.errors import MireadError
from core.explore import VectorIndex, exact_topk, query_warning, similar_papers


def _unit(n, d, seed=0):
    x = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_exact_topk_matches_brute_force_sort():
    x, q = _unit(500, 16), _unit(5, 16, seed=1)
    scores, idx = exact_topk(x, q, 10)
    brute = np.argsort(-(q @ x.T), axis=1)[:, :10]
    np.testing.assert_array_equal(idx, brute)
    assert np.all(np.diff(scores, axis=1) <= 0)


def test_hnsw_recall_against_brute_force_and_persistence(tmp_path):
    x, q = _unit(3000, 32), _unit(50, 32, seed=2)
    path = tmp_path / "idx.faiss"
    index = VectorIndex(x, exact_limit=100, path=path)
    assert index.kind == "hnsw" and path.exists()
    _, approx = index.search(q, 10)
    _, exact = exact_topk(x, q, 10)
    recall = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact)])
    assert recall >= 0.95
    reloaded = VectorIndex(x, exact_limit=100, path=path)
    np.testing.assert_array_equal(reloaded.search(q, 10)[1], approx)


def test_mask_keeps_only_allowed_rows_in_both_modes():
    x, q = _unit(2000, 16), _unit(3, 16, seed=3)
    mask = np.zeros(2000, bool)
    mask[::7] = True
    for limit in (10_000, 100):
        _, idx = VectorIndex(x, exact_limit=limit).search(q, 5, mask)
        assert mask[idx].all()


def test_query_with_a_papers_own_text_finds_it_first(embedded):
    paper = embedded.papers("c")[7]
    result = similar_papers(embedded, "c", "tiny", title=paper.title, abstract=paper.abstract, k=5)
    assert result.results[0]["id"] == paper.id
    assert [r["rank"] for r in result.results] == [1, 2, 3, 4, 5]
    scores = [r["score"] for r in result.results]
    assert scores == sorted(scores, reverse=True)
    assert result.results[0]["journal"] == paper.fields["journal"]


def test_query_by_paper_id_excludes_the_paper_itself(embedded):
    result = similar_papers(embedded, "c", "tiny", paper_id="bio-2", k=14)
    assert "bio-2" not in [r["id"] for r in result.results]
    assert len(result.results) == 14


def test_filters_restrict_results(embedded):
    result = similar_papers(embedded, "c", "tiny", title="gene protein", abstract="cell enzyme", k=50,
                            filters={"journal": ["J. Econ"]}, year_range=(2001, 2002))
    assert result.results and all(r["journal"] == "J. Econ" and r["year"] in (2001, 2002) for r in result.results)


def test_empty_query_and_unknown_paper_are_clear_errors(embedded):
    with pytest.raises(MireadError, match="empty"):
        similar_papers(embedded, "c", "tiny", title="  ", abstract="")
    with pytest.raises(MireadError, match="no paper with id"):
        similar_papers(embedded, "c", "tiny", paper_id="nope")


def test_short_queries_get_a_warning():
    assert "Singh" in query_warning("Protein folding", "")
    assert query_warning("t", " ".join(["word"] * 40)) is None
