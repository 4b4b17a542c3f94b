"""MODS XML (Library of Congress; Zotero's, refbase's and catalogues' "MODS" export) and MARC XML (MARC21 slim, the
export of OPACs and discovery layers) read as papers, and binary MARC refused saying what to do: real files (sources in
tests/fixtures/real/tools/SOURCES.md). Before core/io/mods.py and core/io/marcxml.py every one of them was refused
("XML whose root element is <modsCollection>, which no reader here knows", and <mods>, <mods:mods>, <collection>)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import CorpusError
from core.io.formats import FORMATS, detect_format
from tests.unit.io.support import TOOLS, papers_and_errors, write


def test_a_mods_collection_of_articles_reads_title_abstract_journal_issue_and_authors():
    """The Library of Congress' MODS example of a journal article, as Zotero's MODS translator tests it."""
    papers, skipped = papers_and_errors(TOOLS / "mods_loc_journal_1.xml")
    assert skipped == [] and len(papers) == 1
    paper = papers[0]
    assert paper.title == "Hiring and recruitment practices in academic libraries"
    assert paper.abstract.startswith("Academic libraries need to change their recruiting and hiring procedures")
    assert paper.abstract.endswith("modern personnel management literature.")
    fields = paper.fields
    assert fields["authors"] == ["Raschke, Gregory K."]  # one undivided namePart, kept as written
    assert fields["journal"] == "portal: libraries and the academy"  # relatedItem type="host"
    assert (fields["volume"], fields["issue"], fields["pages"]) == ("3", "1", "53-57")  # detail "number" is the issue
    assert fields["issn"] == "1531-2542" and fields["year"] == 2003
    assert fields["keywords"] == ["College librarians", "Recruiting", "Selection and appointment"]
    assert fields["type"] == "journal article"


def test_a_refbase_mods_export_without_abstracts_is_skipped_row_by_row_and_reads_with_titles_only():
    """refbase's MODS export (ISO-8859-1): given/family name parts, the journal's abbreviation, a DOI, a book's
    editors and ISBN."""
    papers, skipped = papers_and_errors(TOOLS / "mods_refbase_3.xml")
    assert papers == [] and len(skipped) == 3 and all("abstract" in s.reason for s in skipped)
    papers, skipped = papers_and_errors(TOOLS / "mods_refbase_3.xml", title_only=True)
    assert skipped == [] and [p.title for p in papers] == [
        "A new microcosm to investigate oxygen dynamics at the sea ice water interface",
        "Benthic response to ice-edge-induced particle flux in the Arctic Ocean",
        "Sea ice - an introduction to its physics, chemistry, biology and geology"]
    first, second, book = (p.fields for p in papers)
    assert first["authors"] == ["Mock, T", "Kruse, M", "Dieckmann, GS"]
    assert (first["journal"], first["journal_abbrev"]) == ("Aquatic Microbial Ecology", "Aquat Microb Ecol")
    assert (first["volume"], first["issue"], first["pages"], first["year"]) == ("30", "2", "197-205", 2003)
    assert first["url"] == "http://int-res.com/abstracts/ame/v30/n2/p197-205.html"
    assert second["doi"] == "10.1007/s00300-003-0526-8" and second["journal"] == "Polar Biology"
    assert book.get("authors") in (None, []) and book["editors"] == ["Thomas, DN", "Dieckmann, GS"]
    assert book["isbn"] == "0-632-05808-0" and book["publisher"] == "Blackwell Science Ltd"
    assert "journal" not in book or book["journal"] is None


def test_one_mods_record_as_the_root_and_the_mods_prefix_are_read_too(tmp_path: Path):
    """A lone <mods> (LoC's example: the journal only in the host's abbreviated title and the part's date) and a
    <mods:mods> record of the Kalliope union catalogue (the creator an author, the addressee not; the key date)."""
    papers, skipped = papers_and_errors(TOOLS / "mods_loc_single_1.xml", title_only=True)
    assert skipped == [] and len(papers) == 1
    fields = papers[0].fields
    assert papers[0].title == "2700 MHz observations of 4c radio sources in the declination zone +4 to -4"
    assert fields["journal"] == "Australian Journal of Physics and Astronphysics"
    assert fields["journal_abbrev"] == "Australian J. Phys. Astronphys." and fields["year"] == 1971
    assert fields["authors"] == ["Wall, J. V."]
    papers, _ = papers_and_errors(TOOLS / "mods_kalliope_prefixed_1.xml", title_only=True)
    assert [p.title for p in papers] == ["[Brief Josef Blaas' an Albrecht Penck]"]
    assert papers[0].fields["authors"] == ["Blaas, Josef"] and papers[0].fields["year"] == 1930
    for name in ("mods_loc_single_1.xml", "mods_kalliope_prefixed_1.xml", "mods_refbase_3.xml"):
        saved = write(tmp_path / f"{name}.txt", (TOOLS / name).read_bytes())
        assert detect_format(TOOLS / name) == "mods" and detect_format(saved) == "mods"


def test_a_marcxml_collection_reads_its_articles_with_journal_volume_pages_doi_and_arxiv_id():
    """CERN's and Jülich's records of the Invenio demo site (MARC21 slim): 773 $t/$p with $v/$n/$c or "Vol. 90,
    no. 19, p. 192901" in $g, CERN's local 909C4 journal, 024 $2 DOI, 037 an arXiv id; a picture without an
    abstract skipped with its reason."""
    papers, skipped = papers_and_errors(TOOLS / "marcxml_invenio_5.xml")
    assert len(papers) == 4 and len(skipped) == 1 and "abstract" in skipped[0].reason
    preprint, aleph, lusco, sofc = (p.fields for p in papers)
    assert papers[0].title == ("On the quantum stability of IIB orbifolds and orientifolds with Scherk-Schwarz SUSY "
                               "breaking")
    assert papers[0].abstract.startswith("We study the quantum stability of Type IIB orbifold")
    assert "$\\rho(R)<0$" in papers[0].abstract  # the escaped "&lt;" is the text's "<"
    assert preprint["authors"] == ["Borunda, M", "Serone, M", "Trapletti, M"]
    assert (preprint["journal"], preprint["volume"], preprint["pages"], preprint["year"]) == (
        "Nucl. Phys. B", "653", "85-108", 2003)
    assert preprint["arxiv"] == "hep-th/0210075" and preprint["language"] == "eng"
    assert aleph["journal"] == "Acta Phys. Pol. B" and (aleph["volume"], aleph["issue"]) == ("39", "1")
    assert aleph["authors"] == ["Beddall, Andrew", "Beddall, Ayda", "Bingül, Ahmet"]
    assert papers[1].title == "Residual Bose-Einstein Correlations and the Söding Model"
    assert lusco["doi"] == "10.1063/1.2737136" and lusco["journal"] == "Applied physics reviews"
    assert (lusco["volume"], lusco["issue"], lusco["pages"], lusco["year"]) == ("90", "19", "192901", 2007)
    assert lusco["issn"] == "0003-6951" and "molecular beam epitaxy" in lusco["keywords"]
    assert lusco["authors"][:2] == ["Heeg, T.", "Roeckerath, M."] and len(lusco["authors"]) == 10
    assert sofc["doi"] == "10.4028/www.scientific.net/MSF.638-642.1098"
    assert (sofc["volume"], sofc["pages"]) == ("638-642", "1098 - 1105")


def test_marcxml_is_found_by_its_content_and_its_isbd_punctuation_is_taken_off(tmp_path: Path):
    """A catalogue's record: 245 "Title :" $b "subtitle /", 100 "Doe, Jane.", 264 "[2019]", 520, 650 with $x."""
    saved = write(tmp_path / "export.xml", """<?xml version="1.0" encoding="UTF-8"?>
<marc:collection xmlns:marc="http://www.loc.gov/MARC21/slim"><marc:record>
<marc:leader>00000naa a2200000 a 4500</marc:leader><marc:controlfield tag="001">991</marc:controlfield>
<marc:datafield tag="020" ind1=" " ind2=" "><marc:subfield code="a">9780306406157 (pbk.)</marc:subfield></marc:datafield>
<marc:datafield tag="100" ind1="1" ind2=" "><marc:subfield code="a">Doe, Jane,</marc:subfield>
<marc:subfield code="e">author.</marc:subfield></marc:datafield>
<marc:datafield tag="245" ind1="1" ind2="0"><marc:subfield code="a">Reading catalogues :</marc:subfield>
<marc:subfield code="b">a study of records /</marc:subfield><marc:subfield code="c">Jane Doe.</marc:subfield></marc:datafield>
<marc:datafield tag="264" ind1=" " ind2="1"><marc:subfield code="c">[2019]</marc:subfield></marc:datafield>
<marc:datafield tag="520" ind1=" " ind2=" "><marc:subfield code="a">What a record holds.</marc:subfield></marc:datafield>
<marc:datafield tag="650" ind1=" " ind2="0"><marc:subfield code="a">Cataloging</marc:subfield>
<marc:subfield code="x">Standards.</marc:subfield></marc:datafield>
<marc:datafield tag="700" ind1="1" ind2=" "><marc:subfield code="a">Roe, R.</marc:subfield>
<marc:subfield code="4">edt</marc:subfield></marc:datafield>
<marc:datafield tag="773" ind1="0" ind2=" "><marc:subfield code="t">Library Trends.</marc:subfield>
<marc:subfield code="g">v. 10, n. 2 (2019), p. 33-50</marc:subfield></marc:datafield>
</marc:record></marc:collection>""")
    assert detect_format(saved) == "marcxml"
    papers, skipped = papers_and_errors(saved)
    assert skipped == [] and len(papers) == 1
    fields = papers[0].fields
    assert papers[0].title == "Reading catalogues: a study of records" and papers[0].abstract == "What a record holds."
    assert fields["authors"] == ["Doe, Jane"] and fields["editors"] == ["Roe, R."]
    assert fields["year"] == 2019 and fields["isbn"] == "9780306406157"
    assert (fields["journal"], fields["volume"], fields["issue"], fields["pages"]) == ("Library Trends", "10", "2",
                                                                                       "33-50")
    assert fields["keywords"] == ["Cataloging -- Standards"]


def test_binary_marc_is_refused_saying_what_to_export_instead(tmp_path: Path):
    record = b"00714cam a2200205 a 4500001001300000003000400013" + b"0" * 40 + b"\x1e"
    for name in ("catalogue.mrc", "catalogue.marc", "records.dat"):
        saved = write(tmp_path / name, record)
        with pytest.raises(CorpusError) as error:
            detect_format(saved)
        message = str(error.value)
        assert "binary MARC" in message and "MARCXML" in message and "unknown format" not in message


def test_the_new_formats_are_named_and_chosen_by_name():
    assert "mods" in FORMATS and "marcxml" in FORMATS
    assert detect_format("x.xml", "MODS") == "mods" and detect_format("x.xml", "marc-xml") == "marcxml"


@pytest.mark.parametrize("root", ['<modsCollection xmlns="http://www.loc.gov/mods/v3">',
                                  '<collection xmlns="http://www.loc.gov/MARC21/slim">'])
def test_a_library_xml_declaring_entities_is_refused_before_it_is_parsed(tmp_path: Path, root: str):
    name = root[1:].split()[0]
    saved = write(tmp_path / "export.xml", f'<?xml version="1.0"?>\n<!DOCTYPE {name} [<!ENTITY x "boom">]>\n'
                                           f'{root}</{name}>')
    with pytest.raises(CorpusError, match="declares XML entities"):
        papers_and_errors(saved)


def test_a_catalogue_export_with_holdings_records_reads_the_publications_and_says_what_the_rest_are():
    """A catalogue's MARCXML (marc4j's test export, prefix ``marcxml:``): 4 bibliographic records each followed by
    its holdings record (leader type 'x'). The holdings were skipped as "empty title and abstract"."""
    papers, skipped = papers_and_errors(TOOLS / "marcxml_holdings_9.xml", title_only=True)
    assert [p.title for p in papers] == [
        "Seven financial conspiracies which have enslaved the American people", "Mahler's Fourth symphony",
        "Les Lionnais du Perche-- des scieurs de long venus du Haut-Forez: XVIIe-XIXe siècles",
        "Dictionnaire encyclopedique de la liturgie"]
    assert papers[1].fields["authors"] == ["Zychowicz, James L."] and papers[1].fields["year"] == 2000
    assert len(skipped) == 5 and all("holdings record" in s.reason for s in skipped)


def test_zotero_s_mods_export_shape_reads_its_host_dates_short_title_and_roles(tmp_path: Path):
    """A sample in the shape Zotero's MODS translator (MODS.js doExport) writes: the journal article's date in the
    host's originInfo as dateIssued, a book section's as copyrightDate, the short title a titleInfo of type
    "abbreviated" beside the title, roles as marcrelator codes (aut, edt, ctb), pages as extent unit="pages"."""
    saved = write(tmp_path / "Exported Items.xml", """<?xml version="1.0"?>
<modsCollection xmlns="http://www.loc.gov/mods/v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<mods ID="smith_2020"><titleInfo><title>A long title of an article</title></titleInfo>
<titleInfo type="abbreviated"><title>Long title</title></titleInfo><typeOfResource>text</typeOfResource>
<genre authority="local">journalArticle</genre>
<name type="personal"><namePart type="family">Smith</namePart><namePart type="given">Ann</namePart>
<role><roleTerm type="code" authority="marcrelator">aut</roleTerm></role></name>
<name type="personal"><namePart type="family">Helper</namePart><namePart type="given">Hal</namePart>
<role><roleTerm type="code" authority="marcrelator">ctb</roleTerm></role></name>
<relatedItem type="host"><titleInfo><title>Journal of Tests</title></titleInfo>
<titleInfo type="abbreviated"><title>J. Tests</title></titleInfo><genre authority="marcgt">journal</genre>
<originInfo><dateIssued>2020-03</dateIssued><issuance>continuing</issuance></originInfo>
<part><detail type="volume"><number>12</number></detail><detail type="issue"><number>3</number></detail>
<extent unit="pages"><start>101</start><end>110</end></extent></part>
<identifier type="issn">1234-5679</identifier></relatedItem>
<identifier type="doi">10.1000/test.1</identifier><location><url usage="primary display">https://example.org/a</url>
</location><abstract>What the article found.</abstract><subject><topic>testing</topic></subject></mods>
<mods ID="doe_2019"><titleInfo><title>A chapter</title></titleInfo><genre authority="local">bookSection</genre>
<name type="personal"><namePart type="family">Doe</namePart><namePart type="given">Jo</namePart>
<role><roleTerm type="code" authority="marcrelator">aut</roleTerm></role></name>
<relatedItem type="host"><titleInfo><title>A Book</title></titleInfo>
<name type="personal"><namePart type="family">Ed</namePart><namePart type="given">Ida</namePart>
<role><roleTerm type="code" authority="marcrelator">edt</roleTerm></role></name>
<originInfo><publisher>Press</publisher><copyrightDate>2019</copyrightDate></originInfo>
<identifier type="isbn">978-3-16-148410-0</identifier></relatedItem><abstract>What the chapter says.</abstract>
</mods></modsCollection>""")
    papers, skipped = papers_and_errors(saved)
    assert skipped == [] and [p.title for p in papers] == ["A long title of an article", "A chapter"]
    article, chapter = (p.fields for p in papers)
    assert article["authors"] == ["Smith, Ann"] and article["year"] == 2020  # the contributor is no author
    assert (article["journal"], article["journal_abbrev"], article["pages"]) == ("Journal of Tests", "J. Tests",
                                                                                "101-110")
    assert article["doi"] == "10.1000/test.1" and article["url"] == "https://example.org/a"
    assert chapter["journal"] == "A Book" and chapter["year"] == 2019 and chapter["isbn"] == "978-3-16-148410-0"
    assert chapter["authors"] == ["Doe, Jo"] and "editors" not in chapter  # the book's editor is not the chapter's
