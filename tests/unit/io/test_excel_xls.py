"""Web of Science's "Excel" export is an old Excel 97-2003 workbook (``savedrecs.xls``, BIFF): it was refused with
"save it as .xlsx or CSV" although it is what a librarian gets from the button. It is read through xlrd
(``core/io/excel_xls.py``) as an ``.xlsx`` is: the fixture is a real one (TimothyStaples/coauthor_networks, BSD),
18 records exported without abstracts."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.store import Store
from tests.unit.io.support import papers_and_errors, write

XLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools" / "wos_savedrecs_excel_18.xls"


def test_a_web_of_science_xls_is_read_as_its_xlsx_would_be() -> None:
    papers, errors = papers_and_errors(XLS, title_only=True)
    assert (len(papers), errors) == (18, [])
    first, last = papers[0], papers[-1]
    assert first.title == "Expansion and evolution of the R programming language"
    assert first.fields["journal"] == "ROYAL SOCIETY OPEN SCIENCE" and first.fields["year"] == 2023
    assert first.fields["doi"] == "10.1098/rsos.221550"
    assert last.title == "Potential mechanisms of coexistence in closely related forbs"
    # authors a list, in the fullest form read ("Author Full Names" beside "Authors")
    assert first.fields["authors"] == ["Staples, Timothy L."]
    assert last.fields["authors"] == ["Staples, Timothy L.", "Dwyer, John M.", "Loy, Xingwen", "Mayfield, Margaret M."]
    # the id is the Web of Science record's (on every record, as the tagged export's UT), not the sparse Pubmed Id
    # (that made some records' ids PMIDs and the others' DOIs); a number cell reads "37063989", not "37063989.0"
    assert (first.id, last.id) == ("WOS:000969064200001", "WOS:000389308400013")
    assert str(first.fields["pubmed id"]) == "37063989"
    assert all(isinstance(p.fields["year"], int) for p in papers)


def test_without_abstracts_the_sentence_names_titles_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "ws")
    with pytest.raises(CorpusError, match="every row lacked an abstract; import titles only"):
        store.import_papers("wos", read_papers(XLS), source=XLS.name)
    report = store.import_papers("wos", read_papers(XLS, title_only=True), source=XLS.name)
    assert (report.added, report.merged, report.skipped) == (18, 0, 0)


def test_a_damaged_xls_gets_one_sentence_with_the_fix(tmp_path: Path) -> None:
    broken = write(tmp_path / "savedrecs.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    with pytest.raises(CorpusError, match=r"file 'savedrecs.xls' is not a readable Excel 97-2003 workbook .*"
                                          r"save it as .xlsx or CSV and import again"):
        list(read_papers(broken))
