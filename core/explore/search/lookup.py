"""Finding papers by what a user remembers of them: a DOI (any prefix an export gave it) or words of the title."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from core.frames import derived
from core.records import bare_doi


def _fold(text: str) -> str:
    """Lower case, every run of punctuation or white space one space."""
    return " ".join(re.sub(r"[\W_]+", " ", text.lower()).split())


def find_papers(frame: pd.DataFrame, text: str, limit: int | None = 20) -> np.ndarray:
    """Rows of `frame` matching `text`, best first: the paper whose DOI it is, else papers whose title holds every
    word of it (case and punctuation ignored), ranked by how well the title matches: the title itself, titles that
    start with the words, then hold them together, then those holding more of them as whole words (not at the start
    of a longer word or inside one), then shorter titles; at most `limit` (None: every match, so a caller can say
    how many there are).
    """
    wanted = (text or "").strip()
    if not wanted:
        return np.array([], dtype=np.int64)
    if "10." in wanted:
        rows = doi_rows(frame, wanted)
        if len(rows):
            return rows if limit is None else rows[:limit]
    words = _fold(wanted).split()
    if not words:
        return np.array([], dtype=np.int64)
    titles = pd.Series(frame["title"].map(lambda v: _fold(v) if isinstance(v, str) else "").to_numpy(),
                       dtype=object)
    found = titles
    for word in sorted(set(words), key=len, reverse=True):  # the longest (rarest) word first: the fewest rows left
        found = found[found.str.contains(word, regex=False).to_numpy(dtype=bool)]
        if found.empty:  # a pasted abstract stops at its first word no title holds
            return np.array([], dtype=np.int64)
    rows, phrase = found.index.to_numpy(dtype=np.int64), " ".join(words)
    exact = (found == phrase).to_numpy(dtype=bool)
    starts = found.map(lambda t: t == phrase or t.startswith(phrase + " ")).to_numpy(dtype=bool)
    holds = found.map(lambda t: f" {phrase} " in f" {t} ").to_numpy(dtype=bool)
    fit = found.map(lambda t: _fit(t, words)).to_numpy()
    order = rows[np.lexsort((rows, found.str.len().to_numpy(), -fit, ~holds, ~starts, ~exact))]  # last key first
    return np.asarray(order if limit is None else order[:limit], dtype=np.int64)


def _fit(title: str, words: list[str]) -> int:
    """How well a (folded) title holds the query's words: 2 for each held as a whole word, 1 for each beginning a
    word of it, 0 for each only inside a word ("cat" in "education")."""
    held = title.split()
    whole = set(held)
    return sum(2 if w in whole else 1 if any(h.startswith(w) for h in held) else 0 for w in words)


_DOI = re.compile(r"^10\.\d{4,9}/\S+$")


def doi_query(text: str) -> str | None:
    """The DOI when `text` is a DOI and nothing else (bare, a doi.org link or 'doi:'), else None."""
    doi = bare_doi((text or "").strip())
    return doi if _DOI.match(doi) else None


def doi_rows(frame: pd.DataFrame, text: str) -> np.ndarray:
    """Rows of `frame` whose DOI is the one in `text` (any prefix, any case on either side)."""
    if "doi" not in frame.columns:
        return np.array([], dtype=np.int64)
    doi = bare_doi(text.strip()).lower()
    dois = frame["doi"].map(lambda v: bare_doi(v).lower() if isinstance(v, str) else "")
    return np.flatnonzero(dois.to_numpy() == doi)


def row_of(frame: pd.DataFrame, paper_id: str | None) -> int | None:
    """The row of the paper with this id in `frame`, None when there is none. The id → row index is built once per
    frame object (`core.frames.derived`: one pass, ~0.7 s at 1M papers), so a page or a server that holds a corpus's
    frame answers every later lookup in microseconds instead of scanning all ids (~0.15 s at 1M)."""
    if paper_id is None or paper_id == "":
        return None
    index = derived(frame, "id_index", _id_index)
    try:
        found = index.get_loc(str(paper_id))
    except KeyError:
        return None
    if isinstance(found, (int, np.integer)):
        return int(found)
    rows = np.flatnonzero(found) if isinstance(found, np.ndarray) else np.arange(len(frame))[found]
    return int(rows[0])  # a repeated id: its first row, as the scan did


def _id_index(frame: pd.DataFrame) -> pd.Index:
    """The ids as a text index, made from the column's own (Arrow-backed) text when it is text: through NumPy objects
    and back cost 0.8-1.0 s at 1M papers, this 0.5 (most of it the hash table, BENCHMARKS §31q)."""
    ids = frame["id"]
    if not isinstance(ids.dtype, pd.StringDtype):
        ids = ids.astype(str)
    return pd.Index(ids.array)
