"""Reading files: raw rows, columns and previews, and rows validated into Paper, RowError or RowWarning.

Every reader streams: a file is never loaded whole, except BibTeX files and ``.json`` arrays, whose
parsers need the full text. Bad input raises ``CorpusError`` with one sentence; rows that cannot be
used come out of ``read_papers`` as ``RowError`` with their 1-based row number; a field that could not be
read whole (BibTeX LaTeX that does not decode, a repeated field or RIS tag) comes out as ``RowWarning``
after its row, whose paper is still imported.

Titles and abstracts are read as text whatever reader they came from: HTML, JATS, MathML and PubMed's
``<AbstractText Label=...>`` markup is taken out here (`core.io.markup`: paragraphs become lines, labels
"LABEL: text"), and the value as exported is kept in the paper's fields as ``title_markup`` / ``abstract_markup``
(only when it differed), so an export of the corpus still holds the text as the user exported it.

Ids: the id column is detected by name, then checked on the first rows (`core.io.ids`: placeholders are never
ids); ``read_papers`` says which column it used (``id_column``) and why it passed one over (``id_note``).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.io.background import background_worthwhile, read_in_background
from core.io.columns import ColumnMap, detect_columns
from core.io.formats import _PEEK_ROWS, ReadOptions, _open_rows
from core.io.formulas import restore
from core.io.ids import choose_id
from core.io.ids import id_text as _id_text
from core.io.known_fields import clean_authors, known_value
from core.io.markup import empty_markup, has_markup, placeholder, plain_text
from core.io.mojibake import repaired_rows
from core.io.rows import NumberedRow, Row, RowWarning, _year, at_row
from core.io.safety import _name, _shown, encoding_name
from core.labels import is_missing
from core.records import Paper, RowError, duplicate_key

if TYPE_CHECKING:
    import pandas

# a citation in a journal column, as Embase writes it: "Endoscopic Ultrasound (2014) 3:3 (152-160). Date of ..."
# the early access date of Web of Science plain text (EA), tab-delimited (EA) and BibTeX ("Early Access Date")
_EARLY_ACCESS = ("ea", "early access date", "earlyaccessdate")
_VENUES = ("booktitle", "proceedings title")  # where a conference paper's venue is when its journal is empty
_CITATION = re.compile(r"^(?P<journal>[^()]+?)\s+\((?P<year>\d{4})\)\s+\S")


def read_rows(path: str | Path, fmt: str | None = None, options: ReadOptions | None = None) -> Iterator[dict[str, Any]]:
    """Stream a file's raw rows as dicts with every column; unreadable rows are left out."""
    rows = _open_rows(path, fmt, options).rows
    return (row for _, row in rows if isinstance(row, dict))


def columns_of(path: str | Path, fmt: str | None = None, options: ReadOptions | None = None) -> list[str]:
    """The column names of a file: its header, or the keys of its first rows."""
    return _open_rows(path, fmt, options).columns


def preview(path: str | Path, fmt: str | None = None, n: int = 20,
            options: ReadOptions | None = None) -> pandas.DataFrame:
    """The first ``n`` raw rows of a file as a DataFrame, with every column."""
    import pandas

    opened = _open_rows(path, fmt, options)
    head = [row for _, row in itertools.islice(opened.rows, n * 2 + _PEEK_ROWS) if isinstance(row, dict)][:n]
    return pandas.DataFrame(head, columns=opened.columns)


def _missing(value: Any) -> bool:
    """None or NaN; blank text stays text here (readers decide what an empty cell means)."""
    return not isinstance(value, str) and is_missing(value)


def _restored(value: Any) -> Any:
    """A CSV cell without the apostrophe an export put before a formula (others as they are)."""
    return restore(value).strip() or None if isinstance(value, str) and value[:1] == "'" else value


def _text(value: Any) -> str | None:
    """A title/abstract cell as stripped text; None when missing or empty; ValueError when not text."""
    if type(value) is str:  # noqa: E721 - the common case first
        return value.strip() or None
    if _missing(value):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError("not text")
    return value.strip() or None


def _one_line(text: str) -> str:
    """White space folded to single spaces, as ``" ".join(text.split())`` (the regex \\s+ -> " "), without splitting a
    text that has none to fold: a printable text holds no white space but the ASCII space (every other white space
    character is a control or a separator), so one without double spaces or spaces at its ends is folded already
    (checked on every code point; BENCHMARKS.md §25e)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


def _field_value(value: Any, tabular: bool) -> Any:
    if type(value) is not str and _missing(value):  # noqa: E721 - a str is never missing: skip the check
        return None
    if tabular and type(value) is str:  # noqa: E721
        if value[:1] == "'":  # a formula neutralised by a CSV export (ours, or OWASP's rule elsewhere)
            value = restore(value)
        if value.startswith('="') and value.endswith('"'):  # an Excel formula cell (CINAHL): ="Jun2023"
            value = value[2:-1]
        if value == "":
            return None
        if value[:1] in "[{":
            try:
                decoded = json.loads(value)
            except (ValueError, RecursionError):
                return value
            if isinstance(decoded, (list, dict)):
                return decoded
    return value


def _title_list(text: str) -> list[str] | None:
    """A title cell holding a JSON list of texts (Rayyan: a title in two languages) as its texts, else None."""
    try:
        decoded = json.loads(text)
    except (ValueError, RecursionError):
        return None
    texts = [t.strip() for t in decoded if isinstance(t, str) and t.strip()] if isinstance(decoded, list) else []
    return texts if texts and len(texts) == len(decoded) else None


_RESERVED_FIELDS = frozenset(("id", "title", "abstract"))  # export writes these columns itself


def _field_name(name: Any, taken: dict[str, Any]) -> str:
    base = str(name).strip().lower() or "column"
    key, suffix = base, 2
    while key in taken or key in _RESERVED_FIELDS:
        key, suffix = f"{base}_{suffix}", suffix + 1
    return key


def _paper(number: int, row: Row, columns: ColumnMap, tabular: bool, title_only: bool = False,
           line: int | None = None) -> Paper | RowError:
    """Record ``number`` as a paper, or a RowError; ``line``: the row a spreadsheet shows it on (CSV/TSV/xlsx)."""
    try:
        title = _text(row.get(columns.title))
        abstract = _text(row.get(columns.abstract)) if columns.abstract else None
        if tabular and (title and title[0] == "'" or abstract and abstract[0] == "'"):
            title, abstract = _restored(title), _restored(abstract)  # a formula's apostrophe from a CSV export goes
    except ValueError:
        return RowError(at_row(number, line), f"row {line or number}: title or abstract is not text")
    other_titles = _title_list(title) if tabular and title and title[:2] == '["' else None
    if other_titles:  # Rayyan: '["English title", "Original title"]', one cell
        title, other_titles = other_titles[0], other_titles[1:]
    held: dict[str, str] = {}  # an export's placeholder for none, by field (below)
    # each test below is tried only on a text holding what it looks for ("<", "&", a short text): most hold none
    if title is not None and "<" in title and empty_markup(title):  # "<jats:p />": markup around nothing, no text
        held["title"], title = title, None
    if abstract is not None and "<" in abstract and empty_markup(abstract):
        held["abstract"], abstract = abstract, None
    marked = {}  # the title and abstract as exported, where they held markup (core.io.markup)
    # a text that is markup alone (a script tag, an image) stays as exported: nothing a user has is lost, and pages
    # show titles and abstracts escaped, never as HTML
    if title is not None and ("<" in title or "&" in title) and has_markup(title) and (
            plain := plain_text(title).strip()):
        marked["title_markup"], title = title, plain
    if abstract is not None and ("<" in abstract or "&" in abstract) and has_markup(abstract) and (
            plain := plain_text(abstract).strip()):
        marked["abstract_markup"], abstract = abstract, plain
    # an export's placeholder for none ("[No abstract available]", "[Not Available].") is no text
    if title is not None and placeholder(title):
        held["title"], title = title, None
    if abstract is not None and len(abstract) < 64 and placeholder(abstract):
        held["abstract"], abstract = abstract, None
    if title is None or (abstract is None and not title_only):
        empty = [name for name, value in (("title", title), ("abstract", abstract)) if value is None]
        if not held:
            return RowError(at_row(number, line), f"row {line or number}: empty {' and '.join(empty)}")
        return RowError(at_row(number, line), f"row {line or number}: " + "; ".join(
            f"no {name} (the export's placeholder '{_shown(held[name])}')" if name in held else f"empty {name}"
            for name in empty))
    fields: dict[str, Any] = {}
    for key, field in columns.renames.items():  # known fields first, under the product's names
        if key in row:
            fields[field] = known_value(field, _field_value(row[key], tabular))
    passed, dates = columns.passed_over, columns.dates
    for key, value in row.items():
        if key not in passed and not (key in dates and str(value).strip() == str(fields.get("year"))):
            fields[_field_name(restore(key) if tabular else key, fields)] = _field_value(value, tabular)
    names = fields.get("journal")  # Rayyan: '["The Korea Journal of …", "학습장애연구"]', a journal in two languages
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        fields["journal"] = known_value("journal", names[0])
        if len(names) > 1:
            fields.setdefault("journal_other_names", names[1:])
    if not fields.get("journal"):  # a paper's proceedings, as BibTeX's booktitle (ACM's CSVs)
        venue = next((fields[key] for key in _VENUES if isinstance(fields.get(key), str) and fields[key].strip()),
                     None)
        if venue:
            fields["journal"] = known_value("journal", venue)
    journal = fields.get("journal")  # a citation has "(year)": most journals need no regex
    citation = _CITATION.match(journal) if isinstance(journal, str) and "(" in journal else None
    if citation:  # the journal's name, the year if no column gave one, and the citation kept whole
        fields["source"] = fields["journal"]
        fields["journal"] = citation["journal"]
        if fields.get("year") is None:
            fields["year"] = int(citation["year"])
    if fields.get("year") is None:  # Web of Science's early access records have no PY, only EA "NOV 2021"
        early = next((_year(fields[key]) for key in _EARLY_ACCESS if fields.get(key)), None)
        if early:
            fields["year"] = early
    if "authors" in fields:  # each changes only a list of authors
        clean_authors(fields)
    keywords = fields.get("keywords")
    if isinstance(keywords, list) and any(isinstance(word, str) and has_markup(word) for word in keywords):
        marked["keywords_markup"] = keywords  # Scopus' "NPP<inf>gap</inf>" is the keyword "NPPgap"
        fields["keywords"] = [plain_text(word).strip() if isinstance(word, str) and has_markup(word) else word
                              for word in keywords]
    if other_titles:
        fields.setdefault("other_titles", other_titles)
    for key, value in marked.items():  # kept for the export; a column of that name (a re-import) wins
        fields.setdefault(key, value)
    if abstract is None:
        fields["title_only"] = True
    title = _one_line(title)
    paper_id = (
        (_id_text(_restored(row.get(columns.id)) if tabular else row.get(columns.id)) if columns.id else None)
        or _id_text(fields.get("doi"))
        or duplicate_key(title, abstract or "")[:16]
    )
    return Paper(id=paper_id, title=title, abstract=abstract or "", fields=fields, line=line)


def _papers(numbered: Iterable[NumberedRow], columns: ColumnMap, tabular: bool,
            title_only: bool) -> Iterator[Paper | RowError | RowWarning]:
    """The rows as papers (or errors). A reader numbers a record with its spreadsheet row (`RowNumber`) where the
    row's offset from the record number changes and with a plain int after it: the offset is kept here and added
    back, one int a record instead of an object (BENCHMARKS.md §25g)."""
    shift = None  # a spreadsheet's row minus the record number, since the last RowNumber (None: no rows)
    for number, row in numbered:
        if isinstance(row, (RowError, RowWarning)):
            yield row
            continue
        if type(number) is not int:  # noqa: E721 - a RowNumber: the offset from here on
            shift = number.line - number
        yield _paper(number, row, columns, tabular, title_only, None if shift is None else number + shift)


def _database(head: list[tuple[int, Any]]) -> str | None:
    """The database the first rows name in their ``database`` field (the API readers' mark), when they agree."""
    named = {row.get("database") for _, row in head if isinstance(row, dict)}
    one = named.pop() if len(named) == 1 else None
    return one if isinstance(one, str) and one else None


class PaperStream(Iterator["Paper | RowError | RowWarning"]):
    """The records of a file, streamed, with how they were read: the id column used (None: generated ids), a note
    on it, and ``reading`` (reader, header row, separator, sheet, column mapping, title-only)."""

    def __init__(self, items: Iterator[Paper | RowError | RowWarning], id_column: str | None, id_note: str,
                 reading: dict[str, Any] | None = None, hooks: dict[str, Any] | None = None):
        self._items = items
        self.id_column = id_column
        self.id_note = id_note
        self.reading = reading or {}
        self._hooks = hooks if hooks is not None else {}

    def prepare_with(self, prepare: Callable[[Paper], tuple]) -> None:
        """Let a reading process (large files) also compute each paper's stored form with ``prepare`` (a
        module-level function) when that keeps both cores busy; such papers carry it in ``prepared``."""
        self._hooks["prepare"] = prepare

    def __next__(self) -> Paper | RowError | RowWarning:
        return next(self._items)


def read_papers(
    path: str | Path,
    *,
    fmt: str | None = None,
    title_column: str | None = None,
    abstract_column: str | None = None,
    id_column: str | None = None,
    columns: dict[str, str | None] | None = None,
    options: ReadOptions | None = None,
    title_only: bool = False,
    background: bool | None = None,
) -> PaperStream:
    """Stream validated papers; unusable rows come out as RowError, fields not read whole as RowWarning.

    ``columns`` chooses the source column of any field (title, abstract, id, journal, year, doi, authors,
    keywords; ``""`` for none); ``options`` the sheet, header row and separator; ``title_only`` imports rows
    without an abstract, marked ``title_only``. The id column is checked on the first rows (see the module's
    docstring); the stream's ``id_column``, ``id_note`` and ``reading`` say how the file was read. ``background``
    reads the rows in a child process (default: for large CSV/TSV/JSONL files, see `core.io.background`).
    """
    opened = _open_rows(path, fmt, options)
    mapping = detect_columns(
        opened.columns, title=title_column, abstract=abstract_column, id=id_column, fields=columns,
        source=f"file '{_name(opened.path)}'", title_only=title_only,
    )
    head = list(itertools.islice(opened.rows, _PEEK_ROWS))
    given_id = bool(id_column or (columns or {}).get("id"))
    chosen, note = choose_id(opened.columns, mapping, head, given=given_id, fmt=opened.fmt)
    mapping = dataclasses.replace(mapping, id=chosen)
    rows = repaired_rows(itertools.chain(head, opened.rows), _name(opened.path), opened.fmt, (chosen,))  # mojibake
    items: Iterator[Paper | RowError | RowWarning] = _papers(rows, mapping, opened.fmt in ("csv", "tsv"), title_only)
    if background is None:
        background = background_worthwhile(opened.path, opened.fmt)
    hooks: dict[str, Any] = {}
    if background:  # the same reading, in a child process (the rows peeked here only chose the columns)
        items = read_in_background(opened.path, hooks=hooks, reader=read_papers, options=dict(
            fmt=opened.fmt, title_column=title_column, abstract_column=abstract_column, id_column=id_column,
            columns=columns, options=options, title_only=title_only))
    reading = {"reader": opened.fmt, **opened.layout.to_dict(), "columns": mapping.as_dict(),
               "title_only": title_only}
    if opened.encoding:  # the text encoding read in, as a person names it ("Windows-1252")
        reading["encoding"] = encoding_name(opened.encoding)
    if opened.format_note:  # the content overruled the extension: why
        reading["format_note"] = opened.format_note
    if database := _database(head):  # a Crossref or DataCite API answer: the no-abstract refusal names its fix
        reading["database"] = database
    return PaperStream(items, chosen, note, reading, hooks)
