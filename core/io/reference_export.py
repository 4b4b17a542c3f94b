"""Export to reference managers: RIS, BibTeX and CSL JSON, written as Zotero's and EndNote's readers expect them.

- RIS (Zotero's RIS.js, EndNote's RIS): ``TY`` first and ``ER`` last in each record, one ``AU`` per author as
  "Family, Given", ``T2`` the journal, ``J2`` its abbreviation, ``PY`` the year, ``DO``, one ``KW`` per keyword,
  ``AB``, one ``N1`` per note, ``ID`` the paper's id; CRLF line ends as the spec asks. RIS has no escaping: a value's
  line breaks are kept only in ``AB`` and ``N1`` (Zotero reads them as lines of the text, our reader those of ``AB``),
  other values are one line, and a continuation line that would read as a tag starts with a space.
- BibTeX (Zotero's BibTeX.js): UTF-8, ``@article{key,`` with unique keys (family_firstword_year, then -1, -2 ...),
  ``author = {A and B}``, LaTeX's special characters escaped (``\\% \\& \\_ \\# \\$``; ``\\ { } ~ ^ < > |`` as
  ``{\\textbackslash}`` and the like, so a value's braces always balance; the first character of a line that starts
  like a new entry or a RIS tag in braces) and the title's capitals protected with braces, so styles print it as
  stored; ``doi`` and ``url`` are written verbatim as Zotero does.
- CSL JSON (citation-style-language/schema csl-data.json): a list of items with ``id``, ``type``, ``title``,
  ``author`` [{"family", "given"}] (``literal`` for a name that cannot be split), ``container-title``, ``issued``
  {"date-parts": [[YYYY]]}, ``DOI``, ``abstract``, ``keyword`` (one text, ", " between keywords), ``note``.

The writers are our own rather than rispy's ``dumps`` and a bibtexparser ``Library``: rispy writes a "1." line
before each ``TY``, keeps line breaks that start false tags and needs every record in memory; bibtexparser writes
values as given (escaping and key choice are ours either way). Ours stream records one by one and are faster
(BENCHMARKS.md section 20).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TextIO

from core.io.reference_fields import FieldRoles, Reference, ascii_word, reference
from core.io.ris_paragraphs import read_back
from core.records import Paper

# fmt -> (label, file extension, MIME type)
EXPORT_FORMATS: dict[str, tuple[str, str, str]] = {
    "ris": ("RIS (Zotero, EndNote, Mendeley)", ".ris", "application/x-research-info-systems"),
    "bibtex": ("BibTeX", ".bib", "application/x-bibtex"),
    "csl": ("CSL JSON", ".json", "application/vnd.citationstyles.csl+json"),
    "csv": ("CSV (every field)", ".csv", "text/csv"),
    "jsonl": ("JSON Lines (every field)", ".jsonl", "application/jsonl"),
    "xlsx": ("Excel (every field)", ".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
}
REFERENCE_FORMATS = ("ris", "bibtex", "csl")
Tags = Mapping[str, Mapping[str, list[str]]]  # paper id -> {"keywords": [...], "notes": [...]}

# -- RIS ---------------------------------------------------------------------------------------------------------
_RIS_TYPE = {"article": "JOUR", "conference": "CONF", "chapter": "CHAP", "book": "BOOK", "thesis": "THES",
             "report": "RPRT", "preprint": "JOUR"}
_TAG_LINE = re.compile(r"^[A-Z][A-Z0-9]{1,3} {0,2}-")  # a RIS or MEDLINE tag
_NEWLINES = re.compile(r"\r\n?|\n")
_WRAPPED_WIDTH = 85  # lines no longer than this may be read as a wrapped paragraph (Zotero's RIS.js: 85)
_PAGE_RANGE = re.compile(r"^\s*(\S+?)\s*[-\u2010-\u2015\u2212]+\s*(\S+)\s*$")


def _line(text: object) -> str:
    """A value on one line: its line breaks and tabs folded into single spaces."""
    value = text if isinstance(text, str) else str(text)
    if "\n" in value or "\r" in value or "\t" in value:
        return " ".join(value.split())
    return value.strip()


def _lines(tag: str, values: list[str]) -> str:
    """One line per value under `tag` (values are stripped already; line breaks and tabs are folded)."""
    joined = "\x1f".join(values)
    if "\n" in joined or "\r" in joined or "\t" in joined or "\x1f" in "".join(values):
        return "\r\n".join(f"{tag}  - {_line(value)}" for value in values)
    return f"{tag}  - " + joined.replace("\x1f", f"\r\n{tag}  - ")


def _ris_block(text: str) -> str:
    """A text that may span lines: CRLF between lines; a line that would read as a tag gets a leading space. When
    every line is short enough to pass for a wrapped one (85 characters or fewer) and a break would read back as a
    wrap (core/io/ris_paragraphs.py), the first line is padded with spaces to 86 characters, so readers (ours,
    Zotero's RIS.js) keep each line break as the text's own."""
    text = text.strip()
    if "\n" not in text and "\r" not in text:
        return text
    lines = [" " + line if _TAG_LINE.match(line) else line for line in _NEWLINES.split(text)]
    if max(len(line) for line in lines) <= _WRAPPED_WIDTH and read_back(lines) != "\n".join(map(str.strip, lines)):
        lines[0] += " " * (_WRAPPED_WIDTH + 1 - len(lines[0]))
    return "\r\n".join(lines)


def _pages(ref: Reference) -> tuple[str, str]:
    start, end = ref.extra.get("start_page", ""), ref.extra.get("end_page", "")
    if not start and (pages := ref.extra.get("pages")):
        match = _PAGE_RANGE.match(pages)
        start, end = (match[1], match[2]) if match else (pages, "")
    return start, end


def ris_record(ref: Reference) -> str:
    """One RIS record, ``TY`` to ``ER``, CRLF line ends, a blank line after."""
    out = [f"TY  - {_RIS_TYPE.get(ref.kind, 'JOUR')}", f"TI  - {_line(ref.title)}"]
    if ref.authors:
        out.append(_lines("ED" if ref.editors_only else "AU",
                          [f"{family}, {given}" if given else family for family, given in ref.authors]))
    if ref.journal:
        out.append(f"T2  - {_line(ref.journal)}")
    if ref.extra.get("abbreviation"):
        out.append(f"J2  - {_line(ref.extra['abbreviation'])}")
    if ref.abstract.strip():
        out.append(f"AB  - {_ris_block(ref.abstract)}")
    if ref.year is not None:
        out.append(f"PY  - {_line(ref.year)}")
    if ref.doi:
        out.append(f"DO  - {_line(ref.doi)}")
    start, end = _pages(ref)
    for tag, value in (("VL", ref.extra.get("volume")), ("IS", ref.extra.get("issue")), ("SP", start),
                       ("EP", end), ("SN", ref.extra.get("issn")), ("UR", ref.extra.get("url")),
                       ("PB", ref.extra.get("publisher")), ("LA", ref.extra.get("language"))):
        if value:
            out.append(f"{tag}  - {_line(value)}")
    if ref.keywords:
        out.append(_lines("KW", ref.keywords))
    out.extend(f"N1  - {_ris_block(note)}" for note in ref.notes)
    out.extend((f"ID  - {_line(ref.id)}", "ER  - ", "", ""))
    return "\r\n".join(out)


# -- BibTeX ------------------------------------------------------------------------------------------------------
_BIBTEX_TYPE = {"article": "article", "conference": "inproceedings", "chapter": "incollection", "book": "book",
                "thesis": "phdthesis", "report": "techreport", "preprint": "article"}
_BIBTEX_ESCAPES = {
    "\\": r"{\textbackslash}", "{": r"{\textbraceleft}", "}": r"{\textbraceright}", "~": r"{\textasciitilde}",
    "^": r"{\textasciicircum}", "<": r"{\textless}", ">": r"{\textgreater}", "|": r"{\textbar}",
    "%": r"\%", "&": r"\&", "_": r"\_", "#": r"\#", "$": r"\$",
}
_BIBTEX_SPECIAL = re.compile("[" + re.escape("".join(_BIBTEX_ESCAPES)) + "]")
_VERBATIM_BRACES = str.maketrans({"{": r"\{", "}": r"\}", "%": r"\%"})
# a line of a value that starts like a new entry ("@", which bibtexparser reads as one) or like a RIS or MEDLINE tag
# ("TY  - ", "PMID- ", which would make the file sniff as that format): its first character goes in braces
_LINE_START = re.compile(r"(\n[ \t]*)(@|[A-Z](?=[A-Z0-9]{1,3} {0,2}-))")
_AND = re.compile(r"\band\b", re.IGNORECASE)
_KEY_STOPWORDS = frozenset("a an the of on in for from and to with does how its it why this some".split())


def keyword_list(keywords: list[str]) -> str:
    """Keywords as one text: ", " between them (Zotero's form), or "; " when a keyword holds a comma (a MeSH term
    such as "Carcinoma, Non-Small-Cell Lung"), as Scopus writes them; our readers split at ";" when there is one."""
    return ("; " if any("," in keyword for keyword in keywords) else ", ").join(keywords)


def bibtex_escape(text: str) -> str:
    """A text as a BibTeX value: LaTeX's special characters escaped; its white space as it is (readers keep it)."""
    escaped = _BIBTEX_SPECIAL.sub(lambda match: _BIBTEX_ESCAPES[match[0]], text.strip())
    return _LINE_START.sub(r"\1{\2}", escaped) if "\n" in escaped else escaped


def _protect_case(escaped: str) -> str:
    """Braces round every word holding a capital after the title's first letter, so styles keep its case."""
    words = escaped.split(" ")
    for i, word in enumerate(words):
        body = word[1:] if i == 0 else word
        if body.lower() != body:  # a capital (or any cased letter not in lower case)
            words[i] = "{" + word + "}"
    return " ".join(words)


def _bibtex_name(family: str, given: str) -> str:
    name = bibtex_escape(f"{family}, {given}" if given else family)
    return "{" + name + "}" if _AND.search(family) or _AND.search(given) else name


def citation_key(ref: Reference, taken: dict[str, int]) -> str:
    """family_firstword_year in ASCII lower case (Zotero's form), made unique with -1, -2 ... (`taken`: the keys
    given so far, each with the last number tried after it)."""
    family = ascii_word(ref.authors[0][0].split(" ")[-1]) if ref.authors else ""
    word = next((w for w in map(ascii_word, ref.title.split()) if w and w not in _KEY_STOPWORDS), "")
    year = ascii_word(str(ref.year)) if ref.year is not None else ""
    base = "_".join(part for part in (family, word, year) if part) or "ref"
    key, n = base, taken.get(base, 0)
    while key in taken:
        n += 1
        key = f"{base}-{n}"
    taken[base] = n
    taken.setdefault(key, 0)
    return key


def bibtex_entry(ref: Reference, key: str) -> str:
    """One ``@type{key, ...}`` entry, a blank line after."""
    entry_type = _BIBTEX_TYPE.get(ref.kind, "article")
    title = _protect_case(bibtex_escape(ref.title))
    container = "journal" if entry_type == "article" else "booktitle"
    start, end = _pages(ref)
    fields: list[tuple[str, str]] = [("title", title)]
    if ref.authors:
        names = [f"{family}, {given}" if given else family for family, given in ref.authors]
        joined = " and ".join(names)
        role = "editor" if ref.editors_only else "author"
        if len(_AND.findall(joined)) != len(names) - 1:  # a name holds "and": it goes in braces
            fields.append((role, " and ".join(_bibtex_name(family, given) for family, given in ref.authors)))
        else:  # no name holds a lone "and": one escape of the whole list
            fields.append((role, bibtex_escape(joined)))
    for name, value in ((container, ref.journal), ("year", str(ref.year) if ref.year is not None else ""),
                        ("volume", ref.extra.get("volume")), ("number", ref.extra.get("issue")),
                        ("pages", f"{start}--{end}" if start and end else start),
                        ("issn", ref.extra.get("issn")), ("publisher", ref.extra.get("publisher")),
                        ("language", ref.extra.get("language"))):
        if value:
            fields.append((name, bibtex_escape(value)))
    for name, value in (("doi", ref.doi), ("url", ref.extra.get("url"))):
        if value:
            fields.append((name, _line(value).translate(_VERBATIM_BRACES)))
    if ref.keywords:
        fields.append(("keywords", bibtex_escape(keyword_list(ref.keywords))))
    if ref.abstract.strip():
        fields.append(("abstract", bibtex_escape(ref.abstract)))
    if ref.notes:
        fields.append(("note", bibtex_escape("; ".join(ref.notes))))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{entry_type}{{{key},\n{body}\n}}\n\n"


# -- CSL JSON ----------------------------------------------------------------------------------------------------
_CSL_TYPE = {"article": "article-journal", "conference": "paper-conference", "chapter": "chapter", "book": "book",
             "thesis": "thesis", "report": "report", "preprint": "article"}


def csl_item(ref: Reference) -> dict[str, object]:
    """One CSL JSON item."""
    item: dict[str, object] = {"id": ref.id, "type": _CSL_TYPE.get(ref.kind, "article-journal"), "title": ref.title}
    if ref.authors:
        item["editor" if ref.editors_only else "author"] = [
            {"family": family, "given": given} if given else {"literal": family} for family, given in ref.authors]
    if ref.journal:
        item["container-title"] = ref.journal
    if ref.extra.get("abbreviation"):
        item["container-title-short"] = ref.extra["abbreviation"]
    if isinstance(ref.year, int):
        item["issued"] = {"date-parts": [[ref.year]]}
    elif ref.year:
        item["issued"] = {"raw": str(ref.year)}
    if ref.doi:
        item["DOI"] = ref.doi
    start, end = _pages(ref)
    for name, value in (("volume", ref.extra.get("volume")), ("issue", ref.extra.get("issue")),
                        ("page", f"{start}-{end}" if start and end else start), ("ISSN", ref.extra.get("issn")),
                        ("URL", ref.extra.get("url")), ("publisher", ref.extra.get("publisher")),
                        ("language", ref.extra.get("language"))):
        if value:
            item[name] = value
    if ref.abstract:
        item["abstract"] = ref.abstract
    if ref.keywords:
        item["keyword"] = keyword_list(ref.keywords)
    if ref.notes:
        item["note"] = "\n".join(ref.notes)
    return item


# -- writing -----------------------------------------------------------------------------------------------------
def _chunks(papers: Iterable[Paper], fmt: str, roles: FieldRoles, tags: Tags) -> Iterator[str]:
    taken: dict[str, int] = {}
    first = True
    if fmt == "csl":
        yield "["
    for paper in papers:
        ref = reference(paper, roles, tags.get(paper.id))
        if fmt == "ris":
            yield ris_record(ref)
        elif fmt == "bibtex":
            yield bibtex_entry(ref, citation_key(ref, taken))
        else:
            yield ("\n" if first else ",\n") + json.dumps(csl_item(ref), ensure_ascii=False)
        first = False
    if fmt == "csl":
        yield "\n]\n" if not first else "]\n"


def write_references(papers: Iterable[Paper], out: TextIO, fmt: str, roles: FieldRoles | None = None,
                     tags: Tags | None = None) -> int:
    """Write papers to a text stream as RIS, BibTeX or CSL JSON (`fmt`: ris, bibtex, csl); returns the count.

    Other items than Paper (RowError, RowWarning) are skipped. `tags` adds keywords and notes per paper id.
    The stream should be opened with newline="" so RIS keeps its CRLF line ends.
    """
    if fmt not in REFERENCE_FORMATS:
        raise ValueError(f"reference format must be one of {', '.join(REFERENCE_FORMATS)}, not {fmt!r}")
    count = 0

    def counted() -> Iterator[Paper]:
        nonlocal count
        for paper in papers:
            if isinstance(paper, Paper):
                count += 1
                yield paper

    batch: list[str] = []
    for chunk in _chunks(counted(), fmt, roles or FieldRoles(), tags or {}):
        batch.append(chunk)
        if len(batch) >= 1000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    return count
