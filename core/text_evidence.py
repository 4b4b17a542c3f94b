"""An abstract's evidence: its text without the publisher's boilerplate (copyright lines, section labels).

Exports append a copyright line to abstracts ("© 2021 Elsevier Ltd. All rights reserved.", "Copyright (c) 2019
John Wiley & Sons", "(C) 2020 The Authors", "Published by Elsevier B.V.") and structured abstracts carry section
labels ("BACKGROUND:", "Objective:", "Materials and Methods:"). They stay in the stored text, so an export keeps what
was imported, but they say nothing about a paper's topic: `evidence_text` leaves them out, and the topic keywords
(core.explore.topics.keywords) read only what it returns. The encoder's input is not changed (BENCHMARKS.md section
24 measured it: 6-8 % of an affected paper's neighbours move, no quality gain shows).

A copyright statement is a parenthesis holding one (PsycInfo's "(PsycInfo Database Record (c) 2023 APA, all rights
reserved)"), or starts at a copyright sign or word that opens a sentence or line and runs to the end of that line
(publishers put it last); a label is a known section name, or a line-initial run of capitals, followed by a
colon at the start of the text, a line or a sentence. Nothing else is touched.
"""

from __future__ import annotations

import re

# section names of structured abstracts (PubMed's NlmCategory labels and the names journals print), lower case
_LABEL_WORDS = (
    "abstract", "background", "backgrounds", "introduction", "context", "importance", "rationale", "aim", "aims",
    "objective", "objectives", "purpose", "purposes", "goal", "goals", "hypothesis", "question", "research question",
    "design", "study design", "setting", "settings", "participants", "patients", "subjects", "population",
    "intervention", "interventions", "exposure", "exposures", "method", "methods", "methodology",
    "materials and methods", "material and methods", "methods and materials", "design and methods",
    "patients and methods", "subjects and methods", "measurements", "main outcome measures",
    "main outcomes and measures", "outcome measures",
    "analysis", "data sources", "study selection", "data extraction", "data synthesis", "eligibility criteria",
    "search methods", "selection criteria", "data collection and analysis", "main results", "result", "results",
    "finding", "findings", "outcome", "outcomes", "discussion", "limitations", "conclusion", "conclusions",
    "authors' conclusions", "conclusions and relevance", "interpretation", "implications", "significance",
    "clinical relevance", "practical implications", "originality/value", "originality", "value",
    "design/methodology/approach", "research limitations/implications", "social implications", "summary",
    "trial registration", "registration", "level of evidence", "evidence level", "key points", "highlights",
    "graphical abstract", "funding", "what is known", "what is new", "key messages", "case presentation",
    "case report", "case description", "observations", "problem", "approach", "scope", "review",
)
_LABEL_SET = frozenset(_LABEL_WORDS)
_CAPITALS = re.compile(r"[A-Z][A-Z /&'-]{2,40}[A-Z]")  # a line's capitals before a colon: "AIMS/HYPOTHESIS"
_OPENS = r"(?:^|(?<=\n)|(?<=[.!?;]\s)|(?<=[.!?;]\s\s))[ \t]*"
_COPYRIGHT = re.compile(
    _OPENS + r"(?:©|\(c\)\s*(?:\d{4}|copyright)|copyright\b|crown copyright|published by\b|all rights reserved)"
    r"[^\n]*", re.IGNORECASE)
# a statement in parentheses: "(PsycInfo Database Record (c) 2023 APA, all rights reserved)"
_INSIDE = r"(?:[^()\n]|\([^()\n]*\))"  # a character of a parenthesis, or a parenthesis inside it
_PAREN_COPYRIGHT = re.compile(
    rf"\({_INSIDE}*?(?:©|\(c\)\s*\d{{4}}|copyright\s*(?:©|\(c\)|\d{{4}})|rights reserved){_INSIDE}*\)",
    re.IGNORECASE)
_RESERVED = re.compile(r"\s*\ball rights reserved\.?", re.IGNORECASE)
_COPYRIGHT_MARKERS = ("©", "copyright", "(c)", "published by", "reserved")


def _without_labels(text: str) -> str:
    """The text without section labels: each colon's lead-in, from the start of its line or sentence, when it is a
    known section name or a line's capitals (colon by colon: a regex scanning every position was 4x slower)."""
    out, kept, colon = [], 0, text.find(":")
    while colon >= 0:
        line = text.rfind("\n", 0, colon) + 1
        sentence = max(text.rfind(". ", line, colon), text.rfind("? ", line, colon), text.rfind("! ", line, colon))
        start = sentence + 2 if sentence >= 0 else line
        lead = text[start:colon].strip()
        if lead and len(lead) <= 45 and (lead.lower() in _LABEL_SET or _CAPITALS.fullmatch(lead)):
            end = colon + 1
            while end < len(text) and text[end] in " \t":
                end += 1
            out.append(text[kept:start])
            kept = end
        colon = text.find(":", colon + 1)
    if not out:
        return text
    out.append(text[kept:])
    return "".join(out)


def evidence_text(text: str | None) -> str:
    """The text of a title or abstract without copyright statements and structured-abstract labels."""
    if not text:
        return ""
    out = text
    if any(marker in text.lower() for marker in _COPYRIGHT_MARKERS):
        out = _RESERVED.sub("", _COPYRIGHT.sub("", _PAREN_COPYRIGHT.sub("", out)))
    if ":" in out:
        out = _without_labels(out)
    if out == text:
        return text
    return "\n".join(" ".join(line.split()) for line in out.splitlines() if line.strip())
