"""Word search over a corpus: a BM25 index (the `bm25s` package) of each paper's title + abstract, Snowball-stemmed
with English stop words left out, persisted beside the vector index and keyed by the corpus version like it (an
import bumps the version; the next search builds the new index and deletes the old one). bm25_build builds it in
numpy/scipy/Arrow passes: the index bm25s's own build gives, bit for bit, in a fraction of the time (BENCHMARKS §28c).

Quoted phrases ("dark matter halo") keep only papers whose folded title + abstract holds the phrase: a post-filter
over the papers that hold all of its words (read from the index's postings), so it never scans the whole corpus.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

FORMAT = 1  # bump when the tokenization changes: older persisted indexes are rebuilt
# The file name's key, 16 hex digits like a model fingerprint, so the trash moves the file with its corpus
# (core/store/trash.py): `<corpus slug>-<INDEX_KEY>-v<version>.npz` in arrays/indexes.
INDEX_KEY = hashlib.blake2b(f"bm25s-snowball-en-{FORMAT}".encode(), digest_size=8).hexdigest()
STEM = True  # measured in BENCHMARKS §28: Snowball stemming vs none
_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_QUOTED = re.compile(r"[\"“”„«»]([^\"“”„«»]+)[\"“”„«»]")
_INDEXES: dict[tuple[str, str, int], LexicalIndex] = {}
_LOCK = threading.Lock()


def fold(text: str) -> str:
    """Lower case, every run of non-word characters one space (how phrases are compared)."""
    return " ".join(re.sub(r"[\W_]+", " ", str(text or "").lower()).split())


def quoted_phrases(text: str) -> list[str]:
    """The quoted phrases of a query, folded; empty ones dropped."""
    return [p for p in (fold(m) for m in _QUOTED.findall(text or "")) if p]


def query_words(text: str) -> list[str]:
    """The query's words as a reader sees them (lower case, no stop words or one-letter words), in order, once."""
    stop = _stopwords()
    seen: dict[str, None] = {}
    for word in _TOKEN.findall((text or "").lower()):
        if word not in stop:
            seen.setdefault(word, None)
    return list(seen)


@functools.cache
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


@functools.cache
def _stemmer(stem: bool) -> Any:
    if not stem:
        return None
    import Stemmer

    return Stemmer.Stemmer("english")


def word_spans(text: str, words: Sequence[str], stem: bool = STEM) -> list[tuple[str, bool]]:
    """`text` cut into (piece, is a query word) pieces: a word of the text is a query word when its stem is one of
    the query words' stems ('halos' for 'halo'). The pieces joined give the text back."""
    stemmer = _stemmer(stem)
    wanted = set(stemmer.stemWords(list(words)) if stemmer is not None else words)
    pieces: list[tuple[str, bool]] = []
    last = 0
    text = str(text or "")
    for match in _TOKEN.finditer(text):
        word = match.group().lower()
        if (stemmer.stemWord(word) if stemmer is not None else word) in wanted:
            if match.start() > last:
                pieces.append((text[last:match.start()], False))
            pieces.append((match.group(), True))
            last = match.end()
    if last < len(text):
        pieces.append((text[last:], False))
    return pieces


class PaperText:
    """One paper's title + abstract by row, read from the frame's columns only when asked (no copy of the corpus)."""

    def __init__(self, frame: pd.DataFrame):
        # the columns' own arrays (`.array`: no copy); `.to_numpy()` would turn a string column of 1M papers into
        # Python strings on every search (~0.5 s a query, BENCHMARKS §28d)
        self.titles = frame["title"].array
        self.abstracts = frame["abstract"].array if "abstract" in frame.columns else None

    def __getitem__(self, row: int) -> str:
        title = self.titles[row]
        abstract = self.abstracts[row] if self.abstracts is not None else ""
        return f"{title if isinstance(title, str) else ''} {abstract if isinstance(abstract, str) else ''}"


def paper_texts(frame: pd.DataFrame) -> list[str]:
    """Title + abstract of each paper, the text the index holds."""
    titles = frame["title"].fillna("").astype(str)
    abstracts = frame["abstract"].fillna("").astype(str) if "abstract" in frame.columns else ""
    return (titles + " " + abstracts).tolist()


@dataclass
class LexicalIndex:
    """A BM25 index of a corpus's papers (rows in corpus order)."""

    retriever: Any
    papers: int
    stem: bool = STEM

    @classmethod
    def build(cls, texts: Sequence[str], stem: bool = STEM) -> LexicalIndex:
        """The index bm25s would build (tokenize + index), built in numpy/scipy passes (bm25_build)."""
        from core.explore.search.bm25_build import fast_retriever

        return cls(fast_retriever(texts, _stopwords(), _stemmer(stem)), len(texts), stem)

    def save(self, path: Path) -> None:
        """One .npz file (the index's sparse scores, vocabulary and parameters), written then renamed."""
        import tempfile

        with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
            self.retriever.save(tmp, show_progress=False)
            folder = Path(tmp)
            meta = {"format": FORMAT, "papers": self.papers, "stem": self.stem,
                    "params": json.loads((folder / "params.index.json").read_text()),
                    "vocab": json.loads((folder / "vocab.index.json").read_text(encoding="utf-8"))}
            arrays = {name: np.load(folder / f"{name}.csc.index.npy") for name in ("data", "indices", "indptr")}
        partial = path.with_name(path.name + ".tmp.npz")
        np.savez(partial, meta=np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8), **arrays)
        partial.replace(path)

    @classmethod
    def load(cls, path: Path, papers: int) -> LexicalIndex | None:
        """The index saved at `path`, or None when absent, damaged, of another format or another paper count."""
        import bm25s

        try:
            with np.load(path, allow_pickle=False) as stored:
                meta = json.loads(stored["meta"].tobytes().decode("utf-8"))
                if meta.get("format") != FORMAT or meta.get("papers") != papers:
                    return None
                scores = {name: stored[name] for name in ("data", "indices", "indptr")}
            params = dict(meta["params"])
            params.pop("version", None)
            scores["num_docs"] = params.pop("num_docs", papers)
            retriever = bm25s.BM25(**params)
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            return None
        retriever.vocab_dict = meta["vocab"]
        retriever.unique_token_ids_set = set(retriever.vocab_dict.values())
        retriever.scores = scores
        retriever.nonoccurrence_array = None  # only BM25L / BM25+ have one; the default (Lucene) method has none
        return cls(retriever, papers, bool(meta.get("stem", STEM)))

    def terms(self, text: str) -> list[str]:
        """The query's index terms (stemmed as the index is), stop words left out, each once."""
        stemmer = _stemmer(self.stem)
        words = query_words(text)
        stems = stemmer.stemWords(words) if stemmer is not None else words
        return list(dict.fromkeys(stems))

    def known_share(self, text: str) -> float:
        """The share of the query's terms that occur somewhere in the corpus (1.0 for a query without terms)."""
        terms = self.terms(text)
        if not terms:
            return 1.0
        vocab = self.retriever.vocab_dict
        return sum(t in vocab for t in terms) / len(terms)

    def idf_sum(self, text: str) -> float:
        """The sum of the query's known terms' idf (bm25s's Lucene idf from each term's posting count): the most
        BM25 score a paper could reach for it (each term's part is idf x a saturation below 1)."""
        vocab, csc = self.retriever.vocab_dict, self.retriever.scores
        total = 0.0
        for term in self.terms(text):
            if term in vocab and vocab[term] + 1 < len(csc["indptr"]):
                df = int(csc["indptr"][vocab[term] + 1] - csc["indptr"][vocab[term]])
                if df:
                    total += math.log(1 + (self.papers - df + 0.5) / (df + 0.5))
        return total

    def coverage(self, text: str, best: float | None = None) -> float:
        """How fully the best lexical match holds the query's rare words, 0-1: its BM25 score (`best`, or the best
        in the corpus) over `idf_sum` (BENCHMARKS §28g: the fusion's signal)."""
        total = self.idf_sum(text)
        if total <= 0:
            return 0.0
        if best is None:
            best = float(self.scores(text).max(initial=0.0))
        return min(1.0, max(0.0, float(best) / total))

    def scores(self, text: str) -> np.ndarray:
        """BM25 score of every paper for the query (0 for papers holding none of its words)."""
        ids = self.retriever.get_tokens_ids(self.terms(text))
        if not ids:
            return np.zeros(self.papers, dtype=np.float32)
        return np.asarray(self.retriever.get_scores_from_ids(ids), dtype=np.float32)

    def holding(self, words: Sequence[str]) -> np.ndarray:
        """Rows whose text holds every one of `words` (after stemming; stop words are ignored), sorted."""
        stemmer = _stemmer(self.stem)
        terms = [w for w in words if w not in _stopwords() and len(w) > 1]
        terms = stemmer.stemWords(terms) if stemmer is not None else terms
        vocab, csc = self.retriever.vocab_dict, self.retriever.scores
        rows: np.ndarray | None = None
        for term in dict.fromkeys(terms):
            if term not in vocab:
                return np.array([], dtype=np.int64)
            t = vocab[term]
            docs = np.asarray(csc["indices"][csc["indptr"][t]:csc["indptr"][t + 1]], dtype=np.int64)
            rows = docs if rows is None else np.intersect1d(rows, docs, assume_unique=True)
        return np.arange(self.papers, dtype=np.int64) if rows is None else np.sort(rows)

    def phrase_mask(self, phrases: Sequence[str], texts: Sequence[str] | PaperText) -> np.ndarray:
        """Papers whose folded text holds every phrase (candidates from the postings, then checked on the text)."""
        mask = np.ones(self.papers, dtype=bool)
        for phrase in phrases:
            keep = np.zeros(self.papers, dtype=bool)
            padded = f" {phrase} "
            for row in self.holding(phrase.split()):
                if padded in f" {fold(texts[row])} ":
                    keep[row] = True
            mask &= keep
        return mask

    def search(self, text: str, k: int, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, rows) with a positive score, best first, within `mask`."""
        scores = self.scores(text)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        hits = np.flatnonzero(scores > 0)
        if len(hits) > k:
            hits = hits[np.argpartition(-scores[hits], k - 1)[:k]]
        order = hits[np.lexsort((hits, -scores[hits]))]
        return scores[order], order


def corpus_lexical(store: Store, corpus: str, frame: pd.DataFrame | None = None) -> LexicalIndex:
    """The corpus's (cached, persisted) BM25 index; built when its version changes, older versions deleted."""
    version = store.corpus_version(corpus)
    key = (str(store.root), corpus, version)
    index = _INDEXES.get(key)
    if index is not None:
        return index
    with _LOCK:
        index = _INDEXES.get(key)
        if index is not None:
            return index
        frame = frame if frame is not None else store.papers_frame(corpus)
        path = store.array_path("indexes", corpus, f"{INDEX_KEY}-v{version}", ".npz")
        mine = re.compile(re.escape(f"{store.corpus_slug(corpus)}-{INDEX_KEY}-v") + r"\d+\.npz(\.tmp\.npz)?")
        for stale in path.parent.glob(f"{store.corpus_slug(corpus)}-{INDEX_KEY}-v*"):
            if stale.name != path.name and mine.fullmatch(stale.name):
                stale.unlink(missing_ok=True)
        for older in [k for k in _INDEXES if k[:2] == key[:2]]:
            del _INDEXES[older]
        index = LexicalIndex.load(path, len(frame))
        if index is None:
            index = LexicalIndex.build(paper_texts(frame))
            index.save(path)
        _INDEXES[key] = index
    return index
