"""A BibTeX entry bibtexparser could not read because a value's braces do not balance, in a file written one field
a line (Scopus: ``abstract={…},`` on one line, ``}`` alone closing the entry): read line by line.

Scopus writes a chemical name's braces as text and may drop one ("…imino]methyl}-6-methoxyphenol"); BibTeX reads
every brace as grouping, so the extra "}" ended the entry early and the paper was lost. Only an entry whose every
line is one whole field (``name={value},``) up to a line holding "}" alone is read so: the value is what stands
between the field's first "{" and the line's last "}". The braces of such a value stand in for themselves while
bibtexparser reads the entry rebuilt (`stand_in`), and are put back in the row it gives (`put_back`).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["line_entry", "put_back"]

_HEAD = re.compile(r"^\s*@([A-Za-z]+)\s*\{\s*([^,\s{}]+)\s*,\s*$")
_FIELD = re.compile(r"^\s*([A-Za-z][\w-]*)\s*=\s*\{(.*)\}\s*,?\s*$")
_MAX_LINES = 200  # an entry's lines looked at: a Scopus entry has about twenty
_OPEN, _CLOSE = "\ue000", "\ue001"  # private-use characters standing in for a value's text braces
_BACK = str.maketrans({_OPEN: "{", _CLOSE: "}"})


def line_entry(lines: list[str]) -> tuple[str, list[str]] | None:
    """The entry starting at ``lines[0]`` rebuilt so its braces balance, with the fields whose braces did not; None
    unless the entry is laid out one whole field a line and closed by a line holding "}" alone."""
    head = _HEAD.match(lines[0]) if lines else None
    if head is None:
        return None
    fields: list[str] = []
    unbalanced: list[str] = []
    for line in lines[1:_MAX_LINES]:
        if not line.strip():
            continue
        if line.strip() == "}":
            if not fields or not unbalanced:
                return None
            return "\n".join([f"@{head.group(1)}{{{head.group(2)},", *fields, "}"]), unbalanced
        match = _FIELD.match(line)
        if match is None:
            return None
        name, value = match.group(1), match.group(2)
        if value.count("{") != value.count("}"):
            unbalanced.append(name.lower())
            value = value.replace("{", _OPEN).replace("}", _CLOSE)
        fields.append(f"{name}={{{value}}},")
    return None


def put_back(value: Any) -> Any:
    """A row's value with the stand-ins of `line_entry` turned back into braces (strings, and lists of them)."""
    if isinstance(value, str):
        return value.translate(_BACK) if _OPEN in value or _CLOSE in value else value
    if isinstance(value, list):
        return [put_back(item) for item in value]
    return value
