"""The Paper record shared by readers, the store, the encoder and the pages."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]{}<>|~#!$])")


def normalise_text(text: str) -> str:
    """Lower-case and fold white space: the form used to spot duplicate papers.

    ``str.split()`` splits on the same characters as the regex ``\\s+`` (both use Python's Unicode white space)
    and is several times faster on abstracts; keys stored by either are equal. Most texts need no split: once line
    breaks are spaces, an ASCII text without the other white space characters ``split`` splits on (tab, CR, vertical
    tab, form feed, the four separators \\x1c-\\x1f), double spaces or spaces at its ends is already folded (the
    only white space left in it is single spaces between words). Each of those eight is looked for on its own
    (``memchr``: a few hundred instructions on an abstract, where one pass deleting every control character took
    ~11,000; BENCHMARKS.md §25g); another control character is kept by both forms alike.
    """
    text = text or ""
    flat = text.replace("\n", " ")
    if (flat.isascii() and "  " not in flat and flat[:1] != " " and flat[-1:] != " " and "\t" not in flat
            and "\r" not in flat and "\x0b" not in flat and "\x0c" not in flat and "\x1c" not in flat
            and "\x1d" not in flat and "\x1e" not in flat and "\x1f" not in flat):
        return flat.lower()
    return " ".join(text.split()).lower()


# GitHub-flavoured Markdown (Streamlit's remark-gfm) turns bare 'http://x', 'www.x' and 'a@b.c' into links after
# backslash escapes are resolved, so an escape cannot stop them: an invisible WORD JOINER (U+2060) breaks the pattern.
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?=@)", re.IGNORECASE)
_JOINER = "\u2060"


def md_escape(text: Any) -> str:
    """Untrusted text made safe for one markdown line, table cell, button/checkbox/expander label or caption: no
    links, images, HTML, emphasis, $math$ or bare-URL autolinks; white space (line breaks too) folded to spaces.

    The one helper for every string built from data that Streamlit renders as Markdown (issue 41). It is not for
    plain-text places (select box options, data frames, file names), where the backslashes would show."""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))
    return _AUTOLINK.sub(_JOINER, escaped)


_TEXT_HASH = hashlib.blake2b(digest_size=16)


def text_hash(title: str, abstract: str) -> str:
    """Stable hash of a paper's title and abstract (the embedding cache key with the model)."""
    payload = (title or "").strip() + "\x1f" + (abstract or "").strip()
    hashed = _TEXT_HASH.copy()  # a copy of one empty hash: no keyword arguments parsed twice a record (§25g)
    hashed.update(payload.encode("utf-8", "surrogatepass"))
    return hashed.hexdigest()


def scrub(value: Any) -> Any:
    """A copy of a JSON-like value that text storage accepts: lone surrogates -> U+FFFD, NaN/inf -> None."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {scrub(str(k)): scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v) for v in value]
    return value


_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def bare_doi(value: str) -> str:
    """A DOI as '10.x/y', whatever prefix an export gave it ('http://dx.doi.org/', 'https://doi.org/', 'doi: ')."""
    text = value.strip()
    bare = _DOI_PREFIX.sub("", text).strip()
    return bare if bare.startswith("10.") else text


_BIBTEX_AND = re.compile(r"\s+and\s+")


def author_names(value: Any) -> list[str]:
    """A paper's authors as a list of names: a list as it is, a text split at ";" (tables); a name that is BibTeX's
    "Family, Given and Family, Given" (stored before Web of Science BibTeX authors were split) is split at "and"
    when every part is a "Family, Given" name. White space inside a name becomes one space."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return []
    items = [v for v in value if v is not None] if isinstance(value, (list, tuple)) else str(value).split(";")
    names: list[str] = []
    for item in items:
        text = " ".join(str(item).split())
        parts = _BIBTEX_AND.split(text) if " and " in text else [text]
        names.extend(parts if len(parts) > 1 and all("," in part for part in parts) else [text])
    return [name for name in names if name]


_DOI = re.compile(r"^10\.\d+(?:\.\d+)*/[^\s\x00-\x1f\x7f]+$")
_URL_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f<>\"`\\\u202a-\u202e\u2066-\u2069]")


def doi_url(value: Any) -> str | None:
    """The resolver link of a valid DOI ('https://doi.org/' + the URL-encoded DOI), None for anything else."""
    if not isinstance(value, str):
        return None
    doi = bare_doi(value)
    if not _DOI.match(doi):
        return None
    return "https://doi.org/" + quote(doi, safe="/")


def web_url(value: Any) -> str | None:
    """A plain http(s) URL with a host, safe as a Markdown link target (parentheses encoded); None otherwise
    (javascript:, data:, white space, quotes, angle brackets, control or bidi characters)."""
    if not isinstance(value, str):
        return None
    url = value.strip()
    if not url or _URL_UNSAFE.search(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return url.replace("(", "%28").replace(")", "%29")


def safe_link(doi: Any = None, url: Any = None) -> str | None:
    """A paper's link: its DOI's resolver link, else its URL when that is plain http(s); None when neither is valid."""
    return doi_url(doi) or web_url(url)


def duplicate_key(title: str, abstract: str) -> str:
    """Hash of the normalised title and abstract: equal for papers that differ only in case/spacing."""
    return text_hash(normalise_text(title), normalise_text(abstract))


@dataclass
class Paper:
    """One paper: an id, its title and abstract, and every other column of its source row."""

    id: str
    title: str
    abstract: str
    fields: dict[str, Any] = field(default_factory=dict)
    # what the importer stores of this paper besides its text, when a reading process computed it (core.io.background)
    prepared: tuple | None = field(default=None, repr=False, compare=False)
    # the row a spreadsheet shows its record on (CSV/TSV/xlsx; core.io.rows.RowNumber), for the report's messages
    line: int | None = field(default=None, repr=False, compare=False)

    @property
    def hash(self) -> str:
        return text_hash(self.title, self.abstract)


@dataclass
class RowError:
    """A row that was skipped on import, with its 1-based row number and the reason."""

    row: int
    reason: str
