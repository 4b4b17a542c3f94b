"""Crossref, DataCite and ISTEX API JSON: their responses unwrapped and their records in the product's field names.

The shapes read, as users save them from a browser, curl or a client library:

- **Crossref REST** ``/works`` answers: ``{"status": "ok", "message-type": "work-list", "message": {"items": [...]}}``
  and one work, ``"message-type": "work"``. A work has ``title`` as a list, its abstract as JATS (``<jats:p>``) or
  none, ``container-title`` as a list, ``author`` as given/family (or ``name``) objects, ``issued`` date-parts.
  An answer of another type (journals, members, an error) holds no works and is refused saying so.
- **DataCite REST** ``/dois`` answers (JSON:API): ``{"data": [{"id", "type": "dois", "attributes": {...}}]}`` and
  one DOI, ``{"data": {...}}``; and **DataCite JSON** (``application/vnd.datacite.datacite+json``), the
  attributes at the top level. The description typed ``Abstract`` is the abstract (the one in the language of the
  title when there are several); ``Other``, ``SeriesInformation``, ... are not.
- **ISTEX API** pages: ``{"total": ..., "hits": [{"title", "abstract", "author": [{"name"}], "host": {"title"},
  "publicationDate", "doi": [...]}]}``, and one ISTEX record.

Markup in titles and abstracts (JATS, HTML, entities) is left for `core.io.papers` to strip as for every format, so
the marked-up text is kept beside the plain one; a journal name's entities are decoded here. `unread_json` is the
refusal of a JSON document of none of the shapes any reader knows.
"""

from __future__ import annotations

from typing import Any

from core.errors import CorpusError
from core.io.markup import has_markup, plain_text
from core.io.rows import Row, _year
from core.io.scholarly import _bare

# what a JSON file is read as, named in the refusal of any other shape
JSON_SHAPES = ("JSON lines or a list of records with a title field, CSL JSON, OpenAlex (works), Semantic Scholar "
               "(papers), Europe PMC (its API, getpapers, pygetpapers), Crossref REST (/works), DataCite REST (/dois) "
               "or DataCite JSON, ISTEX API (/document), ERIC and PLOS (Solr answers), bioRxiv/medRxiv (/details), "
               "INSPIRE-HEP (/api/literature), CiNii (OpenSearch JSON), Web of Science Starter API (/documents)")
_CROSSREF_WORKS = frozenset(("work-list", "work"))
_DOI_PREFIXES = ("https://doi.org/", "http://doi.org/", "http://dx.doi.org/", "https://dx.doi.org/", "doi:")
_CROSSREF_DATES = ("issued", "published", "published-print", "published-online")


def _name(path_name: str) -> str:
    return f"file '{path_name}'"


def api_records(value: dict, path_name: str) -> list | None:
    """The records of a Crossref, DataCite or ISTEX API response; None when the object is none of them. A Crossref
    answer that holds no works (``journal-list``, ``member-list``, an error) is refused, naming what it is."""
    kind = value.get("message-type")
    if isinstance(kind, str) and "message" in value:
        message = value["message"]
        if kind not in _CROSSREF_WORKS or not isinstance(message, dict):
            raise CorpusError(
                f"{_name(path_name)} is a Crossref API response of type '{kind}' (status '{value.get('status')}'), "
                "which holds no works: save the answer of a /works query (api.crossref.org/works?query=…) instead")
        items = message.get("items")
        return items if isinstance(items, list) else [message] if kind == "work" else []
    data = value.get("data")
    if isinstance(data, dict) and isinstance(data.get("attributes"), dict):
        return [data]  # one DataCite DOI
    hits = value.get("hits")
    if isinstance(hits, list) and "total" in value:
        return hits  # an ISTEX page
    return None


def unread_json(path_name: str, document: Any) -> CorpusError | None:
    """The refusal of a JSON document read as one record that is an envelope no reader knows: no title of its own,
    and records (a list of objects with titles) under one of its keys, or one level further down."""
    if not isinstance(document, dict) or any("title" in str(key).lower() for key in document):
        return None
    for key, value in document.items():
        if _objects(value):
            where = key
        elif isinstance(value, dict):
            where = next((f"{key}.{inner}" for inner, nested in value.items() if _objects(nested)), "")
        else:
            continue
        if where:
            return CorpusError(
                f"{_name(path_name)} is JSON whose records are under '{where}', a shape this importer does not "
                f"read; it reads {JSON_SHAPES}")
    return None


def _objects(value: Any) -> bool:
    """Whether a value is a list of records: objects, some of them with a title (not a record's author list)."""
    return (isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)
            and any("title" in str(key).lower() for item in value[:20] for key in item))


def api_row(row: Row) -> Row | None:
    """A Crossref work, DataCite record or ISTEX record as a row under the product's names; None for any other."""
    if isinstance(row.get("DOI"), str) and isinstance(row.get("title"), list):
        return _from(crossref_row(row), "Crossref")
    if row.get("type") == "dois" and isinstance(row.get("attributes"), dict):
        return _from(datacite_row(row["attributes"]), "DataCite")
    if isinstance(row.get("titles"), list) and ("creators" in row or "publicationYear" in row):
        return _from(datacite_row(row), "DataCite")  # DataCite JSON: the attributes at the top level
    if "arkIstex" in row or ("corpusName" in row and ("host" in row or "title" in row)):
        return _from(istex_row(row), "ISTEX")
    return None


def _from(row: Row, database: str) -> Row:
    """The row with the service it came from, kept with the paper: the overlap between databases names it
    (`core.store.provenance.database_of`), whatever the saved file is called."""
    return {**row, "database": database}


def _first(value: Any) -> str | None:
    """The first non-empty text of a list (Crossref's title and container-title), or the text itself."""
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str) and item.strip():
            return item
    return None


def _plain(value: str | None) -> str | None:
    """A name (journal, publisher) with its entities and markup decoded: "Colloid &amp; Polymer" is "Colloid &
    Polymer"."""
    if value is None:
        return None
    text = " ".join((plain_text(value) if has_markup(value) else value).split())
    return text or None


def _person(given: Any, family: Any, name: Any = None) -> str | None:
    """One author as "Family, Given" (or the name as written when there is no family name)."""
    if isinstance(family, str) and family.strip():
        return ", ".join(p.strip() for p in (family, given) if isinstance(p, str) and p.strip())
    return name.strip() if isinstance(name, str) and name.strip() else None


def _clean(row: Row) -> Row:
    """A row without empty values, but always with a title, an abstract (None when missing) and authors (a list,
    maybe empty), so a file whose records all lack an abstract still has its abstract column (and the import names
    "titles only")."""
    return {key: value for key, value in row.items() if value not in (None, [], "")} | {
        "title": row["title"], "abstract": row["abstract"], "authors": row["authors"]}


def _crossref_year(work: Row) -> int | None:
    """The year of the first of Crossref's publication dates that has one; ``created`` (the deposit) is none."""
    for key in _CROSSREF_DATES:
        parts = work.get(key, {}).get("date-parts") if isinstance(work.get(key), dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0] and parts[0][0]:
            return _year(parts[0][0])
    return None


def crossref_row(work: Row) -> Row:
    """A Crossref work: title, abstract (JATS as given), DOI (also the id), journal, year, authors, ORCIDs, ..."""
    authors = [a for a in work.get("author") or [] if isinstance(a, dict)]
    doi = _bare(work.get("DOI"), *_DOI_PREFIXES)
    row: Row = {
        "id": doi,
        "title": _first(work.get("title")),
        "abstract": work.get("abstract") if isinstance(work.get("abstract"), str) else None,
        "doi": doi,
        "journal": _plain(_first(work.get("container-title"))),
        "year": _crossref_year(work),
        "authors": [n for n in (_person(a.get("given"), a.get("family"), a.get("name")) for a in authors) if n],
        "orcids": [o for o in (_bare(a.get("ORCID"), "https://orcid.org/", "http://orcid.org/") for a in authors) if o],
        "keywords": [s for s in work.get("subject") or [] if isinstance(s, str) and s.strip()],
        "subtitle": _first(work.get("subtitle")),
        "short_journal": _plain(_first(work.get("short-container-title"))),
        "issn": [i for i in work.get("ISSN") or [] if isinstance(i, str)],
        "type": work.get("type") or None,
        "publisher": _plain(work.get("publisher")) if isinstance(work.get("publisher"), str) else None,
        "volume": work.get("volume") or None,
        "issue": work.get("issue") or None,
        "pages": work.get("page") or None,
        "language": work.get("language") or None,
        "url": work.get("URL") or None,
        "cited_by_count": work.get("is-referenced-by-count"),
    }
    return _clean(row)


def _lang(item: dict) -> str:
    return str(item.get("lang") or "").lower()[:2]


def _datacite_title(titles: list) -> tuple[str | None, str]:
    """The main title (the first without a ``titleType``, else the first) and its language."""
    items = [t for t in titles if isinstance(t, dict) and isinstance(t.get("title"), str) and t["title"].strip()]
    main = next((t for t in items if not t.get("titleType")), items[0] if items else None)
    return (main["title"], _lang(main)) if main else (None, "")


def _datacite_abstract(descriptions: Any, lang: str) -> str | None:
    """The description typed ``Abstract``: the one in the title's language when there are several."""
    abstracts = []
    for item in descriptions if isinstance(descriptions, list) else []:
        if not isinstance(item, dict) or str(item.get("descriptionType", "")).lower() != "abstract":
            continue
        text = item.get("description")
        if isinstance(text, list):  # older records: a list of texts
            text = "\n".join(t for t in text if isinstance(t, str))
        if isinstance(text, str) and text.strip():
            abstracts.append((item, text))
    if not abstracts:
        return None
    return next((text for item, text in abstracts if lang and _lang(item) == lang), abstracts[0][1])


def _publisher(value: Any) -> str | None:
    if isinstance(value, dict):  # DataCite 4.5: {"name": …, "publisherIdentifier": …}
        value = value.get("name")
    return _plain(value) if isinstance(value, str) and value.strip() else None


def _datacite_venue(attributes: Row) -> str | None:
    """Where a DataCite record is published: its container's title, else the item it is published in, else the
    publisher (the repository: Zenodo, Dryad, figshare)."""
    container = attributes.get("container")
    if isinstance(container, dict) and isinstance(container.get("title"), str) and container["title"].strip():
        return _plain(container["title"])
    for item in attributes.get("relatedItems") or []:
        if isinstance(item, dict) and item.get("relationType") == "IsPublishedIn":
            title, _ = _datacite_title(item.get("titles") or [])
            if title:
                return _plain(title)
    return _publisher(attributes.get("publisher"))


def _datacite_year(attributes: Row) -> int | None:
    year = _year(attributes.get("publicationYear"))
    if year:
        return year
    dates = [d for d in attributes.get("dates") or [] if isinstance(d, dict)]
    return next((_year(d.get("date")) for d in dates if d.get("dateType") == "Issued" and _year(d.get("date"))), None)


def _creator(creator: dict) -> str | None:
    """A DataCite creator: its ``name`` ("Family, Given", or an organisation) as written, else family, given."""
    name = creator.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    return _person(creator.get("givenName"), creator.get("familyName"))


def datacite_row(attributes: Row) -> Row:
    """A DataCite record's attributes: title, abstract, DOI (also the id), venue, year, creators, subjects, ..."""
    title, lang = _datacite_title(attributes.get("titles") or [])
    creators = [c for c in attributes.get("creators") or [] if isinstance(c, dict)]
    types = attributes.get("types") if isinstance(attributes.get("types"), dict) else {}
    doi = _bare(attributes.get("doi") or attributes.get("id"), *_DOI_PREFIXES)
    row: Row = {
        "id": doi,
        "title": title,
        "abstract": _datacite_abstract(attributes.get("descriptions"), lang),
        "doi": doi,
        "journal": _datacite_venue(attributes),
        "year": _datacite_year(attributes),
        "authors": [n for n in (_creator(c) for c in creators) if n],
        "keywords": [s["subject"].strip() for s in attributes.get("subjects") or []
                     if isinstance(s, dict) and isinstance(s.get("subject"), str) and s["subject"].strip()],
        "type": types.get("resourceTypeGeneral") or None,
        "publisher": _publisher(attributes.get("publisher")),
        "language": attributes.get("language") or None,
        "url": attributes.get("url") or None,
        "version": attributes.get("version") or None,
    }
    return _clean(row)


def istex_row(hit: Row) -> Row:
    """An ISTEX record: title, abstract, DOI, journal (``host.title``), year, authors, subjects, ISTEX id and ARK."""
    host = hit.get("host") if isinstance(hit.get("host"), dict) else {}
    doi = _first(hit.get("doi"))
    issn = [*(host.get("issn") or []), *(host.get("eissn") or [])]
    row: Row = {
        "id": hit.get("id") or None,
        "title": hit.get("title") if isinstance(hit.get("title"), str) else None,
        "abstract": hit.get("abstract") if isinstance(hit.get("abstract"), str) else None,
        "doi": _bare(doi, *_DOI_PREFIXES) if doi else None,
        "journal": _plain(host.get("title")) if isinstance(host.get("title"), str) else None,
        "year": _year(hit.get("publicationDate") or hit.get("copyrightDate")),
        "authors": [a["name"].strip() for a in hit.get("author") or []
                    if isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"].strip()],
        "keywords": [s["value"].strip() for s in hit.get("subject") or []
                     if isinstance(s, dict) and isinstance(s.get("value"), str) and s["value"].strip()],
        "issn": [i for i in dict.fromkeys(issn) if isinstance(i, str) and i],
        "type": _first(hit.get("genre")),
        "language": _first(hit.get("language")),
        "ark": hit.get("arkIstex") or _first(hit.get("ark")),
        "istex_corpus": hit.get("corpusName") or None,
    }
    return _clean(row)
