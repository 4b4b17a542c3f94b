"""Every record read is accounted for (issue 40): for each real tagged, XML and JSON fixture, the records counted in
the file without the importer (its record markers) equal the records the import preview reads, and those equal the
papers plus the skipped rows, each skipped row with its reason. Tables: tests/unit/io/test_shared_exports.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.io import plan_import

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
# file -> the pattern that starts each of its records (counted on the raw text)
MARKERS = {
    "endnote_3.ris": r"^TY  -", "scopus_3.ris": r"^TY  -", "wos_3.ris": r"^TY  -", "ovid_3.ris": r"^TY  -",
    "lens_49.ris": r"^\ufeff?TY  -", "cochrane_endnote_3.ris": r"^TY  -", "rispy_utf_chars.ris": r"^TY  -",
    "pubmed_3.txt": r"^PMID-", "tools/pubmed_3.nbib": r"^PMID-", "wos_3.ciw": r"^ER\s*$", "wos_cr_8.txt": r"^ER\s*$",
    "tools/wos_4.txt": r"^ER\s*$", "endnote_3.xml": r"<record>", "pubmed_book_mixed_2.xml":
        r"<PubmedArticle>|<PubmedBookArticle>", "scopus_3.bib": r"^@\w+\{", "zotero_3.bib": r"^@\w+\{",
    "ais_refer_6.txt": r"^%T ",  # each record starts with its title here (two have no %0)
}


def _json_records(path: Path) -> int:
    value = json.loads(path.read_text(encoding="utf-8"))
    return len(value if isinstance(value, list) else value["results"])


@pytest.mark.parametrize("name", [*MARKERS, "openalex_works_7.json", "s2_batch_4.json", "tools/csl_3.json"])
def test_records_in_the_file_are_the_records_read_and_each_is_imported_or_skipped(name: str) -> None:
    path = REAL / name
    if name.endswith(".json"):
        expected = _json_records(path)
    else:
        expected = len(re.findall(MARKERS[name], path.read_text(encoding="utf-8-sig"), re.M))
    plan = plan_import(path, title_only=True)
    assert plan.records == expected == plan.papers + len(plan.skipped)
    assert all(s["reason"] for s in plan.skipped)
