"""The numbers of a title ("… study 12", "Part II", "phase 3"): two titles that differ only in them are two papers,
however alike the rest (``identity.titles_agree``)."""

from __future__ import annotations

import re
from collections.abc import Callable

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11,
          "xii": 12}
# PubMed writes a formula's subscripts in parentheses after the element ("SnCl(2)", "H(2)O(2)"), Scopus as digits
_SUBSCRIPT = re.compile(r"(?<=[A-Za-z)\]])\((\d{1,2})\)")
# words after which a roman numeral counts ("Part II", "Type 2"); elsewhere "I", "V", "X" are words or letters
_NUMBERED = frozenset({"part", "phase", "type", "stage", "study", "trial", "series", "volume", "vol", "chapter",
                       "section", "experiment", "grade", "class", "report", "paper", "no", "number", "level"})


# a number run into the word after it, as Scopus writes Elsevier's thin space ("over 12years", "at 5min"): a unit
# of three letters or more, so "3d", "2nd", "5ht" stay words, or a two-letter unit of measure ("15mg", "50kg")
_RUN_INTO_UNIT = re.compile(r"^(\d{1,9})(?:[a-z]{3,}|mg|kg|ug|ml|dl|mm|cm|km|nm|gy|hz|kb|mb|gb|kw|mw|kv|mv)$")


def title_numbers(key: str) -> list[int]:
    """The numbers of a title key, sorted: its digit words, a number run into its unit ("12years": 12) and the
    roman numerals after "part", "type", "phase"… ("Part II" and "Part 2" give [2])."""
    words = key.split()
    found = [int(w) for w in words if w.isdigit() and len(w) < 10]
    found += [int(m.group(1)) for w in words if not w.isdigit() and (m := _RUN_INTO_UNIT.match(w))]
    found += [_ROMAN[w] for k, w in enumerate(words) if k and w in _ROMAN and words[k - 1] in _NUMBERED]
    return sorted(found)


def same_numbers(a: str, b: str, key: Callable[[str], str]) -> bool:
    """Whether two titles hold the same numbers (by their title keys, `key`), PubMed's subscripts in parentheses
    read as the formula's digits ("SnCl(2)/NaBH(4)" as "SnCl2/NaBH4"); "study (2)", after a space, stays a number.
    Keys that differ only in their spaces hold the same numbers: a number written with or without a space before
    its unit (MEDLINE's "50kg/m2", PubMed's "50 kg/m(2)"; Scopus's "15mg", PubMed's "15 mg")."""
    if "(" in a:
        a = _SUBSCRIPT.sub(r"\1", a)
    if "(" in b:
        b = _SUBSCRIPT.sub(r"\1", b)
    key_a, key_b = key(a), key(b)
    if title_numbers(key_a) == title_numbers(key_b):
        return True
    return key_a.replace(" ", "") == key_b.replace(" ", "")
