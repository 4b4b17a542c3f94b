"""Real exports from repositories the project had not read before (issue 40: "test with files you have never seen").
Each file is a byte-exact excerpt (sources and licences in tests/fixtures/real/SOURCES.md); each test is a
discrepancy found by comparing the importer with an independent count of the whole file."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.markup import plain_text
from core.records import Paper, RowError

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "real"
TOOLS = REAL / "tools"


def _read(path: Path, **kwargs) -> tuple[list[Paper], list[RowError]]:
    items = list(read_papers(path, **kwargs))
    return [i for i in items if isinstance(i, Paper)], [i for i in items if isinstance(i, RowError)]


def test_ris_written_by_r_has_na_for_no_abstract() -> None:
    """CiteSource's AGRIS file (RIS written by synthesisr): every record without an abstract has ``AB  - NA``, R's
    missing value. The 838 such records of three files were imported with the abstract "NA"."""
    papers, errors = _read(REAL / "citesource_agris_na_3.ris")
    assert papers == []
    assert errors == [RowError(n, f"row {n}: no abstract (the export's placeholder 'NA')") for n in (1, 2, 3)]
    papers, errors = _read(REAL / "citesource_agris_na_3.ris", title_only=True)
    assert errors == [] and [p.abstract for p in papers] == ["", "", ""]
    assert papers[0].title == "Ethno medicinal survey of plants from salt range (Kallar Kahar) of Pakistan"
    assert papers[0].fields["keywords"][:3] == ["species", "drug plants", "traditional uses"]  # untagged lines
    assert papers[2].fields["authors"] == ["da Silva Dias, João Carlos"]


def test_lens_abstracts_escaped_inside_jats_are_plain_text() -> None:
    """Lens writes Crossref's abstract escaped inside its own ``<jats:p>``: ``<jats:p>&amp;lt;p&amp;gt;…``, and a
    dash as ``&amp;amp;#8211;``. They were stored as "&lt;p&gt;The EU…" and "&amp;#8211;"."""
    (hub, dutch), errors = _read(REAL / "lens_escaped_2.ris")
    assert errors == []
    assert hub.abstract.startswith("The EU Disaster Risk Management Knowledge Centre (DRMKC)[1] is currently "
                                   "developing a WebGIS-based platform – the Risk Data Hub[2] - aimed at")
    assert dutch.abstract.startswith("There is a growing recognition that there needs to be a shift from firefighting")
    for paper in (hub, dutch):
        assert not any(mark in paper.abstract for mark in ("&amp;", "&#", "<", ">", "lt;", "gt;"))
    assert "Stouffer, S., DeVinney, L. & Suchman, E. 1949." in hub.abstract  # a real "&" stays


def test_wiley_small_caps_and_scopus_subscripts_are_markup() -> None:
    """Titles as Lens (from Wiley: ``<scp>``) and Scopus (``<inf>`` for subscripts) write them."""
    lens_title = ("Decoding Global Indoor Health Perception on Social Media Through\n            <scp>NLP</scp>\n"
                  "            and Transformer Deep Learning")
    assert " ".join(plain_text(lens_title).split()) == ("Decoding Global Indoor Health Perception on Social Media "
                                                        "Through NLP and Transformer Deep Learning")
    assert plain_text("<scp>AORN</scp> Position Statement on Environmental Responsibility").startswith("AORN Pos")
    (_, ybco, _), _ = _read(REAL / "scopus_authors_3.csv")
    assert ybco.title == ("A Novel Partial Melting Process for YBa2Cu3O7−z Superconducting Films by Fluorine-Free "
                          "Polymer-Assisted Metal Organic Deposition Approach")
    assert ybco.abstract.startswith("High-performance YBa2Cu3O7−z (YBCO) super conducting films")


def test_scopus_csv_of_2016_gives_authors_as_a_list() -> None:
    """metaknowledge's Scopus CSV (older layout): ``Authors`` joined by ", " ("Yagai T., Kimura Y."). They were kept
    as one text, so the first author, the exports and the side panel saw one name."""
    (yagai, ybco, apl), errors = _read(REAL / "scopus_authors_3.csv")
    assert errors == []
    assert yagai.fields["authors"][:3] == ["Yagai T.", "Kimura Y.", "Kamada H."] and len(yagai.fields["authors"]) == 11
    assert ybco.fields["authors"] == ["Wang W.T.", "Wang Z.", "Pu M.H.", "Wang M.J.", "Zhang X.", "Lei M.", "Zhao Y."]
    assert apl.fields["authors"] == ["Janko Wolfgang"]  # one author, no initials: one name, still a list
    assert apl.fields["journal"] == "Angewandte Informatik, Applied Informatics" and apl.fields["year"] == 1985


def test_web_of_science_tab_delimited_single_author_is_a_list() -> None:
    """ScientoPy's WoS tab-delimited export of 2026 (new columns DL, D2, HC, HP): a record with one author gave the
    text "Sakamura, K", the others a list; and AU's short names were taken over AF's full ones."""
    (std, papr), errors = _read(REAL / "wos_tab_2026_2.txt")
    assert errors == []
    assert std.fields["authors"] == ["Sakamura, Ken"] and papr.fields["authors"] == ["Fujii, Yusaku"]  # AF, fullest
    assert std.fields["author_short_names"] == ["Sakamura, K"] and "af" not in std.fields  # AU kept as exported
    assert papr.fields["journal"] == "SENSORS" and papr.fields["year"] == 2025
    assert papr.fields["doi"] == "10.3390/s25175340"


def test_author_cells_of_pubmed_rayyan_abstrackr_and_embase_are_lists() -> None:
    """The other one-cell author forms among the real exports: PubMed's CSV ("Griffin DK, …, O'Connor RE." with a
    closing full stop), Rayyan's " and ", Abstrackr's "\\n and ", Embase's ", "."""
    (griffin, *_), _ = _read(TOOLS / "pubmed_3.csv", title_only=True)
    assert griffin.fields["authors"] == ["Griffin DK", "Larkin DM", "O'Connor RE"]
    (rayyan, *_), _ = _read(TOOLS / "rayyan_3.csv")
    assert rayyan.fields["authors"] == ["Yang, Z.", "Jiang, B.", "Xu, J.", "McNamara, M.E."]
    (abstrackr, eberth, *_), _ = _read(TOOLS / "abstrackr_3.csv")
    assert abstrackr.fields["authors"] == ["Longrich, N.R.", "Pereda-Suberbiola, X.", "Bardet, N.", "Jalil, N.-E."]
    assert eberth.fields["authors"] == ["Eberth, D.A."]
    (embase, *_), _ = _read(TOOLS / "embase_3.csv")
    assert embase.fields["authors"] == ["Yang Z.", "Jiang B.", "Xu J.", "McNamara M.E."]


def test_openalex_csv_authors_and_keywords_are_lists() -> None:
    """OpenAlex's web CSV joins names with "|" in ``authorships.author.display_name`` (found in bibliometrix's
    ``openalex_sample.csv``; the same layout as this fixture): no column was taken for the authors at all."""
    (first, *_), errors = _read(TOOLS / "openalex_3.csv")
    assert errors == []
    assert first.fields["authors"] == ["Alba Vicente", "Josep Sanjuan", "Jordi Pérez-Cano", "Khaled Trabelsi",
                                       "Carles Martín–Closas"]
    assert first.fields["keywords"] == ["Archipelago", "Aptian", "Paleoclimatology"]


def test_pubmed_xml_authors_keep_the_full_fore_name() -> None:
    """Biopython's efetch record (PMID 28775130): ``LastName`` + ``ForeName`` ("Lerro" + "Catherine C") was written
    "Lerro CC", while the same record as MEDLINE text gives FAU "Lerro, Catherine C": two forms of one author across
    two PubMed exports, and the fuller one lost."""
    (paper,), errors = _read(REAL / "pubmed_biopython_1.xml")
    assert errors == []
    assert paper.fields["authors"][:3] == ["Lerro, Catherine C", "Beane Freeman, Laura E", "DellaValle, Curt T"]
    assert paper.fields["doi"] == "10.1136/oemed-2017-104431" and paper.fields["year"] == 2018


def test_publish_or_perish_authors_are_split_and_its_ellipsis_dropped(tmp_path: Path) -> None:
    """Publish or Perish's Google Scholar CSV writes initials first and "..." for more authors. The real file
    (funkepunkemonke/Research-trends-in-Propithecus-coquereli, PoPCites.csv, 980 records) has no licence, so only
    its header and the first record's author, title and year cells are written here, as exported."""
    path = tmp_path / "PoPCites.csv"
    path.write_text("\ufeffCites,Authors,Title,Year,Source,Publisher,Abstract\n"
                    '39,"C Kun‐Rodrigues, J Salmona, A Besolo, ...","New density estimates of a threatened sifaka species '
                    '(Propithecus coquereli) in Ankarafantsika National Park",2014,"American Journal of …",'
                    '"Wiley Online Library","… Propithecus coquereli is one of the last sifaka species …"\n'
                    '3,"KC McGoogan","A second record",2007,"Thesis","","An abstract."\n', encoding="utf-8")
    (first, second), errors = _read(path)
    assert errors == []
    assert first.fields["authors"] == ["C Kun‐Rodrigues", "J Salmona", "A Besolo"]
    assert second.fields["authors"] == ["KC McGoogan"]


def test_consensus_csv_whole_names_joined_by_commas_are_a_list(tmp_path: Path) -> None:
    """A Consensus export (saved as scopus.csv in danillocelino/slr_churn_unlearning_uid, no licence: only its
    header and the first record's cells are written here, as exported) joins whole names with ", "."""
    path = tmp_path / "consensus.csv"
    path.write_text("Title,Takeaway,Authors,Year,Citations,Abstract,Study Type,Journal,Journal SJR Quartile,DOI,"
                    "Consensus Link\nZero-Shot Machine Unlearning,\"Zero-shot machine unlearning … model efficacy on "
                    "retain data.\",\"Vikram S Chundawat, A. Tarun, Murari Mandal, Mohan Kankanhalli\",2022,127,"
                    "\"Modern privacy regulations grant citizens the right to be forgotten by products, services and "
                    "companies.\",,IEEE Transactions on Information Forensics and Security,1,10.1109/tifs.2023.3265506,"
                    "https://consensus.app/papers/x\n", encoding="utf-8")
    (paper,), errors = _read(path)
    assert errors == []
    assert paper.fields["authors"] == ["Vikram S Chundawat", "A. Tarun", "Murari Mandal", "Mohan Kankanhalli"]
    assert paper.fields["journal"] == "IEEE Transactions on Information Forensics and Security"


def test_a_file_whose_abstracts_are_all_placeholders_names_titles_only(store) -> None:
    """The AGRIS file has "NA" for every abstract: the refusal says to import titles only, as for empty abstracts
    (it said "every row lacked a title or abstract")."""
    from core.errors import CorpusError
    from core.store import import_file

    with pytest.raises(CorpusError, match="every row lacked an abstract; "):
        import_file(store, REAL / "citesource_agris_na_3.ris", "agris")


def test_scopus_csv_of_2015_gives_authors_as_a_list() -> None:
    """tethne's Scopus CSV (2015 layout): ``Authors`` joined by ", " with a comma inside each name too
    ("Pan, Y., Yu, C., Zhang, X."). The cell stayed one name, so the first author and the exports saw one text."""
    (pan, wang, _), errors = _read(TOOLS / "tethne_scopus_3.csv")
    assert errors == []
    assert pan.fields["authors"] == ["Pan, Y.", "Yu, C.", "Zhang, X.", "Chen, B.", "Wu, J.", "Tu, Y.", "Miao, Y.",
                                     "Luo, L."]
    assert wang.fields["authors"] == ["Wang, B.", "Seiler, J.R.", "Mei, C."]


def test_plos_ris_gives_the_doi_written_in_m3_and_the_doi_url() -> None:
    """PLOS' RIS has no ``DO`` tag: the DOI is in ``M3  - doi:10.1371/…`` and ``UR  - https://doi.org/…``. The paper
    had no DOI, so it could not merge by DOI with the same paper from another database."""
    (paper,), errors = _read(TOOLS / "plos_1.ris")
    assert errors == []
    assert paper.fields["doi"] == "10.1371/journal.pone.0205444"
    assert paper.fields["journal"] == "PLOS ONE" and paper.fields["year"] == 2018


@pytest.mark.parametrize(("first", "second", "fields"), [
    ("asysd_zotero_10.ris", "asysd_zotero_10.bib", ("journal", "year", "doi", "authors")),
    ("asysd_zotero_endnote_10.xml", "asysd_mendeley_endnote_10.xml", ("journal", "year", "doi")),
])
def test_one_library_exported_twice_reads_the_same(first: str, second: str, fields: tuple[str, ...]) -> None:
    """ASySD's test exports: one Zotero library as RIS (CRLF, abstracts with bare LF paragraph breaks) and as BibTeX;
    one PubMed search as EndNote XML written by Zotero and by Mendeley (one line, no line breaks). Mendeley writes
    initials without full stops ("Cole, Lynette K"), so authors are compared only for the Zotero pair."""
    one, _ = _read(TOOLS / first, title_only=True)
    two, _ = _read(TOOLS / second, title_only=True)
    assert len(one) == len(two) == 10
    for a, b in zip(one, two, strict=True):
        assert " ".join(a.title.split()) == " ".join(b.title.split())
        assert " ".join(a.abstract.split()) == " ".join(b.abstract.split())
        assert all(a.fields.get(name) == b.fields.get(name) for name in fields), a.title


def test_scopus_keywords_with_markup_are_plain_text() -> None:
    """Scopus writes subscripts in author keywords too ("NPP<inf>gap</inf>", tethne's CSV; "YBa<inf>2</inf>Cu…",
    metaknowledge's). Titles and abstracts were cleaned, keywords kept the tags (shown as topic words and labels);
    the keywords as exported stay in ``keywords_markup`` for the export."""
    (pan, _, _), _ = _read(TOOLS / "tethne_scopus_3.csv")
    assert "NPPgap" in pan.fields["keywords"] and not any("<" in k for k in pan.fields["keywords"])
    assert "NPP<inf>gap</inf>" in pan.fields["keywords_markup"]
    (_, ybco, _), _ = _read(REAL / "scopus_authors_3.csv")
    assert "YBa2Cu3O7−z" in ybco.fields["keywords"]


def test_acm_bibtex_names_and_entities() -> None:
    """The ACM Digital Library's BibTeX (CHI '23): ``10.1145/…`` keys, HTML entities in LaTeX text ("Responsible
    &amp; Inclusive Cards"), accents as ``N\\'{u}\\~{n}ez``, and ``Na\\textcrd{}a`` (TIPA's đ) in an author name, which
    was kept as written with the warning "unknown LaTeX command"."""
    (felt, cards, robots), errors = _read(TOOLS / "acm_chi23_3.bib")
    assert errors == []
    assert felt.fields["authors"][2] == "Núñez-Pacheco, Claudia" and felt.fields["doi"] == "10.1145/3544548.3580875"
    assert cards.title.startswith("Responsible & Inclusive Cards: An Online Card Tool")
    assert "Responsible & Inclusive Cards and findings" in cards.abstract
    assert robots.fields["authors"][1] == "Terzimehić, Nađa"
    items = list(read_papers(TOOLS / "acm_chi23_3.bib"))
    assert not [i for i in items if "unknown LaTeX command" in str(getattr(i, "reason", ""))]


def test_two_apostrophes_typed_as_quotes_stay_as_in_the_ris_export() -> None:
    """Web of Science writes a double quote as two apostrophes (``''bunny hopping''``, ``''Swimmer's Ear''``); Zotero
    copies that text as it is into RIS and BibTeX. The BibTeX abstract was read as LaTeX ("”bunny hopping”", both
    quotes closing), so the two exports of one paper differed and merged only by their DOI. A value with no LaTeX
    opening quote (two backticks) keeps its two apostrophes; LaTeX's own quotes are still read as quotes."""
    bib, errors = _read(TOOLS / "asysd_zotero_quotes_2.bib")
    ris, _ = _read(TOOLS / "asysd_zotero_quotes_2.ris")
    assert errors == [] and len(bib) == len(ris) == 2
    assert "pelvic-limb ''bunny hopping'' as well as" in bib[0].abstract
    assert [" ".join(p.abstract.split()) for p in bib] == [" ".join(p.abstract.split()) for p in ris]
    from core.io.bibtex import _LatexText
    assert _LatexText()("``Living on the edge'' of {T}ext")[0] == "“Living on the edge” of Text"


def test_ovid_central_record_gives_authors_as_a_list_and_merges_with_its_medline_copy(tmp_path: Path) -> None:
    """CiteSource's Ovid export (MEDLINE and Cochrane CENTRAL searched together): CENTRAL records write all their
    authors in one ``A1`` tag ("Griffiths RR, Johnson MW, Carducci MA, …"; 73 of 1,000 records). That tag became one
    name. The CENTRAL copy of a MEDLINE paper (another abstract text) merges with it by title, year and first author."""
    from core.store import Store

    papers, errors = _read(TOOLS / "ovid_medline_central_5.ris")
    assert errors == [] and len(papers) == 5
    medline, central = papers[3], papers[4]
    assert central.id == "CN-01443998" and medline.id == "27909165"
    assert central.fields["authors"] == ["Griffiths RR", "Johnson MW", "Carducci MA", "Umbricht A", "Richards WA",
                                         "Richards BD", "Cosimano MP", "Klinedinst MA"]
    assert medline.fields["authors"][0] == "Griffiths, Roland R"  # one name per tag, as MEDLINE writes it
    report = Store(tmp_path / "ws").import_papers("ovid", read_papers(TOOLS / "ovid_medline_central_5.ris"))
    assert (report.added, report.merged, report.skipped) == (4, 1, 0)
