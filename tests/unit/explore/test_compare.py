"""Comparing two models: Procrustes alignment of maps, the neighbourhood-changed score, stored evaluation figures."""

import numpy as np
import pytest

from core.embedding import build_tiny_model, embed_corpus, get_model, list_models, vectors_fingerprint
from core.errors import MireadError
from core.evaluation import evaluate_models, evaluation_figures
from core.explore.compare import (
    align_maps,
    change_summary,
    default_partner,
    exact_neighbours,
    map_or_preview,
    moved_papers,
    neighbour_ranks,
    neighbourhood_change,
    neighbourhood_scores,
    paper_neighbours,
)
from tests.helpers import register_tiny


def rotation(degrees: float) -> np.ndarray:
    t = np.radians(degrees)
    return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])


def unit_rows(n: int, d: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_a_rotated_scaled_shifted_copy_of_a_map_aligns_back_onto_it():
    reference = np.random.default_rng(0).normal(size=(500, 2)) * [3.0, 1.0]
    moving = 2.5 * reference @ rotation(73) + [40.0, -7.0]
    aligned = align_maps(reference, moving)
    assert np.abs(aligned.coords - reference).max() < 1e-4
    assert aligned.disparity < 1e-10
    assert aligned.scale == pytest.approx(1 / 2.5)


def test_a_mirrored_copy_aligns_too():
    reference = np.random.default_rng(1).normal(size=(200, 2)) * [2.0, 1.0]
    mirrored = reference * [-1.0, 1.0] @ rotation(20)
    assert align_maps(reference, mirrored).disparity < 1e-10


def test_unrelated_maps_keep_a_large_residual():
    rng = np.random.default_rng(2)
    aligned = align_maps(rng.normal(size=(300, 2)), rng.normal(size=(300, 2)))
    assert aligned.disparity > 0.8
    assert aligned.coords.shape == (300, 2) and np.isfinite(aligned.coords).all()


def test_maps_of_different_papers_are_refused_in_one_sentence():
    with pytest.raises(MireadError, match="same papers"):
        align_maps(np.zeros((3, 2)), np.zeros((4, 2)))


def test_a_collapsed_map_aligns_to_the_reference_centre():
    reference = np.random.default_rng(3).normal(size=(10, 2))
    aligned = align_maps(reference, np.ones((10, 2)))
    assert np.allclose(aligned.coords, reference.mean(axis=0)) and aligned.disparity == 1.0


def test_identical_vectors_change_no_neighbourhood():
    vectors = unit_rows(300, 16)
    neighbours = exact_neighbours(vectors, 10)
    assert neighbours.shape == (300, 10)
    assert not (neighbours == np.arange(300)[:, None]).any()  # a paper is never its own neighbour
    scores = neighbourhood_change(neighbours, exact_neighbours(vectors.copy(), 10))
    assert np.all(scores == 0)
    assert change_summary(scores)["mean_overlap"] == 1.0 and change_summary(scores)["unchanged"] == 1.0


def test_shuffled_vectors_change_almost_every_neighbourhood():
    vectors = unit_rows(400, 16)
    shuffled = vectors[np.random.default_rng(4).permutation(400)]
    scores = neighbourhood_change(exact_neighbours(vectors, 10), exact_neighbours(shuffled, 10))
    assert scores.mean() > 0.9
    assert change_summary(scores)["mean_overlap"] < 0.1


def test_the_score_counts_shared_neighbours_and_ignores_empty_slots():
    a = np.array([[1, 2, 3, 4], [0, 2, -1, -1]])
    b = np.array([[4, 3, 9, 8], [0, 3, -1, -1]])
    assert neighbourhood_change(a, b).tolist() == [0.5, 0.5]


def test_a_corpus_smaller_than_k_scores_identical_models_as_unchanged():
    vectors = unit_rows(4, 8)
    neighbours = exact_neighbours(vectors, 10)
    assert (neighbours[:, 3:] == -1).all()
    assert neighbourhood_change(neighbours, neighbours).tolist() == [0, 0, 0, 0]


def test_duplicate_papers_are_each_others_neighbours_not_their_own():
    vectors = unit_rows(20, 8)
    vectors[5] = vectors[4]
    neighbours = exact_neighbours(vectors, 3)
    assert 5 in neighbours[4] and 4 in neighbours[5]
    assert 4 not in neighbours[4] and 5 not in neighbours[5]


def test_moved_papers_are_listed_most_changed_first():
    import pandas as pd

    frame = pd.DataFrame({"id": ["a", "b", "c"], "title": ["A", "B", "C"], "journal": ["x", "y", "z"],
                          "abstract": ["", "", ""]})
    table = moved_papers(frame, np.array([0.1, 0.9, 0.5]), ["journal"])
    assert table["id"].tolist() == ["b", "c", "a"] and table["row"].tolist() == [1, 2, 0]
    assert list(table.columns) == ["row", "id", "title", "journal", "changed"]


@pytest.fixture()
def two_models(embedded, tmp_path):
    """Corpus 'c' embedded with 'tiny' and with 'tiny2', a differently seeded tiny model fine-tuned 'from' tiny."""
    spec = register_tiny(embedded, build_tiny_model(tmp_path / "tiny2", seed=7), name="tiny2")
    embedded.save_model("tiny2", {**spec.to_dict(), "base": "tiny"})
    embed_corpus(embedded, "c", "tiny2")
    return embedded


def test_scores_of_a_stored_corpus_are_cached_per_model_pair(two_models):
    a, b = get_model("tiny", two_models), get_model("tiny2", two_models)
    scores = neighbourhood_scores(two_models, "c", a, b)
    assert scores.shape == (15,) and ((scores >= 0) & (scores <= 1)).all()
    assert np.array_equal(neighbourhood_scores(two_models, "c", a, a), np.zeros(15))
    cached = list((two_models.arrays / "compare").glob("*.npy"))
    assert len(cached) == 2
    assert np.array_equal(neighbourhood_scores(two_models, "c", b, a), scores)  # symmetric: the same file
    assert len(list((two_models.arrays / "compare").glob("*.npy"))) == 2
    assert np.array_equal(neighbourhood_scores(two_models, "c", a, b), scores)


def test_a_model_without_vectors_is_one_sentence(embedded):
    with pytest.raises(MireadError, match="not embedded with model 'minilm' yet"):
        neighbourhood_scores(embedded, "c", get_model("tiny", embedded), get_model("minilm", embedded))


def test_pca_maps_of_both_models_are_final_and_align(two_models):
    a = map_or_preview(two_models, "c", get_model("tiny", two_models), "pca", {})
    b = map_or_preview(two_models, "c", get_model("tiny2", two_models), "pca", {})
    assert a.final and b.final and a.job is None
    assert align_maps(a.coords, b.coords).coords.shape == (15, 2)


def test_the_default_partner_is_the_fine_tuned_model_then_any_embedded_one(two_models):
    specs = list_models(two_models)
    done = set(two_models.embedded_models("c"))

    def embedded(spec):
        return vectors_fingerprint(spec) in done

    assert default_partner(specs, "tiny", embedded) == "tiny2"
    assert default_partner(specs, "tiny2", embedded) == "tiny"  # its base
    assert default_partner(specs, "minilm", embedded) in {"tiny", "tiny2"}
    assert default_partner(specs, "minilm", lambda s: False) == "tiny"  # a local model, never a hub one


def test_evaluation_figures_are_read_from_stored_results_only(two_models):
    table, missing = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    assert table.empty and missing == ["tiny", "tiny2"]
    evaluate_models(two_models, "c", "journal", ["tiny2"], ["probe", "purity", "retrieval", "knn"], sample=2000)
    table, missing = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    assert missing == ["tiny"] and list(table.columns) == ["tiny2", "n"]
    assert {"Linear probe macro-F1", "kNN accuracy (k = 10 vote)"} <= set(table.index)  # as the Evaluate page names them
    assert any(name.startswith("Cluster purity") for name in table.index)
    assert " (" in table.loc["Linear probe macro-F1", "tiny2"]  # with its 95 % interval


def test_one_papers_neighbours_under_each_model_with_their_ranks(two_models):
    a, b = get_model("tiny", two_models), get_model("tiny2", two_models)
    vectors = two_models.embeddings("c", vectors_fingerprint(a))
    near_a = paper_neighbours(two_models, "c", a, 7, k=4)
    assert near_a.tolist() == exact_neighbours(vectors, 4)[7].tolist() and 7 not in near_a
    near_b = paper_neighbours(two_models, "c", b, 7, k=4)
    table = neighbour_ranks(two_models.papers_frame("c"), near_a, near_b)
    assert table["rank under A"].dropna().tolist() == [1, 2, 3, 4]
    assert table["rank under B"].notna().sum() == 4
    assert len(table) == len(set(near_a) | set(near_b))


def test_an_evaluation_run_at_any_sample_size_is_found(two_models):
    """The Evaluate page at 'Sample 400' stored minilm's figures, yet Compare models said 'No stored evaluation of
    minilm on this corpus yet' (only the default sample sizes were looked up). The newest complete run is shown, and
    a sample both models were run on is preferred, so their per-paper scores pair the same papers."""
    tasks = ["probe", "purity", "retrieval", "knn"]
    evaluate_models(two_models, "c", "journal", ["tiny2"], tasks, sample=12)
    table, missing = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    assert missing == ["tiny"] and list(table.columns) == ["tiny2", "n"]
    assert table.loc["Linear probe macro-F1", "n"] != "15"
    evaluate_models(two_models, "c", "journal", ["tiny", "tiny2"], tasks, sample=10)
    evaluate_models(two_models, "c", "journal", ["tiny2"], tasks, sample=12)  # tiny2's newest run: not tiny's sample
    table, missing = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    assert missing == [] and list(table.columns) == ["tiny", "tiny2", "n"]
    assert table.loc["Cluster purity (k = 10)", "n"] == "10"  # one n: both models on the same 10 papers


def test_stored_journal_finder_figures_are_compared_too(two_models):
    """Compare showed only the quick protocols and cite figures: a stored journal-finder run of both models was not
    shown though the Evaluate page had shown it. Its rows follow, on their own papers (n)."""
    evaluate_models(two_models, "c", "journal", ["tiny", "tiny2"], ["knn"], sample=12)
    table, _ = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    assert not any("ournal finder" in name for name in table.index)
    doc = evaluate_models(two_models, "c", "journal", ["tiny", "tiny2"], ["journals"], sample=15)
    shown = {r["metric"] for r in doc["results"] if r["task"] == "journals"}
    table, missing = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    rows = [name for name in table.index if "ournal" in name]
    assert shown and len(rows) >= len(shown) and list(table.columns) == ["tiny", "tiny2", "n"]
    assert all(table.loc[name, "tiny"] != "–" and table.loc[name, "tiny2"] != "–" for name in rows)


def test_short_query_figures_of_an_evaluation_job_are_compared_for_the_corpus_as_it_is(two_models):
    """The short-query task is kept only in its evaluation job's document: Compare did not show it. The newest
    completed job's rows are shown for each model, and none once the corpus has changed since."""
    from core.evaluation.job import EvaluateConfig
    from core.records import Paper
    from core.training import run_foreground

    job = run_foreground(two_models, EvaluateConfig("c", "journal", ["tiny", "tiny2"], ["short"], sample=15,
                                                    device="cpu"))
    assert job["status"] == "completed", job["error"]
    table, _ = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    short = [name for name in table.index if name.lower().startswith("short")]
    assert short and all(table.loc[name, "tiny"] != "–" and table.loc[name, "tiny2"] != "–" for name in short)
    late = Paper(id="late-1", title="A late paper on tidal locking", abstract="Moons that keep one face to us.",
                 fields={"journal": "J. Astro"})
    assert two_models.import_papers("c", [late], source="one more").added == 1  # a new corpus version
    table, _ = evaluation_figures(two_models, "c", "journal", ["tiny", "tiny2"])
    assert not any(name.lower().startswith("short") for name in table.index)
