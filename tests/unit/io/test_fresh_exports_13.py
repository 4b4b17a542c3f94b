"""Real exports from repositories the project had not read before (issue 40, thirteenth round). Each file is a
byte-exact excerpt or a whole file (sources, licences and cuts in tests/fixtures/real/tools/SOURCES.md); each was
counted by a hand-written reader before the product read it (BENCHMARKS.md §25l)."""

from __future__ import annotations

from core.io import read_papers
from core.io.rows import RowWarning
from core.records import Paper, RowError
from tests.unit.io.support import TOOLS

# --- BibTeX rewritten by an R script: the outer braces of a title stripped -----------------------------------------


def test_a_title_whose_outer_braces_a_script_stripped_keeps_the_rest_of_its_entry() -> None:
    """A review's screening file (Web of Science / Zoological Record and Zotero entries written again one field a
    line, ``  Title = {…},``, capitalised names) whose titles lost their outer braces: ``Title = {THE} {DIVERSITY} …
    {STUDY}.},`` (a "}" too many), ``Title = {Antibody-{Mediated} … {Infection},`` (one too few) and ``Title =
    {IN}-{VITRO} … {SKIN},`` (as many, but the first group closes at "IN"). The first two were read to the end of the
    entry, volume, year, ISSN and abstract inside the title, or (``{H2S} modulates … {KATP} channels},``) the extra
    "}" closed the entry and its abstract was left outside: skipped as "empty abstract"; the third was "could not be
    parsed". Each is read one field a line, the title's word braces balanced, with a warning naming the field."""
    items = list(read_papers(TOOLS / "wos_zoorec_bib2df_7.bib"))
    papers = [i for i in items if isinstance(i, Paper)]
    errors = [i for i in items if isinstance(i, RowError)]
    assert [p.title for p in papers] == [
        "A Baylisascaris Outbreak in Fox Squirrels (Sciurus niger) and Subsequent Detection of Francisella "
        "tularensis in Kansas, USA.",
        "THE DIVERSITY AND CONSERVATION OF MAMMALS IN THE DODO COASTAL FOREST IN SOUTHWESTERN COTE D'IVOIRE, "
        "WESTERN AFRICA: A PRELIMINARY STUDY.",
        "VARIATION IN CESTODE ASSEMBLAGES OF MASTOMYS AND ARVICANTHIS SPECIES (RODENTS: MURIDAE) FROM LAKE RETBA IN "
        "WESTERN SENEGAL.",
        "Antibody-Mediated Immune Subset Depletion Modulates the Immune Response in a Rabbit (Oryctolagus cuniculus) "
        "Model of Epstein-Barr Virus Infection",
        "H2S modulates duodenal motility in male rats via activating TRPV1 and KATP channels",
        "IN-VITRO DERMAL ABSORPTION OF PESTICIDES .5. IN-VIVO AND IN-VITRO COMPARISON OF THE HERBICIDE "
        "2,4-DICHLOROPHENOXYACETIC ACID IN RAT, GUINEA-PIG, PIG, HUMAN AND TISSUE-CULTURED SKIN"]
    assert [p.fields["year"] for p in papers] == [2020, 2019, 2010, 2020, 2014, 1994]
    assert papers[1].abstract.startswith("To improve the knowledge of non-volant mammal diversity")
    assert papers[2].abstract.startswith("We studied patterns of variation in cestode communities")
    assert papers[3].abstract.startswith("Epstein-Barr Virus (EBV) is a")
    assert papers[4].abstract.startswith("Background and PurposeH(2)S induces vasodilatation")
    assert papers[5].abstract.startswith("In vitro dermal absorption tests were conducted")
    assert papers[5].fields["doi"] == "10.1016/0887-2333(94)90112-0"
    assert papers[1].fields["authors"][:2] == ["Soiret, Serge Pacome Keagnon", "Kouakou, Celestin Yao"]
    assert papers[3].fields["journal"] == "COMPARATIVE MEDICINE"
    assert [e.row for e in errors] == [4] and "empty abstract" in errors[0].reason  # no abstract in the file
    warned = {i.row for i in items if isinstance(i, RowWarning) and i.column == "title"}
    assert warned == {2, 3, 5, 6, 7}
