"""How a journal's name is read and compared (issue 40 §3, for `core.journal_identity`): the name as compared
(`name_key`), the bare title before a subtitle or qualifier (`stem_of`), NLM's title that keeps its society
(`society_stem`), NLM's "title. section" form (`section_form`), an acronym its subtitle spells out (`spelled_acronym`),
a saved page's "journal year volume:issue" (`issue_tail`), and the name shown for a journal (`shown_name`)."""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

__all__ = ["abbreviates", "has_issue_tail", "issue_cuts", "issue_tail", "name_key", "names_a_section", "reduced_form",
           "section_form", "shown_name", "society_stem", "spelled_acronym", "stem_of"]

_WORD = re.compile(r"[^\w\s]|_", re.UNICODE)
# "Title : subtitle", "Title; subtitle", "Title = parallel title", CINAHL's "Title / parallel title"
_SUBTITLE = re.compile(r"\s*(?::|;|\s[=/]\s)\s*")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")  # NLM's "(Auckland, N.Z.)", "(1982)", "( ISSN 2470-0983)"
# NLM's "<title> of the <...> Society" (Association, Academy ...), optionally "of <place>"
_SOCIETY = re.compile(r"^(?P<head>.+?)\s+of\s+the\s+(?:[\w'\u2019.-]+\s+){0,5}?"
                      r"(?:society|association|academy|institute|college|federation|union|foundation)"
                      r"(?:\s+of\s+[\w\s,.'-]+)?$", re.IGNORECASE)
_GENRE = frozenset((  # words that name a kind of publication, not a subject: a head of these alone is no title
    "journal", "journals", "proceedings", "transactions", "bulletin", "bulletins", "annals", "archives", "memoirs",
    "reports", "report", "review", "reviews", "letters", "notes", "papers", "records", "communications", "yearbook",
    "newsletter", "quarterly", "monthly", "weekly", "annual", "series", "abstracts", "monographs", "acta", "magazine",
    "occasional", "technical", "research", "publications", "studies", "notices", "the", "of", "and", "in"))
_ACRONYM_DASH = re.compile(r"^([A-Z][A-Z0-9]{1,7})\s+[-\u2013\u2014]\s+(\S.*)$")  # Scopus' "JAMA - Journal of ..."
# "G3: Genes|Genomes|Genetics", "G3 Genes|Genomes|Genetics"
_ACRONYM_WORDS = re.compile(r"^([A-Z][A-Z0-9]{1,7})(?:\s*:\s*|\s+)(\S.*)$")
# nature.com / Springer Link pages' dc.source, as Zotero and EndNote store it: "Nature Communications 2019 10:1"
_ISSUE_TAIL = re.compile(r"^(?P<name>.*[^\W\d_].*?)\s+(?P<year>1[89]\d\d|20\d\d)\s+(?P<volume>\d{1,5}):"
                         r"[A-Za-z]?\d{1,6}(?:[-/][A-Za-z]?\d{1,6})?$")
_INVERTED_THE = re.compile(r",\s*the\s*$", re.IGNORECASE)  # "Lancet, The"
_MINOR = frozenset(("of", "the", "and", "for", "in", "on", "a", "an", "to"))
_SECTION = re.compile(r"^[^.]{4,}\.\s+[^.]+$")  # "Proceedings. Biological sciences": one full stop, not an abbreviation
_DESCRIPTIVE = frozenset((  # a subtitle with one of these describes the journal ("the international journal of ...")
    "journal", "journals", "official", "publication", "publications", "organ", "international", "revue", "revista",
    "zeitschrift", "rivista", "tijdschrift", "tidsskrift"))
_ACRONYM = re.compile(r"[A-Z][A-Z0-9&.-]{1,9}")  # NLM's "Implementation science : IS", "... : JAMIA"
_YEAR_FIELDS = frozenset(("year", "py", "publication year", "pubyear", "date", "issued", "publication date", "y1",
                          "da"))
_VOLUME_FIELDS = frozenset(("volume", "vl", "vol", "biblio volume", "vi"))
_FILLER = frozenset(("of", "the", "royal", "society", "london", "series", "section", "part"))


@functools.lru_cache(maxsize=1 << 16)
def name_key(text: str) -> str:
    """A journal name as compared: no diacritics, case, punctuation or leading (or ', The') "The"; '&' reads 'and';
    HTML entities read as their characters (Crossref's "G3&#58; Genes|Genomes|Genetics")."""
    if "&" in text and ";" in text:
        text = html.unescape(text)
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _INVERTED_THE.sub("", text).casefold().replace("&", " and ")
    words = _WORD.sub(" ", text).split()
    if words[:1] == ["the"] and len(words) > 1:
        words = words[1:]
    return " ".join(words)


def stem_of(text: str) -> str | None:
    """The title before a subtitle, parallel title or trailing qualifier, or None when the name has none:
    'Cladistics : the international journal ...' -> 'Cladistics'; 'Sports medicine (Auckland, N.Z.)' ->
    'Sports medicine'."""
    dash = _ACRONYM_DASH.match(text.strip()) or _ACRONYM_WORDS.match(text.strip())
    if dash and _spells(dash[1], dash[2]):
        return dash[1]  # 'JAMA - Journal of the American Medical Association', 'G3 Genes|Genomes|Genetics'
    stem = _QUALIFIER.sub("", text).strip()
    head = _SUBTITLE.split(stem, maxsplit=1)[0].strip()
    if head and name_key(head):
        stem = head
    return stem if stem and name_key(stem) and name_key(stem) != name_key(text) else None


def _spells(acronym: str, words: str) -> bool:
    """Whether the words' initials (minor words left out) spell the acronym, a letter before a digit n counting n
    times: 'JAMA' of 'Journal of the American Medical Association', 'G3' of 'Genes|Genomes|Genetics'."""
    letters = re.sub(r"([a-z])(\d)", lambda m: m[1] * int(m[2]), acronym.lower())
    return letters.isalpha() and "".join(w[0] for w in name_key(words).split() if w not in _MINOR) == letters


def spelled_acronym(text: str) -> str | None:
    """The acronym a name is, when its subtitle spells it out ('G3: Genes|Genomes|Genetics' -> 'G3', 'BMJ: British
    Medical Journal' or Scopus' 'BMJ - British Medical Journal' -> 'BMJ'), else None ('Chemistry: A European
    Journal', 'CA - A Cancer Journal for Clinicians')."""
    found = _ACRONYM_DASH.match(text.strip()) or _ACRONYM_WORDS.match(text.strip())
    return found[1] if found and _spells(found[1], found[2]) else None


def names_a_section(text: str) -> bool:
    """Whether a name's subtitle names a section or a journal of its own ('Nature: New biology', 'Journal of
    Neurosurgery: Spine', 'Veterinary Parasitology: Regional Studies and Reports', 'Journal of Physics: Conference
    Series'), not a description of the title before it: NLM's ' : ' (its sections follow '. '), a leading article
    or verb ('Headache: The Journal of ...', 'SLAS Discovery: Advancing Life Sciences R&D'), a word like "journal"
    or "official", an acronym ('Implementation science : IS'), a section letter before it ('Journal of Physics B:
    Atomic, ...'), a parallel title after '=', NLM's ';', an acronym spelled out ('JAMA - Journal of ...')."""
    text = _QUALIFIER.sub("", text).strip() or text.strip()
    parts = _SUBTITLE.split(text, maxsplit=1)
    if len(parts) < 2 or spelled_acronym(text) or stem_of(text) is None:
        return False
    separator = text[len(parts[0]):len(text) - len(parts[1])]
    words, head = name_key(parts[1]).split(), name_key(parts[0]).split()
    described = (not words or separator.strip() != ":" or separator[0].isspace() or words[0] in ("a", "an", "the")
                 or (len(words[0]) > 5 and words[0].endswith("ing")) or not _DESCRIPTIVE.isdisjoint(words)
                 or bool(_ACRONYM.fullmatch(parts[1].strip())) or len(head[-1]) == 1)
    return not described


def issue_tail(text: str) -> tuple[str, str, str] | None:
    """A journal field that is a saved page's "journal year volume:issue" (nature.com's and Springer Link's
    ``dc.source``: 'Nature Communications 2019 10:1') as (journal, year, volume), else None."""
    found = _ISSUE_TAIL.match(text.strip())
    return (found["name"].strip(), found["year"], found["volume"]) if found else None


def issue_cuts(fields: Mapping[str, Any], texts: list[str]) -> tuple[tuple[str, str], ...]:
    """The record's journal names that are a saved page's "journal year volume:issue" (`issue_tail`), each with the
    journal it names: cut where the record's volume agrees, or it has none and its year (when it has one) is the
    tail's or one off (online and print years: Springer's "Sustainability Science 2017 13:2" is volume 13 of 2018)."""
    found = [(text.strip(), tail) for text in texts if text.rstrip()[-1:].isdigit() and (tail := _cached_tail(text))]
    if not found:
        return ()
    said: dict[str, set[str]] = {"year": set(), "volume": set()}
    for key, value in fields.items():
        kind = _record_part(key)
        if kind and value is not None:
            said[kind].update(re.findall(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)" if kind == "year" else r"^\s*(\d+)\s*$",
                                         str(value)))
    return tuple((text, name) for text, (name, year, volume) in found if volume in said["volume"] or not said["volume"]
                 and (not said["year"] or any(abs(int(year) - int(other)) <= 1 for other in said["year"])))


def has_issue_tail(texts: list[str]) -> bool:
    """Whether a saved page's issue tail ends any of these names (else `issue_cuts` cuts none, whatever the record's
    year and volume)."""
    return any(text.rstrip()[-1:].isdigit() and _cached_tail(text) for text in texts)


@functools.lru_cache(maxsize=4096)
def _cached_tail(text: str) -> tuple[str, str, str] | None:
    """`issue_tail`, once per distinct text."""
    return issue_tail(text)


@functools.lru_cache(maxsize=4096)
def _record_part(key: str) -> str | None:
    """Whether a stored field holds the record's year or volume (for `issue_cuts`)."""
    low = re.sub(r"[_\s.]+", " ", key.strip().lower())
    return "year" if low in _YEAR_FIELDS else "volume" if low in _VOLUME_FIELDS else None


def society_stem(text: str) -> str | None:
    """The title before NLM's "of the <...> Society" (Association, Academy, Institute ...), or None: 'Biological
    reviews of the Cambridge Philosophical Society' -> 'Biological reviews'. None when the head is a genre word
    alone ('Journal of the American Chemical Society') or ends in "journal" (a journal's own full name)."""
    found = _SOCIETY.match(text.strip())
    if not found:
        return None
    head = found.group("head").strip()
    words = name_key(head).split()
    if len(words) < 2 or words[-1] in ("journal", "journals") or all(w in _GENRE for w in words):
        return None
    return head


def section_form(text: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """NLM's "title. section" form (one full stop, then the section), as compared with any other name: its words
    without "of", "the", "Royal Society", "London", "Series"/"Section"/"Part" and single letters, and those letters;
    None for any other name ('Proc. Biol. Sci.' is an abbreviation)."""
    text = stem_of(text) or text
    return reduced_form(text) if _SECTION.match(text.strip()) else None


def reduced_form(text: str, qualifier_only: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A name's words without the filler words and single letters, and its single letters (section letters);
    `qualifier_only`: a trailing "(qualifier)" left out first (a publisher's ':' starts its section's name)."""
    if qualifier_only:
        text = _QUALIFIER.sub("", text) or text
    words = name_key(text).split()
    letters = tuple(w for w in words if len(w) == 1 and w.isalpha())
    return tuple(w for w in words if w not in _FILLER and not (len(w) == 1 and w.isalpha())), letters


def _main_length(text: str) -> int:
    """How many letters and digits the title has before any subtitle or qualifier (an abbreviation has few); an
    acronym's spelled-out name counts whole ("G3: Genes|Genomes|Genetics" is fuller than "G3 (Bethesda, Md.)")."""
    return len(re.sub(r"\W", "", text if spelled_acronym(text) else stem_of(text) or text))


def abbreviates(short: str, long: str) -> bool:
    """Whether `short` is an abbreviation of `long`: each of its words, in order, starts a word of `long` and is
    spelled within it ("Sci Rep" -> "Scientific reports", "Proc Natl Acad Sci U S A" -> "Proceedings of the National
    Academy of Sciences of the United States of America"); equal names are no abbreviation."""
    words, target = name_key(short).split(), name_key(long).split()
    if not words or words == target:
        return False
    at = 0
    for word in words:
        while at < len(target) and not _contracts(word, target[at]):
            at += 1
        if at == len(target):
            return False
        at += 1
    return True


def _contracts(word: str, full: str) -> bool:
    """'natl' of 'national', 'sci' of 'sciences': same first letter, the letters in order within the word."""
    if full.startswith(word):
        return True
    if word[0] != full[0]:
        return False
    rest = iter(full[1:])
    return all(letter in rest for letter in word[1:])


def shown_name(spellings: Mapping[str, int]) -> str:
    """The name a journal is shown under (`spellings`: spelling -> papers whose journal field reads so, 0 for a name
    only an abbreviation or alias field gave). Only journal fields' spellings compete, unless every one of them
    abbreviates an alias ("Sci Rep" beside Embase's JF "Scientific reports"): a longer abbreviation ("Meas J Int
    Meas Confed"), a WoS J9 ("SENSORS-BASEL") or a paper's title in EBSCO's T2 is never shown (an alias that
    only cases a journal field otherwise, or is its bare title, competes). Among them, the full
    spellings (main title at least 3/4 as long as the longest: no abbreviation), mixed case first, then the longest
    main title, the most capitalised words, the one without subtitle, the commonest: an all-capitals full name beats
    "Am. Midl. Nat."."""
    fields = [text for text, count in spellings.items() if count]
    aliases = [text for text, count in spellings.items() if not count]
    if fields and not all(any(abbreviates(text, alias) for alias in aliases) for text in fields):
        # an alias that cases a journal field otherwise ("Nature Communications"), or is its bare title, competes
        keys = {name_key(form) for text in fields for form in (text, stem_of(text) or text)}
        spellings = {text: count for text, count in spellings.items() if count or name_key(text) in keys}
    longest = max(_main_length(text) for text in spellings)

    def rank(item: tuple[str, int]) -> tuple:
        text, count = item
        letters = [c for c in text if c.isalpha()]
        proper = bool(letters) and not all(c.isupper() for c in letters) and not all(c.islower() for c in letters)
        main = stem_of(text) or text
        capitals = sum(1 for word in main.split() if any(c.isupper() for c in word))
        return (_main_length(text) >= 0.75 * longest, proper, _main_length(text), capitals, -len(text), count, text)

    return max(spellings.items(), key=rank)[0]
