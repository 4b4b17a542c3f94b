"""Hostile data for the injection tests (issue 41): strings that would load remote content or show a stranger's link
if any page rendered them as Markdown, a workspace full of them, and an oracle that reads Markdown the way Streamlit's
GitHub-flavoured renderer does (links, images, raw HTML, bare-URL and e-mail autolinks)."""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

from core.records import Paper

EVIL = "evil.test"  # every hostile link, image and autolink points here
PIXEL = f"![p](http://{EVIL}/pixel.png)"
PHISH = f"[link](http://{EVIL}/phish)"
HOSTILE = (f"{PIXEL} {PHISH} <img src=http://{EVIL}/i.png> <a href='http://{EVIL}/a'>a</a> "
           f"http://{EVIL}/bare www.{EVIL}/w mail@{EVIL} **bold** $x$ `code` :red[red]")
HOSTILE_DOI = f"10.1000/x) {PIXEL} {PHISH}"  # the DOI: breaks out of an unencoded Markdown link
ODD_DOI = "10.1000/a(b)c<d>[e]"  # a DOI without white space: linked, URL-encoded
HOSTILE_CORPUS = f"www.{EVIL}"  # a valid corpus name that GFM would autolink
HOSTILE_LABEL = f"![c](http://{EVIL}/col.png) www.{EVIL}"  # a label column's name
HOSTILE_COLLECTIONS = (f"[c1](http://{EVIL}/c1) {PIXEL}", f"www.{EVIL} ![c2](http://{EVIL}/c2.png)")


def hostile_papers(count: int = 12) -> list[Paper]:
    """Papers with hostile text in every field (ids, title, abstract, authors, journal, keywords, DOI, URL)."""
    papers = []
    for i in range(count):
        topic = ("galaxies stars telescope", "cells proteins genes", "markets prices trade")[i % 3]
        papers.append(Paper(
            id=f"[id{i}](http://{EVIL}/id{i})",
            title=f"{HOSTILE} {topic} title {i}",
            abstract=f"{HOSTILE}\n\nWe study {topic} in case {i}. {HOSTILE}",
            fields={"journal": f"{PIXEL} J{i % 3}", "year": 2000 + i % 4, "authors": [HOSTILE, f"Doe {i}"],
                    "doi": f"{HOSTILE_DOI} {i}" if i % 2 else f"{ODD_DOI}{i}", "url": "javascript:alert(1)",
                    HOSTILE_LABEL: f"{PHISH} class {i % 2}", "keywords": [HOSTILE]}))
    return papers


_MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])
# remark-gfm's literal autolinks (mdast-util-gfm-autolink-literal), found in text after escapes are resolved
_AUTOLINK = re.compile(r"(?:https?://|www(?=\.))[-.\w]+|[-.\w+]+@[-\w]+(?:\.[-\w]+)+", re.IGNORECASE)
_DOI_LINK = re.compile(r"^https://doi\.org/10\.[0-9.]+/[A-Za-z0-9/%._~-]+$")


def markdown_dangers(text: str) -> list[str]:
    """What this Markdown would render that came from hostile data: images, raw HTML, links that are not an
    encoded DOI resolver link, and autolinks to the hostile host."""
    found = []
    for block in _MARKDOWN.parse(text):
        if block.type == "html_block" and EVIL in block.content:
            found.append(f"html block {block.content[:60]!r}")
        for token in block.children or []:
            if token.type == "image":
                found.append(f"image {token.attrs.get('src')!r}")
            elif token.type == "html_inline" and EVIL in token.content:
                found.append(f"html {token.content!r}")
            elif token.type == "link_open":
                href = str(token.attrs.get("href", ""))
                if (EVIL in href or href.lower().startswith(("javascript", "data"))
                        or (href.startswith("https://doi.org/") and not _DOI_LINK.match(href))):
                    found.append(f"link {href!r}")
            elif token.type == "text" and any(EVIL in m.group() for m in _AUTOLINK.finditer(token.content)):
                found.append(f"autolink in {token.content[:80]!r}")
    return found


_MARKDOWN_FIELDS = ("body", "label", "help")  # Streamlit renders these as Markdown (and radio/pill options)
_PLAIN_ELEMENTS = ("Text", "Code", "Json", "Exception")  # st.text, st.code, st.json: their body is plain text


def markdown_strings(message: Any) -> list[str]:
    """Every string Streamlit would render as Markdown in one element's protobuf (labels, bodies, help, radio
    options), its nested messages included."""
    found: list[str] = []
    for descriptor, value in message.ListFields():
        if descriptor.type == descriptor.TYPE_MESSAGE:
            # a message, a repeated field, or a map field (the map component's Arrow blobs by hash)
            items = [value] if hasattr(value, "ListFields") else value.values() if hasattr(value, "values") else value
            for item in items:
                found += markdown_strings(item)
        elif descriptor.type == descriptor.TYPE_STRING:
            values = [value] if isinstance(value, str) else list(value)
            if descriptor.name in _MARKDOWN_FIELDS and not (descriptor.name == "body" and message.DESCRIPTOR.name
                                                              in _PLAIN_ELEMENTS):
                found += values
            elif descriptor.name == "options" and message.DESCRIPTOR.name in ("Radio", "ButtonGroup"):
                found += values
    return found
