"""Issue 40: publisher boilerplate is not evidence. Copyright lines and structured-abstract labels stay in the stored
text but `core.text_evidence.evidence_text` leaves them out, and the topic keywords never name them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.explore.topics.keywords import class_keywords, term_matrix
from core.io import read_papers
from core.records import Paper
from core.text_evidence import evidence_text

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


@pytest.mark.parametrize(("text", "evidence"), [
    ("Soil fauna differ. © 2021 Elsevier Ltd. All rights reserved.", "Soil fauna differ."),
    ("Soil fauna differ. Copyright (c) 2019 John Wiley & Sons, Ltd.", "Soil fauna differ."),
    ("Soil fauna differ. (C) 2020 The Authors. Published by Elsevier B.V.", "Soil fauna differ."),
    ("Soil fauna differ.\nCopyright © 2020 The Authors. This is an open access article.", "Soil fauna differ."),
    ("Soil fauna differ. All rights reserved.", "Soil fauna differ."),
    ("Birds differ. (PsycInfo Database Record (c) 2023 APA, all rights reserved)", "Birds differ."),
    ("Birds differ. (PsycInfo Database Record (c) 2022 APA, all rights reserved) Abstract (Spanish) Aves.",
     "Birds differ. Abstract (Spanish) Aves."),
    ("BACKGROUND: Fauna matter.\nMETHODS: We sampled soils.\nCONCLUSIONS: They differ.",
     "Fauna matter.\nWe sampled soils.\nThey differ."),
    ("Objective: Fauna matter. Materials and Methods: We sampled soils. Results: They differ.",
     "Fauna matter. We sampled soils. They differ."),
    ("AIMS/HYPOTHESIS: Fauna matter.", "Fauna matter."),
])
def test_boilerplate_is_left_out(text: str, evidence: str) -> None:
    assert evidence_text(text) == evidence


@pytest.mark.parametrize("text", [
    "We found p < 0.05: the effect held.", "Two groups: treated and control.", "In summary: fauna differ.",
    "The copyright of the data lies with the authors, who studied fauna.", "Fauna (c 20%) differ.",
    "HIV: a review of fauna.", "Fauna (see the copyright notice) differ.", "",
])
def test_text_without_boilerplate_is_unchanged(text: str) -> None:
    assert evidence_text(text) == text


def test_a_real_scopus_abstract_loses_its_copyright_line_and_labels_and_keeps_its_text() -> None:
    first = next(p for p in read_papers(REAL / "scopus_3.bib") if isinstance(p, Paper))
    assert "© 2020, © 2020 The Author(s). Published by Taylor & Francis" in first.abstract  # stored as exported
    assert first.abstract.startswith("Introduction: Wetland soil fauna")
    evidence = evidence_text(first.abstract)
    assert "©" not in evidence and "Published by" not in evidence and "Taylor" not in evidence
    assert "Introduction:" not in evidence and "Outcomes:" not in evidence and "Conclusion:" not in evidence
    assert evidence.startswith("Wetland soil fauna support material cycling")
    assert evidence.endswith("developed a theoretical basis for restoring the lakeshore wetland ecosystem.")


def test_topic_keywords_never_name_copyright_lines_or_section_labels() -> None:
    """One publisher's papers (a fifth of the corpus) carry the boilerplate: too rare corpus-wide to be dropped as
    common, so before evidence_text their topic was labelled "rights reserved", "objective"."""
    texts, labels = [], []
    for i in range(12):
        texts.append(f"OBJECTIVE: To study malaria in cohort {i}.\nMETHODS: We followed bed nets.\n"
                     "RESULTS: Mosquito bites fell. © 2021 Elsevier Ltd. All rights reserved.")
        labels.append(0)
    others = ("tumour chemotherapy and relapse", "glacier melt and sea ice", "protein folding and chaperone",
              "bird song and migration")
    for label, words in enumerate(others, start=1):
        for i in range(12):
            texts.append(f"{words.capitalize()} observed in sample {i}.")
            labels.append(label)
    keywords = class_keywords(term_matrix(texts), np.array(labels), top_n=6)
    named = {word for term in keywords[0] for word in term.lower().split()}
    assert named.isdisjoint({"objective", "methods", "results", "rights", "reserved", "elsevier", "ltd"}), keywords
    assert {"malaria", "bed", "nets"} <= named
