"""Keyword labels for groups of papers: class-based TF-IDF over lemmatised unigrams and bigrams.

No lemmatiser ships offline with this project's dependencies (nltk and spaCy need data downloads), so ``lemma``
is a small rule-based English plural folding ("cells" -> "cell", "studies" -> "study", "analyses" ->
"analysis"), which is what makes labels like "cells, cell" collapse; verb forms are left alone on purpose
("protein folding" stays). Labels show each lemma's most frequent spelling in the corpus. Stop words are
scikit-learn's English list plus a scientific list kept as data in ``stopwords.txt`` beside this module. Texts are
read without the publisher's boilerplate (copyright lines, structured-abstract labels: `core.text_evidence`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from core.lazy import heavy
from core.text_evidence import evidence_text

STOP_FILE = Path(__file__).with_name("stopwords.txt")
_ACCENT = re.compile(r"""\\[`'"^~=.]\{?([A-Za-z])\}?""")  # Schr\"odinger -> Schrodinger
_LATEX = re.compile(r"\\[A-Za-z]+|\$[^$]*\$")  # commands and inline maths say nothing about a topic
_CLAUSES = re.compile(r"[.,;:!?()\[\]{}\"“”]|\s-\s|\s–\s")
_WORDS = re.compile(r"(?u)\b(?=\w*[^\W\d_])[\w-]*\w\b")  # words with a letter; inner hyphens kept
BIGRAM_SHARE = 0.35  # a bigram replaces its word when it scores at least this share of the word's score
MAX_SHARE = 0.25  # terms in more than this share of all papers ("patients" in a medical corpus) say nothing
MIN_PAPERS = 2  # a term must come from at least this many papers of a class (when the class has 10 or more)
_IRREGULAR = {
    "analyses": "analysis", "hypotheses": "hypothesis", "theses": "thesis", "syntheses": "synthesis",
    "diagnoses": "diagnosis", "prognoses": "prognosis", "axes": "axis", "crises": "crisis",
    "mice": "mouse", "children": "child", "women": "woman", "men": "man", "feet": "foot", "teeth": "tooth",
    "indices": "index", "matrices": "matrix", "vertices": "vertex", "criteria": "criterion",
    "phenomena": "phenomenon", "spectra": "spectrum", "maxima": "maximum", "minima": "minimum",
    "nuclei": "nucleus", "stimuli": "stimulus", "fungi": "fungus", "bacteria": "bacteria", "data": "data",
    "species": "species", "series": "series", "lens": "lens", "bias": "bias", "gas": "gas", "news": "news",
    "viruses": "virus", "sinuses": "sinus", "fetuses": "fetus", "statuses": "status", "foci": "focus",
    "genes": "gene", "leaves": "leaf", "lives": "life", "halves": "half", "shelves": "shelf",
}
_KEEP_ENDINGS = ("ss", "us", "is", "ics", "ous")


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words plus the scientific list in stopwords.txt."""
    english = heavy("sklearn.feature_extraction.text").ENGLISH_STOP_WORDS
    own = {line.strip() for line in STOP_FILE.read_text(encoding="utf-8").splitlines()}
    own = {w for w in own if w and not w.startswith("#")}
    return frozenset(english) | frozenset(own) | frozenset(lemma(w) for w in own)


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """The singular of an English noun by rule (lower case); other words unchanged."""
    word = word.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or not word.endswith("s") or word.endswith(_KEEP_ENDINGS) or "-" in word[-3:]:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


@dataclass
class TermMatrix:
    """Which papers use which terms: a binary [papers, terms] CSR matrix, the term lemmas and their spellings."""

    matrix: object
    terms: np.ndarray
    shown: dict[str, str]


def _tokens(text: str, spellings: dict[str, Counter]) -> list[str]:
    """Lemmatised unigrams and in-clause bigrams of non-stop words (each term once per paper)."""
    stops = stop_words()
    terms: set[str] = set()
    text = _LATEX.sub(" . ", _ACCENT.sub(r"\1", text))
    for clause in _CLAUSES.split(text):
        previous, spelt = None, ""
        for raw in _WORDS.findall(clause):
            low = raw.lower()
            lem = lemma(low)
            if low in stops or lem in stops or len(lem) < 2:
                previous = None
                continue
            spellings.setdefault(lem, Counter())[low] += 1
            terms.add(lem)
            if previous is not None and previous != lem:
                pair = f"{previous} {lem}"
                spellings.setdefault(pair, Counter())[f"{spelt} {low}"] += 1
                terms.add(pair)
            previous, spelt = lem, low
    return list(terms)


def term_matrix(texts: Sequence[str | None]) -> TermMatrix:
    """Vectorise papers into binary term presence (unigrams and bigrams, lemmatised, stop words dropped)."""
    CountVectorizer = heavy("sklearn.feature_extraction.text").CountVectorizer

    spellings: dict[str, Counter] = {}
    vectorizer = CountVectorizer(analyzer=lambda doc: _tokens(doc, spellings), binary=True, lowercase=False)
    docs = [evidence_text(None if t is None else str(t)) for t in texts]  # no copyright lines or section labels
    try:
        matrix = vectorizer.fit_transform(docs).tocsr()
    except ValueError:  # nothing but stop words
        sparse = heavy("scipy.sparse")
        return TermMatrix(sparse.csr_matrix((len(docs), 0)), np.array([], dtype=object), {})
    terms = vectorizer.get_feature_names_out()
    shown = {str(t): spellings[t].most_common(1)[0][0] if t in spellings else str(t) for t in terms}
    return TermMatrix(matrix, terms, shown)


def ctfidf(counts, n_classes: int) -> np.ndarray:
    """BERTopic's class TF-IDF: L1 term frequency per class times log(1 + A / f_t); dense [classes, terms]."""
    normalize = heavy("sklearn.preprocessing").normalize

    counts = counts.astype(np.float64)
    words_per_class = np.asarray(counts.sum(axis=1)).ravel()
    term_freq = np.asarray(counts.sum(axis=0)).ravel()
    avg_words = words_per_class.sum() / max(n_classes, 1)
    idf = np.log(1 + avg_words / np.maximum(term_freq, 1))
    return np.asarray(normalize(counts, norm="l1", axis=1).multiply(idf).todense())


def pick_terms(ranked: Sequence[str], scores: dict[str, float], top_n: int) -> list[str]:
    """The best terms, a bigram in place of its word when it scores close, never one lemma twice."""
    chosen: list[str] = []
    for term in ranked:
        if " " not in term:  # a word: its best bigram when that is nearly as distinctive
            better = [b for b in ranked if " " in b and term in b.split()
                      and scores[b] >= BIGRAM_SHARE * scores[term]]
            term = better[0] if better else term
        words = set(term.split())
        if words & {w for t in chosen for w in t.split()}:  # "cell" after "cell cycle", or two on one word
            if " " in term or any(" " in t for t in chosen if words & set(t.split())):
                continue
        chosen.append(term)
        if len(chosen) == top_n:
            break
    return chosen


def class_keywords(terms: TermMatrix, labels: np.ndarray, top_n: int = 4) -> dict[int, list[str]]:
    """The top_n most distinctive terms of each class of papers (rows of ``terms`` labelled by ``labels``)."""
    sparse = heavy("scipy.sparse")

    labels = np.asarray(labels)
    classes, inverse = np.unique(labels, return_inverse=True)
    if len(classes) == 0:
        return {}
    if len(terms.terms) == 0:
        return {int(c): [] for c in classes}
    onehot = sparse.csr_matrix((np.ones(len(labels)), (inverse, np.arange(len(labels)))),
                               shape=(len(classes), len(labels)))
    counts = (onehot @ terms.matrix).tocsr()
    common = np.asarray(terms.matrix.sum(axis=0)).ravel() > MAX_SHARE * len(labels)
    if len(labels) >= 4 * len(classes):  # too few papers for a corpus-wide judgement otherwise
        counts = counts @ sparse.diags((~common).astype(np.float64))
    sizes = np.bincount(inverse)
    rare = counts.copy()
    rare.data = (rare.data < MIN_PAPERS).astype(np.float64)
    rare = rare.multiply((sizes >= 10)[:, None]).astype(bool)
    counts = counts - counts.multiply(rare)
    scores = ctfidf(counts, len(classes))
    result: dict[int, list[str]] = {}
    for row, c in enumerate(classes):
        order = np.argsort(-scores[row], kind="stable")[: top_n * 12]
        ranked = [str(terms.terms[j]) for j in order if scores[row, j] > 0]
        by_term = {str(terms.terms[j]): float(scores[row, j]) for j in order}
        result[int(c)] = [terms.shown.get(t, t) for t in pick_terms(ranked, by_term, top_n)]
    return result
