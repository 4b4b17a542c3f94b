"""Where a record sits in the literature: its year, volume, issue and pages, read as the exports write them, and
whether two records' places rule out one paper (`core.store.identity.same_paper` asks)."""

from __future__ import annotations

import re
from typing import Any

_PAGES = re.compile(r"^\s*([A-Za-z]*)(\d+)\s*(?:[-\u2013\u2014]+\s*([A-Za-z]*)(\d+))?\s*$")


def first_text(value: Any) -> str | None:
    """A field's first value as stripped text (a list's first non-empty item; a whole float as an int), or None."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, (str, int)) and str(v).strip()), None)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float):
        value = int(value) if value.is_integer() else None
    text = str(value).strip() if value is not None else ""
    return text or None


def year_of(fields: dict[str, Any]) -> str | None:
    """A record's year as four digits, or None."""
    value = first_text(fields.get("year"))
    if value and len(value) == 4 and value.isdigit():
        return value
    m = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", value or "")
    return m.group(1) if m else None


def first_page(fields: dict[str, Any]) -> str | None:
    """A record's first page ('e12724' keeps its letter; leading zeros off), or None."""
    for name in ("start_page", "first page", "pages"):
        value = first_text(fields.get(name))
        if value and (m := re.match(r"\s*([A-Za-z]?\d+)", value)):
            return m.group(1).lstrip("0") or "0"
    return None


_VOLUME_PART = re.compile(r"[\s(]*\b(?:suppl|supplement|pt|part|spec)\b.*$", re.IGNORECASE | re.DOTALL)


def volume_number(fields: dict[str, Any]) -> str | None:
    """A volume's number ('Drug Discovery. 9' -> '9'), or None; a supplement or part written after it is not the
    volume (Ovid MEDLINE's '129 Suppl 1', '12 Pt 2', '45 Spec No' -> '129', '12', '45')."""
    text = first_text(fields.get("volume")) or ""
    numbers = re.findall(r"\d+", _VOLUME_PART.sub("", text)) or re.findall(r"\d+", text)
    return numbers[-1].lstrip("0") or "0" if numbers else None


def bibliographic_conflict(a: dict[str, Any], b: dict[str, Any], years_apart: int) -> bool:
    """True when two records' year (more than `years_apart` apart), volume or first page differ (both given), or
    their issues differ with no first page to agree on (a column printed in every issue: 'Editor's Comments')."""
    ya, yb = year_of(a), year_of(b)
    if ya and yb and abs(int(ya) - int(yb)) > years_apart:
        return True
    va, vb = volume_number(a), volume_number(b)
    if va and vb and va != vb:
        return True
    if issues_differ(a, b) and not ((page := first_page(a)) and page == first_page(b)):
        return True  # where the first pages agree, a differing issue is an export's slip (PNAS 104(1) / 104(25))
    return pages_conflict(a, b)


def pages_of(fields: dict[str, Any]) -> tuple[str, int, int] | None:
    """A record's pages as (prefix, first, last): '567-569' -> ('', 567, 569), '569' -> ('', 569, 569), 'e12724' ->
    ('e', 12724, 12724); None when missing or not pages ('01-Jun', 'P63 [tp 104]', '2297-2108')."""
    value = next(filter(None, (first_text(fields.get(k)) for k in ("pages", "start_page", "first page"))), None)
    m = _PAGES.match(value or "")
    if not m:
        return None
    first = int(m.group(2))
    last = int(m.group(4)) if m.group(4) else first
    if m.group(4) and last < first and len(m.group(4)) < len(m.group(2)):  # '1351-9' is 1351-1359
        last = int(m.group(2)[:len(m.group(2)) - len(m.group(4))] + m.group(4))
    if last < first:
        return None  # '2297-2108': a slip in one of the numbers, no range to compare (BENCHMARKS §25t)
    return m.group(1).lower(), first, max(first, last)


def pages_conflict(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when both records give plain page numbers and their ranges do not meet. An article number ('e12724',
    'c1804') beside printed pages, or one page inside the other's range ('569' in '567-569'), is no conflict."""
    pa, pb = pages_of(a), pages_of(b)
    if pa is None or pb is None:
        return bool(first_page(a) and first_page(b) and first_page(a) != first_page(b)
                     and pa is not None and pb is not None)
    if pa[0] != pb[0]:
        return False
    return pa[2] < pb[1] or pb[2] < pa[1]


def issues_differ(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when both records name an issue (a number up to 99) and the issues differ: a journal whose pages restart
    with each issue. Longer 'numbers' are left out: some exports put a record number there (1112 / 1113)."""
    ia, ib = (first_text(f.get("issue") or f.get("number")) for f in (a, b))
    plain = [i.lstrip("0") for i in (ia, ib) if i and i.isdigit() and len(i.lstrip("0")) <= 2]
    return len(plain) == 2 and plain[0] != plain[1]


def same_place(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when two records give one year, one volume and the same printed pages (first and last): one place in
    the literature, whatever the titles' languages."""
    ya, yb, va, vb, pa, pb = year_of(a), year_of(b), volume_number(a), volume_number(b), pages_of(a), pages_of(b)
    return bool(ya and ya == yb and va and va == vb and pa and pa == pb and pa[2] > pa[1] and not pa[0])
