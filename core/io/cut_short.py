"""The sentence for an XML or JSON file that does not parse: one that ends before its document is closed (an
interrupted download or copy) is told apart from one broken inside, so the sentence names the fix."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from core.errors import CorpusError
from core.io.rows import RowWarning
from core.records import RowError

FIX = "it looks cut short (an interrupted download or copy); download or export it again"


ZIP_MAGIC = b"PK\x03\x04"


def zip_cut_short(name: str) -> CorpusError:
    """The CorpusError for a file that starts as a zip (an .xlsx workbook, a Citavi backup) but whose table of
    contents, written at a zip's end, is missing."""
    return CorpusError(f"file '{name}' is a zip archive whose end is missing: {FIX}")


def _cut(kind: str, name: str, line: int) -> CorpusError:
    return CorpusError(f"file '{name}' ends before its {kind} is closed (line {line}): {FIX}")


def xml_text_refusal(name: str, error: Any, lines: Callable[[], int]) -> CorpusError:
    """The CorpusError for lxml's XMLSyntaxError `error` reading file `name` of `lines()` lines: "ends before its XML
    is closed" when the parser stopped on the last line (and not at extra content after a closed document), else
    "is not valid XML" with the line."""
    line = error.lineno or (error.position or (0, 0))[0]
    if line and not str(error).startswith("Extra content") and line >= lines():
        return _cut("XML", name, line)
    return CorpusError(f"file '{name}' is not valid XML (line {line})")


def _ran_out(error: json.JSONDecodeError) -> bool:
    """Whether the JSON parser stopped because the text ended: a string never closed, or the error in the text's
    last six characters (a `\\u00` escape cut in two), blanks aside."""
    return error.msg.startswith("Unterminated string") or len(error.doc.rstrip()) - error.pos <= 6


def json_refusal(name: str, error: json.JSONDecodeError) -> CorpusError:
    """The CorpusError for a JSON document that does not parse: "ends before its JSON is closed" when the parser ran
    out of text, else "is not valid JSON" with the line."""
    if _ran_out(error):
        return _cut("JSON", name, error.doc.count("\n", 0, error.pos) + 1)
    return CorpusError(f"file '{name}' is not valid JSON (line {error.lineno})")


def json_line_refusal(name: str, line: int, error: ValueError | RecursionError, last: bool) -> CorpusError:
    """The CorpusError for line `line` of a JSON-lines file that does not parse; `last`: no text follows it. A last
    line the parser ran out of is the file cut short."""
    if last and isinstance(error, json.JSONDecodeError) and _ran_out(error):
        return _cut("JSON", name, line)
    return CorpusError(f"file '{name}' line {line} is not valid JSON")


def no_end_line(end: str = "ER") -> str:
    """How a cut record shows in a format that ends every record with an `end` line (RIS, WoS, Scopus text)."""
    return f"no {end} line follows"


def record_cut_warning(number: int, field: str, how: str) -> RowWarning:
    """The warning on a file's last record when the file ends inside it after its title: the record is imported,
    its last field (`field`) perhaps not whole; `how` says how the end shows (`no_end_line`, or the line that ends
    every record of the format missing)."""
    return RowWarning(number, field, f"the file ends inside this record ({how}), so its last field may be "
                                     f"incomplete: {FIX}")


def record_cut_error(number: Any, how: str, shown: int | None = None) -> RowError:
    """The skip of a file's last record when the file ends inside it before its title: `how` says how the end
    shows; `shown` is the row the sentence names where it is not `number` (a delimited file's line)."""
    return RowError(number, f"row {shown or number}: the file ends inside this record ({how}), before its title: {FIX}")


def quoted_value_cut(number: int, field: str) -> RowWarning:
    """The warning on a delimited file's last row when the file ends inside a quoted value."""
    return RowWarning(number, field, "the file ends inside a quoted value (it opens a quote it never closes), so its "
                                     f"last field may be incomplete: {FIX}")


def ends_inside_quotes(tail: bytes, text: Callable[[], Iterator[str]], delimiter: str = ",") -> bool:
    """Whether a delimited file ends inside a quoted value: it does not end with a line break (`tail`: its last
    bytes) and, read again by the rules of quoting (`text()`: its lines with their line ends, read only then), a
    value that opened with a quote is still open at its end. A quote inside an unquoted value is text (Web of
    Science's tab export quotes nothing: '"small'' prey'), not an open quote. A file those rules cannot read to
    its end (a quote followed by text) is judged by its quotes' count, odd or even."""
    if tail.rstrip(b"\x00").endswith((b"\n", b"\r")) or not tail:
        return False
    try:
        for _ in csv.reader(text(), delimiter=delimiter, strict=True):
            pass
    except csv.Error as error:
        if "unexpected end of data" in str(error):
            return True
        return sum(line.count('"') for line in text()) % 2 == 1
    return False


def entry_cut_error(number: int, line: int) -> RowError:
    """The skip of a BibTeX file's last entry when the file ends inside it and what is there cannot be read (a quoted
    value never closed, a field name cut in two)."""
    return RowError(number, f"row {number}: BibTeX entry at line {line} could not be parsed: the file ends inside "
                            f"it, {FIX}")


def entry_cut_warning(number: int, field: str) -> RowWarning:
    """The warning on a BibTeX file's last entry when the file ends inside it (its braces never closed) after its
    title: the entry is imported, its last field `field` perhaps not whole."""
    return RowWarning(number, field, f"the file ends inside this entry (no closing brace after its last field, "
                                     f"'{field}'), so that field may be incomplete: {FIX}")


def _shape(value: str) -> str:
    """A value's form: each run of digits "9", of letters "a", other characters as they are ("2-s2.0-85…" is
    "9-a9.9-9")."""
    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "9", value))


def last_value_cut(value: str, before: Sequence[str]) -> bool:
    """Whether a delimited file's last value, unquoted and with no line break after it, is visibly cut: the same
    column's values in the rows `before` it (three or more, none empty) share one form and one length (Scopus's EID
    "2-s2.0-85117082989", a constant "Scopus"), and `value` is of the start of that form ("2", "2-s") or of that form
    and two or more characters shorter ("2-s2.0-851"): one character is no evidence, since Scopus' EIDs grew a digit
    in 2025 and an older record may come last. Only an id's form, digits with letters or signs, is evidence: a number's
    length varies, and a word ("Article", "Note") may end a whole file."""
    if len(before) < 3 or not all(before):
        return False
    shapes, lengths = {_shape(b) for b in before}, {len(b) for b in before}
    if len(shapes) != 1 or len(lengths) != 1:
        return False
    shape, length, mine = shapes.pop(), lengths.pop(), _shape(value)
    if not ("9" in shape and shape != "9" and len(set(shape)) > 2) or len(value) >= length:
        return False  # only an id's form ("9-a9.9-9") is evidence: not a number's, a word's or a phrase's
    return len(value) < length - 1 if mine == shape else shape.startswith(mine)
