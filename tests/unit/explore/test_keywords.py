"""Cluster keywords: lemmatised unigrams and bigrams by class TF-IDF, scientific stop words, one lemma once."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.explore import cluster_keywords
from core.explore.topics.keywords import class_keywords, lemma, stop_words, term_matrix

ABSTRACTS = Path(__file__).parents[2] / "fixtures" / "topics" / "abstracts.jsonl"


def real_groups() -> tuple[list[str], np.ndarray, list[str]]:
    """120 real abstracts: PubMed neoplasms and cardiovascular, arXiv q-bio.BM and astro-ph.CO (30 each)."""
    rows = [json.loads(line) for line in ABSTRACTS.read_text(encoding="utf-8").splitlines()]
    groups = sorted({r["group"] for r in rows})
    labels = np.array([groups.index(r["group"]) for r in rows])
    return [f"{r['title']}. {r['abstract']}" for r in rows], labels, groups


def lemmas(terms: list[str]) -> list[str]:
    return [w for t in terms for w in (lemma(x) for x in t.split())]


def test_plurals_fold_to_one_lemma_and_verb_forms_stay():
    assert [lemma(w) for w in ("cells", "Cells", "studies", "analyses", "mice", "classes", "viruses")] == [
        "cell", "cell", "study", "analysis", "mouse", "class", "virus"]
    assert [lemma(w) for w in ("dynamics", "folding", "species", "gas", "rays")] == [
        "dynamics", "folding", "species", "gas", "ray"]


def test_scientific_stop_words_come_from_the_data_file():
    words = stop_words()
    assert {"study", "result", "method", "propose", "paper", "using", "based", "show", "the"} <= words
    assert "protein" not in words and "model" not in words


def test_real_abstracts_get_their_fields_words_and_never_one_lemma_twice():
    texts, labels, groups = real_groups()
    words = cluster_keywords(texts, labels, top_n=5)
    by_group = {groups[c]: terms for c, terms in words.items()}
    assert "dark matter" in by_group["astro-ph.CO"]
    assert "coronary artery" in by_group["cardiovascular diseases"]
    assert any("cancer" in t or "tumor" in t for t in by_group["neoplasms"])
    assert any("protein" in t for t in by_group["q-bio.BM"])
    for terms in words.values():
        assert len(terms) == 5
        assert len(set(lemmas(terms))) == len(lemmas(terms)), terms  # never "cells, cell"
        assert not set(lemmas(terms)) & {"study", "result", "method", "paper", "using", "based", "show"}


def test_cells_and_cell_collapse_into_one_label():
    texts = ["Stem cells divide. The cell cycle of stem cells.", "A cell divides; cells grow.",
             "Dark matter halos.", "Dark matter and galaxies."]
    terms = cluster_keywords(texts, np.array([0, 0, 1, 1]), top_n=4)[0]
    assert sum(lemma(w) == "cell" for t in terms for w in t.split()) == 1, terms


def test_a_bigram_replaces_its_word_and_the_word_is_not_repeated():
    texts = ["Protein folding by molecular dynamics.", "Molecular dynamics of protein folding.",
             "Protein folding kinetics.", "Galaxy surveys.", "Galaxy clusters.", "Galaxy redshift surveys."]
    terms = cluster_keywords(texts, np.array([0, 0, 0, 1, 1, 1]), top_n=2)[0]
    assert terms == ["protein folding", "molecular dynamics"]


def test_latex_and_accents_are_read_as_words():
    terms = term_matrix([r"Random Schr\"odinger operators with $\alpha$ and \mathfrak{g}"]).terms
    assert "schrodinger operator" in terms and not any("mathfrak" in t or "alpha" in t for t in terms)


def test_papers_of_only_stop_words_give_empty_labels():
    terms = term_matrix(["the results of this study", None])
    assert class_keywords(terms, np.array([3, 4])) == {3: [], 4: []}
