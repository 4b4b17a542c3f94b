"""INSPIRE-HEP's JSON read as papers: the REST API's search answer (``/api/literature?q=…``: ``{"hits": {"hits":
[{"metadata": {...}}]}}``), one record's answer (``/api/literature/<id>``: ``{"metadata": {...}, "id": …}``) and a
record as INSPIRE's JSON dumps hold it (the metadata alone). Real files (sources in
tests/fixtures/real/tools/SOURCES.md); before core/io/inspire.py each was refused: "has no title column" (found: hits,
links; or titles, abstracts, … of the record), or "JSON whose records are under 'metadata.titles'"."""

from __future__ import annotations

import json
from pathlib import Path

from core.io import read_papers
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(path: Path) -> list[Paper]:
    items = list(read_papers(path))
    assert not [i for i in items if isinstance(i, RowError)]
    return [i for i in items if isinstance(i, Paper)]


def test_an_inspire_search_answer_reads_its_hits_with_title_abstract_authors_journal_doi():
    """One hit (an independent count: ``len(hits.hits)``), as INSPIRE's own exercise kept its API's answer."""
    [paper] = _papers(TOOLS / "inspire_api_literature_1.json")
    assert paper.title == "Systematics of electric dipole excitations for odd-mass 233−239 U isotopes"
    assert paper.abstract.startswith("We have investigated the dipole strengths from low-lying energy region")
    assert paper.fields["authors"] == ["Tabar, E.", "Yakut, H.", "Kemah, E.", "Demirci Saygı, N.", "Hoşgör, G.",
                                       "Quliyev, H.", "Kuliev, A.A."]
    assert (paper.fields["journal"], paper.fields["year"], paper.fields["volume"]) == ("Nucl.Phys.A", 2021, "1008")
    assert paper.fields["doi"] == "10.1016/j.nuclphysa.2021.122138"
    assert paper.fields["inspire"] == "1842768" and paper.fields["database"] == "INSPIRE-HEP"
    assert paper.fields["keywords"][:3] == ["TGI-QPNM", "PDR", "GDR"]
    assert paper.fields.get("arxiv") is None  # this paper was never on arXiv


def test_an_inspire_record_reads_its_arxiv_id_and_its_journal_publication():
    """A record as INSPIRE stores and dumps it: two titles (the arXiv one a copy), a conference paper published in
    Pramana in 2009 (its arXiv preprint of 2008): the journal's year, the arXiv id, the DOI, PACS and author keywords."""
    [paper] = _papers(TOOLS / "inspire_record_788797.json")
    assert paper.title == "All-order results for soft and collinear gluons"
    assert paper.abstract.startswith("I briefly review some general features")
    assert paper.fields["authors"] == ["Magnea, Lorenzo"]
    assert paper.fields["affiliations"] == ["Turin U.", "INFN, Turin"]
    assert (paper.fields["journal"], paper.fields["year"], paper.fields["pages"]) == ("Pramana", 2009, "69-81")
    assert (paper.fields["arxiv"], paper.fields["doi"]) == ("0806.3353", "10.1007/s12043-009-0006-y")
    assert paper.fields["keywords"] == ["12.38.Cy", "11.15.Bt", "Quantum chromodynamics", "resummation",
                                        "gauge theories", "hep-ph"]
    assert paper.fields["inspire"] == "788797"


def test_one_inspire_record_answer_and_a_list_of_records_are_read(tmp_path: Path):
    record = json.loads((TOOLS / "inspire_record_788797.json").read_text(encoding="utf-8"))
    one = tmp_path / "788797.json"
    one.write_text(json.dumps({"metadata": record, "id": "788797", "created": "2008-06-22T00:00:00+00:00",
                               "links": {"json": "https://inspirehep.net/api/literature/788797?format=json"}},
                              indent=2), encoding="utf-8")
    assert [p.fields["arxiv"] for p in _papers(one)] == ["0806.3353"]
    lines = tmp_path / "hep_records.jsonl"  # INSPIRE's dumps: one record per line
    second = dict(record, control_number=1, titles=[{"title": "Another record"}], arxiv_eprints=[], dois=[])
    lines.write_text(json.dumps(record) + "\n" + json.dumps(second) + "\n", encoding="utf-8")
    assert [p.title for p in _papers(lines)] == ["All-order results for soft and collinear gluons", "Another record"]


def test_a_paper_from_inspire_and_from_arxiv_merges_by_its_arxiv_id(store, tmp_path: Path):
    """INSPIRE's record and arXiv's own answer for the same preprint carry the same arXiv id: one paper."""
    from core.store import import_file

    atom = tmp_path / "arxiv.xml"
    atom.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        '  <link href="http://arxiv.org/api/query?search_query%3D%26id_list%3D0806.3353" rel="self"/>\n  <entry>\n'
        '    <id>http://arxiv.org/abs/0806.3353v1</id>\n    <published>2008-06-20T10:00:00Z</published>\n'
        '    <title>All-order results for soft and collinear gluons</title>\n'
        '    <summary>  I briefly review some general features.</summary>\n'
        '    <author><name>Lorenzo Magnea</name></author>\n  </entry>\n</feed>\n', encoding="utf-8")
    first = import_file(store, TOOLS / "inspire_record_788797.json", "c")
    second = import_file(store, atom, "c")
    assert (first.imported, first.added) == (1, 1)
    assert (second.imported, second.added, second.merged, second.skipped) == (1, 0, 1, 0)
    assert store.corpus("c").papers == 1
