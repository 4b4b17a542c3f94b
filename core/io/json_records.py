"""JSON records under the product's field names: each reader of an API's or a tool's JSON names its fields; a record
no reader knows stays as it is (its keys are matched to fields by `core.io.columns`)."""

from __future__ import annotations

from collections.abc import Iterator

from core.io.api_json import api_row
from core.io.csl import csl_row, looks_like_csl
from core.io.europe_pmc import europe_pmc_row, looks_like_europe_pmc
from core.io.inspire import inspire_row
from core.io.rows import NumberedRow, Row
from core.io.scholarly import looks_like_openalex, looks_like_semantic_scholar, openalex_row, semantic_scholar_row
from core.io.search_apis import search_api_row
from core.io.wos_api import looks_like_wos_hit, wos_api_row


def json_record(row: Row) -> Row:
    """A JSON object under the product's field names when it is a CSL item, an OpenAlex work, a Semantic Scholar
    paper, a Europe PMC record, a Crossref work, a DataCite record, an ISTEX record, an INSPIRE-HEP record or a Web
    of Science Starter API hit; else as it is."""
    if looks_like_openalex(row):
        return openalex_row(row)
    if looks_like_semantic_scholar(row):
        return semantic_scholar_row(row)
    if looks_like_europe_pmc(row):
        return europe_pmc_row(row)
    api = api_row(row)  # Crossref, DataCite, ISTEX: before CSL, which a Crossref work resembles
    if api is None:
        api = search_api_row(row)  # ERIC, PLOS, bioRxiv/medRxiv
    if api is None:
        api = inspire_row(row)  # INSPIRE-HEP: a hit, a record answer, a record of its dumps
    if api is None and looks_like_wos_hit(row):
        api = wos_api_row(row)  # the Web of Science Starter API
    if api is not None:
        return api
    return csl_row(row) if looks_like_csl(row) else row


def json_rows(rows: Iterator[NumberedRow]) -> Iterator[NumberedRow]:
    """Each JSON record of a file under the product's field names (`json_record`)."""
    for number, row in rows:
        yield number, (json_record(row) if isinstance(row, dict) else row)
