"""Search results as a reader sees them: the query's words in bold in a paper's title and abstract, data text
escaped first (core.records.md_escape), so the bold is the only Markdown on the line."""

from __future__ import annotations

from typing import Any

from core.explore.search.hybrid import why_text
from core.explore.search.lexical import word_spans
from core.records import md_escape


def _escaped(piece: str) -> str:
    """An unmatched piece escaped, keeping one space where it began or ended with white space."""
    lead = " " if piece[:1].isspace() else ""
    tail = " " if piece[-1:].isspace() and piece.strip() else ""
    return lead + md_escape(piece) + tail


def highlighted(text: Any, words: list[str]) -> str:
    """One Markdown line: `text` escaped, each query word (any inflection of it) in bold."""
    if not words:
        return md_escape(text)
    return "".join(f"**{md_escape(piece)}**" if hit else _escaped(piece) for piece, hit in word_spans(str(text), words))


def why_line(item: dict[str, Any]) -> str:
    """The caption under a result: why it matched (no data text besides the query's own words, escaped)."""
    why = item.get("why") or {}
    return md_escape(why_text(why)) if why else ""


def why_plain(item: dict[str, Any]) -> str:
    """Why a result matched, as plain text (for a table cell, which is never Markdown)."""
    return why_text(item.get("why") or {})
