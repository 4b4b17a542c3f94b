"""Search APIs' JSON answers that are neither scholarly graphs nor registries: Solr answers (ERIC, PLOS, NASA ADS)
and the bioRxiv/medRxiv API, their records in the product's field names.

- **Solr** (``{"responseHeader": …, "response": {"numFound", "start", "docs": [...]}}``), as ERIC's API
  (api.ies.ed.gov/eric, ``format=json``) and PLOS's search API (api.plos.org/search) answer. ERIC's record: ``id``
  (EJ…/ED…), ``title``, ``author`` (a list), ``description`` (the abstract), ``subject`` (a list),
  ``publicationdateyear``, ``source`` (the journal), ``issn``. PLOS's: ``id`` (the DOI), ``title_display``,
  ``author_display``, ``abstract`` (a list of texts), ``journal``, ``publication_date``. NASA ADS's (its
  ``/search/query``): ``bibcode``, ``title`` and ``doi`` as lists, ``author``, ``abstract``, ``pub``, ``year``.
- **bioRxiv/medRxiv** (api.biorxiv.org ``/details``: ``{"messages": [...], "collection": [...]}``): ``doi``,
  ``title``, ``authors`` ("Family, G.; Family, G."), ``date``, ``category``, ``abstract``, ``server``,
  ``published`` (the journal article's DOI, or "NA").
- **CiNii** (ci.nii.ac.jp and cir.nii.ac.jp ``/opensearch``, ``format=json``: JSON-LD, its records under
  ``@graph[0].items``): ``title``, ``dc:creator`` (names, or ``{"@value": name}``), ``description`` (the abstract),
  ``prism:publicationName``, ``prism:publicationDate`` (else ``dc:date``), ``prism:volume``, ``prism:number``,
  ``prism:startingPage``/``endingPage``, ``prism:issn``, ``prism:doi``, ``dc:publisher``; ``@id`` (the record's
  page, its NAID or NCID) the id.
"""

from __future__ import annotations

from typing import Any

from core.io.rows import Row, _year

_ERIC_ID_PREFIXES = ("EJ", "ED")
_SERVERS = {"biorxiv": "bioRxiv", "medrxiv": "medRxiv"}


def search_api_records(value: Any) -> list | None:
    """The records of a Solr answer (``response.docs``) or a bioRxiv/medRxiv answer (``collection``); None else."""
    if not isinstance(value, dict):
        return None
    response = value.get("response")
    if isinstance(response, dict) and isinstance(response.get("docs"), list) and "numFound" in response:
        return response["docs"]
    graph = value.get("@graph")
    channel = graph[0] if isinstance(graph, list) and graph and isinstance(graph[0], dict) else {}
    if isinstance(channel.get("items"), list) and "opensearch:totalResults" in channel:  # CiNii
        return channel["items"]
    collection = value.get("collection")
    if isinstance(collection, list) and isinstance(value.get("messages"), list):
        return collection
    return None


def _texts(value: Any) -> list[str]:
    """A list of texts (or one text) as a list of stripped, non-empty texts."""
    items = value if isinstance(value, list) else [value]
    return [" ".join(item.split()) for item in items if isinstance(item, str) and item.strip()]


def _text(value: Any) -> str | None:
    """A text, or a list of texts (PLOS' abstract) joined by a blank line, without the line breaks around it."""
    items = [item.strip() for item in (value if isinstance(value, list) else [value])
             if isinstance(item, str) and item.strip()]
    return "\n\n".join(items) or None


def _people(value: Any) -> list[str]:
    """bioRxiv's authors: one text joined by ";" as the API gives them, or a list (a client's saved record)."""
    if isinstance(value, str):
        return [name.strip() for name in value.split(";") if name.strip()]
    return _texts(value)


def _kept(row: Row) -> Row:
    return {key: value for key, value in row.items() if value not in (None, [], "")} | {
        "title": row["title"], "abstract": row["abstract"], "authors": row["authors"]}


def _eric(doc: Row) -> Row:
    ident = doc["id"]
    return _kept({
        "id": ident, "eric_id": ident, "title": _text(doc.get("title")), "abstract": _text(doc.get("description")),
        "authors": _texts(doc.get("author")), "year": _year(doc.get("publicationdateyear")),
        "journal": _text(doc.get("source")), "keywords": _texts(doc.get("subject")), "issn": _texts(doc.get("issn")),
        "publisher": _text(doc.get("publisher")), "type": "; ".join(_texts(doc.get("publicationtype"))) or None,
        "language": "; ".join(_texts(doc.get("language"))) or None,
        "url": f"https://eric.ed.gov/?id={ident}", "database": "ERIC"})


def _plos(doc: Row) -> Row:
    return _kept({
        "id": doc.get("id"), "doi": doc.get("id"), "title": _text(doc.get("title_display") or doc.get("title")),
        "abstract": _text(doc.get("abstract")), "authors": _texts(doc.get("author_display") or doc.get("author")),
        "journal": _text(doc.get("journal")), "year": _year(doc.get("publication_date")),
        "volume": doc.get("volume"), "issue": doc.get("issue"), "type": doc.get("article_type"),
        "eissn": doc.get("eissn"), "database": "PLOS"})


def _preprint(record: Row) -> Row:
    server = _SERVERS.get(str(record.get("server") or "").lower(), "bioRxiv")
    published = record.get("published")
    return _kept({
        "id": record.get("doi"), "doi": record.get("doi"), "title": _text(record.get("title")),
        "abstract": _text(record.get("abstract")),
        "authors": _people(record.get("authors")),
        "journal": server, "year": _year(record.get("date")), "date": record.get("date"),
        "keywords": _texts(record.get("category")), "version": record.get("version"),
        "type": record.get("type"), "license": record.get("license"),
        "published_doi": published if isinstance(published, str) and published.upper() != "NA" else None,
        "corresponding_author": record.get("author_corresponding"),
        "corresponding_institution": record.get("author_corresponding_institution"),
        "jatsxml": record.get("jatsxml"), "database": server})


def _ads(doc: Row) -> Row:
    doi, title = _texts(doc.get("doi")), _texts(doc.get("title"))
    return _kept({
        "id": doc.get("bibcode"), "bibcode": doc.get("bibcode"), "title": title[0] if title else None,
        "abstract": _text(doc.get("abstract")), "authors": _texts(doc.get("author")), "journal": _text(doc.get("pub")),
        "year": _year(doc.get("year") or doc.get("pubdate")), "doi": doi[0] if doi else None,
        "keywords": _texts(doc.get("keyword")), "database": "NASA ADS"})


def _values(value: Any) -> list[str]:
    """JSON-LD values (CiNii's ``dc:creator``): texts, or objects holding one under ``@value``."""
    items = value if isinstance(value, list) else [value]
    return _texts([item.get("@value") if isinstance(item, dict) else item for item in items])


def _cinii(item: Row) -> Row:
    first, last = item.get("prism:startingPage"), item.get("prism:endingPage")
    return _kept({
        "id": item.get("@id"), "title": _text(item.get("title")), "abstract": _text(item.get("description")),
        "authors": _values(item.get("dc:creator")), "journal": _text(item.get("prism:publicationName")),
        "year": _year(item.get("prism:publicationDate") or item.get("dc:date")),
        "date": item.get("prism:publicationDate") or item.get("dc:date"), "volume": item.get("prism:volume"),
        "issue": item.get("prism:number"), "pages": "-".join(p for p in (first, last) if p) or None,
        "issn": item.get("prism:issn"), "doi": _text(item.get("prism:doi")),
        "publisher": "; ".join(_values(item.get("dc:publisher"))) or None, "url": item.get("@id"),
        "database": "CiNii"})


def search_api_row(row: Row) -> Row | None:
    """An ERIC, PLOS, NASA ADS, bioRxiv/medRxiv or CiNii record as a row under the product's names; None for any
    other."""
    ident = row.get("id")
    if isinstance(ident, str) and ident[:2] in _ERIC_ID_PREFIXES and ident[2:].isdigit() and (
            "description" in row or "publicationdateyear" in row):
        return _eric(row)
    if "title_display" in row or "author_display" in row:
        return _plos(row)
    if isinstance(row.get("bibcode"), str) and ("title" in row or "abstract" in row):
        return _ads(row)
    if str(row.get("server") or "").lower() in _SERVERS and "doi" in row:
        return _preprint(row)
    if "@id" in row and ("prism:publicationName" in row or "dc:creator" in row):
        return _cinii(row)
    return None
