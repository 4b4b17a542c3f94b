"""Markup in titles and abstracts read as text: HTML, JATS, MathML and PubMed's structured-abstract elements.

Exports carry the publisher's markup inside text fields: Lens and Crossref-fed RIS write ``<jats:p>`` and
``<jats:title>``, PubMed-fed records ``<AbstractText Label="METHODS">``, others ``<p>``, ``<i>``, ``<sub>`` and
MathML, some of them escaped (``&lt;p&gt;``). `plain_text` turns such a value into the text a reader sees:
elements dropped and their text kept, entities decoded, a paragraph, section or list item one line, a section title
or PubMed label written before its text as ``"LABEL: text"``, a lone "Abstract" heading dropped, and TeX annotations
that repeat a formula left out (a ``tex-math`` that is its formula's only form, as IEEE writes ``$F_0$``, is kept).

Only known element names count as markup, so "p < 0.05", "<5 mm" or "a<b and c>d" stay as written; text without
a known element or an entity is returned unchanged (and fast). The parser is the standard library's
``html.parser``: it tolerates unclosed and stray tags, which exported fragments often have. `placeholder` tells an
export's "[No abstract available]" from text.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

# element names (lower-cased, without a namespace prefix) read as markup
_BLOCKS = frozenset(("p", "div", "sec", "section", "abstract", "abstracttext", "li", "list-item", "list", "ul", "ol",
                     "br", "tr", "table", "blockquote", "disp-quote", "def-list", "def-item", "caption",
                     "trans-abstract",
                     "h1", "h2", "h3", "h4", "h5", "h6", "title", "label", "article-title", "subtitle",
                     "copyrightinformation", "otherabstract", "copyright-statement", "permissions"))
_HEADINGS = frozenset(("title", "h1", "h2", "h3", "h4", "h5", "h6", "label"))
_INLINE = frozenset((
    "i", "b", "u", "em", "strong", "sub", "sup", "inf", "sc", "scp", "small", "big", "tt", "span", "font", "a", "code",
    "s", "link",  # <link href='#fn1'></link>: a footnote anchor in Google Scholar's snippets (Publish or Perish)
    "italic", "bold", "underline", "monospace", "overline", "strike", "roman", "sans-serif", "styled-content",
    "named-content", "ext-link", "uri", "xref", "email", "inline-formula", "disp-formula", "alternatives", "td", "th",
    "fn", "term", "def", "mixed-citation", "chem-struct", "abbrev", "inline-graphic", "graphic", "hr", "wbr",
    "math", "mi", "mo", "mn", "ms", "mtext", "mrow", "msub", "msup", "msubsup", "mfrac", "msqrt", "mroot",
    "mover", "munder", "munderover", "mstyle", "mspace", "mpadded", "mphantom", "menclose", "mfenced", "mtable",
    "mtr", "mtd", "mmultiscripts", "mprescripts", "none", "semantics",
))
# script and style are no document markup: a title carrying them (an attack, never a real export) stays as typed and
# is shown escaped
_DROPPED = frozenset(("annotation", "annotation-xml", "tex-math", "object-id"))
_KNOWN = _BLOCKS | _INLINE | _DROPPED
_PREFIXES = ("jats:", "mml:", "m:", "xhtml:", "html:")
_NAMES = "|".join(re.escape(name) for name in sorted(_KNOWN, key=len, reverse=True))
_PREFIX = r"(?:(?:jats|mml|m|xhtml|html):)?"
_ATTRIBUTE = r"""\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)"""
# a whole known tag: closing, or opening with name="value" attributes only (so "a<b and c>d" is not one)
_MARKUP = re.compile(rf"</{_PREFIX}(?:{_NAMES})\s*>|<{_PREFIX}(?:{_NAMES})(?:{_ATTRIBUTE})*\s*/?>", re.IGNORECASE)
# "<" that starts no known tag (any element of the JATS and MathML namespaces is known)
_NOT_A_TAG = re.compile(rf"<(?!/?(?:{_PREFIX}(?:{_NAMES})|(?:jats|mml):[\w.-]+)[\s/>])", re.IGNORECASE)
_MEDIA = re.compile(r"<(?:\w+:)?(?:inline-)?(?:graphic|math|inline-formula|disp-formula|mi|mn|mo)\b", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
# an entity whose "&" was escaped again ("&amp;#8211;", "&amp;amp;", "p &amp;lt; 0.05")
_TWICE = re.compile(r"&amp;(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos|nbsp|[lr]squo|[lr]dquo|[mn]dash);")


def _local(tag: str) -> str:
    """A tag's name without its namespace prefix (``jats:p`` -> ``p``); an unlisted JATS or MathML element is
    read as inline markup (``span``)."""
    for prefix in _PREFIXES:
        if tag.startswith(prefix):
            name = tag[len(prefix):]
            return name if name in _KNOWN else "span"
    return tag


class _Text(HTMLParser):
    """Collects the text of a fragment as paragraphs; unknown tags are kept as the text they were written as."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.current: list[str] = []
        self.heading: list[str] | None = None  # the text of a section title or label being read
        self.label = ""  # a section title or PubMed label waiting for its text
        self.dropped = 0  # depth inside elements whose text is left out
        self.alternatives = 0  # depth inside <alternatives>: a formula's TeX there repeats its MathML
        self.kept_tex = 0  # depth inside a <tex-math> that is its formula's only form (IEEE's): its text is kept

    def _end_paragraph(self) -> None:
        text = " ".join("".join(self.current).split())
        self.current = []
        if not text:
            return
        if self.label:
            text = f"{self.label}: {text}"
            self.label = ""
        self.paragraphs.append(text)

    def _write(self, text: str) -> None:
        if self.dropped:
            return
        (self.heading if self.heading is not None else self.current).append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = _local(tag)
        if name not in _KNOWN:
            self._write(self.get_starttag_text() or "")
            return
        if name == "alternatives":
            self.alternatives += 1
        if name == "tex-math" and not self.alternatives and not self.dropped:
            self.kept_tex += 1
            return
        if name in _DROPPED:
            self.dropped += 1
            return
        if name in _BLOCKS and not self.dropped:
            self._end_paragraph()
            if name in _HEADINGS:
                self.heading = []
            label = dict(attrs).get("label") if name == "abstracttext" else None
            if label and label.strip():
                self._flush_label()
                self.label = " ".join(label.split())

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = _local(tag)
        if name not in _KNOWN:
            self._write(self.get_starttag_text() or "")
        elif name in _BLOCKS and not self.dropped:
            self._end_paragraph()

    def handle_endtag(self, tag: str) -> None:
        name = _local(tag)
        if name not in _KNOWN:
            self._write(f"</{tag}>")
            return
        if name == "alternatives":
            self.alternatives = max(0, self.alternatives - 1)
        if name == "tex-math" and self.kept_tex:
            self.kept_tex -= 1
            return
        if name in _DROPPED:
            self.dropped = max(0, self.dropped - 1)
            return
        if name in _BLOCKS and not self.dropped:
            if name in _HEADINGS and self.heading is not None:
                title = " ".join("".join(self.heading).split()).rstrip(":").strip()
                self.heading = None
                if title:
                    self._flush_label()
                    self.label = title
            else:
                self._end_paragraph()

    def _flush_label(self) -> None:
        """A heading followed by another heading (or nothing) stays as a line of its own."""
        if self.label:
            if self.label.lower() != "abstract" or self.paragraphs:
                self.paragraphs.append(self.label)
            self.label = ""

    def handle_data(self, data: str) -> None:
        self._write(data)

    def text(self) -> str:
        self.close()
        if self.heading is not None:  # an unclosed heading: its text is a line
            self.current = self.heading + self.current
            self.heading = None
        self._end_paragraph()
        if self.label and self.label.lower() != "abstract":
            self.paragraphs.append(self.label)
        self.label = ""
        if self.paragraphs and self.paragraphs[0].lower().startswith("abstract: "):
            self.paragraphs[0] = self.paragraphs[0][len("abstract: "):]  # the "Abstract" heading of an abstract
        return "\n".join(self.paragraphs)


def _unescape(text: str) -> str:
    """A text with its entities decoded once."""
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)


def has_markup(text: str) -> bool:
    """Whether a text holds a known element (HTML, JATS, MathML, PubMed) or an HTML entity."""
    return ("<" in text and _MARKUP.search(text) is not None) or ("&" in text and _ENTITY.search(text) is not None)


def plain_text(text: str) -> str:
    """A title or abstract without its markup: paragraphs as lines, labels as "LABEL: text" (see the module).

    Markup that the export escaped ("&lt;p&gt;", Crossref's "&lt;jats:p&gt;", twice: "&amp;lt;i&amp;gt;") is
    markup too: entities are decoded (up to three times) while that uncovers a known element, and the result is
    read as markup; otherwise entities are decoded once and nothing else is touched ("p &lt; 0.05" is "p < 0.05").
    """
    if not has_markup(text):
        return text
    if "<" not in text or _MARKUP.search(text) is None:  # entities only
        decoded = unescaped = _unescape(text)
        for _ in range(3):
            if "<" in unescaped and _MARKUP.search(unescaped):  # the export escaped its markup
                return plain_text(unescaped)
            if "&" not in unescaped or _ENTITY.search(unescaped) is None:
                break
            unescaped = _unescape(unescaped)
        before = text
        while _TWICE.search(before):  # "&amp;#8211;", "&amp;amp;": an entity escaped again, decoded whole
            before, decoded = decoded, _unescape(decoded)
        return decoded
    parser = _Text()
    parser.feed(_NOT_A_TAG.sub("&lt;", text))  # "x<y", "<5 mm", "<unknown>" stay text, whatever follows them
    plain = parser.text()
    if _escaped_markup(plain):  # markup the export escaped inside its markup: "<jats:p>&amp;lt;p&amp;gt;..."
        return plain_text(plain)
    return plain


def _escaped_markup(text: str) -> bool:
    """Whether a text read out of markup (its entities decoded once) still holds markup or an entity: the export
    escaped them inside its markup, as Lens writes a Crossref abstract: ``<jats:p>&amp;lt;p&amp;gt;…``."""
    return ("&" in text and _ENTITY.search(text) is not None) or ("<" in text and _MARKUP.search(text) is not None)


# what exports write where a record has no abstract (or title): Scopus "[No abstract available]", PubMed
# "[Not Available].", Ovid "Abstract not available", others "No abstract.", "N/A", and "NA", R's missing value,
# which RIS written by R packages (synthesisr, revtools, CiteSource) carries as "AB  - NA"; the whole value, case
# and brackets and end punctuation aside
_PLACEHOLDER = re.compile(
    r"^[\s\[(]*(?:no\s+abstract(?:\s+(?:is\s+)?(?:available|provided|found))?|abstract\s+(?:is\s+)?"
    r"(?:not\s+(?:available|provided)|unavailable)|not\s+available|no\s+(?:title|summary)(?:\s+available)?|n/a|(?-i:NA))"
    r"[\s.\])]*$", re.IGNORECASE)


def empty_markup(text: str | None) -> bool:
    """Whether a title or abstract is known markup around nothing but white space ("<jats:p />", "<p></p>"): an
    export's empty abstract, not text (an image or a formula element is content, and stays)."""
    if not text or "<" not in text or len(text) >= 200 or _MEDIA.search(text):
        return False
    return _MARKUP.search(text) is not None and not _MARKUP.sub("", text).strip()


def placeholder(text: str | None) -> bool:
    """Whether a title or abstract is an export's placeholder for "none" ("[No abstract available]",
    "[Not Available].", "Abstract not available", "N/A", "NA"), not text."""
    if not text or len(text) >= 64:
        return False
    start = text[0]  # every placeholder starts with white space, "[", "(", "n" or "a": most titles need no regex
    return (start in "[(nNaA" or start.isspace()) and _PLACEHOLDER.match(text) is not None
