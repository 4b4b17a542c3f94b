"""The robustness probes (alternative self, textual neighbours, one pasted abstract) against hand counts."""

import math

import numpy as np
import pytest

from core.embedding import corpus_embeddings, embed_corpus, get_encoder, get_model
from core.errors import CorpusError, MireadError
from core.evaluation import FAMILIES, robustness, robustness_for_abstract
from tests.unit.evaluation.support import angles, bag_of_words, synthetic_corpus, unit

# ---------------------------------------------------------------- alternative self


def fixed_encoder(table: dict[tuple[str, str], np.ndarray]):
    def encode(pairs):
        return np.stack([table[p] for p in pairs])

    return encode


def test_alternative_self_mrr_on_a_known_ranking():
    titles, abstracts = ["t0", "t1", "t2"], ["a0", "a1", "a2"]
    table = {
        ("t0", "a0"): unit(0), ("t1", "a1"): unit(40), ("t2", "a2"): unit(80),
        ("t0", ""): unit(5), ("t1", ""): unit(85), ("t2", ""): unit(-15),
    }
    # Task I ranks of the own paper: 1, 2 (t1 is nearer a2), 3.
    # Task II adds the other titles: t2 (-15) ends behind a0 and title t0, so rank 4.
    r = robustness.alternative_self(fixed_encoder(table), titles, abstracts)
    assert r["task1"]["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)
    assert r["task2"]["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 4) / 3)
    assert r["task1"]["t100"] == 1.0 and r["n"] == 3 and r["distractors"] == 2
    given = np.stack([table[p] for p in zip(titles, abstracts)])
    assert robustness.alternative_self(fixed_encoder(table), titles, abstracts, doc_embeddings=given) == r


def test_alternative_self_samples_queries():
    titles = [f"t{i}" for i in range(30)]
    abstracts = [f"a{i}" for i in range(30)]
    rng = np.random.default_rng(0)
    table = {p: rng.normal(size=4) for p in zip(titles, abstracts)} | {(t, ""): rng.normal(size=4) for t in titles}
    assert robustness.alternative_self(fixed_encoder(table), titles, abstracts, max_queries=10)["n"] == 10


# ---------------------------------------------------------------- textual neighbours


def test_neighbour_scores_match_a_hand_count():
    D = angles(0, 20, 50, 90, 140)
    Q = angles(12, 200, 90)  # perturbed versions of papers 0, 2 and 3
    r = robustness.neighbour_scores(Q, D, [0, 2, 3], k=2)
    # Q0: d1 then d0 -> not first, in top 2, same neighbours {1, 2}.
    # Q1: d4, d3 -> lost; its neighbours {4, 3} vs the original's {1, 3}: overlap 1/2.
    # Q2: identical to d3.
    assert r == {"nn1_ret": pytest.approx(1 / 3), "nn10_ret": pytest.approx(2 / 3), "aop10": pytest.approx(5 / 6), "n": 3}


def test_neighbour_scores_do_not_count_a_duplicate_of_the_original_as_a_miss():
    D = np.stack([unit(30), unit(30) + 1e-9, unit(100), unit(170)])  # papers 0 and 1 are the same text
    r = robustness.neighbour_scores(D[[0, 1]], D, [0, 1], k=2)
    assert r["nn1_ret"] == 1.0 and r["nn10_ret"] == 1.0


def test_textual_neighbours_with_a_bag_of_words_encoder():
    titles, abstracts = synthetic_corpus()
    families = ["whitespace_noise", "lowercase", "sentence_shuffle", "numbers_deleted", "word_shuffle", "swap_abstract"]
    rows = robustness.textual_neighbours(bag_of_words, titles, abstracts, families=families, max_papers=20)
    by = {r["family"]: r for r in rows}
    assert [r["family"] for r in rows] == families
    for name in ("whitespace_noise", "lowercase", "sentence_shuffle", "word_shuffle"):
        assert by[name]["nn1_ret"] == 1.0 and by[name]["aop10"] == 1.0 and by[name]["n"] == 20
    assert by["numbers_deleted"]["n"] == 0 and math.isnan(by["numbers_deleted"]["nn1_ret"])  # no digits anywhere
    assert by["swap_abstract"]["nn1_ret"] < 0.3
    assert by["whitespace_noise"]["category"] == "LL-HS" and by["whitespace_noise"]["expect_keep"]
    assert by["word_shuffle"]["category"] == "LO-DS" and not by["word_shuffle"]["expect_keep"]
    summary = robustness.neighbours_summary(rows)
    assert "word_shuffle (LO-DS)" in summary and "surface words" in summary
    assert "swap_abstract (LO-DS)" in summary and "as expected" in summary


def test_textual_neighbours_rejects_unknown_families_before_encoding():
    titles, abstracts = synthetic_corpus(5)
    with pytest.raises(MireadError, match="Unknown perturbation family"):
        robustness.textual_neighbours(lambda pairs: pytest.fail("encoded"), titles, abstracts, families=["nouns"])


# ---------------------------------------------------------------- one pasted abstract


def test_a_pasted_paper_keeps_its_neighbours_under_edits_the_tokenizer_ignores(tiny_store):
    embed_corpus(tiny_store, "c", "tiny")
    frame = tiny_store.papers_frame("c")
    matrix = corpus_embeddings(tiny_store, "c", "tiny")
    encoder = get_encoder(get_model("tiny", tiny_store))
    paper = frame.iloc[4]
    rows = robustness_for_abstract(encoder, matrix, frame, paper["title"], paper["abstract"], k=5)
    assert [r["family"] for r in rows] == ["original", *FAMILIES]
    original = rows[0]
    assert original["overlap"] == 1.0 and original["neighbours"][0]["id"] == paper["id"]
    assert original["neighbours"][0]["score"] == pytest.approx(1.0, abs=1e-4)
    assert [n["rank"] for n in original["neighbours"]] == [1, 2, 3, 4, 5]
    by_family = {r["family"]: r for r in rows}
    for family in ("lowercase", "uppercase", "whitespace_noise"):  # the uncased tokenizer undoes these
        assert by_family[family]["changed"] and by_family[family]["overlap"] == 1.0
    assert by_family["title_only"]["abstract"] == "" and all(0 <= r["overlap"] <= 1 for r in rows)


def test_an_empty_pasted_query_is_refused(tiny_store):
    frame = tiny_store.papers_frame("c")
    with pytest.raises(CorpusError, match="paste a title or an abstract"):
        robustness_for_abstract(None, np.zeros((len(frame), 4)), frame, " ", "")
