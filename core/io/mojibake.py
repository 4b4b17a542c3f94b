"""Text garbled by a wrong encoding ("mojibake"): UTF-8 read once as Windows-1252 and written again, as R and Excel
do with a file they open in the wrong encoding ("Copyright Â© 2020", "â€œside effectsâ€", "cafÃ©"). Such a value
is repaired with ftfy's own heuristics (`ftfy.badness.is_bad`, then `ftfy.fix_encoding`) and only then: a real "Ã"
("SÃO PAULO") or a value ftfy does not call garbled stays as written. The file gets one warning naming it and how
many records were repaired."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from core.io.rows import RowWarning

# a lead byte of a UTF-8 sequence read as Windows-1252 ("Ã", "â", "Â") before a continuation byte so read: the only
# values worth handing to ftfy (it is slower than this look)
_SUSPECT = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
                      "\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]")
# a lead byte of a three-byte UTF-8 character read as Windows-1252 ("à".."ï") and two continuation bytes so read,
# between ASCII letters or digits, BibTeX braces around either side allowed ("{PLA}â„¡{ETS}")
_CONTINUATION = _SUSPECT.pattern[_SUSPECT.pattern.index("]") + 1:]
_IN_WORD = re.compile(f"([A-Za-z0-9][{{}}]{{0,2}})([\u00e0-\u00ef]{_CONTINUATION}{{2}})(?=[{{}}]{{0,2}}[A-Za-z0-9])")
_QUOTES = ("\u201c", "\u201d")  # “ ”
_CONTROL = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]")


def repaired_text(value: str) -> str:
    """`value` with its garbled text repaired, or as it is. R and Excel lose the last byte of a closing quote ("”"
    is E2 80 9D; 9D is no Windows-1252 character) and write a space: ftfy reads that as "†", which is made "”"
    again where the value has an opening quote left without its closing one. A three-byte character garbled inside
    a word, BibTeX's case-keeping braces seen through ("{PLA}â„¡{ETS}"), is repaired too (`_in_word`)."""
    if not _SUSPECT.search(value):
        return value
    return _IN_WORD.sub(_in_word, _ftfy_repaired(value))


def _ftfy_repaired(value: str) -> str:
    import ftfy

    if not ftfy.badness.is_bad(value):
        return value
    fixed = ftfy.fix_encoding(value)
    if _CONTROL.search(fixed) or ftfy.badness.badness(fixed) >= ftfy.badness.badness(value):
        return value  # a "repair" to control characters ("Â\x80" to "\x80"), or no less odd: not clearly garbled
    if "\u2020" in fixed and "\u2020" not in value and fixed.count(_QUOTES[0]) > fixed.count(_QUOTES[1]):
        fixed = fixed.replace("\u2020", _QUOTES[1])
    return fixed


def _in_word(match: re.Match[str]) -> str:
    """A three-character run inside a word of ASCII letters or digits (braces between them seen through) that is
    the Windows-1252 reading of one UTF-8 character, E2 84 A1 "â„¡" for "℡": ftfy does not call such a run garbled,
    but no word holds a lead byte's letter and two continuation bytes' signs. It is made that character where it is
    a letter, digit, sign or punctuation (never a control or unassigned one); anything else stays."""
    import unicodedata

    run = match.group(2)
    try:
        char = bytes(ord(c) if ord(c) < 0x100 else c.encode("cp1252")[0] for c in run).decode("utf-8")
    except (UnicodeError, ValueError):
        return match.group(0)
    if len(char) != 1 or unicodedata.category(char)[0] in "CZ":
        return match.group(0)
    return match.group(1) + char


def _repaired(value: Any) -> Any:
    if isinstance(value, str):
        return repaired_text(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [repaired_text(item) for item in value]
    return value


EXACT_FORMATS = ("jsonl", "parquet")  # JSON and Parquet carry Unicode exactly (and are the app's own exports)


def repaired_rows(numbered: Iterable[tuple[Any, Any]], name: str, fmt: str = "",
                  keep: Iterable[str | None] = ()) -> Iterator[tuple[Any, Any]]:
    """A file's (number, row or note) items, each row's garbled text values repaired; after the last, one warning
    naming the file `name`, how many records were repaired and the first of them. A file of an exact format (`fmt`)
    is passed through as it is, and the columns in `keep` (the id: a key, never rewritten) are never changed."""
    kept = {key for key in keep if key}
    if fmt in EXACT_FORMATS:
        yield from numbered
        return
    repaired: list[int] = []
    example = ""
    for number, row in numbered:
        if isinstance(row, dict):
            changed = {key: new for key, value in row.items()
                       if key not in kept and (new := _repaired(value)) != value}
            if changed:
                if not repaired:
                    key, new = next(iter(changed.items()))
                    example = _example(row[key], new, f"row {number}, {key}")
                row.update(changed)
                repaired.append(int(number))
        yield number, row
    if repaired:
        shown = ", ".join(map(str, repaired[:5])) + (", …" if len(repaired) > 5 else "")
        count = f"{len(repaired)} record{'s' if len(repaired) > 1 else ''}"
        yield repaired[0], RowWarning(repaired[0], "text", f"file '{name}': {count} held text garbled by a wrong "
                                                           f"encoding{example}, as R or Excel write it; repaired "
                                                           f"(rows {shown})",
                                      kind="repaired")


def _example(old: Any, new: Any, where: str) -> str:
    """' ("VetenskapsrÃ¥det," for "Vetenskapsrådet," (row 69, n1))': the first word a repair changed, as the file
    had it and as repaired (at most 40 characters each), for the file's warning; '' when no one word differs."""
    texts = list(zip(old, new)) if isinstance(old, list) and isinstance(new, list) else [(old, new)]
    pairs = [(a, b) for old_text, new_text in texts if isinstance(old_text, str) and isinstance(new_text, str)
             for a, b in zip(old_text.split(), new_text.split()) if a != b]
    if not pairs:
        return ""
    garbled, fixed = (word if len(word) <= 40 else word[:39] + "…" for word in pairs[0])
    return f' ("{garbled}" for "{fixed}" ({where}))'
