"""The forms databases give a title beside the title itself, taken off before titles are compared
(`core.store.identity.title_key`): Scopus' ``; [Original title]``, PubMed's wholly bracketed ``[Translated title].``,
Ovid's "(Provisional abstract)", "LA: Chi" and "[Erratum appears in …]" notes, and a correction notice's Web of
Science and Embase forms, read as "Erratum: Title" (BENCHMARKS §25t)."""

from __future__ import annotations

import re

_BRACKETED_TAIL = re.compile(r"[;.]?\s*\[[^\[\]]*\]\s*\.?\s*$")  # Scopus "Title; [Original title]", "[Japanese]"
_WHOLLY_BRACKETED = re.compile(r"^\s*\[(.*)\]\s*\.?\s*$", re.DOTALL)  # PubMed "[Translated title]."
# what databases append to a title: Ovid's "(Provisional abstract)", "LA: Chi" language codes
_NOTE_TAIL = re.compile(r"(?:\s*\((?:provisional|structured) abstract\)|\s+LA:\s*\w+)\s*\.?\s*$", re.IGNORECASE)
# Ovid MEDLINE's notes after a title, often cut off by the export or holding brackets of their own (BENCHMARKS §25t)
_OVID_NOTE = re.compile(r"\s*\.?\s*\[(?:Erratum appears in|Comment (?:in|on)\b|Retraction (?:in|of)\b"
                        r"|Update (?:in|of)\b|Summary for patients in|Corrected and republished)")
# a correction notice's title forms: Web of Science's "Title (vol 142, pg 310, 2003)", Embase's "Title (Journal (2009)
# 360 (542-544))" and, after "Erratum:", the same cut off anywhere after the journal's "(" (BENCHMARKS §25t)
_WOS_CORRECTION = re.compile(r"\s*\(vol\.? \w+, pg \w+, \d{4}\)\s*\.?\s*$")
_MONTH = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Spr|Sum|Aut|Fal|Win"
_CITED_ARTICLE = re.compile(r"\s+\((?:The\s)?[A-Z][^()]{3,}\((?:\d{4}|" + _MONTH + r")[^()]*\)[^()]*(?:\([^()]*\)?)?\)?"
                            r"\s*\.?\s*$")
_CITED_CUT = re.compile(r"\s+\((?:The\s)?[A-Z][^()]{3,}\(.*$")
_ERRATUM = re.compile(r"^\s*Erratum\s*:\s*", re.IGNORECASE)


def title_form(title: str) -> str:
    """A title without the bracketed other-language form databases add (Scopus' ``; [Original title]`` tail and
    PubMed's wholly bracketed ``[Translated title].``) and without Ovid's notes; a correction notice as "Erratum:
    Title" (`_correction_form`)."""
    text = title or ""
    if "[" in text and (note := _OVID_NOTE.search(text)) and len(title_letters(text[:note.start()])) >= 10:
        text = text[:note.start()]  # "….[Erratum appears in Acta Obstet Gyneco" (cut off), "…[added]].[Erratum"
    if "(" in text and (", pg " in text or text.count("(") > 1):
        text = _correction_form(text)
    last = text[-1:]  # the common cases, told by the last characters alone (no stripped copy; §25d, §25g)
    if (last not in " .])" or last == ")" and text[-9:].lower() != "abstract)") and "LA:" not in text[-12:]:
        return text
    tail = text.rstrip(" .")
    if tail[-1:] not in ("]", ")") and "LA:" not in text[-12:]:
        return text  # the common case: nothing to take off
    if not tail.endswith("]") and tail[-9:].lower() != "abstract)" and "LA:" not in text[-12:]:
        return text
    for _ in range(4):  # "[Clinical aspects of X]. [Japanese]", "Title. [Review] [33 refs]"
        before = text
        text = _NOTE_TAIL.sub("", text)
        whole = _WHOLLY_BRACKETED.match(text)
        if whole and "[" not in whole.group(1) and "]" not in whole.group(1):
            text = whole.group(1)
        elif text.rstrip().rstrip(".").endswith("]"):
            stripped = _BRACKETED_TAIL.sub("", text)
            if len(title_letters(stripped)) >= 10:  # "[18F]-NaF PET/CT" inside a title is not a tail
                text = stripped
        if text == before:
            break
    return text


def _correction_form(text: str) -> str:
    """A correction notice's title as "Erratum: Title" (`_WOS_CORRECTION`, `_CITED_ARTICLE`), else `text`."""
    prefixed = _ERRATUM.match(text)
    found = _WOS_CORRECTION.search(text) or _CITED_ARTICLE.search(text) or (prefixed and _CITED_CUT.search(text))
    if not found or len(title_letters(text[:found.start()])) < 10:
        return text
    return "Erratum: " + text[prefixed.end() if prefixed else 0:found.start()]


def title_letters(text: str) -> str:
    """A text's letters and digits."""
    return "".join(c for c in text if c.isalnum())
