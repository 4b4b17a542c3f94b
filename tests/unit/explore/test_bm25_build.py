"""The fast BM25 build gives bm25s's index: the same score for every (paper, word), so the same rankings."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from core.explore.search import bm25_build
from core.explore.search.bm25_build import bm25s_retriever, fast_retriever
from core.explore.search.lexical import LexicalIndex, _stemmer, _stopwords

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MEDICAL = Path("/work/shared/data/medical_abstracts.jsonl.gz")
# texts where tokenisers differ: unicode letters and digits, hyphens, underscores, one-letter words, stop words only,
# empty text, Greek final sigma, dotted capital I, superscripts, surrogates, control characters, odd spaces
AWKWARD = ["Naïve Bayes for α-helix and β-sheet prediction", "COVID-19 vaccines: mRNA-1273 & BNT162b2 (2020–21)",
           "snake_case identifiers and C++ / C# code", "a b c d e f x y z", "the of and to in is it", "",
           "ΟΔΟΣ ΣΟΦΟΣ σοφός Σίσυφος", "İstanbul DİYARBAKIR ıi", "x² + y³ = z⁴; ½ cup; Ⅻ chapters; ١٢٣ digits",
           "lone \ud800 surrogate text", "tabs\tand\nnew\rlines\x0bhere\x1cfile\x85next",
           "non\u00a0breaking\u2009thin\u3000ideographic spaces", "日本語のテキスト と 中文文本", "Ünïcödé ÜNÏCÖDÉ ünïcödé",
           "«quoted» “curly” ‘single’ words", "e-mail e‐mail (U+2010) e‑mail (U+2011)", "The the THE tHe",
           "running runners ran run runs", "halo halos haloes dark matter"]
QUERIES = ["dark matter halo", "The halos of dark matter", "sleep apnea", "obstructive sleep apnea in snorers",
           "COVID-19 mRNA-1273", "α-helix", "naïve bayes", "ΣΟΦΟΣ", "istanbul", "İstanbul", "x² y³", "snake_case",
           "c++", "the of and", "running", "e-mail", "unicode", "日本語のテキスト", "supergravity grand unification",
           "proton decay 1992", "myocardial infarction troponin", "neutrino mass", "2020", "a"]


def _texts() -> list[str]:
    rows = [json.loads(line) for line in (FIXTURES / "citations" / "arxiv_150.jsonl").read_text().splitlines()]
    texts = [f"{r['title']} {r['abstract']}" for r in rows]
    if MEDICAL.exists():
        with gzip.open(MEDICAL, "rt", encoding="utf-8") as lines:
            for i, line in zip(range(500), lines):
                r = json.loads(line)
                texts.append(f"{r['title']} {r['abstract']}")
    return texts + AWKWARD


def _columns(retriever) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    s = retriever.scores
    return {term: (s["indices"][s["indptr"][i]:s["indptr"][i + 1]], s["data"][s["indptr"][i]:s["indptr"][i + 1]])
            for term, i in retriever.vocab_dict.items() if term}


@pytest.mark.parametrize("stem", [True, False])
def test_the_fast_build_gives_every_paper_and_word_the_score_bm25s_gives(stem):
    texts = _texts()
    old, new = bm25s_retriever(texts, _stemmer(stem)), fast_retriever(texts, _stopwords(), _stemmer(stem))
    assert new.scores["num_docs"] == old.scores["num_docs"] == len(texts)
    assert set(new.vocab_dict) == set(old.vocab_dict) and new.vocab_dict[""] == old.vocab_dict[""]
    for name in ("data", "indices", "indptr"):
        assert new.scores[name].dtype == old.scores[name].dtype and len(new.scores[name]) == len(old.scores[name])
    was, now = _columns(old), _columns(new)
    for term in was:  # bit for bit: the same rows, in the same order, with the same float32 scores
        assert np.array_equal(was[term][0], now[term][0]) and np.array_equal(was[term][1], now[term][1]), term


def test_queries_rank_papers_as_the_bm25s_build_did():
    texts = _texts()
    old = LexicalIndex(bm25s_retriever(texts, _stemmer(True)), len(texts))
    new = LexicalIndex.build(texts)
    for query in QUERIES:
        ids = old.retriever.get_tokens_ids(old.terms(query))  # bm25s's own query path on its own index
        was = old.retriever.get_scores_from_ids(ids) if ids else np.zeros(len(texts), dtype=np.float32)
        assert np.array_equal(was, new.scores(query)) and np.array_equal(old.scores(query), new.scores(query)), query
        for k in (1, 10, 200):
            was, now = old.search(query, k), new.search(query, k)
            assert np.array_equal(was[1], now[1]) and np.array_equal(was[0], now[0]), query
        assert old.known_share(query) == new.known_share(query)
        assert np.array_equal(old.holding(query.lower().split()), new.holding(query.lower().split()))
    assert new.search("halos", 5)[1].tolist() == [len(texts) - 1]


def test_chunks_and_the_per_paper_fallback_give_the_same_index():
    texts = _texts()[:60] + AWKWARD + ["a NUL\x00inside the text: its chunk is tokenised paper by paper"]
    old = bm25s_retriever(texts, _stemmer(True))
    chunked = bm25_build.bm25_scores(texts, _stopwords(), _stemmer(True), chunk=7)
    assert _keyed(old.scores, old.vocab_dict) == _keyed(*chunked)
    assert bm25_build._codes(texts[-2:])[2] == ""  # the fallback was taken for the last chunk


def _keyed(scores, vocab) -> dict[str, list]:
    s = scores
    return {t: (s["indices"][s["indptr"][i]:s["indptr"][i + 1]].tolist(), s["data"][s["indptr"][i]:s["indptr"][i + 1]]
                .tolist()) for t, i in vocab.items() if t}


def test_a_corpus_of_stop_words_only_has_an_empty_index():  # bm25s itself fails on it (max() of no vocabulary)
    index = LexicalIndex.build(["the of", "and a", ""])
    assert index.search("the", 5)[1].size == 0 and index.known_share("halo") == 0.0

