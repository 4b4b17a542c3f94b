"""Real exports from repositories and services the project had not read before (issue 40, tenth round). Each file is
a byte-exact excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each was
counted by a hand-written reader before the product read it."""

from __future__ import annotations

from core.io import read_papers
from core.records import Paper, RowError
from core.store.identity import external_ids
from tests.unit.io.support import TOOLS, second_merges_whole, tools_papers
from tests.unit.io.support import tools_items as _items


def _ids(path) -> list[tuple[Paper, dict[str, str]]]:
    """Each paper of a file with its strong ids, as the store reads them (its fields, its id and the file's id
    column)."""
    stream = read_papers(path, title_only=True)
    papers = [item for item in stream if isinstance(item, Paper)]
    return [(paper, external_ids(paper.fields, paper.id, stream.id_column)) for paper in papers]

# --- Paperpile BibTeX: quoted values, bare numbers, entries named from PDFs, empty entries -------------------------


def test_a_paperpile_library_of_pdf_named_entries_accounts_for_every_entry() -> None:
    """A Paperpile BibTeX export (78 entries, no abstracts): entries 70, 71 and 77 hold only ``original_id``, so
    title-only reading gives 75 papers and 3 row errors, 78 in all."""
    items = _items("paperpile_pdf_titles_78.bib", title_only=True)
    papers = [item for item in items if isinstance(item, Paper)]
    errors = [item for item in items if isinstance(item, RowError)]
    assert (len(papers), len(errors)) == (75, 3)
    assert [error.row for error in errors] == [70, 71, 77]
    first = papers[0]
    assert first.title == "Sensory systems and flight stability: what do insects measure and why?"
    assert first.fields["authors"] == ["Taylor, G K", "Krapp, H G"]
    assert first.fields["doi"] == "10.1016/S0065-2806(07)34005-8"
    assert first.fields["year"] == 2007
    assert all(isinstance(paper.fields.get("authors", []), list) for paper in papers)


def test_latex_copyright_in_a_bibtex_title_is_the_symbol() -> None:
    """Paperpile wrote a PDF's name as the title: ``Unknown - 1938 - \\copyright{} 1938 Nature Publishing
    Group.pdf``. ``\\copyright`` is plain LaTeX for ©, but it was kept as written with a warning ("unknown LaTeX
    command \\copyright"), so the title showed a LaTeX command."""
    items = list(read_papers(TOOLS / "paperpile_pdf_titles_78.bib", title_only=True))
    paper = [item for item in items if isinstance(item, Paper)][-1]
    assert paper.title == "Unknown - 1938 - © 1938 Nature Publishing Group.pdf"
    assert not [item for item in items if "copyright" in str(getattr(item, "reason", ""))]


def test_latex_text_symbols_pounds_section_paragraph_and_euro_are_their_characters(tmp_path) -> None:
    """The other text-mode symbol commands of plain LaTeX that pylatexenc does not know read as their characters."""
    path = tmp_path / "symbols.bib"
    path.write_text('@article{a, title = "A \\pounds{}5 fee, \\S{} 2, \\P{} 3 and \\euro{} prices", year = 2020}\n',
                    encoding="utf-8")
    paper, = [p for p in read_papers(path, title_only=True) if isinstance(p, Paper)]
    assert paper.title == "A £5 fee, § 2, ¶ 3 and € prices"


def test_a_paperpile_export_keeps_its_ids_and_corporate_authors() -> None:
    """A Paperpile export of 2026 (32 entries, 19 ``@MISC``): ``pmid`` written as a bare number, ``pmc``, an arXiv
    preprint as ``eprint`` with ``archivePrefix``, a corporate author in braces, a title with ``{P}`` case braces."""
    read = _ids(TOOLS / "paperpile_nimh_32.bib")
    assert len(read) == 32
    preprint, ids = next((p, i) for p, i in read if p.title.startswith("OpenAlex: A fully-open index"))
    assert ids.get("arxiv") == "2205.01833"
    assert preprint.fields["authors"] == ["Priem, Jason", "Piwowar, Heather", "Orr, Richard"]
    hamilton, ids = next((p, i) for p, i in read if p.title.startswith("Prevalence and predictors of data and code"))
    assert (ids.get("pmid"), ids.get("pmcid"), ids.get("doi")) == ("37433624", "PMC10334349", "10.1136/bmj-2023-075767")
    assert (hamilton.fields["journal"], hamilton.fields["year"]) == ("BMJ", 2023)
    plos = next(p for p, _ in read if p.title == "PLOS Open Science Indicators")
    assert plos.fields["authors"] == ["Public Library of Science"]


# --- Europe PMC's website CSV export ---------------------------------------------------------------------------------


def test_the_europe_pmc_website_csv_gives_the_pmid_of_a_medline_record() -> None:
    """Europe PMC's "Export → CSV" (``SOURCE,EXTERNAL_ID,PMCID,DOI,AUTHORS,PUBLICATION_YEAR,…,TITLE,JOURNAL,…``): a
    record of ``SOURCE`` MED has its PMID as ``EXTERNAL_ID``. It was kept as an anonymous field, so the paper had no
    PMID and a hashed id, and the same paper from PubMed could not be matched by its PMID."""
    (paper, ids), = _ids(TOOLS / "europe_pmc_web_1.csv")
    assert paper.title == ("Investigation of the relation between low back pain and occupation. 3. Physical "
                           "requirements: sitting, standing and weight lifting.")
    assert (paper.fields["journal"], paper.fields["year"]) == ("IMS Ind Med Surg", 1972)
    assert paper.fields["authors"] == ["Magora, A"]
    assert ids == {"pmid": "4264362"}


def test_europe_pmc_csv_rows_of_other_sources_give_their_own_kind_of_id(tmp_path) -> None:
    """``SOURCE`` PMC carries a PMCID as ``EXTERNAL_ID``; PPR (preprints) and AGR ids are no PMID."""
    path = tmp_path / "europepmc.csv"
    path.write_text(
        "SOURCE,EXTERNAL_ID,PMCID,DOI,AUTHORS,PUBLICATION_YEAR,PUBLICATION_MONTH,TITLE,JOURNAL\n"
        "MED,31234567,PMC6543210,10.1/a,\"Doe, J\",2019,5,A MEDLINE paper,J One\n"
        "PMC,PMC7654321,PMC7654321,,\"Roe, K\",2020,1,A PMC-only paper,J Two\n"
        "PPR,PPR123456,,10.1101/2020.01.01.1,\"Poe, E\",2020,2,A preprint,\n"
        "AGR,IND12345678,,,\"Loe, F\",2018,3,An Agricola record,J Three\n", encoding="utf-8")
    ids = [found for _, found in _ids(path)]
    assert ids[0].get("pmid") == "31234567" and ids[0].get("pmcid") == "PMC6543210"
    assert ids[1].get("pmcid") == "PMC7654321" and "pmid" not in ids[1]
    assert "pmid" not in ids[2] and "pmid" not in ids[3]
    assert ids[2].get("doi") == "10.1101/2020.01.01.1"


# --- Lens.org titles from the Microsoft Academic Graph: dblp's venue in front of the title -------------------------


def test_a_lens_title_with_its_venue_in_front_is_the_scopus_paper_of_the_same_doi(tmp_path) -> None:
    """Lens.org writes a conference paper it took from the Microsoft Academic Graph with dblp's venue before the
    title: "ECCV Workshops (3) - 3D Glasses as Mobility Aid for Visually Impaired People". The same search's Scopus
    export (one repository, the same DOIs, the same abstracts) titles them plainly. A short venue ("ICC - ") left the
    titles alike enough; a long one did not, so the shared DOI was reported as "one DOI on different papers" and
    the paper was kept twice (15 of 1,000 Lens records against 580 Scopus records)."""
    second_merges_whole(tmp_path, "scopus_venue_titles_4.csv", "lens_venue_titles_4.csv", 4)


def test_a_title_with_a_dash_is_not_taken_for_a_venue_prefix() -> None:
    """The venue prefix is left out only beside a shared id and only where the rest is the other title: a note
    before the dash ("Erratum - X", "Reply - X") is no venue, and titles that differ after the dash stay two
    papers."""
    from core.store.identity import same_paper, titles_agree
    from core.store.venue_titles import venue_prefixed

    plain = "3D glasses as mobility aid for visually impaired people"
    assert venue_prefixed("ECCV Workshops (3) - 3D Glasses as Mobility Aid for Visually Impaired People", plain,
                          titles_agree)
    assert venue_prefixed(plain, "CHI Extended Abstracts - 3D Glasses as Mobility Aid for Visually Impaired People",
                          titles_agree)
    for note in ("Erratum", "Reply to the comment", "Expression of concern", "Editorial"):
        assert not venue_prefixed(f"{note} - 3D Glasses as Mobility Aid for Visually Impaired People", plain,
                                  titles_agree)
    assert not venue_prefixed("A very long first part of a title that is no venue at all - 3D Glasses as Mobility "
                              "Aid for Visually Impaired People", plain, titles_agree)
    keys = ("doi:10.1/x", "title:a")
    assert same_paper("ECCV Workshops (3) - 3D Glasses as Mobility Aid for Visually Impaired People", {}, keys,
                      plain, {}, keys)[0] == "same DOI and title"
    assert same_paper("ECCV Workshops (3) - Wearable RGBD Indoor Navigation System for the Blind", {}, keys,
                      plain, {}, keys)[0] is None


def test_web_of_science_plain_text_takes_ut_as_the_id_as_its_tab_delimited_export_does() -> None:
    """A WoS plain-text record with a PubMed id took that PMID as its id and one without took its DOI, while the same
    records exported tab-delimited or as Excel take their UT: one search, two ids per paper depending on the button."""
    papers = tools_papers("wos_plain_2025_3.txt")
    assert [p.id for p in papers] == ["WOS:001357357400001", "WOS:001354506200001", "WOS:001327980900001"]
    assert papers[1].fields["pmid"] == "39537821" and papers[0].fields["doi"] == "10.1016/j.enbuild.2024.115040"
    ids = external_ids(papers[1].fields, papers[1].id)  # the UT, the PMID and the DOI are all match keys
    assert (ids["wos"], ids["pmid"], ids["doi"]) == ("001354506200001", "39537821", "10.1038/s41598-024-79142-3")
