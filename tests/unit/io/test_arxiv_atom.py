"""The arXiv API's answer (``export.arxiv.org/api/query``: an Atom feed) read as papers, as researchers save it
(``.xml``, ``.atom``). Real answers (sources in tests/fixtures/real/tools/SOURCES.md); before core/io/arxiv_atom.py an
``.xml`` one was refused naming its root element <feed>, an ``.atom`` one as of unknown format."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io import read_papers
from core.io.formats import detect_format, format_note
from core.records import Paper, RowError

TOOLS = Path(__file__).resolve().parents[2] / "fixtures" / "real" / "tools"


def _papers(path: Path) -> list[Paper]:
    items = list(read_papers(path))
    assert not [i for i in items if isinstance(i, RowError)]
    return [i for i in items if isinstance(i, Paper)]


def test_an_arxiv_api_answer_reads_every_entry_with_its_arxiv_id_doi_journal_ref_and_categories():
    """Three entries (an independent count of ``<entry>``): the arXiv id without its version, in both the new
    (``2308.13875v1``) and the old (``astro-ph/0412305v1``) form; the DOI; ``journal_ref`` as the journal only where
    the entry has one (an arXiv preprint has no journal); the categories, primary first, as keywords."""
    path = TOOLS / "arxiv_api_relaxed_3.xml"
    assert detect_format(path) == "arxiv"
    assert format_note(path, "arxiv") == ""  # .xml names the XML kinds: no note
    papers = _papers(path)
    assert [p.title for p in papers] == [
        "Performance of Genetic Algorithms in the Context of Software Model Refactoring", "Wide Boosting",
        "Cosmological Origin of Small-Scale Clumps and DM Annihilation Signal"]
    first, second, third = papers
    assert first.abstract.startswith("Software systems continuously evolve due to new functionalities")
    assert first.fields["authors"] == ["Vittorio Cortellessa", "Daniele Di Pompeo", "Michele Tucci"]
    assert (first.fields["year"], first.fields["arxiv"]) == (2023, "2308.13875")
    assert first.fields["doi"] == "10.1007/978-3-031-43185-2_16"
    assert first.fields["journal"] == ("Computer Performance Engineering and Stochastic Modelling - 19th European "
                                       "Workshop, EPEW 2023")
    assert first.fields["keywords"] == ["cs.SE", "cs.PF"] and first.fields["database"] == "arXiv"
    assert (second.fields["arxiv"], second.fields["year"]) == ("2007.09855", 2020)  # published, not updated (2022)
    assert second.fields.get("journal") is None and second.fields.get("doi") is None
    assert second.fields["authors"] == ["Michael T. Horrell"] and second.fields["keywords"] == ["cs.LG", "stat.ML"]
    assert (third.fields["arxiv"], third.fields["year"]) == ("astro-ph/0412305", 2004)
    assert third.fields["journal"].startswith("Proceedings of the 6th RESCEU International Symposium")


def test_an_arxiv_answer_keeps_affiliations_and_collapses_whitespace():
    papers = _papers(TOOLS / "arxiv_api_math_3.xml")
    assert len(papers) == 3
    first = papers[0]
    assert first.title == "The Sylow Divisor Condition: a Resolution of Erdős Problem 768"
    assert first.fields["authors"] == ["Eric Li"]
    assert first.fields["affiliations"] == ["Trinity College, University of Cambridge"]
    assert first.fields["arxiv"] == "2606.24872" and first.fields["year"] == 2026
    assert "d<n^{0.3}" in papers[2].abstract  # the escaped "&lt;" read as the text it is


def test_an_arxiv_answer_saved_as_atom_or_txt_is_found_by_its_content(tmp_path: Path):
    data = (TOOLS / "arxiv_api_math_3.xml").read_bytes()
    for name in ("query.atom", "query.txt", "export"):
        saved = tmp_path / name
        saved.write_bytes(data)
        assert detect_format(saved) == "arxiv"
        assert len(_papers(saved)) == 3


def test_the_classic_api_layout_with_namespaces_on_each_element_and_wrapped_text_is_read(tmp_path: Path):
    """The API's layout before 2025 (``ArXiv Query`` title, ``xmlns:arxiv`` on each element, titles and abstracts
    wrapped at 80 columns), as a JavaScript project kept one answer (nowhere stored with a licence: rebuilt here)."""
    saved = tmp_path / "arxiv.xml"
    saved.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        '  <title type="html">ArXiv Query: search_query=id:1911.12281&amp;id_list=</title>\n'
        '  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1'
        '</opensearch:totalResults>\n  <entry>\n    <id>http://arxiv.org/abs/1911.12281v2</id>\n'
        '    <updated>2020-04-02T15:26:49Z</updated>\n    <published>2019-11-27T16:52:52Z</published>\n'
        '    <title>Configuration Spaces\n  of Surfaces</title>\n    <summary>  We compute small rational models for\n'
        'configuration spaces of points.\n</summary>\n    <author>\n      <name>Ricardo Campos</name>\n    </author>\n'
        '    <author>\n      <name>Najib Idrissi</name>\n    </author>\n'
        '    <arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">10.1000/xyz</arxiv:doi>\n'
        '    <arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">J. Topol. 14 (2021)\n  1-40</arxiv:journal_ref>\n'
        '    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="math.QA"/>\n'
        '    <category term="math.QA" scheme="http://arxiv.org/schemas/atom"/>\n'
        '    <category term="math.AT" scheme="http://arxiv.org/schemas/atom"/>\n  </entry>\n</feed>\n',
        encoding="utf-8")
    assert detect_format(saved) == "arxiv"
    [paper] = _papers(saved)
    assert paper.title == "Configuration Spaces of Surfaces"
    assert paper.abstract == "We compute small rational models for configuration spaces of points."
    assert paper.fields["authors"] == ["Ricardo Campos", "Najib Idrissi"]
    assert (paper.fields["arxiv"], paper.fields["year"], paper.fields["doi"]) == ("1911.12281", 2019, "10.1000/xyz")
    # the journal is the journal_ref's name, without its volume ("J. Topol. 14" split one journal by volume); the
    # reference is kept whole
    assert paper.fields["journal"] == "J. Topol." and paper.fields["journal_ref"] == "J. Topol. 14 (2021) 1-40"
    assert paper.fields["keywords"] == ["math.QA", "math.AT"]


def test_an_arxiv_error_answer_is_refused_with_what_arxiv_said(tmp_path: Path):
    """arXiv answers a malformed query with HTTP 200 and one entry titled "Error" whose summary says why."""
    saved = tmp_path / "query.xml"
    saved.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        '  <title type="html">ArXiv Query: search_query=&amp;id_list=1234.12345</title>\n'
        '  <id>http://arxiv.org/api/errors</id>\n  <entry>\n'
        '    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>\n    <title>Error</title>\n'
        '    <summary>incorrect id format for 1234.12345</summary>\n  </entry>\n</feed>\n', encoding="utf-8")
    assert detect_format(saved) == "arxiv"
    with pytest.raises(CorpusError) as refused:
        list(read_papers(saved))
    message = str(refused.value)
    assert "arXiv's answer to a query that failed" in message and "incorrect id format for 1234.12345" in message
    assert "no papers" in message


def test_an_arxiv_answer_to_a_query_that_found_nothing_says_so(tmp_path: Path):
    """Two of the real answers found (Smensink/researcharr) are of this kind: ``totalResults`` 0, no entry."""
    saved = tmp_path / "none.xml"
    saved.write_text(
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" "
        'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n'
        "  <id>https://arxiv.org/api/Wxa54a3X1EHxTarr9dId28VYhZc</id>\n"
        "  <title>arXiv Query: search_query=ti:Conv-Linformer&amp;id_list=&amp;start=0&amp;max_results=10</title>\n"
        "  <opensearch:totalResults>0</opensearch:totalResults>\n</feed>\n", encoding="utf-8")
    assert detect_format(saved) == "arxiv"
    with pytest.raises(CorpusError, match="arXiv's answer to a query that found no papers"):
        list(read_papers(saved))
    saved.write_text(saved.read_text(encoding="utf-8").replace(">0<", ">40<"), encoding="utf-8")  # a page past the end
    with pytest.raises(CorpusError, match="has no records"):
        list(read_papers(saved))


def test_an_arxiv_answer_with_an_entity_declaration_is_refused(tmp_path: Path):
    text = (TOOLS / "arxiv_api_math_3.xml").read_text(encoding="utf-8")
    hostile = tmp_path / "x.atom"
    hostile.write_text(text.replace("<feed ", '<!DOCTYPE feed [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<feed ', 1),
                       encoding="utf-8")
    with pytest.raises(CorpusError, match="entities"):
        list(read_papers(hostile))


def test_a_paper_from_arxiv_atom_and_from_arxivs_bibtex_merges(store, tmp_path: Path):
    """The same preprint in arXiv's Atom answer and in the BibTeX arXiv's "Export BibTeX citation" writes (an
    ``eprint`` and no DOI) is one paper: the arXiv id is the strong key both carry."""
    from core.store import import_file

    bib = tmp_path / "arxiv.bib"
    bib.write_text("@misc{horrell2022wide,\n      title={Wide Boosting},\n      author={Michael T. Horrell},\n"
                   "      year={2022},\n      eprint={2007.09855},\n      archivePrefix={arXiv},\n"
                   "      primaryClass={cs.LG},\n      url={https://arxiv.org/abs/2007.09855},\n}\n", encoding="utf-8")
    first = import_file(store, TOOLS / "arxiv_api_relaxed_3.xml", "c")
    assert (first.imported, first.added, first.merged, first.skipped) == (3, 3, 0, 0)
    second = import_file(store, bib, "c", title_only=True)
    assert (second.imported, second.added, second.merged, second.skipped) == (1, 0, 1, 0)
    assert store.corpus("c").papers == 3


def test_the_daily_listing_of_arxivs_rss_atom_feed_is_read_too(tmp_path: Path):
    """rss.arxiv.org/atom/<category>: the feed element as a real saved one has it (Smensink/researcharr's
    ``arxiv_feed.xml``, which has no entries), one entry in the listing's documented layout (a sample: no saved feed
    with entries was found): ``oai:arXiv.org:`` id, the authors in one ``dc:creator``, the abstract after "arXiv:…
    Announce Type: new Abstract:"."""
    saved = tmp_path / "cs.xml"
    saved.write_text(
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns:arxiv=\"http://arxiv.org/schemas/atom\" "
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns="http://www.w3.org/2005/Atom" xml:lang="en-us">\n'
        "  <id>http://rss.arxiv.org/atom/cs</id>\n  <title>cs updates on arXiv.org</title>\n"
        '  <link href="http://rss.arxiv.org/atom/cs" rel="self" type="application/atom+xml"/>\n  <entry>\n'
        "    <id>oai:arXiv.org:2511.16674v1</id>\n"
        "    <title>Dataset Distillation for Pre-Trained Self-Supervised Vision Models</title>\n"
        "    <updated>2025-11-21T05:00:00.000Z</updated>\n"
        '    <link href="https://arxiv.org/abs/2511.16674" rel="alternate" type="text/html"/>\n'
        "    <summary>arXiv:2511.16674v1 Announce Type: new \nAbstract: The task of dataset distillation aims to find a"
        " small set of synthetic images.</summary>\n"
        '    <category term="cs.CV" scheme="http://arxiv.org/schemas/atom"/>\n'
        "    <published>2025-11-21T00:00:00-05:00</published>\n    <arxiv:announce_type>new</arxiv:announce_type>\n"
        "    <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>\n"
        "    <dc:creator>George Cazenavette, Antonio Torralba, Vincent Sitzmann</dc:creator>\n  </entry>\n</feed>\n",
        encoding="utf-8")
    assert detect_format(saved) == "arxiv"
    [paper] = _papers(saved)
    assert paper.abstract == "The task of dataset distillation aims to find a small set of synthetic images."
    assert paper.fields["authors"] == ["George Cazenavette", "Antonio Torralba", "Vincent Sitzmann"]
    assert (paper.fields["arxiv"], paper.fields["year"], paper.fields["keywords"]) == ("2511.16674", 2025, ["cs.CV"])


@pytest.mark.parametrize(("ref", "journal"), [
    ("Phys. Rev. D 76, 013009 (2007)", "Phys. Rev. D"),
    ("JHEP 0805:001,2008", "JHEP"),
    ("Astrophys.J.Suppl.180:225-245,2009", "Astrophys.J.Suppl."),
    ("Nature Physics 5, 123 (2009)", "Nature Physics"),
    ("Mon.Not.Roy.Astron.Soc. 391 (2008) 1685-1692", "Mon.Not.Roy.Astron.Soc."),
    # not a journal, volume and pages: kept whole (proceedings, a numbered workshop)
    ("Computer Performance Engineering and Stochastic Modelling - 19th European Workshop, EPEW 2023",
     "Computer Performance Engineering and Stochastic Modelling - 19th European Workshop, EPEW 2023"),
    ("Proceedings of the 6th RESCEU International Symposium, p241-248", "Proceedings of the 6th RESCEU "
     "International Symposium, p241-248"),
    ("Phys. Rev. Lett.", "Phys. Rev. Lett."),
])
def test_a_journal_ref_names_its_journal_without_volume_and_pages(ref: str, journal: str) -> None:
    from core.io.arxiv_atom import journal_of

    assert journal_of(ref) == journal
