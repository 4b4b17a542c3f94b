"""A paper's citations inside its corpus: what it cites and what cites it, as rows for lists and map overlays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

    from core.store import Store


def _rows(frame: pd.DataFrame, ids: list[str], relation: str) -> list[dict[str, Any]]:
    position = {pid: i for i, pid in enumerate(frame["id"].astype(str))}
    out = []
    for pid in ids:
        i = position.get(pid)
        if i is None:
            continue
        year = frame["year"].iloc[i] if "year" in frame.columns else None
        out.append({"id": pid, "title": str(frame["title"].iloc[i]), "year": None if year is None or year != year
                    else year, "relation": relation, "row": i})
    return out


def paper_citations(store: Store, corpus: str, pid: str, frame: pd.DataFrame | None = None) -> dict[str, Any]:
    """A paper's references and the papers citing it (id, title, year, relation, frame row), each sorted by title.

    ``frame`` is the corpus's papers frame (read when not given); ``rows`` is every linked paper's frame row.
    """
    frame = store.papers_frame(corpus, with_abstract=False) if frame is None else frame
    refs = sorted(_rows(frame, store.references_of(corpus, pid), "cited by this paper"), key=lambda r: r["title"])
    citers = sorted(_rows(frame, store.cited_by(corpus, pid), "cites this paper"), key=lambda r: r["title"])
    return {"id": pid, "references": refs, "cited_by": citers,
            "rows": np.array(sorted({r["row"] for r in refs + citers}), dtype=np.int64)}


def citation_relation(store: Store, corpus: str, pid: str, others: list[str]) -> list[str]:
    """For each of ``others``: 'cites it', 'cited by it', 'both' or '' (its citation tie to paper ``pid``)."""
    refs, citers = set(store.references_of(corpus, pid)), set(store.cited_by(corpus, pid))
    out = []
    for other in others:
        tie = (other in refs, other in citers)
        out.append({(True, True): "both ways", (True, False): "cited by it", (False, True): "cites it"}.get(tie, ""))
    return out
