"""What each field of a corpus is for: its role decides what it may be used for, not a count of its values.

The fields the importer maps have fixed roles: `journal` is the journal whatever its count, `year` is a time axis
(filters, the time slider, a continuous colour) and never a class to predict, authors, keywords, ids, DOIs and
references are never labels. Other columns are judged by name (counts such as "Times Cited", pages, dates, URLs,
notes) and then by a sample of their values (numbers, dates, URLs, long text); what is left with repeated values
may be a label. A user's own choice of label columns (`Store.set_labels`) overrides the guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.labels import JOURNAL_COLUMNS
from core.store.field_stats import LABEL_MAX_DISTINCT, FieldCounts

# roles a label may come from; every other role never makes a label
LABEL_ROLES = ("journal", "type", "label")
FIXED = {
    "title": "text", "abstract": "text", "id": "id", "year": "year", "authors": "authors", "keywords": "keywords",
    "doi": "id", "references": "references", "type": "type",
}
_BY_NAME: list[tuple[str, re.Pattern[str]]] = [(role, re.compile(pattern, re.I)) for role, pattern in (
    ("count", r"\b(cited|citations?|citing|counts?|times|number of|downloads?|usage|altmetric|views)\b"),
    ("id", r"\b(ids?|pmid|pmcid|pmc|issn|isbn|eissn|eid|accession|url|urls|link|links|uri|key|entrytype|"
           r"record|openalex|arxiv|pii)\b"),
    ("pages", r"\b(pages?|page start|page end|start page|end page|first page|last page|volume|issue|"
              r"article number|art no)\b"),
    ("date", r"\b(date|dates|month|day|created|updated|modified|pubdate|epub|timestamp)\b"),
    ("alias", r"\b(abbrev\w*|abbreviation|abbreviated)\b"),
    ("text", r"\b(notes?|comments?|address|addresses|affiliations?|correspondence|funding|acknowledg\w*|"
             r"abstract|summary|description|titles?\d*|caption|conflicts?|grants?|copyright|licen[cs]e)\b"),
    ("authors", r"\b(authors?|editors?|inventors?|creators?)\b"),
    ("keywords", r"\b(keywords?|mesh|emtree\w*|subjects?|tags?|index terms|concepts?)\b"),
    ("type", r"\b(type|genre)\b"),
    ("references", r"\b(references?|bibliography)\b"),
)]
# the short tags of tagged formats (Web of Science, MEDLINE, RIS), matched as whole names only
_TAGS = {
    "count": "tc z9 z8 zb zr zs nr u1 u2", "pages": "sp ep bp pg vl is vol number ar", "alias": "j9 ji",
    "date": "dp da y1 y2 pd edat crdt mhda lr dcom",
    "id": "ut an ga sn bn ei ri oi l1 l2 l3 l4 ur lid aid", "text": "fx fu fn c1 c3 rp ad n1 pa pi em",
    "authors": "au af a1 a2 a3 a4 ed fau",
    "keywords": "kw de ot mh", "references": "cr", "type": "pt dt ty",
}
_TAG_ROLE = {tag: role for role, tags in _TAGS.items() for tag in tags.split()}

_MOSTLY = 0.8


def role_of(name: str, counts: FieldCounts | None = None, n: int = 0) -> str:
    """The role of one field by its name, then by its values: one of FIXED's roles, journal, count, pages, date,
    alias, url, number, text, label (repeated short values) or other."""
    key = name.strip().lower()
    if key in FIXED:
        return FIXED[key]
    if key in JOURNAL_COLUMNS:
        return "journal"
    if key in _TAG_ROLE:
        return _TAG_ROLE[key]
    spaced = " ".join(re.sub(r"[_\-.]+", " ", key).split())  # "Art. No." -> "art no"
    for role, pattern in _BY_NAME:
        if pattern.search(spaced):
            return role
    if counts is None:
        return "other"
    if counts.nested:
        return "other"
    sample = counts.sample or 0
    if sample:
        if counts.urls >= 0.5 * sample:
            return "url"
        if counts.dates >= _MOSTLY * sample:
            return "date"
        if counts.numbers >= _MOSTLY * sample and (counts.distinct > 12 or not counts.integral):
            return "number"
        if counts.long >= 0.5 * sample:
            return "text"
    return "label" if _repeated(counts, n) else "other"


def _repeated(counts: FieldCounts, n: int) -> bool:
    """2+ scalar values, each repeated on average (at most half as many values as rows that hold one: a column one
    database of a merged search fills, a value per row, is no class), filled on 20 % of rows."""
    most = min(LABEL_MAX_DISTINCT, max(2, int(0.5 * min(n, counts.filled))))
    return not counts.nested and 2 <= counts.distinct <= most and counts.filled >= 0.2 * n


def field_roles(counts: Mapping[str, FieldCounts], n: int) -> dict[str, str]:
    """Every field's role; one field at most is the journal (the first of JOURNAL_COLUMNS the corpus has)."""
    roles = {key: role_of(key, c, n) for key, c in counts.items()}
    for key, c in counts.items():  # a journal column without a single value is no journal field
        if roles[key] == "journal" and not c.filled:
            roles[key] = "other"
    journals = sorted((k for k, r in roles.items() if r == "journal"),
                      key=lambda k: JOURNAL_COLUMNS.index(k.lower()) if k.lower() in JOURNAL_COLUMNS else 99)
    for extra in journals[1:]:
        roles[extra] = "label" if _repeated(counts[extra], n) else "other"
    return roles


def label_columns(counts: Mapping[str, FieldCounts], n: int) -> tuple[list[str], list[str], dict[str, str]]:
    """All field names, the label columns (journal first), and each field's role."""
    roles = field_roles(counts, n)
    labels = [key for key, role in roles.items()
              if (role == "journal" and counts[key].distinct >= 1 and counts[key].filled)
              or (role in ("type", "label") and _repeated(counts[key], n))]
    labels.sort(key=lambda k: (roles[k] != "journal", k))
    return sorted(counts), labels, roles


def journal_field(roles: Mapping[str, str]) -> str | None:
    """The corpus's journal field, or None."""
    return next((k for k, r in roles.items() if r == "journal"), None)


def year_field(roles: Mapping[str, str]) -> str | None:
    """The corpus's year field (a time axis), or None."""
    return next((k for k, r in roles.items() if r == "year"), None)


def can_be_label(field: str, roles: Mapping[str, str]) -> bool:
    """Whether a user may mark this field a label: the journal, types and other short values; never a year, count,
    page, date, id, URL, number, free text or list."""
    return roles.get(field, "other") in ("journal", "type", "label", "other")
