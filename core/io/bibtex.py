"""The BibTeX reader, with the LaTeX-to-text decoding of its values."""

from __future__ import annotations

import functools
import itertools
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.io.aas_journals import aas_journal
from core.io.bibtex_lines import attachment_paths, key_again_blanked, line_entry, put_back
from core.io.cut_short import entry_cut_error, entry_cut_warning, record_cut_error
from core.io.names import bibtex_names
from core.io.rows import NumberedRow, Row, RowWarning, _year
from core.io.safety import _open_text, _shown
from core.io.turned_names import turned_rows
from core.records import RowError

_BASE_KEY = re.compile(r"^[0-9a-f]{64}$")  # BASE (Bielefeld Academic Search Engine) keys: a SHA-256 in hex
_ENTRY_START = re.compile(r"^\s*@[A-Za-z]+\s*[{(]")


def looks_like_bibtex(head: str) -> bool:
    """BibTeX: an entry (``@article{``) starts one of the first ten non-empty lines, after a preamble if any: the
    Cochrane Library heads each entry with "Record #1 of 6", Scopus writes "Scopus" and "EXPORT DATE: …" first."""
    lines = [line.lstrip("\ufeff") for line in head.splitlines() if line.strip()][:10]
    return any(_ENTRY_START.match(line) for line in lines)


def _split_keywords(value: Any) -> list[str]:
    """Keywords as a list: split at ";" where the value has one (Scopus, Web of Science and our own export write
    "; ", so a MeSH term such as "Carcinoma, Non-Small-Cell Lung" stays whole), else at "," (Zotero, JabRef);
    line breaks and runs of spaces inside a keyword become one space. A repeated field (ScienceDirect writes one
    ``keywords`` per keyword) is a list: each of its values is a keyword, or several joined by ";"."""
    if isinstance(value, list):
        parts = [part for item in value for part in str(item).split(";")]
    else:
        text = str(value or "")
        parts = text.split(";") if ";" in text else text.split(",")
    return [" ".join(part.split()) for part in parts if part.strip()]


# BibTeX: bibtexparser splits entries and fields, pylatexenc decodes the LaTeX in the values. Exporters such
# as EndNote and Scopus write plain text into BibTeX, so a bare "%", "&" or "~" there is that character, not
# a LaTeX comment, table column or non-breaking space: all three are kept as written. So are "--" and "---":
# Zotero writes an abstract's text as the user typed it, in BibTeX and RIS alike, so reading "--" as an en dash
# would make the two exports of one paper differ (and no longer merge); a real dash is written as "–" or "—".

_LIST_FIELDS = frozenset(("keywords", "keyword"))  # a field a writer repeats once per value: the values are a list
# ScienceDirect escapes the braces that protect a word's case ("based on \{USDL\}"): read as that protection, not
# as LaTeX's literal braces; a set such as "\{1, 2\}" or one in math mode stays as written
_ESCAPED_CASE_GROUP = re.compile(r"\\\{([^\s{}\\$,]+)\\\}")
_TABBING_ACCENT = re.compile(r"\\a(['`=])")  # accents in a tabbing environment: \\a' is \\'
_LATEX_MARKUP = re.compile(r"[\\{}$]|``|''|[!?]`")  # a value without any of these decodes to itself
_LITERAL_SPECIALS = ("&", "~", "--", "---")  # kept as written, not LaTeX's table column, space or dashes
_BARE_PERCENT = re.compile(r"(?<!\\)((?:\\\\)*)%")
_BARE_DOLLAR = re.compile(r"(?<!\\)((?:\\\\)*)\$")
_SYMBOL_MACROS = {  # what Zotero and JabRef write for characters that pylatexenc does not know
    "textless": "<", "textgreater": ">", "textbar": "|", "textunderscore": "_", "textasciicircum": "^",
    "textbraceleft": "{", "textbraceright": "}", "url": "%s",  # \url{x} is x, not <x>
    "textcrd": "đ", "textcrh": "ħ",  # TIPA's barred letters, as the ACM Digital Library writes "Na\textcrd{}a"
    "copyright": "©", "pounds": "£", "S": "§", "P": "¶", "euro": "€",  # plain LaTeX's text symbols (Paperpile)
    "relax": "",  # a no-op: Better BibTeX keeps bare initials one unit with it ("Braun, {\\relax LM}")
}
_ARGUMENT_MACROS = (  # formatting commands whose argument is the text
    "textsuperscript", "textsubscript", "mkbibemph", "mkbibquote", "mkbibbold", "mkbibitalic", "enquote",
    "textnormal", "textup", "textsl", "textmd", "mbox", "hbox", "nocase", "NoCaseChange", "ensuremath",
)


@functools.lru_cache(maxsize=1)
def _latex_context() -> Any:
    """pylatexenc's LaTeX-to-text rules, with "&", "~", "--" and "---" kept literal and Zotero's symbol commands
    added."""
    from pylatexenc import latex2text

    context = latex2text.get_default_latex_context_db()
    macros = [latex2text.MacroTextSpec(name, simplify_repl=text) for name, text in _SYMBOL_MACROS.items()]
    macros += [latex2text.MacroTextSpec(name) for name in _ARGUMENT_MACROS if context.get_macro_spec(name) is None]
    specials = [latex2text.SpecialsTextSpec(chars, simplify_repl=chars) for chars in _LITERAL_SPECIALS]
    context.add_context_category("miread-plain-text", prepend=True, macros=macros, specials=specials)
    return context


class _LatexText:
    """Decodes the LaTeX in BibTeX values to text, keeping what it cannot decode and saying so."""

    def __init__(self) -> None:
        from pylatexenc import latex2text, latexwalker

        class Decoder(latex2text.LatexNodes2Text):
            """pylatexenc's decoder, writing an unknown command and its braced arguments as they are."""

            unknown: list[str] = []
            after_unknown = False  # the braced groups right after an unknown command are its arguments

            def node_to_text(self, node: Any, prev_node_hint: Any = None, textcol: int = 0) -> str:
                if self.after_unknown and node is not None and node.isNodeType(latexwalker.LatexGroupNode):
                    text = self._groupnodecontents_to_text(node)
                    self.after_unknown = True
                    return f"{node.delimiters[0]}{text}{node.delimiters[1]}"
                self.after_unknown = False
                return str(super().node_to_text(node, prev_node_hint, textcol))

            def macro_node_to_text(self, node: Any) -> str:
                if self.latex_context.get_macro_spec(node.macroname) is None:
                    self.unknown.append(node.macroname)
                    self.after_unknown = True
                    return f"\\{node.macroname}"
                return str(super().macro_node_to_text(node))

        self._decoder = Decoder(latex_context=_latex_context(), math_mode="verbatim")

    def _nodes(self, source: str, tolerant: bool) -> Any:
        from pylatexenc import latexwalker

        return latexwalker.LatexWalker(source, tolerant_parsing=tolerant).get_latex_nodes()[0]

    def __call__(self, value: str) -> tuple[str, str | None]:
        """(text, None), or (text read as far as possible, why it is not whole)."""
        if "\\{" in value and "$" not in value:
            value = _ESCAPED_CASE_GROUP.sub(r"\1", value)
        value = _TABBING_ACCENT.sub(r"\\\1", value)  # Rayyan: G{\\a'E}RARD
        if not _LATEX_MARKUP.search(value):
            return value, None
        from pylatexenc import latexwalker

        # pylatexenc always reads "%" as a comment: a bare one is swapped for an unused character meanwhile
        percent, quotes = itertools.islice((c for c in map(chr, itertools.count(0xE000)) if c not in value), 2)
        source = _BARE_PERCENT.sub(lambda m: m.group(1) + percent, value)
        if "``" not in source:  # "''" with no LaTeX opening quote is Web of Science's '"', as Zotero copies it
            source = source.replace("''", quotes)
        problems: list[str] = []
        self._decoder.unknown, self._decoder.after_unknown = [], False
        try:
            try:
                nodes = self._nodes(source, tolerant=False)
            except latexwalker.LatexWalkerError as error:
                try:  # an unmatched "$" is a dollar sign, not the start of math
                    nodes = self._nodes(_BARE_DOLLAR.sub(lambda m: m.group(1) + "\\$", source), tolerant=False)
                except latexwalker.LatexWalkerError:
                    nodes = self._nodes(source, tolerant=True)
                    problems.append(f"its LaTeX braces or math are unbalanced ({_shown(str(error).splitlines()[0])}),"
                                    " so it was read as far as possible")
            text = str(self._decoder.nodelist_to_text(nodes))
        except Exception as error:  # noqa: BLE001 - pylatexenc on untrusted text: keep the value, report it
            return value, f"its LaTeX could not be decoded ({type(error).__name__}), so it is kept as written"
        if self._decoder.unknown:
            names = ", ".join(dict.fromkeys("\\" + name for name in self._decoder.unknown))
            problems.append(f"unknown LaTeX command {_shown(names)} kept as written")
        return text.replace(percent, "%").replace(quotes, "''"), "; ".join(problems) or None


def _bibtex_row(entry: Any, number: int, latex: _LatexText) -> tuple[Row, list[RowWarning]]:
    """One entry as a row: LaTeX decoded; a repeated field kept under a numbered name; warnings per field."""
    warnings: list[RowWarning] = []
    fields: Row = {}
    ads = any(field.key.strip().lower() in ("adsurl", "adsnote") for field in entry.fields)
    for field in entry.fields:
        key = field.key.strip().lower()
        if key in ("journal", "booktitle") and isinstance(field.value, str) and (macro := aas_journal(field.value)):
            fields[key], fields[f"{key}_abbreviation"] = macro[1], macro[0]  # ADS: "\mnras" (core.io.aas_journals)
            continue
        if ads and key == "abstract" and isinstance(field.value, str):  # ADS's paragraph mark (its "<P />")
            field.value = field.value.replace(_ADS_PARAGRAPH, _PARAGRAPH)
        if key in _LIST_FIELDS and key in fields:  # ScienceDirect: one ``keywords = "…",`` line per keyword
            value, problem = latex(field.value) if isinstance(field.value, str) else (str(field.value), None)
            if problem:
                warnings.append(RowWarning(number, key, f"field '{_shown(key)}': {problem}"))
            fields[key] = [*(fields[key] if isinstance(fields[key], list) else [fields[key]]), value]
            continue
        name, suffix = key, 2
        while name in fields:
            name, suffix = f"{key}_{suffix}", suffix + 1
        if name != key:
            warnings.append(RowWarning(number, key, f"field '{_shown(key)}' appears more than once in the entry; "
                                                    f"this value is kept as '{_shown(name)}'"))
        value, problems = field.value, []
        if key == "file" and isinstance(value, str):  # attachment paths (Zotero, JabRef): no LaTeX in them
            value = attachment_paths(value)
        elif isinstance(value, str):
            value, problem = latex(value)
            problems.append(problem)
        elif isinstance(value, list):  # names split by SeparateCoAuthors
            decoded = [latex(str(item)) for item in value]
            value, problems = [text for text, _ in decoded], [problem for _, problem in decoded]
        for problem in dict.fromkeys(p for p in problems if p):
            warnings.append(RowWarning(number, name, f"field '{_shown(name)}': {problem}"))
        fields[name] = value
    authors, editors = (_people(fields.pop(name, [])) for name in ("author", "editor"))
    row: Row = {
        "key": _key(entry),
        "entrytype": entry.entry_type.lower(),
        "title": fields.pop("title", None),
        "abstract": fields.pop("abstract", None),
        # BibLaTeX names a journal "journaltitle" (Zotero's Better BibLaTeX, biber); a paper's proceedings booktitle
        "journal": fields.pop("journal", None) or fields.pop("journaltitle", None) or fields.get("booktitle"),
        "year": _year(fields.pop("year", None)) or _year(fields.get("date")),  # BibLaTeX: date = {1995-01-01}
        "doi": fields.pop("doi", None) or _doi_key(_key(entry)),  # JSTOR: ``@article{10.2307/2083364,``, no doi
        "authors": [name for name in authors if name],
        "keywords": _split_keywords(fields.pop("keywords", None)),
    }
    if editors:
        row["editors"] = editors
        if not row["authors"]:  # an edited book: its editors are its people, as Zotero shows them ("(Ed.)")
            row["authors"], row["author_role"] = list(editors), "editors"
    row.update(fields)
    if not row["abstract"] and _BASE_KEY.match(str(row["key"])) and isinstance(row.get("note"), str):
        row["abstract"] = row.pop("note")  # BASE writes a record's description, its abstract, in the note
    if isinstance(row["abstract"], str) and _web_of_science(row):  # its wrapped lines: "the first\n   outranking"
        row["abstract"] = " ".join(row["abstract"].split())
    if isinstance(row["abstract"], str) and ads:  # ADS wraps lines at ~70 columns too; its paragraphs are marked
        parts = (" ".join(part.split()) for part in row["abstract"].split(_PARAGRAPH))
        row["abstract"] = "\n".join(part for part in parts if part)
    return row, warnings


_ADS_PARAGRAPH = "\\textbackslash\\textbackslash"  # how NASA ADS writes a paragraph break in BibTeX
_PARAGRAPH = "\ue0ff"  # stands for it while the LaTeX is decoded


def _people(value: Any) -> list[str]:
    """Names of an ``author`` or ``editor`` field as a list: white space folded, LaTeX's ``~`` between initials a
    space ("D.~W.~E.", NASA ADS); the Cochrane Library's "Utomo, E, Groen, J, and Blok, BFM" split too
    (core.io.names)."""
    names = [" ".join(str(name).replace("~", " ").split()) for name in (value if isinstance(value, list) else [value])]
    return [name for name in bibtex_names(names) if name]


def _web_of_science(row: Row) -> bool:
    """Whether an entry is Web of Science's (``@article{ WOS:…,``, ``Unique-ID = {WOS:…}``): its values are wrapped
    at about 70 columns with a three-space indent, never broken into paragraphs, so a line break there is a space."""
    ids = (str(row.get("key") or "").strip(), str(row.get("unique-id") or "").strip())
    return any(value.upper().startswith(("WOS:", "ISI:")) for value in ids)


_SAME_KEY = "\x1f"  # joins a repeated citation key to its entry's number while bibtexparser reads the file


def _bibtex_library(text: str) -> Any:
    """Parse BibTeX with bibtexparser, every entry kept: one with a repeated field (bibtexparser sets it aside as a
    DuplicateFieldKeyBlock) and one whose citation key an earlier entry has (a DuplicateBlockKeyBlock: Scopus, Web of
    Science and Mendeley write author-year keys that different papers share). Field names are read in lower case
    (Web of Science writes ``Author``, ``Title``), so authors are split into a list whatever their case."""
    import bibtexparser
    from bibtexparser.library import Library
    from bibtexparser.middlewares import BlockMiddleware, SeparateCoAuthors, default_parse_stack
    from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry

    class KeepEveryEntry(BlockMiddleware):
        """Turns bibtexparser's set-aside entries back into entries (a repeated key made unique meanwhile with
        ``_SAME_KEY`` and the entry's number; `_key` reads it back) and lower-cases field names, repeats kept."""

        def __init__(self) -> None:
            super().__init__(allow_inplace_modification=True, allow_parallel_execution=False)

        def transform(self, library: Any) -> Any:
            blocks, seen = [], set()
            for number, block in enumerate(library.blocks):
                if isinstance(block, DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, Entry):
                    block = block.ignore_error_block
                if isinstance(block, DuplicateFieldKeyBlock):
                    block = block.ignore_error_block
                if isinstance(block, Entry):
                    if block.key in seen:
                        block.key = f"{block.key}{_SAME_KEY}{number}"
                    seen.add(block.key)
                    for field in block.fields:
                        field.key = field.key.lower()
                blocks.append(block)
            return Library(blocks=blocks, fail_on_duplicate_key=False)

    stack = [KeepEveryEntry(), *default_parse_stack(), SeparateCoAuthors()]
    splitter = logging.getLogger("bibtexparser.splitter")  # its "block aborted" line: the reader reports the block
    level = splitter.level
    splitter.setLevel(logging.ERROR)
    try:
        return bibtexparser.parse_string(text, parse_stack=stack)
    finally:
        splitter.setLevel(level)


_DOI_KEY = re.compile(r"10\.\d{4,9}/\S+")


def _doi_key(key: str) -> str | None:
    """A citation key that is a whole DOI (JSTOR keys each entry by its DOI and writes no ``doi`` field), or None."""
    return key.strip() if _DOI_KEY.fullmatch(key.strip()) else None


def _key(entry: Any) -> str:
    """An entry's citation key as written (see `_bibtex_library` and `_COMMA_KEY`)."""
    return str(entry.key).partition(_SAME_KEY)[0].replace(_KEY_COMMA, ", ")


_KEY_COMMA = "\x1e"  # stands for ", " inside a citation key while bibtexparser reads the file
# an entry line whose key holds ", " (Mendeley: "@article{Neeson, 2015,"): bibtexparser drops the whole entry
_COMMA_KEY = re.compile(r"^([ \t]*@[A-Za-z]+[ \t]*[{(])([^,{}=\s][^,{}=\n]*?),[ \t]*"
                        r"([^,{}=\s][^,{}=\n]*?)[ \t]*,[ \t\r]*$", re.MULTILINE)


def _closed_entry(raw: str) -> tuple[Any, str] | None:
    """An entry that failed because a field's closing brace is missing, closed at its end: (entry, field)."""
    missing = raw.count("{") - raw.count("}")
    if not 0 < missing <= 16 or not raw.lstrip().startswith("@"):
        return None
    library = _bibtex_library(raw.rstrip() + "}" * missing)
    if len(library.entries) != 1 or library.failed_blocks or not library.entries[0].fields:
        return None
    entry = library.entries[0]
    return entry, entry.fields[-1].key.strip().lower()


_FIELD_TEXT = re.compile(r"^\s*[A-Za-z][\w-]*\s*=\s*[{\"\d]", re.MULTILINE)


def _closed_early(library: Any) -> set[int]:
    """The entries (by id) an extra "}" closed early: the text after one is not a comment but its other fields."""
    from bibtexparser.model import Entry, ImplicitComment

    blocks = library.blocks
    return {id(block) for block, after in zip(blocks, blocks[1:]) if isinstance(block, Entry)
            and isinstance(after, ImplicitComment) and _FIELD_TEXT.search(str(after.comment))}


def _bibtex_rows(path: Path) -> Iterator[NumberedRow]:
    """A BibTeX file's rows and notes; names a file writes turned round (Rayyan) set right (`core.io.turned_names`)."""
    return turned_rows(_entry_rows(path))


def _entry_rows(path: Path) -> Iterator[NumberedRow]:
    from bibtexparser.model import Entry, ParsingFailedBlock

    with _open_text(path) as handle:
        text = handle.read()
    library = _bibtex_library(key_again_blanked(_COMMA_KEY.sub(rf"\1\2{_KEY_COMMA}\3,", text)))
    latex = _LatexText()
    blocks = sorted([*library.entries, *library.failed_blocks], key=lambda block: block.start_line or 0)
    early = _closed_early(library)
    lines = text.splitlines() if early or library.failed_blocks else []
    for number, block in enumerate(blocks, start=1):
        line = (block.start_line or 0) + 1
        by_line = line_entry(lines[line - 1:]) if id(block) in early else None
        if by_line is not None:  # an extra "}" closed it, its later fields outside: read one field a line
            yield from _lines_read(by_line, number, line, latex)
            continue
        if isinstance(block, Entry):
            row, warnings = _bibtex_row(block, number, latex)
            yield number, row
            yield from ((number, warning) for warning in warnings)
        elif isinstance(block, ParsingFailedBlock):
            by_line = line_entry(lines[line - 1:])
            if by_line is not None:  # a brace written as text (Scopus), or lost (a script), one field a line
                yield from _lines_read(by_line, number, line, latex)
                continue
            closed = _closed_entry(block.raw or "")
            last = number == len(blocks) and _ends_inside(text, block.raw or "")
            if closed is None:
                yield number, (entry_cut_error(number, line) if last else
                               RowError(number, f"row {number}: BibTeX entry at line {line} could not be parsed"))
                continue
            entry, field = closed
            if number == len(blocks) and not any(f.key == "title" and str(f.value).strip() for f in entry.fields):
                yield number, record_cut_error(number, f"its '{_shown(field)}' field has no closing brace")
                continue
            row, warnings = _bibtex_row(entry, number, latex)
            yield number, row
            yield number, (entry_cut_warning(number, _shown(field)) if last else
                           RowWarning(number, field, f"field '{_shown(field)}' has no closing brace, so it was "
                                                     f"read to the end of the entry (line {line})"))
            yield from ((number, warning) for warning in warnings)


def _ends_inside(text: str, raw: str) -> bool:
    """Whether the file ends inside the entry `raw` (its last block): nothing but blanks follows it."""
    return bool(raw.strip()) and text.rstrip().endswith(raw.rstrip())


def _lines_read(by_line: tuple[str, list[str], list[str]], number: int, line: int,
                latex: _LatexText) -> Iterator[NumberedRow]:
    """The row of an entry read one field a line (`core.io.bibtex_lines`), with a warning naming its fields whose
    braces do not balance; an error if even the rebuilt entry cannot be read."""
    rebuilt, unbalanced, cased = by_line
    library = _bibtex_library(rebuilt)
    if len(library.entries) != 1 or library.failed_blocks:
        yield number, RowError(number, f"row {number}: BibTeX entry at line {line} could not be parsed")
        return
    row, warnings = _bibtex_row(library.entries[0], number, latex)
    yield number, {key: put_back(value) for key, value in row.items()}
    for field in unbalanced:
        yield number, RowWarning(number, field, f"the braces of field '{_shown(field)}' do not balance (a brace "
                                                f"written as text): the entry was read one field a line (line {line})")
    for field in cased:
        yield number, RowWarning(number, field, f"the braces of field '{_shown(field)}' do not balance (its outer "
                                                f"braces lost): read as its words' case, the entry one field a line "
                                                f"(line {line})")
    yield from ((number, warning) for warning in warnings)
