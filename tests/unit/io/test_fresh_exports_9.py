"""Real exports from repositories and services the project had not read before (issue 40, ninth round). Each file is
a byte-exact excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each was
counted by a hand-written reader before the product read it."""

from __future__ import annotations

from core.io import read_papers
from core.records import Paper
from tests.unit.io.support import TOOLS
from tests.unit.io.support import tools_papers as _papers

# --- Solr search APIs: ERIC and PLOS ({"response": {"numFound", "docs": [...]}}) ----------------------------------

def test_an_eric_api_answer_is_read() -> None:
    """ERIC's API (api.ies.ed.gov/eric/?search=…&format=json) answers as Solr does: the records under
    ``response.docs``. It was refused ("records are under 'response.docs', a shape this importer does not read").
    The abstract is ERIC's ``description``, the authors a list, the year ``publicationdateyear``, the subjects
    keywords."""
    papers = _papers("eric_api_1.json")
    assert len(papers) == 1
    paper = papers[0]
    assert paper.title == "Competition-Based Learning of Blockchain Programming"
    assert paper.abstract.startswith("Blockchain, which is a disruptive technology, affects many technologies")
    assert paper.fields["authors"] == ["Çulha, Davut"]
    assert paper.fields["year"] == 2021
    assert paper.fields["keywords"][:2] == ["Competition", "Teaching Methods"]
    assert paper.id == "EJ1286736"
    assert paper.fields["database"] == "ERIC"


def test_a_plos_search_api_answer_is_read() -> None:
    """PLOS's search API (api.plos.org/search, Solr): ``title_display``, ``author_display``, the abstract as a list
    of one text with PLOS's line breaks around it, the DOI as ``id``."""
    papers = _papers("plos_api_1.json")
    assert len(papers) == 1
    paper = papers[0]
    assert paper.title == ("Broad-Spectrum Inhibition of HIV-1 by a Monoclonal Antibody Directed against a "
                           "gp120-Induced Epitope of CD4")
    assert paper.abstract.startswith("To penetrate susceptible cells, HIV-1 sequentially interacts")
    assert paper.abstract.endswith("strategies against HIV-1.")
    assert paper.fields["authors"][:2] == ["Samuele E. Burastero", "Barbara Frigerio"]
    assert len(paper.fields["authors"]) == 10
    assert (paper.fields["journal"], paper.fields["year"]) == ("PLoS ONE", 2011)
    assert paper.fields["doi"] == "10.1371/journal.pone.0022081"
    assert paper.fields["database"] == "PLOS"


def test_a_nasa_ads_search_answer_is_read(tmp_path) -> None:
    """NASA ADS's ``/search/query`` answers as Solr does, with ``title`` and ``doi`` as lists: it was refused (the
    records under ``response.docs``); unwrapped without its own reading, each title, a list, would be "not text".
    (No saved ADS answer was found in a public repository; the shape is ADS's documented one.)"""
    import json

    path = tmp_path / "ads.json"
    path.write_text(json.dumps({"responseHeader": {"status": 0}, "response": {"numFound": 1, "start": 0, "docs": [
        {"bibcode": "2019ApJ...871..165A", "title": ["A paper"], "abstract": "Its abstract.",
         "author": ["Ab, C.", "De, F."], "pub": "The Astrophysical Journal", "year": "2019",
         "doi": ["10.3847/1538-4357/aaf88b"]}]}}), encoding="utf-8")
    paper, = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert (paper.id, paper.title, paper.abstract) == ("2019ApJ...871..165A", "A paper", "Its abstract.")
    assert paper.fields["authors"] == ["Ab, C.", "De, F."]
    assert (paper.fields["journal"], paper.fields["year"]) == ("The Astrophysical Journal", 2019)
    assert paper.fields["doi"] == "10.3847/1538-4357/aaf88b"


def test_a_biorxiv_api_answer_is_read_with_its_authors_split(tmp_path) -> None:
    """The bioRxiv/medRxiv API (api.biorxiv.org/details/…) answers ``{"messages": [...], "collection": [...]}``
    with the authors as one text joined by "; ". It was refused ("records are under 'collection'"). Each preprint:
    its server as the journal, its authors a list, the journal article's DOI kept apart (``published``, "NA" when
    none). No saved answer with a licence was found; the record's layout is the API's (ANaka/paperview's test
    compares one with the live answer)."""
    import json

    record = {"doi": "10.1101/456574", "title": "A preprint", "authors": "Naka, A.; Shababo, B.; Adesnik, H.",
              "author_corresponding": "Hillel  Adesnik", "author_corresponding_institution": "UC Berkeley",
              "date": "2018-10-30", "version": "1", "type": "new results", "license": "cc_by_nc",
              "category": "neuroscience", "jatsxml": "https://www.biorxiv.org/content/early/2018/10/30/456574.source.xml",
              "abstract": "Its abstract.", "published": "10.7554/eLife.43696", "server": "biorxiv"}
    unpublished = {**record, "doi": "10.1101/2020.09.09.20191205", "title": "Another", "published": "NA",
                   "server": "medrxiv", "authors": "Doe, J."}
    path = tmp_path / "biorxiv.json"
    path.write_text(json.dumps({"messages": [{"status": "ok", "count": 2, "total": 2}],
                                "collection": [record, unpublished]}), encoding="utf-8")
    first, second = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert first.fields["authors"] == ["Naka, A.", "Shababo, B.", "Adesnik, H."]
    assert (first.fields["journal"], first.fields["year"], first.fields["doi"]) == ("bioRxiv", 2018, "10.1101/456574")
    assert first.fields["published_doi"] == "10.7554/eLife.43696" and first.fields["keywords"] == ["neuroscience"]
    assert (second.fields["journal"], second.fields["authors"]) == ("medRxiv", ["Doe, J."])
    assert "published_doi" not in second.fields


# --- Ovid's labelled text ("Complete Reference" saved as text, with field labels, no tags) -------------------------

def test_an_ovid_labelled_text_export_is_read() -> None:
    """Journals@Ovid saved as text with field labels (``<8>``, ``Author`` / ``Title`` / ``Source`` / ``Abstract``
    on their own lines, each value indented two spaces): "unknown format". Now one paper: the title without Ovid's
    document-type mark ``[Article]``, the authors a list without their affiliation numbers, the journal from the
    head of the source, the year from its date, the DOI, the keywords, the cited references a list."""
    from core.io.formats import detect_format

    assert detect_format(TOOLS / "ovid_labels_refs_1.txt") == "ovid"
    paper, = _papers("ovid_labels_refs_1.txt")
    assert paper.title == ("Cloud water interception and element deposition differ largely between Norway spruce "
                           "stands along an elevation transect in Harz Mountains, Germany.")
    assert paper.abstract == "Lorem ipsum abstract"  # JabRef's authors replaced the publisher's abstract
    assert paper.fields["authors"] == ["Kohler, Lars", "Leuschner, Christoph", "Hauck, Markus", "Hertel, Dietrich"]
    assert (paper.fields["journal"], paper.fields["year"]) == ("Ecohydrology", 2015)
    assert paper.fields["doi"] == "10.1002/eco.1563"
    assert paper.fields["keywords"][:2] == ["alpine treeline", "canopy cover"]
    references = paper.fields["cited_references"]
    assert references[0].startswith("Aber JD, Nadelhoffer KJ") and len(references) > 50
    assert paper.fields["keywords"][-1] == "throughfall"  # Ovid's closing period left out
    assert paper.id == "01445406-201509000-00006."  # the accession number, as Ovid writes it


def test_ovid_labelled_records_ahead_of_print_with_marked_authors() -> None:
    """Ahead-of-print records: a source of the journal alone ("Journal of Orthopaedic Trauma. "), no year but the
    status date; authors marked "MD *", "MD, PhD +" for their institutions; an institution over two lines."""
    paper, = _papers("ovid_labels_affil_1.txt")
    assert paper.fields["authors"] == ["Verbeek, Jan MD", "Hermans, Erik MD", "van Vugt, Arie MD, PhD",
                                       "Frolke, Jan Paul MD, PhD"]
    assert paper.fields["journal"] == "Journal of Orthopaedic Trauma"
    assert paper.fields["doi"] == "10.1097/BOT.0000000000000502"
    other, = _papers("ovid_labels_1.txt")
    assert other.title.endswith("primary care providers: a systematic review.")
    assert other.fields["journal"] == "Journal of the American Medical Informatics Association"
    assert other.fields["institution"].startswith("(1)Institute of Research") and "(2)Institute" in \
        other.fields["institution"]
    assert other.fields["authors"] == ["Holstiege, Jakob", "Mathes, Tim", "Pieper, Dawid"]


# --- PubMed's "UNLABELLED" section label (seen in JabRef's PubMed book record) -------------------------------------

_ARTICLE = """<?xml version="1.0"?>
<PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">33163380</PMID>
<Article><Journal><Title>Nature genetics</Title><JournalIssue><PubDate><Year>2002</Year></PubDate></JournalIssue>
</Journal><ArticleTitle>Structured</ArticleTitle><Abstract>
<AbstractText Label="OBJECTIVE" NlmCategory="OBJECTIVE">To study effects.</AbstractText>
<AbstractText Label="UNLABELLED" NlmCategory="UNASSIGNED">Loose text.</AbstractText>
</Abstract></Article></MedlineCitation></PubmedArticle>
<PubmedBookArticle><BookDocument><PMID Version="1">21413195</PMID><Book><BookTitle>A guideline</BookTitle>
<PubDate><Year>2009</Year></PubDate></Book><Abstract>
<AbstractText Label="UNLABELLED" NlmCategory="UNASSIGNED">A book's abstract.</AbstractText></Abstract>
</BookDocument></PubmedBookArticle></PubmedArticleSet>
"""


def test_pubmeds_unlabelled_section_is_shown_without_a_label(tmp_path) -> None:
    """NLM marks a section of a structured abstract that has no heading ``Label="UNLABELLED"``
    (``NlmCategory="UNASSIGNED"``); PubMed shows no heading there. The abstracts read "UNLABELLED\\nLoose text." and
    "UNLABELLED: A book's abstract."."""
    path = tmp_path / "pubmed.xml"
    path.write_text(_ARTICLE, encoding="utf-8")
    article, book = [p for p in read_papers(path) if isinstance(p, Paper)]
    assert "UNLABELLED" not in article.abstract and article.abstract.endswith("Loose text.")
    assert article.abstract.startswith("OBJECTIVE")
    assert book.abstract == "A book's abstract."


# --- Publish or Perish's JSON (Google Scholar) --------------------------------------------------------------------

def test_publish_or_perish_json_reads_with_googles_cut_author_list_left_out() -> None:
    """Publish or Perish saves a Google Scholar search as JSON (UTF-8 BOM; ``uid`` "GS:…", ``source``, ``authors``
    a list): seven papers with Scholar's snippets as abstracts. Where Scholar cut a long author list it wrote "..."
    as the last author, and a list keeps it as a name: the paper had an author called "...". A record without a
    ``uid`` gets an id of its own (not another record's)."""
    papers = _papers("pop_gscholar_json_7.json")
    assert len(papers) == 7 and all(p.abstract for p in papers)
    assert papers[0].fields["authors"] == ["W Guo", "D Straub", "P Zhang", "Z Cai"]
    assert papers[0].id == "GS:10955542985646283611"
    assert (papers[0].fields["journal"], papers[0].fields["year"]) == ("MIS Quarterly", 2021)
    assert papers[5].fields["authors"] == ["N Janom", "NHA Bakar", "NH Arshad"]
    assert len({p.id for p in papers}) == 7
