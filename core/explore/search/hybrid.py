"""Search the way people type: one `search` for any text, from one word to a pasted abstract, fusing the corpus's
BM25 ranking (core/explore/search/lexical.py) with the model's dense ranking by weighted reciprocal rank fusion.

The lexical weight depends on the query: its length in words (`LEXICAL_WEIGHTS`), scaled by the share of its words
that occur in the corpus at all and by the square of the best word match's coverage (its BM25 score over the most
the query's known words could give: how fully some paper holds the query's rare words), with RRF constant `RRF_K`;
chosen leaving each benchmark corpus out in turn (BENCHMARKS §28b, §28g). A long pasted abstract is ranked by the
dense model alone, as before. Quoted phrases keep only papers holding them.
Every result says why it matched: the query words it holds, "close in meaning", or both; when no query word occurs
in the corpus and even the closest paper is far in meaning, the result says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from core.embedding import Encoder, ModelSpec, get_encoder, get_model
from core.errors import MireadError
from core.explore.search.lexical import (
    LexicalIndex,
    PaperText,
    corpus_lexical,
    query_words,
    quoted_phrases,
)
from core.explore.search.lookup import doi_query, doi_rows
from core.explore.search.similar import clip_query, corpus_index, filter_mask, read_warning, similar_papers
from core.labels import plain_value

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

# Reciprocal-rank constant: 60 is the usual one (Cormack et al. 2009); 10, with the coverage rule below, was chosen
# in every fold of §28g's leave-one-corpus-out run (the top ranks of each list count more).
RRF_K = 10
# (most words, lexical weight): the first row whose word count the query does not exceed; the dense weight is 1.
# The grid {0, .25, .5, 1, 2, 4} on the 1977-79 PubMed corpus (MRR of titles and MeSH/keyword queries) chose 0.5
# for 1-4 and for 5-20 words; longer queries showed no gain there, so they (and pasted abstracts) rank by meaning
# alone, exactly as dense search does (BENCHMARKS §28).
# chosen on all four benchmark corpora pooled; leaving each corpus out in turn, the weights chosen on the others gave
# held-out keyword queries recall@1 +6.0 to +7.2 and MRR +5.0/+5.2 over dense alone (BENCHMARKS §28b)
# Re-chosen leaving each of 7 corpora out (+ JATS 400, shared exports; §28f): 8 for 1-4 words lost recall@10 on
# PubMed 1977-79 held out and gained nothing beyond chance elsewhere, so 2 / 2 stayed.
# §28g: 8 x share x coverage^2 with RRF_K 10 (chosen on all 7 units; 4 of the 7 folds chose it too, the other 3 k 10
# with coverage^1): held out, keyword recall@10 -1.2 to +1.4 points over 2 x share with k 60 (PubMed 2018-21 +1.4,
# interval excluding 0; no loss beyond chance), titles within 0.2 points. Median coverage: titles 0.60-0.65 (weight
# ~3), keyword queries 0.58 on PubMed 2018-21 and JATS (~2.7), 0.38 for 1970s MeSH headings (~1.2).
LEXICAL_WEIGHTS: tuple[tuple[float, float], ...] = ((4, 8.0), (20, 8.0), (float("inf"), 0.0))
COVERAGE_POWER = 2
DEPTH = 200  # candidates taken from each ranking before fusing
# A best dense similarity under this, with no query word in the corpus: "nothing mentions". minilm's best similarity
# for 5 off-topic 2-3-word queries per corpus was 0.23-0.47 (median 0.29 PubMed, 0.36 arXiv), for 40 on-topic
# 3-word queries median 0.45-0.47 (BENCHMARKS §28): the threshold splits the medians; the vocabulary test decides.
LOW_SIMILARITY = 0.35
SHORT_WORDS = 6  # up to this many words, a query none of whose papers holds them all is told so
MEANING_SHARE = 0.9  # "close in meaning": similarity at least this share of the best result's
MEANING_TOP = 10  # ... or among the dense ranking's first ten, however many results were asked for
NO_PAPER_PASSES = "no paper passes the filters"
NO_WORDS = ("no word of the query is searched (common words, one-letter words and symbols are left out); the closest "
            "in meaning are these")


def lexical_weight(words: int, known_share: float, phrases: bool = False, coverage: float = 1.0) -> float:
    """The lexical ranking's weight (the dense one's is 1) for a query of `words` words, `known_share` of them in
    the corpus vocabulary, whose best word match has `coverage` (LexicalIndex.coverage); a quoted phrase asks for
    words, so it counts as a short query."""
    if words == 0 or known_share <= 0:
        return 0.0
    if phrases:
        words = min(words, int(LEXICAL_WEIGHTS[0][0]))
    weight = next(w for most, w in LEXICAL_WEIGHTS if words <= most)
    return weight * known_share * coverage ** COVERAGE_POWER


def fuse(rankings: Sequence[np.ndarray], weights: Sequence[float], k: int, rrf_k: int = RRF_K) -> np.ndarray:
    """Rows by weighted reciprocal rank fusion of several rankings (rows, best first), the top k; ties keep the
    order of the first ranking with a positive weight, then row order."""
    score: dict[int, float] = {}
    first: dict[int, int] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, row in enumerate(np.asarray(ranking, dtype=np.int64).tolist()):
            if row < 0:
                continue
            score[row] = score.get(row, 0.0) + (weight / (rrf_k + rank + 1) if weight > 0 else 0.0)
            first.setdefault(row, len(first) if weight > 0 else 1 << 40)
    order = sorted(score, key=lambda r: (-score[r], first[r], r))
    return np.asarray(order[:k], dtype=np.int64)


def matched_words(index: LexicalIndex, words: Sequence[str], text: str) -> list[str]:
    """The query words (as typed, lower case) whose stem occurs in `text`."""
    held = set(index.terms(text))
    return [w for w in words if index.terms(w) and index.terms(w)[0] in held]


@dataclass
class HybridResult:
    """Ranked papers for one query, why each matched, the query's vector (for the map) and any notice."""

    query: dict[str, str]
    model: str
    vector: np.ndarray
    results: list[dict[str, Any]] = field(default_factory=list)
    warning: str | None = None
    notice: str | None = None  # "no paper here mentions ..." and the like
    weights: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "model": self.model, "results": self.results, "warning": self.warning,
                "notice": self.notice, "weights": self.weights}


def _why(words: list[str], meaning: bool, similarity: float) -> dict[str, Any]:
    """Why a result is there: the query words it holds, its meaning, or both. A similarity under LOW_SIMILARITY is
    not "close": a result that holds words does not claim its meaning then, one that holds none is "nearest"."""
    close = similarity >= LOW_SIMILARITY
    meaning = meaning and (close or not words)
    match = "both" if words and meaning else "words" if words else "meaning"
    why: dict[str, Any] = {"match": match, "words": words, "meaning": meaning}
    if meaning and not close:
        why.update(close=False, similarity=round(float(similarity), 4))
    return why


def why_text(why: dict[str, Any]) -> str:
    """One line for a result's reason: 'words: dark, matter', 'close in meaning', both, or 'nearest in meaning, not
    close (similarity 0.12)'."""
    parts = []
    if why.get("words"):
        parts.append("words: " + ", ".join(why["words"]))
    if why.get("meaning"):
        parts.append("close in meaning" if why.get("close", True) else
                     f"nearest in meaning, not close (similarity {why.get('similarity', 0.0):.2f})")
    return " · ".join(parts)


def search(
    store: Store, corpus: str, model: str | ModelSpec = "minilm", text: str = "", *, title: str = "", k: int = 10,
    filters: dict[str, list[Any]] | None = None, year_range: tuple[int, int] | None = None,
    encoder: Encoder | None = None, frame: pd.DataFrame | None = None,
) -> HybridResult:
    """The corpus papers that best answer `text` (any length; "quoted phrases" must occur), optionally with a
    `title` (a pasted paper), among those passing the filters (label values, collection ids as `id`, years)."""
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    pasted = f"{title or ''} {text or ''}"
    title, text = clip_query(title or "", spec.max_length), clip_query(text or "", spec.max_length)
    whole = f"{title} {text}".strip()
    if not whole:
        raise MireadError("the query is empty: type a few words or paste a title and abstract")
    given = frame
    frame = given if given is not None else store.papers_frame(corpus)
    index = corpus_index(store, corpus, spec)
    if len(index.matrix) != len(frame) and given is None:  # an import landed in between: read both again
        index, frame = corpus_index(store, corpus, spec), store.papers_frame(corpus)
    if len(index.matrix) != len(frame):
        raise MireadError(f"corpus {corpus!r} changed during the search ({len(frame)} papers listed, "
                          f"{len(index.matrix)} indexed); search again")
    doi = doi_query(whole)
    if doi is not None:  # a DOI is no words to match: the paper it names, and the papers nearest to it
        return _by_doi(store, corpus, spec, doi, frame, k, filters, year_range, encoder)
    lexical = corpus_lexical(store, corpus, frame)
    texts = PaperText(frame)
    mask = filter_mask(frame, filters, year_range)
    encoder = encoder or get_encoder(spec)
    vector = encoder.encode([(title, text) if title else (text, "")])[0]
    long_text = read_warning(encoder, pasted, *((title, text) if title else (text, "")))
    if mask is not None and not mask.any():  # nothing to rank: no verdict on words or meaning either
        return HybridResult(query={"title": title, "abstract": text}, model=spec.name, vector=vector,
                            notice=NO_PAPER_PASSES, weights={"dense": 1.0, "lexical": 0.0}, warning=long_text)
    notices = []
    phrases = quoted_phrases(whole)
    phrase_words: set[str] = {w for p in phrases for w in query_words(p)}
    if phrases:
        held = lexical.phrase_mask(phrases, texts)
        if (held if mask is None else held & mask).any():
            mask = held if mask is None else held & mask
        else:
            where = "here" if mask is None or not held.any() else "that passes the filters"
            notices.append(f"no paper {where} holds " + " and ".join(f'"{p}"' for p in phrases)
                           + "; these hold its words or are close in meaning")
            phrases = []
    words = query_words(whole)
    known = lexical.known_share(whole)
    w_lex = lexical_weight(len(whole.split()), known, bool(phrases))
    depth = max(DEPTH, k)
    d_scores, d_rows = index.search(vector[None, :], depth, mask)
    dense_rows = d_rows[0][(d_rows[0] >= 0) & np.isfinite(d_scores[0])]
    lex_rows = np.array([], dtype=np.int64)
    if w_lex > 0:
        lex_scores, lex_rows = lexical.search(whole, depth, mask)
        cover = lexical.coverage(whole, float(lex_scores[0]) if len(lex_scores) else 0.0)
        w_lex = lexical_weight(len(whole.split()), known, bool(phrases), cover)
    rows = fuse([dense_rows, lex_rows], [1.0, w_lex], k) if w_lex > 0 else dense_rows[:k]
    sims = np.asarray(index.matrix[np.sort(rows)], dtype=np.float32) @ vector if len(rows) else np.array([])
    similarity = dict(zip(np.sort(rows).tolist(), sims.tolist()))
    # the closest paper's similarity, whether or not the fusion kept it among these k: no verdict depends on k
    top = float(np.asarray(index.matrix[int(dense_rows[0])], dtype=np.float32) @ vector) if len(dense_rows) else 0.0
    best = max(top, *similarity.values()) if similarity else top
    if not words and not notices:
        notices.append(NO_WORDS)
    elif known == 0 and words and best < LOW_SIMILARITY:
        notices.append(f"no paper here mentions {' '.join(words)}; the closest in meaning are these")
    elif len(words) <= SHORT_WORDS and not phrases:
        holding = lexical.holding(words)
        where = "here" if not len(holding) else "that passes the filters" if mask is not None and not mask[
            holding].any() else None
        if where:
            if notices and phrase_words >= set(words):  # 'holds no "a b"' says less than 'mentions all of a b'
                notices.pop()
            notices.append(f"no paper {where} mentions {'all of ' * (len(words) > 1)}{' '.join(words)}; the closest "
                           "by words or meaning are these")
    top_dense = set(dense_rows[:MEANING_TOP].tolist())
    label_cols = [c for c in frame.columns if c not in ("id", "title", "abstract")]
    results = []
    for rank, row in enumerate(rows.tolist(), start=1):
        record = frame.iloc[row]
        sim = similarity[row]
        held = matched_words(lexical, words, texts[row]) if w_lex > 0 else []  # ranked by meaning alone: no words
        item = {"rank": rank, "id": str(record["id"]), "title": record["title"], "score": round(float(sim), 4),
                "row": int(row), "abstract": record.get("abstract", ""),
                "why": _why(held, not held or row in top_dense or sim >= MEANING_SHARE * best, sim)}
        for col in label_cols:
            item[col] = plain_value(record[col])
        results.append(item)
    return HybridResult(query={"title": title, "abstract": text}, model=spec.name, vector=vector, results=results,
                        notice="; ".join(notices) or None, warning=long_text,
                        weights={"dense": 1.0, "lexical": round(w_lex, 3)})


def _by_doi(store: Store, corpus: str, spec: ModelSpec, doi: str, frame: pd.DataFrame, k: int,
            filters: dict[str, list[Any]] | None, year_range: tuple[int, int] | None,
            encoder: Encoder | None) -> HybridResult:
    """The papers closest in meaning to the corpus paper with this DOI (named in the notice), or no results and a
    notice saying that no paper of the corpus has it."""
    rows = doi_rows(frame, doi)
    if not len(rows):
        vector = np.zeros(int(corpus_index(store, corpus, spec).matrix.shape[1]), dtype=np.float32)
        return HybridResult(query={"title": doi, "abstract": ""}, model=spec.name, vector=vector,
                            notice=f"no paper of {corpus} has the DOI {doi}; paste its title and abstract to find "
                                   "papers like it")
    paper = frame.iloc[int(rows[0])]
    found = similar_papers(store, corpus, spec, paper_id=str(paper["id"]), k=k, filters=filters,
                           year_range=year_range, encoder=encoder, frame=frame)
    results = [dict(r, why=_why([], True, float(r.get("score", 1.0)))) for r in found.results]
    return HybridResult(query=found.query, model=spec.name, vector=found.vector, results=results,
                        warning=found.warning, weights={"dense": 1.0, "lexical": 0.0},
                        notice=f"{doi} is the DOI of “{paper['title']}” in {corpus}; these are the papers closest "
                               "to it in meaning")


hybrid_search = search  # the name core.explore exports
