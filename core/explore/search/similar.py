"""Similar papers: a pasted title + abstract, or a paper of the corpus, against the corpus's index."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from core.config import Settings
from core.embedding import (
    CHARS_PER_TOKEN_LIMIT,
    Encoder,
    ModelSpec,
    clip_text,
    get_encoder,
    get_model,
    vectors_fingerprint,
)
from core.errors import MireadError
from core.explore.search.index import VectorIndex
from core.explore.search.lookup import row_of
from core.labels import plain_value

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store

SHORT_QUERY_WORDS = 25
_INDEXES: dict[tuple[str, str, str, int], VectorIndex] = {}
_INDEX_LOCK = threading.Lock()  # one build per index: concurrent first queries wait for it


def corpus_index(store: Store, corpus: str, spec: ModelSpec, settings: Settings | None = None) -> VectorIndex:
    """The (cached, persisted) vector index of a corpus for a model; rebuilt only when the corpus changes."""
    settings = settings or Settings()
    version = store.corpus_version(corpus)  # not store.corpus(): its COUNT(*) cost 30 ms a query at 1M papers
    fp = vectors_fingerprint(spec)  # the vectors this process embeds queries with: exact or a fast mode
    key = (str(store.root), corpus, fp, version)
    index = _INDEXES.get(key)
    if index is not None:
        return index
    with _INDEX_LOCK:
        index = _INDEXES.get(key)
        if index is None:
            matrix = store.embeddings(corpus, fp)
            path = store.array_path("indexes", corpus, f"{fp}-v{version}", ".faiss")
            mine = re.compile(re.escape(f"{store.corpus_slug(corpus)}-{fp}-v") + r"\d+\.faiss.*")
            for stale in path.parent.glob(f"{store.corpus_slug(corpus)}-{fp}-v*.faiss*"):  # + compressed's .json
                if not stale.name.startswith(path.name) and mine.fullmatch(stale.name):
                    stale.unlink(missing_ok=True)
            for older in [k for k in _INDEXES if k[:3] == key[:3]]:  # earlier versions of this corpus
                del _INDEXES[older]
            index = _INDEXES[key] = VectorIndex(matrix, exact_limit=settings.exact_search_limit, path=path,
                                                compressed_above=settings.compressed_search_above,
                                                opq=settings.compressed_opq)
    return index


def clip_query(text: str, max_length: int = 512) -> str:
    """Query text safe to tokenize: lone surrogates replaced, cut far beyond what the model reads.

    The tokenizer's pair truncation is quadratic in the text length (100k characters: minutes).
    """
    return clip_text(text, CHARS_PER_TOKEN_LIMIT * max_length)


def query_warning(title: str, abstract: str) -> str | None:
    """A warning when the query is too short for a scientific encoder to retrieve well."""
    words = len(f"{title} {abstract}".split())
    if words == 0:
        return None
    if words < SHORT_QUERY_WORDS:
        return (
            f"Your query has only {words} word{'s' if words != 1 else ''}. Scientific encoders retrieve poorly "
            "from a title or a few words (Singh & Singh, 2022); paste the abstract too for better neighbours."
        )
    return None


def asked_like_a_title(title: str, abstract: str) -> bool:
    """Whether a query is asked the way a title is: no abstract, or only a few words and no title (three words typed
    into the abstract box). The journal finder's accuracy beside such a query is measured with held-out papers
    queried by their titles alone (the ``journals-title`` task), not by title and abstract."""
    if not (abstract or "").strip():
        return True
    return not (title or "").strip() and len(abstract.split()) < SHORT_QUERY_WORDS


UNREAD_SHARE = 2  # warn when the model reads less than half of a pasted text


def read_warning(encoder: Encoder, pasted: str, title: str, abstract: str) -> str | None:
    """A warning when the model reads less than half of the (clipped) `title` + `abstract`: a whole paper pasted is
    ranked by its first few hundred words. `pasted` is the text as the user gave it, for its word count."""
    tokenizer, limit = getattr(encoder, "tokenizer", None), int(getattr(encoder, "max_length", 0) or 0)
    if tokenizer is None or not limit:
        return None
    pair = (title, abstract) if (abstract or "").strip() else (title, None)
    tokens = len(tokenizer(*pair, truncation=False, verbose=False)["input_ids"])
    if tokens <= UNREAD_SHARE * limit:  # a long abstract's last sentences, as the corpus's own papers lose them
        return None
    words, read = len(pasted.split()), round(len(f"{title} {abstract}".split()) * limit / tokens)
    name = getattr(getattr(encoder, "spec", None), "name", "the model")
    return (f"Your text has {words:,} words; {name} reads only its first {limit} tokens (about "
            f"{read:,} words), so the rest did not count toward its meaning. Paste the title and abstract, not the "
            "whole paper, or the part you want matched.")


def filter_mask(frame: pd.DataFrame, filters: dict[str, list[Any]] | None = None,
                year_range: tuple[int, int] | None = None, year_column: str = "year") -> np.ndarray | None:
    """Boolean mask of corpus rows passing label filters and a year range (None when no filter)."""
    import pandas as pd

    mask = np.ones(len(frame), dtype=bool)
    active = False
    for column, values in (filters or {}).items():
        if values and column in frame.columns:
            mask &= _holds(frame[column], {str(v) for v in values})
            active = True
    if year_range and year_column in frame.columns:
        years = pd.to_numeric(frame[year_column], errors="coerce")
        mask &= ((years >= year_range[0]) & (years <= year_range[1])).fillna(False).to_numpy()
        active = True
    return mask if active else None


def _holds(column: pd.Series, wanted: set[str]) -> np.ndarray:
    """Rows whose value is one of `wanted`; in a list column (authors, keywords; or its text joined by ';') also rows
    holding any of them."""
    whole = column.astype(str).isin(wanted).to_numpy(dtype=bool)
    if column.dtype == object:
        lists = (list, tuple, np.ndarray)
        held = column.map(lambda v: (isinstance(v, lists) and any(str(x) in wanted for x in v))
                          or (isinstance(v, str) and ";" in v and any(x.strip() in wanted for x in v.split(";"))))
        whole = whole | held.to_numpy(dtype=bool)
    return whole


@dataclass
class SearchResult:
    """Ranked neighbours of one query, with the query's vector (for placing it on a map)."""

    query: dict[str, str]
    model: str
    vector: np.ndarray
    results: list[dict[str, Any]] = field(default_factory=list)
    warning: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "model": self.model, "results": self.results, "warning": self.warning}


def similar_papers(
    store: Store, corpus: str, model: str | ModelSpec = "minilm", *, title: str = "", abstract: str = "",
    paper_id: str | None = None, k: int = 10, filters: dict[str, list[Any]] | None = None,
    year_range: tuple[int, int] | None = None, encoder: Encoder | None = None, frame: pd.DataFrame | None = None,
) -> SearchResult:
    """Nearest corpus papers to a query text or to a paper of the corpus (which is left out of its results)."""
    spec = model if isinstance(model, ModelSpec) else get_model(model, store)
    pasted = f"{title} {abstract}"
    title, abstract = clip_query(title, spec.max_length), clip_query(abstract, spec.max_length)
    given = frame
    frame = given if given is not None else store.papers_frame(corpus)
    index = corpus_index(store, corpus, spec)
    if len(index.matrix) != len(frame) and given is None:  # an import landed in between: read both again
        index = corpus_index(store, corpus, spec)
        frame = store.papers_frame(corpus)
    if len(index.matrix) != len(frame):
        raise MireadError(f"corpus {corpus!r} changed during the search ({len(frame)} papers listed, "
                          f"{len(index.matrix)} indexed); search again")
    mask = filter_mask(frame, filters, year_range)
    long_text = None
    if paper_id is not None:
        found = row_of(frame, paper_id)
        if found is None:
            raise MireadError(f"corpus {corpus!r} has no paper with id {paper_id!r}")
        row = found
        vector = np.asarray(index.matrix[row], dtype=np.float32)
        title, abstract = str(frame.at[row, "title"]), str(frame.at[row, "abstract"])
        mask = np.ones(len(frame), dtype=bool) if mask is None else mask.copy()
        mask[row] = False
    else:
        if not (title or "").strip() and not (abstract or "").strip():
            raise MireadError("the query is empty: paste a title and/or an abstract")
        encoder = encoder or get_encoder(spec)
        vector = encoder.encode([(title, abstract)])[0]
        long_text = read_warning(encoder, pasted, title, abstract)
    scores, idx = index.search(vector[None, :], k, mask)
    label_cols = [c for c in frame.columns if c not in ("id", "title", "abstract")]
    results = []
    for rank, (score, row) in enumerate(zip(scores[0], idx[0]), start=1):
        if row < 0 or not np.isfinite(score):
            continue
        record = frame.iloc[int(row)]
        item = {"rank": rank, "id": str(record["id"]), "title": record["title"], "score": round(float(score), 4),
                "row": int(row), "abstract": record.get("abstract", "")}
        for col in label_cols:
            value = record[col]
            item[col] = plain_value(value)
        results.append(item)
    return SearchResult(
        query={"title": title, "abstract": abstract, **({"paper_id": paper_id} if paper_id else {})},
        model=spec.name, vector=vector, results=results, warning=query_warning(title, abstract) or long_text,
    )

