"""The records of a library XML export (MODS, MARC XML) streamed one by one, whatever prefix its namespace is written
with (``<mods>``, ``<mods:mods>``, ``<marc:record>``) or none at all, and the few by-local-name look-ups their
readers share.

Parsed with lxml's iterparse, entities, DTDs and the network refused as for the other XML readers (a file declaring
entities is refused before parsing: ``safety.xml_head``); each record is cleared once read, so a catalogue's export
of many thousand records is read in little memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from core.io.safety import _open_binary, xml_head, xml_refusal

__all__ = ["kid", "kids", "local", "root_element", "stream_records", "text_of"]

_PREAMBLE = re.compile(r"^(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>)*", re.DOTALL)
_ROOT = re.compile(r"<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)")


def root_element(head: str) -> tuple[str, str] | None:
    """The first element of an XML text after its declaration, comments and DOCTYPE: (prefix, local name)."""
    text = head.lstrip("\ufeff")
    found = _ROOT.match(text, _PREAMBLE.match(text).end())
    return (found.group(1) or "", found.group(2)) if found else None


def local(node: Any) -> str:
    """An element's name without its namespace ("" for a comment or a processing instruction)."""
    tag = node.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def kids(node: Any, name: str) -> list[Any]:
    """The children of ``node`` named ``name``, in any namespace."""
    return [] if node is None else [child for child in node if local(child) == name]


def kid(node: Any, name: str) -> Any:
    """The first child of ``node`` named ``name`` (None when it has none)."""
    return next(iter(kids(node, name)), None)


def text_of(node: Any) -> str | None:
    """An element's text with its line breaks and runs of spaces folded into single spaces; None when empty."""
    if node is None:
        return None
    return " ".join("".join(node.itertext()).split()) or None


def stream_records(path: Path, tags: Sequence[str]) -> Iterator[Any]:
    """Each element of the file with one of ``tags`` (lxml's ``{namespace}name`` form, ``{}name`` for none), cleared
    after its reader has used it; a syntax error is refused with its line."""
    from lxml import etree

    xml_head(path)
    with _open_binary(path) as stream:
        events = etree.iterparse(stream, events=("end",), tag=list(tags), resolve_entities=False, no_network=True,
                                 load_dtd=False, huge_tree=False, remove_comments=True)
        try:
            for _, element in events:
                yield element
                element.clear()
                parent = element.getparent()
                while parent is not None and element.getprevious() is not None:
                    del parent[0]  # the records read before this one
        except etree.XMLSyntaxError as error:
            raise xml_refusal(path, error) from None
