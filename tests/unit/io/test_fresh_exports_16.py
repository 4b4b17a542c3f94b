"""Real exports from repositories the project had not read before (issue 40, sixteenth round), and two leftovers of
round 15: an import note that named an 'id' column a RIS file does not have, and an Excel export whose list fields
(authors, keywords) came back as text or split at a comma. Sources, licences and cuts in
tests/fixtures/real/tools/SOURCES.md ("Round 16"); each file was counted by a hand-written reader before the product
read it (BENCHMARKS.md §25o)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.records import Paper
from tests.unit.io.support import TOOLS

REAL = TOOLS.parent


def _papers(path: Path) -> list[Paper]:
    return [item for item in read_papers(path, title_only=True) if isinstance(item, Paper)]


# --- the id note says which field gave the ids, or that they were made from the papers' content --------------------


@pytest.mark.parametrize("name", ["scopus_3.ris", "tools/ebsco_asp_4.ris", "tools/mendeley_ris_8.ris"])
def test_a_ris_file_without_id_tags_is_not_said_to_have_an_id_column(name: str) -> None:
    """A RIS file has tags, not columns, and these have no ID tag: the note said "column 'id' was not used for the
    ids: the first 3 rows hold no id", naming a column that does not exist. It says the records have no ID tag and
    that each paper's id was made from its DOI, else its title and abstract."""
    stream = read_papers(REAL / name)
    papers = [item for item in stream if isinstance(item, Paper)]
    assert stream.id_column is None
    assert "column" not in stream.id_note and "rows" not in stream.id_note
    assert stream.id_note.startswith("the records have no ID tag")
    assert "ids were generated instead (the DOI, else a hash of the title and abstract)" in stream.id_note
    assert papers and all(p.id == p.fields["doi"] if p.fields.get("doi") else len(p.id) == 16 for p in papers)


def test_a_ris_file_whose_ids_come_from_its_an_tag_says_so() -> None:
    """Cochrane's RIS has no ID tag but an accession number (AN) on every record, which gives the ids."""
    stream = read_papers(REAL / "cochrane_endnote_3.ris")
    assert stream.id_column == "accession_number"
    assert stream.id_note == "the records have no ID tag (none of the first 3); used the AN tag (accession " \
                             "number) instead"


def test_an_endnote_xml_without_record_numbers_names_its_element() -> None:
    """EndNote XML written by Zotero has no <rec-number>: the note names the element, not an 'id' column."""
    stream = read_papers(TOOLS / "asysd_zotero_endnote_10.xml")
    assert stream.id_column is None
    assert stream.id_note.startswith("the records have no <rec-number> element (none of the first 10); ids were "
                                     "generated instead")
    stream = read_papers(TOOLS / "asysd_mendeley_endnote_10.xml")
    assert stream.id_note.endswith("used the <accession-num> element instead")


def test_a_table_still_names_its_column() -> None:
    """In a CSV the column is real, and the note names it as before."""
    stream = read_papers(TOOLS / "covidence_3.csv")
    assert stream.id_note == ("column 'Accession Number' was not used for the ids: the first 3 rows hold no id or a "
                              "placeholder (empty); used column 'Covidence #' instead")
