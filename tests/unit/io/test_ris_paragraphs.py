"""Line breaks in a RIS abstract (issue 40, fresh exports round 12): an abstract exported to RIS and imported again
comes back identical, paragraph breaks included; a hard-wrapped RIS abstract (EndNote's ~80-column lines) still reads
as one paragraph; a Zotero RIS whose abstract spans lines keeps its line breaks, as Zotero's RIS.js reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.io import read_papers
from core.io.reference_export import write_references
from core.records import Paper
from tests.unit.io.support import TOOLS

LONG = ("Background: graph neural networks learn node representations from the features of neighbouring nodes, "
        "and mixing them over several hops helps.")
ABSTRACTS = [
    f"{LONG}\n\nMethods: we trained 12 models.\n\nResults: the best model reached 0.91 accuracy.",
    f"{LONG}\nMethods: we trained 12 models.\nResults: 0.91.",
    # every line short (under 86 characters), one of 70 characters followed by a break: not a wrapped paragraph
    "Aims. " + "x" * 64 + "\nMethods: a short line.\nResults:\n- one\n- two",
    "First paragraph.\n@article{evil,\ntitle = {x}}\nER  - not the end\nTY  - JOUR\nPMID- 1",
    "One line only, no break at all.",
]


def _round_trip(abstracts: list[str], tmp_path: Path) -> list[str]:
    papers = [Paper(f"p{n}", f"Paper number {n} with a title", text, {"authors": ["Doe, J."], "year": 2020})
              for n, text in enumerate(abstracts)]
    path = tmp_path / "out.ris"
    with open(path, "w", encoding="utf-8", newline="") as out:
        assert write_references(papers, out, "ris") == len(papers)
    return [p.abstract for p in read_papers(path) if isinstance(p, Paper)]


@pytest.mark.parametrize("abstract", ABSTRACTS, ids=range(len(ABSTRACTS)))
def test_a_ris_export_of_an_abstract_with_line_breaks_reads_back_identical(abstract, tmp_path) -> None:
    """The RIS writer keeps an abstract's line breaks (CRLF lines, an empty line between paragraphs); the reader
    used to join every continuation line with a space, so the paragraphs came back as one."""
    assert _round_trip([abstract], tmp_path) == [abstract]


def test_a_hard_wrapped_ris_abstract_still_reads_as_one_paragraph() -> None:
    """EndNote's RIS (endnote_indented_6.ris) wraps AB at about 80 columns with a six-space indent: those breaks are
    the writer's, not the author's, and stay spaces."""
    papers = [p for p in read_papers(TOOLS / "endnote_indented_6.ris") if isinstance(p, Paper)]
    assert papers[0].abstract.startswith("Existing popular methods for semi-supervised learning with Graph Neural "
                                         "Networks (such as the Graph Convolutional Network) provably cannot")
    assert all("\n" not in p.abstract for p in papers)


def test_a_zotero_ris_abstract_on_several_lines_keeps_its_paragraphs() -> None:
    """Zotero writes an abstract's paragraphs as lines of their own (asysd_zotero_10.ris: "Background: …" /
    "Results: …" / "Conclusions: …"); Zotero reads them back as paragraphs, and so does this reader."""
    papers = [p for p in read_papers(TOOLS / "asysd_zotero_10.ris") if isinstance(p, Paper)]
    structured = next(p for p in papers if p.abstract.startswith("Background: American Cocker Spaniels"))
    lines = structured.abstract.split("\n")
    assert [line.split(":")[0] for line in lines] == ["Background", "Results", "Conclusions"]
