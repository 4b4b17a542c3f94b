"""Crossref, DataCite and ISTEX API JSON (issue 40): real responses saved from each API, read as papers.

Each fixture is a real response body (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md): Crossref
REST answers recorded by habanero's tests, DataCite REST answers recorded by rdatacite's and commonmeta-py's tests,
DataCite JSON from commonmeta-py and Zotero's translator tests, an ISTEX API page from bibliotobler. Before this
reader every one was refused with "has no title column (... found: status, message-type, message-version,
message)", which is false: the titles are there, one level down. The counts were made by an independent reading
(plain ``json``, tags removed by a regular expression)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"

# file -> (records read, records with a title and an abstract), by the independent count
COUNTS = {
    "crossref_works_ufsm_20.json": (20, 19),
    "crossref_works_oup_2.json": (2, 2),
    "crossref_work_jor_1.json": (1, 1),
    "datacite_dois_5.json": (5, 5),
    "datacite_doi_figshare_1.json": (1, 1),
    "datacite_doi_lipics_1.json": (1, 1),
    "datacite_json_1.json": (1, 1),
    "datacite_json_gms_1.json": (1, 1),
    "istex_api_9.json": (9, 9),
}
NO_ABSTRACTS = {"crossref_work_noabstract_1.json": 1, "crossref_sample_noabstract_3.json": 3,
                "datacite_json_noabstract_1.json": 1}


def _read(name: str, title_only: bool = False) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(TOOLS / name, title_only=title_only))
    return ([i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)])


def _by_title(papers: list[Paper], start: str) -> Paper:
    return next(p for p in papers if p.title.startswith(start))


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_an_api_response_gives_each_record_with_a_title_and_an_abstract(name: str) -> None:
    papers, errors = _read(name)
    records, with_abstract = COUNTS[name]
    assert (len(papers) + len(errors), len(papers)) == (records, with_abstract)
    for paper in papers:
        assert not re.search(r"</?[a-zA-Z]|&amp;|&lt;", paper.abstract)  # "p < 0.001" stays
        assert isinstance(paper.fields["authors"], list)
        assert isinstance(paper.fields.get("year"), int)
        assert paper.fields.get("doi")


@pytest.mark.parametrize("name", sorted(COUNTS) + sorted(NO_ABSTRACTS))
def test_read_equals_added_plus_merged_plus_skipped(store, name: str) -> None:
    title_only = name in NO_ABSTRACTS
    items = [i for i in read_papers(TOOLS / name, title_only=title_only) if isinstance(i, (Paper, RowError))]
    report = store.import_papers("c", read_papers(TOOLS / name, title_only=title_only))
    assert report.added + report.merged + report.skipped == len(items) == report.to_dict()["read"]


def test_a_crossref_work_list_strips_jats_and_keeps_journal_year_authors_doi() -> None:
    """A Crossref ``/works?query.publisher-name=…`` answer (``{"status":"ok","message-type":"work-list",
    "message":{"items":[…]}}``): title lists, ``<jats:p>`` abstracts, ``container-title`` lists, ``issued``
    date-parts, ``author`` given/family with ORCIDs; the editorial without an abstract is skipped with its reason."""
    papers, errors = _read("crossref_works_ufsm_20.json")
    first = papers[0]
    assert first.title == ("Relações Públicas e Design Thinking: experiências convergentes na prototipação de um "
                           "e-book sobre gestão de eventos no pós-pandemia")
    assert first.abstract.startswith("O presente texto, descreve uma pesquisa aplicada")
    assert first.fields["abstract_markup"].startswith("<jats:p>O presente texto")
    assert first.fields["journal"] == "Animus. Revista Interamericana de Comunicação Midiática"
    assert first.fields["year"] == 2023
    assert first.fields["doi"] == "10.5902/2175497775344"
    assert first.fields["authors"] == ["Fernandes, Fabio Frá", "Barichello, Eugenia Maria Mariano da Rocha",
                                       "Rocha, Roberta e Silva Hoffmann da"]
    assert first.fields["orcids"][0] == "0000-0003-2035-6832"
    assert first.fields["type"] == "journal-article"
    assert [e.reason for e in errors] == ["row 13: empty abstract"]


def test_crossref_html_abstracts_and_a_work_without_authors() -> None:
    """Oxford Bibliographies entries: ``<p>`` abstracts (not JATS) and one entry without an ``author`` list."""
    papers, _ = _read("crossref_works_oup_2.json")
    communicating = _by_title(papers, "Communicating Ecology")
    assert communicating.abstract.startswith("Communication is perhaps the most important")
    assert communicating.fields["authors"] == [] and communicating.fields["year"] == 2022
    assert communicating.fields["journal"] == "Ecology"
    assert _by_title(papers, "Chemical Ecology").fields["authors"] == ["Kessler, André"]


def test_one_crossref_work_drops_its_lone_abstract_heading() -> None:
    """``/works/{doi}`` (``"message-type":"work"``): one work, its abstract headed ``<jats:title>Abstract``."""
    papers, errors = _read("crossref_work_jor_1.json")
    assert errors == [] and len(papers) == 1
    paper = papers[0]
    assert paper.title.startswith("Growth hormone secretagogue increases muscle strength")
    assert paper.abstract.startswith("Twenty‐two beagles were divided")
    assert (paper.fields["journal"], paper.fields["year"]) == ("Journal of Orthopaedic Research", 1997)
    assert paper.fields["doi"] == "10.1002/jor.1100150407"


@pytest.mark.parametrize("name", sorted(NO_ABSTRACTS))
def test_an_api_response_without_abstracts_names_titles_only_and_imports_with_it(store, name: str) -> None:
    from core.store import import_file

    with pytest.raises(CorpusError, match="every row lacked an abstract; .*import titles only.*'Titles only'"):
        import_file(store, TOOLS / name, "c")
    papers, errors = _read(name, title_only=True)
    assert (len(papers), errors) == (NO_ABSTRACTS[name], [])
    assert all(p.fields["title_only"] is True for p in papers)


def test_a_crossref_container_title_is_unescaped_and_an_unknown_date_gives_no_year() -> None:
    """``"container-title":["Progress in Colloid &amp; Polymer Science", …]`` and ``"issued":{"date-parts":
    [[null]]}`` (Crossref knows no publication date; its ``created`` is the deposit date, not a year)."""
    papers, _ = _read("crossref_sample_noabstract_3.json", title_only=True)
    chapter = _by_title(papers, "The influence of capillarity")
    assert chapter.fields["journal"] == "Progress in Colloid & Polymer Science"
    assert chapter.fields.get("year") is None
    assert chapter.fields["authors"] == ["Carroll, B. J."]


def test_a_datacite_doi_list_reads_attributes_and_leaves_other_descriptions_out() -> None:
    """``/dois`` (``{"data":[{"id","type":"dois","attributes":{…}}],"included","meta","links"}``): the
    description typed ``Abstract`` is the abstract, ``Other`` ones (an English title, a references dump) are not."""
    papers, _ = _read("datacite_dois_5.json")
    rural = _by_title(papers, "Między zagrodą a boiskiem")
    assert rural.abstract.startswith("Studies on promotion of sport in rural areas")
    assert "references" not in rural.abstract and "English title" not in rural.abstract
    assert rural.fields["authors"] == ["Burdyka, Konrad"] and rural.fields["year"] == 2019
    assert rural.fields["doi"] == "10.5281/zenodo.3520062" and rural.fields["journal"] == "Zenodo"
    assert rural.fields["type"] == "Text"
    assert _by_title(papers, "Occurrence Download").fields["type"] == "Dataset"


def test_one_datacite_doi_strips_html_and_takes_its_container_as_venue() -> None:
    """``/dois/{doi}`` (``{"data":{…},"included":[…]}``): ``<i>`` in a figshare abstract; a LIPIcs paper whose
    ``container`` names its proceedings volume."""
    figshare = _read("datacite_doi_figshare_1.json")[0][0]
    assert figshare.abstract.startswith("These are raw wing images from Drosophila melanogaster isofemale lines")
    assert figshare.fields["journal"] == "figshare"
    lipics = _read("datacite_doi_lipics_1.json")[0][0]
    assert lipics.title == "The Minimum Size of Qubit Unextendible Product Bases"
    assert (lipics.fields["journal"], lipics.fields["year"]) == ("LIPIcs, Volume 22, TQC 2013", 2013)
    assert lipics.fields["authors"] == ["Johnston, Nathaniel"]


def test_datacite_json_with_attributes_at_the_top_and_two_abstract_languages() -> None:
    """DataCite JSON (``application/vnd.datacite.datacite+json``): attributes at the top level. A German record
    with a German and an English abstract keeps the abstract in its title's language."""
    blog = _read("datacite_json_1.json")[0][0]
    assert blog.title == "Eating your own Dog Food" and blog.fields["authors"] == ["Fenner, Martin"]
    assert (blog.fields["year"], blog.fields["doi"]) == (2016, "10.5438/4k3m-nyvg")
    assert blog.fields["keywords"] == ["datacite", "doi", "metadata"]
    gms = _read("datacite_json_gms_1.json")[0][0]
    assert gms.title.startswith("Mehr Schaden als Nutzen?")
    assert gms.abstract.startswith("Die Liste an selbst ernannten Plagiatsprüfprogrammen")
    assert gms.fields["authors"] == ["Miljković, Natascha"] and gms.fields["year"] == 2015


def test_an_istex_api_page_reads_its_hits() -> None:
    """An ISTEX ``/document/?q=…`` page (``{"total", "hits":[{"title","abstract","author":[{"name"}],
    "host":{"title"},"publicationDate","doi":[…]}]}``)."""
    papers, _ = _read("istex_api_9.json")
    first = papers[0]
    assert first.title == "Divergence in trophic ecology characterizes colonization of extreme habitats"
    assert first.abstract.startswith("Extreme habitats are characterized by the presence")
    assert first.fields["journal"] == "Biological Journal of the Linnean Society"
    assert (first.fields["year"], first.fields["doi"]) == (2008, "10.1111/j.1095-8312.2008.01063.x")
    assert first.fields["authors"] == ["MICHAEL TOBLER"]
    assert _by_title(papers, "Multilevel preconditioning").fields["authors"] == ["Roman Andreev", "Christine Tobler"]


def test_a_crossref_answer_that_holds_no_works_is_refused_naming_what_it_is() -> None:
    """``/journals?query=ecology`` (``"message-type":"journal-list"``) lists journals, not works."""
    with pytest.raises(CorpusError, match="Crossref API response of type 'journal-list'.*/works"):
        list(read_papers(TOOLS / "crossref_journals_2.json"))


def test_a_json_of_no_known_shape_is_refused_naming_the_shapes_that_are_read(tmp_path: Path) -> None:
    """A search answer whose records sit under a key no reader knows is not "a file without a title column": the
    sentence says where its records are and which JSON shapes are read. (Europe PMC's ``resultList.result`` is read
    since round 8, a Solr answer's ``response.docs`` — ERIC, PLOS, NASA ADS — since round 9.)"""
    path = tmp_path / "search.json"
    path.write_text(json.dumps({"status": "ok", "payload": {"total": 1, "entries": [
        {"key": "2019ApJ...1..1A", "title": ["A paper"], "abstract": "Its abstract."}]}}), encoding="utf-8")
    with pytest.raises(CorpusError) as refused:
        list(read_papers(path))
    message = str(refused.value)
    assert "payload.entries" in message and "title column" not in message
    for shape in ("CSL JSON", "OpenAlex", "Semantic Scholar", "Crossref", "DataCite", "ISTEX"):
        assert shape in message


@pytest.mark.parametrize(("name", "counts"), [("datacite_dois_5.json", (4, 1, 0)), ("istex_api_9.json", (8, 1, 0)),
                                              ("crossref_works_ufsm_20.json", (19, 0, 1))])
def test_one_work_under_two_dois_merges_by_its_text(store, name: str, counts: tuple[int, int, int]) -> None:
    """Zenodo's concept DOI and version DOI of one book (10.5281/zenodo.3520062 and .3520063), and ISTEX's two
    Springer DOIs of one 1988 *Trees* paper, carry the same title and abstract: one paper each, merged by text (the
    independent count's unique texts: 4 of 5 and 8 of 9)."""
    report = store.import_papers("c", read_papers(TOOLS / name))
    assert (report.added, report.merged, report.skipped) == counts
    assert report.rules == ({"same title and abstract": 1} if counts[1] else {})


def test_one_record_without_a_title_keeps_the_title_column_refusal(tmp_path: Path) -> None:
    """A single record whose only list of objects is its authors is a record, not an envelope: the refusal stays
    "no title column" (its columns can be chosen), not "records under 'authors'"."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"name": "A paper", "summary": "Its text.", "authors": [{"name": "Ann Lee"}]}),
                    encoding="utf-8")
    with pytest.raises(CorpusError, match="has no title column"):
        list(read_papers(path))


def test_crossref_items_saved_as_a_list_or_json_lines_read_alike(tmp_path: Path) -> None:
    """The same works saved without their envelope (``jq .message.items``) or one a line (``jq -c``) read as from
    the API answer: a Crossref work is told from a CSL item by its ``title`` list."""
    items = json.loads((TOOLS / "crossref_works_ufsm_20.json").read_text(encoding="utf-8"))["message"]["items"]
    (tmp_path / "items.json").write_text(json.dumps(items), encoding="utf-8")
    (tmp_path / "items.jsonl").write_text("\n".join(json.dumps(item) for item in items), encoding="utf-8")
    wrapped = _read("crossref_works_ufsm_20.json")[0]
    for name in ("items.json", "items.jsonl"):
        papers = [p for p in read_papers(tmp_path / name) if isinstance(p, Paper)]
        assert [(p.title, p.abstract, p.fields["journal"], p.fields["authors"]) for p in papers] == [
            (p.title, p.abstract, p.fields["journal"], p.fields["authors"]) for p in wrapped]


@pytest.mark.parametrize(("fixture", "database"), [("crossref_works_oup_2.json", "Crossref"),
                                                   ("datacite_dois_5.json", "DataCite"),
                                                   ("istex_api_9.json", "ISTEX")])
def test_an_api_answer_saved_under_any_name_is_counted_as_its_database(tmp_path: Path, fixture: str,
                                                                       database: str) -> None:
    """The overlap between databases (CiteSource's job) names where an API answer came from, not the file's name,
    which for a saved response is often only 'works.json' or 'response.json'."""
    import shutil

    from core.store import Store
    from core.store.importing import import_file
    from core.store.provenance import paper_sources

    saved = tmp_path / "response.json"
    shutil.copy(TOOLS / fixture, saved)
    store = Store(tmp_path / "ws")
    report = import_file(store, saved, "lib")
    assert report.added > 0
    pid = store.papers_frame("lib", with_abstract=False)["id"].astype(str).iloc[0]
    with store.connect() as conn:
        assert [s.database for s in paper_sources(conn, "lib", pid)] == [database]
