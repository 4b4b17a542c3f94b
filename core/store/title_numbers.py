"""The numbers of a title ("… study 12", "Part II", "phase 3"): two titles that differ only in them are two papers,
however alike the rest (``identity.titles_agree``)."""

from __future__ import annotations

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10, "xi": 11,
          "xii": 12}
# words after which a roman numeral counts ("Part II", "Type 2"); elsewhere "I", "V", "X" are words or letters
_NUMBERED = frozenset({"part", "phase", "type", "stage", "study", "trial", "series", "volume", "vol", "chapter",
                       "section", "experiment", "grade", "class", "report", "paper", "no", "number", "level"})


def title_numbers(key: str) -> list[int]:
    """The numbers of a title key, sorted: its digit words and the roman numerals after "part", "type", "phase"…
    ("Part II" and "Part 2" give [2])."""
    words = key.split()
    found = [int(w) for w in words if w.isdigit() and len(w) < 10]
    found += [_ROMAN[w] for k, w in enumerate(words) if k and w in _ROMAN and words[k - 1] in _NUMBERED]
    return sorted(found)
