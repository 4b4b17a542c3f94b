"""Figures of full-text papers: the figures table, image files beside the catalog, and the training pairs.

A figure row holds its paper, id, position, label, caption, the body sentences that reference it (as written and
masked) and the name of its image file under ``WORKSPACE/figures/``. ``FigurePaper`` is one paper's captions and
(masked referencing sentence, caption index) pairs: what the figure scorer trains and is evaluated on.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS figures (
    corpus TEXT, pid TEXT, fid TEXT, position INTEGER, label TEXT, caption TEXT, refs TEXT, masked TEXT,
    mentions INTEGER, image TEXT, PRIMARY KEY (corpus, pid, fid)
);
"""


@dataclass
class FigurePaper:
    """One paper's captioned figures in order and its (masked sentence, index of the caption it references) pairs."""

    pid: str
    labels: list[str]
    captions: list[str]
    pairs: list[tuple[str, int]] = field(default_factory=list)


def is_held_out(pid: str, seed: int = 0, fraction: float = 0.3) -> bool:
    """Whether a paper falls in the held-out part of the seeded split by paper (stable across runs and machines)."""
    digest = hashlib.blake2b(f"{seed}:{pid}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < fraction


def _figure_of(row: Any) -> dict[str, Any]:
    return {"id": row["fid"], "position": row["position"], "label": row["label"], "caption": row["caption"],
            "references": json.loads(row["refs"] or "[]"), "masked": json.loads(row["masked"] or "[]"),
            "mentions": row["mentions"], "image": row["image"]}


def _replace_figures(conn: sqlite3.Connection, corpus: str, pids: list[str], rows: list[tuple]) -> None:
    conn.executemany("DELETE FROM figures WHERE corpus = ? AND pid = ?", [(corpus, p) for p in pids])
    conn.executemany("INSERT OR REPLACE INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


class FiguresMixin:
    """The `Store` methods for figures."""

    @property
    def figures_dir(self) -> Path:
        return self.root / "figures"

    def save_figures(self, corpus: str, by_paper: Mapping[str, Iterable[Any]],
                     conn: sqlite3.Connection | None = None) -> int:
        """Replace the figures of these papers (objects with the `core.io.jats.Figure` fields); how many stored.

        Written in `conn`'s open transaction when given (an import's, so papers and figures commit together), else
        in a transaction of their own. Image files are content-addressed: one left by a rolled-back import is reused.
        """
        rows, stored = [], 0
        for pid, figures in by_paper.items():
            for fig in figures:
                image = None
                if getattr(fig, "image", None):
                    digest = hashlib.blake2b(fig.image, digest_size=12).hexdigest()
                    image = f"{digest}.{fig.image_type or 'bin'}"
                    path = self.figures_dir / image
                    if not path.exists():
                        self.figures_dir.mkdir(exist_ok=True)
                        tmp = path.with_suffix(".tmp")
                        tmp.write_bytes(fig.image)
                        tmp.replace(path)
                rows.append((corpus, pid, fig.id, fig.position, fig.label, fig.caption, json.dumps(fig.references),
                             json.dumps(fig.masked), fig.mentions, image))
                stored += 1
        if conn is None:
            with self.transaction() as conn:
                _replace_figures(conn, corpus, list(by_paper), rows)
        else:
            _replace_figures(conn, corpus, list(by_paper), rows)
        return stored

    def figures(self, corpus: str, pids: Iterable[str] | None = None) -> dict[str, list[dict[str, Any]]]:
        """Each paper's figures in order (all papers with figures, or only ``pids``)."""
        with self.connect() as conn:
            if pids is None:
                rows = conn.execute("SELECT * FROM figures WHERE corpus = ? ORDER BY pid, position",
                                    (corpus,)).fetchall()
            else:
                wanted = list(dict.fromkeys(pids))
                rows = []
                for start in range(0, len(wanted), 500):
                    part = wanted[start:start + 500]
                    rows += conn.execute(
                        f"SELECT * FROM figures WHERE corpus = ? AND pid IN ({','.join('?' * len(part))}) "
                        "ORDER BY pid, position", (corpus, *part)).fetchall()
        out: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            out.setdefault(row["pid"], []).append(_figure_of(row))
        return out

    def figure_count(self, corpus: str) -> int:
        with self.connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM figures WHERE corpus = ?", (corpus,)).fetchone()[0])

    def figure_image(self, name: str | None) -> Path | None:
        """The image file of a figure row's ``image`` name, when it exists."""
        if not name or "/" in name or name.startswith("."):
            return None
        path = self.figures_dir / name
        return path if path.is_file() else None

    def delete_figures(self, corpus: str) -> None:
        with self.connect() as conn:
            conn.execute("DELETE FROM figures WHERE corpus = ?", (corpus,))

    def figure_papers(self, corpus: str) -> list[FigurePaper]:
        """Papers with at least two captioned figures and one referencing sentence: the scorer's data.

        A sentence that references several of the paper's figures points at none of them alone and is left out.
        """
        out = []
        for pid, figures in self.figures(corpus).items():
            captioned = [f for f in figures if f["caption"]]
            if len(captioned) < 2:
                continue
            paper = FigurePaper(pid, [f["label"] for f in captioned], [f["caption"] for f in captioned])
            seen = Counter(s for f in captioned for s in set(f["masked"]))
            for index, fig in enumerate(captioned):
                paper.pairs += [(s, index) for s in dict.fromkeys(fig["masked"]) if seen[s] == 1]
            if paper.pairs:
                out.append(paper)
        return out
