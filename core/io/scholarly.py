"""OpenAlex and Semantic Scholar JSON: their works and papers normalised into the product's field names.

OpenAlex gives works as an API response (``{"meta": ..., "results": [...]}``), a list of works, or the snapshot's
JSON lines (one work a line); Semantic Scholar's Graph API as ``{"data": [...]}`` (search), a list (``paper/batch``,
where an id it did not find is ``null``) or JSON lines (the datasets). A work is recognised by its own keys
(OpenAlex: ``abstract_inverted_index`` or an ``https://openalex.org/W…`` id; Semantic Scholar: ``paperId``).

OpenAlex keeps no abstract text, only an inverted index (word -> positions); the abstract is rebuilt from it.
Only the fields a user reads, filters or links by are kept (the raw works carry hundreds of nested values).
"""

from __future__ import annotations

from typing import Any

from core.io.rows import Row, _year

_OPENALEX = "https://openalex.org/"
_NO_NAMES = frozenset(("null author_id", "null", "none"))  # OpenAlex's placeholder for an author it could not name


def looks_like_openalex(row: Row) -> bool:
    """Whether a JSON object is an OpenAlex work."""
    ident = row.get("id")
    return "abstract_inverted_index" in row or (
        isinstance(ident, str) and ident.startswith(_OPENALEX + "W") and ("title" in row or "display_name" in row))


def looks_like_semantic_scholar(row: Row) -> bool:
    """Whether a JSON object is a Semantic Scholar paper."""
    return isinstance(row.get("paperId"), str) and ("title" in row or "externalIds" in row or "abstract" in row)


def abstract_from_index(index: Any) -> str | None:
    """The abstract an OpenAlex ``abstract_inverted_index`` (word -> positions) encodes; None when there is none."""
    if not isinstance(index, dict) or not index:
        return None
    placed: dict[int, str] = {}
    for word, positions in index.items():
        for position in positions if isinstance(positions, list) else ():
            if isinstance(position, int) and not isinstance(position, bool) and position >= 0:
                placed[position] = str(word)
    return " ".join(placed[p] for p in sorted(placed)) or None


def _bare(value: Any, *prefixes: str) -> str | None:
    """An id without its URL prefix ('https://pubmed.ncbi.nlm.nih.gov/123' -> '123'); None when empty."""
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        return None
    text = str(value).strip()
    for prefix in prefixes:
        if text.lower().startswith(prefix.lower()):
            text = text[len(prefix):]
    return text.strip("/") or None


def _names(items: Any, *path: str) -> list[str]:
    """The ``display_name`` (or the key at ``path``) of each item of a list of objects, empty ones left out."""
    names = []
    for item in items if isinstance(items, list) else ():
        for key in path:
            item = item.get(key) if isinstance(item, dict) else None
        if isinstance(item, str) and item.strip() and item.strip().lower() not in _NO_NAMES:
            names.append(item.strip())
    return names


def openalex_row(work: Row) -> Row:
    """An OpenAlex work as a row: id (``W…``), title, abstract (rebuilt), DOI, journal, year, authors, ids."""
    ids = work.get("ids") if isinstance(work.get("ids"), dict) else {}
    location = work.get("primary_location") if isinstance(work.get("primary_location"), dict) else {}
    source = location.get("source") if isinstance(location.get("source"), dict) else {}
    if not source and isinstance(work.get("host_venue"), dict):  # the API before 2023
        source = work["host_venue"]
    openalex = _bare(work.get("id") or ids.get("openalex"), _OPENALEX)
    issn = [source.get("issn_l"), *(source.get("issn") if isinstance(source.get("issn"), list) else [])]
    keywords = _names(work.get("keywords"), "display_name") or _names(work.get("keywords"), "keyword")
    row: Row = {
        "id": openalex,
        "title": work.get("title") or work.get("display_name"),
        "abstract": abstract_from_index(work.get("abstract_inverted_index")),
        "doi": _bare(work.get("doi") or ids.get("doi"), "https://doi.org/", "http://dx.doi.org/"),
        "journal": source.get("display_name") or None,
        "year": _year(work.get("publication_year") or work.get("publication_date")),
        "authors": _names(work.get("authorships"), "author", "display_name"),
        "keywords": keywords,
        "openalex": openalex,
        "pmid": _bare(ids.get("pmid"), "https://pubmed.ncbi.nlm.nih.gov/"),
        "pmcid": _pmcid(ids.get("pmcid")),
        "issn": [i for i in dict.fromkeys(issn) if isinstance(i, str) and i],  # the ISSN-L first
        "concepts": _names(work.get("concepts"), "display_name"),
        "type": work.get("type") or None,
        "language": work.get("language") or None,
        "publication_date": work.get("publication_date") or None,
        "cited_by_count": work.get("cited_by_count"),
        "referenced_works": [r for r in (_bare(w, _OPENALEX) for w in work.get("referenced_works") or []) if r],
    }
    return {key: value for key, value in row.items() if value not in (None, [], "")} | {
        "title": row["title"], "abstract": row["abstract"]}


def _pmcid(value: Any) -> str | None:
    bare = _bare(value, "https://www.ncbi.nlm.nih.gov/pmc/articles/")
    if bare and bare.isdigit():
        return f"PMC{bare}"
    return bare


def semantic_scholar_row(paper: Row) -> Row:
    """A Semantic Scholar paper as a row: id (``paperId``), title, abstract, DOI, PMID, arXiv id, journal, year."""
    external = paper.get("externalIds") if isinstance(paper.get("externalIds"), dict) else {}
    journal = paper.get("journal") if isinstance(paper.get("journal"), dict) else {}
    fields = _names(paper.get("s2FieldsOfStudy"), "category") or [
        f for f in paper.get("fieldsOfStudy") or [] if isinstance(f, str)]
    row: Row = {
        "id": paper.get("paperId"),
        "title": paper.get("title"),
        "abstract": paper.get("abstract"),
        "doi": _bare(external.get("DOI"), "https://doi.org/"),
        "journal": journal.get("name") or paper.get("venue") or None,
        "year": _year(paper.get("year") or paper.get("publicationDate")),
        "authors": _names(paper.get("authors"), "name"),
        "keywords": list(dict.fromkeys(fields)),
        "semantic_scholar": paper.get("paperId"),
        "corpus_id": paper.get("corpusId") or external.get("CorpusId"),
        "pmid": _bare(external.get("PubMed")),
        "pmcid": _pmcid(external.get("PubMedCentral")),
        "arxiv": _bare(external.get("ArXiv")),
        "venue": paper.get("venue") or None,
        "publication_types": [t for t in paper.get("publicationTypes") or [] if isinstance(t, str)],
        "publication_date": paper.get("publicationDate") or None,
        "cited_by_count": paper.get("citationCount"),
        "url": paper.get("url") or None,
    }
    return {key: value for key, value in row.items() if value not in (None, [], "")} | {
        "title": row["title"], "abstract": row["abstract"]}
