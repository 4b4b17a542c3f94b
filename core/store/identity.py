"""When two records are one paper: the external ids a record carries, its title in comparable form, and the rules.

A record's **match keys** are its strong external ids (DOI, PMID, PMCID, arXiv id, Web of Science UT, Scopus EID) and
its title key (the title folded for comparison, `title_key`). Two records whose normalised title and abstract are
equal are one paper (the text rule, `core.records.duplicate_key`; not for "Editorial"-like titles with different
strong ids: `core.store.generic_titles`). Otherwise:

- **one strong id, titles agree**: one paper ("same DOI and title", "same PMID and title", ...). Titles agree when
  their similarity (`title_similarity`) reaches `TITLE_AGREE` (chosen on labelled deduplication sets, §25) and they
  hold the same numbers ("Part I" / "Part II": `title_numbers`). Known title forms: Scopus' ``Title; [Original
  title]``, PubMed's ``[Translated title].``, Lens' ``Venue - Title``, a number NLM left out (`shared_id_titles`).
- **one strong id, titles disagree**: two papers. Web of Science and Embase give different papers one DOI (a
  supplement's DOI on each of its abstracts); both are kept and the import reports "one DOI on different papers".
- **no shared id, same title key, same year (or a year missing), first authors agree where both are given, and no
  strong id of the same kind that differs**: one paper ("same title, year and first author"): the same paper from a
  database that left out its DOI; where the first authors differ but the family names are the same people listed in
  another order (or one of three or more left out), "same title, year and authors (another order)". Short titles
  (under `MIN_TITLE_KEY` characters, "Editorial", "Reply") never merge this way: only at one place (same year, volume
  and page range, first authors not differing; a ``place:`` key), and a generic one without an abstract, volume, issue
  or pages never by its text alone (`core.store.generic_titles.text_key`). Keys are stored one row each in the
  ``paper_keys`` table (corpus, key, seq): a lookup is one index probe. Ovid's "[Erratum appears in …" note and a "Jr"
  after a family name are no part of the title or the name (BENCHMARKS §25t).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from core.records import bare_doi, duplicate_key
from core.store.bibliographic import (
    bibliographic_conflict,
    first_page,
    first_text,
    issues_differ,
    pages_of,
    same_place,
    volume_number,
    year_of,
)
from core.store.shared_id_titles import agree_under_one_id
from core.store.title_forms import title_form
from core.store.title_numbers import same_numbers

STRONG_KINDS = ("doi", "pmid", "pmcid", "arxiv", "wos", "eid")
KIND_NAMES = {"doi": "DOI", "pmid": "PMID", "pmcid": "PMCID", "arxiv": "arXiv id", "wos": "Web of Science UT",
              "eid": "Scopus EID", "title": "title"}
TITLE_AGREE = 90.0  # similarity (0-100) at or above which two titles are one paper's (BENCHMARKS.md §25)
SIMILAR_TITLE = 90.0  # without a shared id (same first author and year): 95 lost 0.7 points of sensitivity, §25
MIN_TITLE_KEY = 25  # a title key shorter than this never merges records on its own
_TITLE_HASH = hashlib.blake2b(digest_size=10)  # a title key's hash: ten bytes, as stored in ``paper_keys``

SCHEMA = """
CREATE TABLE IF NOT EXISTS paper_keys (corpus TEXT, key TEXT, seq INTEGER, PRIMARY KEY(corpus, key, seq)) WITHOUT ROWID;
"""

# field names (lower-cased, as readers store them) that hold each kind of id
_ID_FIELDS = {
    "pmid": ("pmid", "pubmed id", "pubmed_id", "pubmedid", "pm"),
    "pmcid": ("pmcid", "pmc", "pmc id", "pubmed central id"),
    "arxiv": ("arxiv", "arxiv id", "arxiv_id", "arxivid", "eprint"),
    "wos": ("ut", "ut unique wos id", "ut (unique wos id)", "unique-id", "wos", "accession number", "accession_number"),
    "eid": ("eid",),
}
# the id column a reader took a record's id from -> the kind of that id
_ID_COLUMN_KINDS = {name: kind for kind, names in _ID_FIELDS.items() for name in names} | {"doi": "doi"}
_ID_NAMES = frozenset(_ID_COLUMN_KINDS) - {"doi"}
_ID_PREFIXES = ("WOS:", "ISI:", "2-S2.0-", "PMC")  # an id's own form says its kind (`external_ids`)
_PMID = re.compile(r"^\d{1,9}$")
_PMCID = re.compile(r"^(?:PMC)?(\d{1,9})$", re.IGNORECASE)
_ARXIV = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_WOS = re.compile(r"^(?:WOS|ISI):?(\d{15})$", re.IGNORECASE)
_EID = re.compile(r"^2-s2\.0-(\d+)$", re.IGNORECASE)
_NOT_WORD = re.compile(r"[\W_]+")
_SUFFIXES = frozenset(("jr", "sr", "ii", "iii", "iv"))  # "Lynch Jr, T. J.": not the family name
# an ASCII title's bytes -> lower-case letters and digits, anything else a space: `title_key`'s common case in one
# C pass (the same key as lower(), a str translate table and split, at a third of the time; BENCHMARKS.md §25c)
_ASCII_KEY = bytes(c | 0x20 if chr(c).isalpha() else c if chr(c).isdigit() else 32 for c in range(128)) + bytes(128)
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# letters NFKD does not take apart: "Sørensen" and "Sorensen", "Frimodt-Møller" and "Frimodt-Moller" are one name
_LETTER_FOLD = str.maketrans({"ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ß": "ss", "ł": "l",
                              "Ł": "l", "đ": "d", "Đ": "d", "þ": "th", "Þ": "th", "ı": "i"})


def id_value(kind: str, value: Any) -> str | None:
    """An external id in one comparable form ('10.x/y' lower-cased, '12345', 'PMC123', '2101.00001', the UT's 15
    digits, the EID's number), or None when `value` is not an id of that kind."""
    text = first_text(value)
    if text is None:
        return None
    if kind == "doi":
        doi = bare_doi(text).strip().lower()
        if not (doi.startswith("10.") and "/" in doi):
            return None
        return doi
    if kind == "pmid":
        text = text.removeprefix("PMID:").removeprefix("pmid:").strip()
        return text.lstrip("0") or None if _PMID.match(text) else None
    if kind == "pmcid":
        m = _PMCID.match(text)
        return f"PMC{m.group(1)}" if m else None
    if kind == "arxiv":
        m = _ARXIV.match(text.removeprefix("arXiv:").strip())
        return m.group(1).lower() if m else None
    if kind == "wos":
        m = _WOS.match(text.replace(" ", ""))
        return m.group(1) if m and (text[:1].isalpha() or len(text) == 15) else None
    if kind == "eid":
        m = _EID.match(text)
        return m.group(1) if m else None
    return None


def external_ids(fields: dict[str, Any], pid: str | None = None, id_column: str | None = None) -> dict[str, str]:
    """The strong ids a record carries: from its fields, and from its id when the file's id column says what it is
    (or the id's own form does: 'WOS:…', '2-s2.0-…', 'PMC…')."""
    found: dict[str, str] = {}
    doi = id_value("doi", fields["doi"]) if "doi" in fields else None
    if doi:
        found["doi"] = doi
        arxiv = _ARXIV_DOI.match(doi)
        if arxiv and id_value("arxiv", arxiv.group(1)):
            found["arxiv"] = id_value("arxiv", arxiv.group(1)) or ""
    if not _ID_NAMES.isdisjoint(fields):  # usually none: one test, no set built (BENCHMARKS.md §25d)
        for name in _ID_NAMES.intersection(fields):  # usually one: a set intersection, not 20 lookups
            kind = _ID_COLUMN_KINDS[name]
            if kind not in found and (value := id_value(kind, fields[name])):
                found[kind] = value
    if pid:
        kind = _ID_COLUMN_KINDS.get(id_column.strip().lower()) if id_column else None
        if kind and kind not in found and (value := id_value(kind, pid)):
            found[kind] = value
        upper = pid[:7].upper()  # the longest prefix below is 7 characters
        if upper.startswith(_ID_PREFIXES):  # most ids have none of them: one test instead of three
            for kind, prefixes in (("wos", ("WOS:", "ISI:")), ("eid", ("2-S2.0-",)), ("pmcid", ("PMC",))):
                if kind not in found and upper.startswith(prefixes) and (value := id_value(kind, pid)):
                    found[kind] = value
    return found


def title_key(title: str) -> str:
    """A title folded for comparison: known bracketed forms left out, diacritics, case, punctuation and spacing
    folded ("Revista de Neuro-Psiquiatría." and "REVISTA DE NEURO PSIQUIATRIA" give one key)."""
    text = title_form(title)
    if text.isascii():  # the common case: one bytes table folds case and punctuation (several times a regex's speed)
        return b" ".join(text.encode("ascii").translate(_ASCII_KEY).split()).decode("ascii")
    return _folded(text)


def _folded(text: str) -> str:
    """`title_key` of a non-ASCII title form: diacritics off ("Psiquiatría" -> "Psiquiatria"), case, punctuation."""
    text = _COMBINING.sub("", unicodedata.normalize("NFKD", text.translate(_LETTER_FOLD)))
    return " ".join(_NOT_WORD.sub(" ", text.casefold()).split())


def title_similarity(a: str, b: str) -> float:
    """How alike two titles are, 0-100, on their title keys (rapidfuzz's normalised Indel ratio)."""
    ka, kb = title_key(a), title_key(b)
    if not ka or not kb:
        return 0.0
    from rapidfuzz import fuzz  # here, not at the top: an import (and its reading process) never compares titles

    return float(fuzz.ratio(ka, kb))


def titles_agree(a: str, b: str, at: float = TITLE_AGREE) -> bool:
    """True when two titles are the same paper's (see the module): similar by `at`, with the same numbers."""
    return title_similarity(a, b) >= at and same_numbers(a, b, title_key)


def first_author_surname(fields: dict[str, Any]) -> str | None:
    """The first author's family name, folded ("Curry Rogers, Kristina" and "Curry Rogers K" give 'curry rogers')."""
    authors = fields.get("authors")
    if isinstance(authors, str):
        authors = re.split(r";| and ", authors)
    first = first_text(authors) if isinstance(authors, list) else None
    if not first:
        return None
    return _family_name(first)


def _family_name(author: str) -> str | None:
    """One author's family name, folded, without a "Jr"/"III" after it."""
    name = author.split(",")[0] if "," in author else " ".join(
        w for w in author.split() if not (w.isupper() and len(w) <= 3) and not w.endswith("."))
    words = title_key(name).split()
    while len(words) > 1 and words[-1] in _SUFFIXES:
        words.pop()
    return " ".join(words) or None


def _family_names(fields: dict[str, Any]) -> list[str]:
    """Every author's family name, folded (`_family_name`), in order."""
    authors = fields.get("authors")
    if isinstance(authors, str):
        authors = re.split(r";| and ", authors)
    if not isinstance(authors, list):
        return []
    return [name for a in authors if isinstance(a, str) and (name := _family_name(a))]


def _same_people(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """How two records' authors are the same people when their first authors differ: "another order" (the same
    family names, two or more), "another order, one left out" (three or more inside a list one name longer), else
    None."""
    na, nb = _family_names(a), _family_names(b)
    short, long = (na, nb) if len(na) <= len(nb) else (nb, na)
    if len(short) >= 2 and len(short) == len(long) and sorted(short) == sorted(long):
        return "another order"
    if len(short) >= 3 and len(long) == len(short) + 1 and set(short) <= set(long):
        return "another order, one left out"
    return None


def match_keys(title: str, fields: dict[str, Any], pid: str | None = None,
               id_column: str | None = None) -> tuple[str, ...]:
    """A record's lookup keys: 'kind:value' for each strong id, and 'title:<key>' for a long enough title."""
    found = external_ids(fields, pid, id_column)  # most records: none, and no comprehension run over them
    keys = [f"{kind}:{value}" for kind, value in found.items()] if found else []
    text = title_form(title)  # then `title_key`; an ASCII one as bytes, hashed without a decode and encode (§25d)
    ascii_key = text.isascii()
    key = b" ".join(text.encode("ascii").translate(_ASCII_KEY).split()) if ascii_key else _folded(text)
    if len(key) >= MIN_TITLE_KEY:  # stored as a short hash (a copy of one empty BLAKE2b: no arguments parsed; §25g)
        (hashed := _TITLE_HASH.copy()).update(key if ascii_key else key.encode())
        keys.append("title:" + hashed.hexdigest())
        if "authors" in fields and (surname := first_author_surname(fields)) and (year := year_of(fields)):
            keys.append(f"ay:{surname.split()[-1]}|{year}")  # the block where titles are compared for spellings
    elif key and (place := _place(fields)):  # a short title ("Intrapleural therapy"): merged at one place only
        (hashed := _TITLE_HASH.copy()).update((key if ascii_key else key.encode()) + place.encode())
        keys.append("place:" + hashed.hexdigest())
    return tuple(keys)


def _place(fields: dict[str, Any]) -> str | None:
    """'|year|volume|first-last' for a record with a year, a volume and a page range (`same_place`), else None."""
    if not (year := year_of(fields)):
        return None
    volume, pages = volume_number(fields), pages_of(fields)
    if not volume or not pages or pages[0] or pages[2] <= pages[1]:
        return None
    return f"|{year}|{volume}|{pages[1]}-{pages[2]}"


def record_key(title: str, abstract: str, fields: dict[str, Any], own: str = "") -> str:
    """The key the text rule compares (unique in a corpus): the normalised title and abstract; for a record without
    an abstract, the title with the year, first author, volume, issue and first page, since one title alone
    ("Atypical hemolytic uremic syndrome", "Editorial") is shared by different papers, and `own` (what a generic
    title without a place adds: `core.store.generic_titles.text_key`)."""
    if abstract and not abstract.isspace():  # what strip() leaves something of, without copying the abstract
        return duplicate_key(title, abstract)
    where = "\x1e".join(v or "" for v in (year_of(fields), first_author_surname(fields),
                                          first_text(fields.get("volume")),
                                          first_text(fields.get("issue") or fields.get("number")), first_page(fields)))
    return duplicate_key(title, "\x1e" + where + own)


def kinds_of(keys: Iterable[str]) -> dict[str, str]:
    """{'doi': '10.x/y', ...} from 'kind:value' keys (the title key too, as 'title')."""
    out: dict[str, str] = {}
    for key in keys:
        kind, _, value = key.partition(":")
        out.setdefault(kind, value)
    return out


def _first_author_text(fields: dict[str, Any]) -> str:
    authors = fields.get("authors")
    if isinstance(authors, str):
        authors = re.split(r";| and ", authors)
    return (first_text(authors) if isinstance(authors, list) else None) or ""


def _authors_agree(a: dict[str, Any], b: dict[str, Any]) -> bool | None:
    """Whether the first authors' family names agree; None when either is missing or garbled by an export's encoding
    ('Ta?a?aj'). They agree when one family name ends, starts or is the other ('von Pawel' / 'Pawel'), their last
    words are one ('Van Graaf' / 'van der Graaf'), or one's family name is a word of the other's whole name (given and
    family name swapped: 'Wu, Ching-yi' / 'Ching-yi, Wu')."""
    sa, sb = first_author_surname(a), first_author_surname(b)
    if not sa or not sb:
        return None
    ta, tb = _first_author_text(a), _first_author_text(b)
    if "?" in ta or "?" in tb or "\ufffd" in ta or "\ufffd" in tb:
        return None
    if sa == sb or sa.endswith(sb) or sb.endswith(sa) or sa.startswith(sb) or sb.startswith(sa):
        return True
    wa, wb = set(title_key(ta).split()), set(title_key(tb).split())
    return sa.split()[-1] == sb.split()[-1] or sa.split()[-1] in wb or sb.split()[-1] in wa


def same_paper(a_title: str, a_fields: dict[str, Any], a_keys: Iterable[str],
               b_title: str, b_fields: dict[str, Any], b_keys: Iterable[str]) -> tuple[str | None, str | None]:
    """Whether records a and b (title, fields, match keys) are one paper: (rule, None) when they are, (None, why
    not) when they share a strong id but are not ("one DOI on different papers"), (None, None) otherwise. Rules:
    "same DOI and title" (and the other strong kinds); "same title, year and first author" (title keys equal);
    "same title, year and authors (another order)" (`_same_people`); "same title, volume and pages" (a short title
    too, by its ``place:`` key); "similar title, same year and first author" (a spelling difference: similarity at
    least `TITLE_AGREE`)."""
    ka, kb = kinds_of(a_keys), kinds_of(b_keys)
    shared = [k for k in STRONG_KINDS if k in ka and ka[k] == kb.get(k)]
    if shared:
        if agree_under_one_id(a_title, b_title, titles_agree, title_key, a_fields, b_fields):
            return f"same {KIND_NAMES[shared[0]]} and title", None
        return None, f"one {KIND_NAMES[shared[0]]} on different papers"
    if any(k in ka and k in kb and ka[k] != kb[k] for k in STRONG_KINDS):
        return None, None  # two DOIs (PMIDs, ...): two papers, however alike (a correction, a reprint)
    authors = _authors_agree(a_fields, b_fields)
    same_title = bool(ka.get("title") and ka.get("title") == kb.get("title"))
    if same_title and same_place(a_fields, b_fields):  # first authors spelt apart ('Xi, L F' / 'Long, F X')
        return "same title, volume and pages", None
    if authors is False:
        if same_title and (people := _same_people(a_fields, b_fields)) and \
                not bibliographic_conflict(a_fields, b_fields, 0):
            return f"same title, year and authors ({people})", None
        return None, None
    if ka.get("place") and ka["place"] == kb.get("place") and same_place(a_fields, b_fields):
        return "same title, volume and pages", None  # a short title, one year, volume and page range
    if same_title:
        if bibliographic_conflict(a_fields, b_fields, 1 if authors else 0):
            return None, None
        return "same title, year and first author", None
    if authors and ka.get("ay") and ka.get("ay") == kb.get("ay"):
        if titles_agree(a_title, b_title, SIMILAR_TITLE):
            if bibliographic_conflict(a_fields, b_fields, 0):
                return None, None
            return "similar title, same year and first author", None
        if same_place(a_fields, b_fields) and not issues_differ(a_fields, b_fields):  # a translated title
            return "same first author, year, volume and pages", None
    return None, None


def id_column_kind(column: str | None) -> str | None:
    """The kind of strong id a file's id column holds ('PMID' -> 'pmid', 'EID' -> 'eid'), or None."""
    return _ID_COLUMN_KINDS.get((column or "").strip().lower())


def with_id_key(values: tuple, kind: str) -> tuple:
    """A papers-table row (match keys last) with its id added as a match key of `kind` (when it is one)."""
    value = id_value(kind, values[1])
    key = f"{kind}:{value}" if value else None
    if key is None or any(k.startswith(f"{kind}:") for k in values[-1]):
        return values
    return (*values[:-1], (*values[-1], key))
