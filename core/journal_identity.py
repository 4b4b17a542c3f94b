"""One journal, one name: the journal identity of each paper of a corpus, whatever database spelled it.

Databases spell one journal differently ("PLOS ONE", "PloS one", "PLoS ONE"; "Scientific reports", "Sci Rep",
"Sci. Rep."). A paper's journal is identified here from its stored fields, never rewritten there:

- by ISSN (print or electronic, any field named like ``issn``/``eissn``/``sn``; the check digit is verified, so an
  ISBN or a stray number is no ISSN): records sharing an ISSN are one journal, and one with two joins them;
- by a normalised name (case, diacritics, punctuation, ``&``/``and``, a leading "The");
- by the pairs of names the exports carry in one record: MEDLINE ``TA``/``JT`` (``journal_abbrev``), RIS
  ``J2``/``JA``/``JF``/``JO``/``T2`` (rispy's ``alternate_title1..3``, ``journal_name``, ``secondary_title``), Scopus
  "Abbreviated Source Title", Web of Science ``J9``/``JI``, Zotero/Embase "Journal Abbreviation", Lens "Periodical
  Abbrev" and every other field whose role is an alias (core.store.field_roles);
- a name with a trailing subtitle or qualifier ("Cladistics : the international journal of the Willi Hennig
  Society", "Addiction (Abingdon, England)", "Psychosocial intervention = intervencion psicosocial", CINAHL's "Canadian
  Journal of Anaesthesia / Journal Canadien d'Anesthésie", "Evolution;
  international journal of organic evolution") joins its bare title only when that title has no other subtitled form
  in the corpus ("Journal of Physics: Conference Series" and "...: Condensed Matter" stay apart) and none whose
  subtitle names a section (`names_a_section`: "Nature: New biology" is no Nature);
- NLM's "Acronym (qualifier)" ("G3 (Bethesda, Md.)") joins the one group whose subtitle spells the acronym out ("G3:
  Genes|Genomes|Genetics", `spelled_acronym`); a plain "Title (Place)" never joins a "Title: subtitle" by name;
- a journal field that is a saved nature.com / Springer Link page's "Nature Communications 2019 10:1" is read as
  the journal where the record's volume or year agrees (`issue_cuts`), the full text kept as a spelling;
- NLM's title that keeps its society ("Biological reviews of the Cambridge Philosophical Society", `society_stem`)
  joins the bare title ("Biological Reviews") on the same terms, even when the ISSNs differ: NLM's record keeps the
  old title's Linking ISSN (0006-3231), the publisher's the current ones (1464-7931, 1469-185X); a genre word alone
  ("Journal of the American Chemical Society") or "... journal of the X Society" is a full name, never cut;
- NLM's "title. section" form ("Proceedings. Biological sciences", "Philosophical transactions of the Royal Society
  of London. Series B, Biological sciences", `section_form`) joins the one other journal whose name reads the same
  once "of", "the", "Royal Society", "London", "Series"/"Section"/"Part" are left out ("Proceedings of the Royal
  Society B: Biological Sciences"); a section letter must agree where NLM's form has one.

A name is no identity when its records carry the ISSNs of several journals that every other name read tells apart
(`_ambiguous_names`: Europe PMC's source code "MED" stored as the journal of Animals, Plants and Scientific Reports
records): each such record then belongs to its ISSN's journal. Other links by ISSN and exact name are always
taken; the softer ones (an abbreviation shared by two groups, a stripped subtitle) are refused when both groups have
ISSNs and share none, so two journals that only look alike stay two. The name shown is the fullest spelling the
papers' journal fields give, properly cased where one is (`shown_name`; an alias only when every journal field
abbreviates it): never an abbreviation when a full name was read, even in capitals; every spelling is kept for the
Journals page and the map's caption.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.journal_forms import (
    has_issue_tail,
    issue_cuts,
    name_key,
    names_a_section,
    reduced_form,
    section_form,
    shown_name,
    society_stem,
    spelled_acronym,
    stem_of,
)

__all__ = ["JournalIdentities", "issns_in", "journal_identities", "name_key", "section_form", "society_stem", "stem_of",
           "valid_issn"]

# fields naming the record's journal besides the journal field (lower case; '_' and ' ' alike; a list's other names)
_NAME_FIELDS = frozenset((
    "journal abbrev", "journal abbreviation", "abbreviated source title", "abbrev source title", "periodical abbrev",
    "iso abbreviation", "container title short", "shortjournal", "journal iso", "journaltitle", "journal title",
    "alternate title1", "alternate title2", "alternate title3", "journal name", "secondary title", "source title",
    "full journal title", "ta", "jt", "j9", "ji", "jo", "jf", "ja", "j2", "t2", "medline ta", "journal",
    "journal other names"))
# fields holding ISSNs (lower case; '_' and ' ' alike); OpenAlex's other locations (repositories) are not the journal
_ISSN_FIELD = re.compile(r"(^|[\s./(])(e ?issns?|issns?|issn l|sn|ei|print issn|electronic issn|online issn)($|[\s/)])")
_NOT_ISSN_FIELD = ("locations.", "best oa location.", "host organization")
_QUALIFIED = re.compile(r"\s*\([^()]*\)\s*$")  # "G3 (Bethesda, Md.)"
_ISSN = re.compile(r"(?<![\dXx-])(\d{4})[-\u2010\u2011\u2013 ]?(\d{3}[\dXx])(?![\dXx-])")

def valid_issn(digits: str) -> bool:
    """Whether eight characters (seven digits and a digit or X) carry a correct ISSN check digit."""
    digits = digits.upper()
    if len(digits) != 8 or not digits[:7].isdigit() or not (digits[7].isdigit() or digits[7] == "X"):
        return False
    total = sum(int(d) * w for d, w in zip(digits[:7], range(8, 1, -1)))
    check = (11 - total % 11) % 11
    return digits[7] == ("X" if check == 10 else str(check))


def issns_in(value: Any) -> list[str]:
    """The valid ISSNs in a stored value (text, list or number), as ``NNNN-NNNC``: '20452322 (ISSN)',
    '1932-8494 (electronic),1932-8486', '["1932-8494", "1932-8486"]', '0167594x'."""
    if value is None:
        return []
    if isinstance(value, (list, tuple, set)):
        return [issn for item in value for issn in issns_in(item)]
    if isinstance(value, float) and value.is_integer():
        value = f"{int(value):08d}"  # a spreadsheet cell 20452322.0 (a leading zero is lost there anyway)
    found = []
    for a, b in _ISSN.findall(str(value)):
        if valid_issn(a + b):
            found.append(f"{a}-{b.upper()}")
    return list(dict.fromkeys(found))


class _Groups:
    """Union-find over keys ('n:' names, 'i:' ISSNs), each root knowing its group's ISSNs."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.issns: dict[str, set[str]] = {}

    def add(self, key: str) -> str:
        if key not in self.parent:
            self.parent[key] = key
            self.issns[key] = {key[2:]} if key.startswith("i:") else set()
        return key

    def find(self, key: str) -> str:
        root = self.add(key)
        while self.parent[root] != root:
            self.parent[root] = self.parent[self.parent[root]]
            root = self.parent[root]
        return root

    def union(self, a: str, b: str, soft: bool = False) -> bool:
        """Join a's and b's groups; a soft link is refused when both have ISSNs and share none."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if soft and self.issns[ra] and self.issns[rb] and not self.issns[ra] & self.issns[rb]:
            return False
        if (len(self.issns[ra]), ra) < (len(self.issns[rb]), rb):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.issns[ra] |= self.issns.pop(rb)
        return True


@dataclass
class JournalIdentities:
    """Each paper's journal as one name: `names` paper id -> shown name; `spellings` shown name -> every spelling
    read (journal fields and the abbreviations the records carried), commonest first; `issns` shown name -> ISSNs;
    `papers` shown name -> how many papers."""

    names: dict[str, str] = field(default_factory=dict)
    spellings: dict[str, list[str]] = field(default_factory=dict)
    issns: dict[str, list[str]] = field(default_factory=dict)
    papers: dict[str, int] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)  # name_key of every spelling -> shown name
    in_field: dict[str, int] = field(default_factory=dict)  # shown name -> spellings its papers' journal fields give

    def name_of(self, spelling: str) -> str | None:
        """The shown name of a journal spelled any way the corpus spells it ('PLOS ONE' -> 'PLoS ONE'), or None."""
        return self.keys.get(name_key(spelling)) if isinstance(spelling, str) and spelling.strip() else None

    def joined(self) -> dict[str, list[str]]:
        """The journals whose papers' journal fields give more than one spelling: shown name -> every spelling (an
        abbreviation a record carries in another field joins the journal but is no second spelling of it)."""
        return {name: spellings for name, spellings in self.spellings.items() if self.in_field.get(name, 0) > 1}

    def table(self) -> list[dict[str, Any]]:
        """One row per journal, most papers first: journal, papers, spellings ('; '-joined), ISSNs."""
        return [{"journal": name, "papers": self.papers.get(name, 0), "spellings": "; ".join(self.spellings[name]),
                 "issn": "; ".join(self.issns.get(name, []))}
                for name in sorted(self.spellings, key=lambda n: (-self.papers.get(n, 0), n.casefold()))]


@functools.lru_cache(maxsize=4096)
def _field_kind(key: str) -> str | None:
    """What a stored field holds for the journal: 'name' (another name of it), 'issn', or None."""
    low = re.sub(r"[_\s]+", " ", key.strip().lower())
    if low in _NAME_FIELDS:
        return "name"
    if _ISSN_FIELD.search(low) and not low.startswith(_NOT_ISSN_FIELD):
        return "issn"
    return None


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, (list, tuple)):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return []


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value if value is None or isinstance(value, (str, int, float, bool)) else repr(value)


_OPAQUE = object()  # marks a value that is no JSON scalar or list in `_exact` (its repr could read like a text)
_UNSEEN: list[str] = []


def _exact(value: Any) -> Any:
    """`_hashable`, but a value that is no text never equals a text (a dict whose repr reads like a name)."""
    if isinstance(value, list):
        return tuple(_exact(v) for v in value)
    return value if value is None or isinstance(value, (str, int, float, bool)) else (_OPAQUE, repr(value))


def _alike(records: Iterable[tuple[str, Mapping[str, Any]]], journal_field: str,
           aliases: frozenset[str]) -> dict[tuple, list[str]]:
    """The records that agree on their journal, its cut issue tail (`issue_cuts`), ISSN and alias fields, read once
    (a journal's papers mostly do), in the order they first appear: (journal, cut, (kind, value)...) -> paper ids.
    Papers are grouped by the exact fields read first; `issue_cuts` (which also reads the year and volume) runs per
    paper only in the groups where a name has a saved page's issue tail (BENCHMARKS §31q)."""
    layouts: dict[tuple[str, ...], tuple[tuple[str, str | None], ...]] = {}
    alike: dict[tuple, list[str]] = {}
    plain: dict[tuple, list[str] | None] = {}  # journal + fields read -> its ids' list; None: cut per paper
    for pid, fields in records:
        value = fields.get(journal_field)
        if not isinstance(value, str) or not value.strip():
            continue  # a paper without a journal keeps no journal, whatever ISSN it carries
        keys = tuple(fields)
        layout = layouts.get(keys)
        if layout is None:
            layout = layouts[keys] = tuple(
                (key, "name" if key in aliases else _field_kind(key)) for key in keys
                if key != journal_field and (key in aliases or _field_kind(key))
                and (key != "ta" or "jt" in keys))  # MEDLINE's TA beside its JT; BIOSIS's TA is its taxa
        group = (value, *(_exact(fields[key]) for key, _ in layout)) if layout else (value,)
        pids = plain.get(group, _UNSEEN)
        if pids is None or pids is _UNSEEN:
            parts = tuple((kind, _hashable(fields[key])) for key, kind in layout)
            texts = [value, *(t for key, kind in layout if kind == "name" for t in _texts(fields[key]))]
            if pids is _UNSEEN and not has_issue_tail(texts):
                pids = plain[group] = alike.setdefault((value, (), *parts), [])
            else:
                plain[group] = None
                pids = alike.setdefault((value, issue_cuts(fields, texts), *parts), [])
        pids.append(pid)
    return alike


def journal_identities(records: Iterable[tuple[str, Mapping[str, Any]]], journal_field: str = "journal",
                       alias_fields: Iterable[str] = ()) -> JournalIdentities:
    """The journal identity of each (paper id, stored fields) record that has a journal (a text in
    `journal_field`); `alias_fields` names more fields that hold other names of the journal (role "alias")."""
    return _identities(_alike(records, journal_field, frozenset(alias_fields)))


def _identities(alike: Mapping[tuple, list[str]]) -> JournalIdentities:
    """`journal_identities` of the records grouped by `_alike`."""
    groups = _Groups()
    parsed: list[tuple[list[str], str, list[str], list[str]]] = []  # paper ids, journal, ISSNs, other names
    tails: dict[str, str] = {}  # "Nature Communications 2019 10:1" -> "Nature Communications"
    for (value, cut, *parts), pids in alike.items():
        tails.update(cut)
        cut = dict(cut)
        journal = cut.get(value.strip(), value.strip())
        if not name_key(journal):
            continue
        issns: list[str] = []
        others: list[str] = []
        for kind, stored in parts:
            data = list(stored) if isinstance(stored, tuple) else stored
            if kind == "issn":
                issns += issns_in(data)
            else:
                others += [cut.get(other, other) for other in _texts(data) if len(name_key(other)) >= 2]
        issns = list(dict.fromkeys(issns))
        parsed.append((pids, journal, issns, others))
        for a, b in zip(issns, issns[1:]):  # one record's ISSNs (print, electronic, linking) are one journal's
            groups.union("i:" + a, "i:" + b)
    ambiguous = _ambiguous_names(groups, parsed)

    journal_of: list[tuple[list[str], str, str]] = []  # paper ids, their journal text, the node they hang on
    counts: Counter[str] = Counter()  # spelling -> papers whose journal field reads so
    seen: Counter[str] = Counter()  # every spelling, journal field or alias
    soft: list[tuple[str, str]] = []
    for pids, journal, issns, others in parsed:
        counts[journal] += len(pids)
        if name_key(journal) in ambiguous and issns:
            node = groups.add("i:" + issns[0])  # the record's journal is its ISSN's, whatever its name says
        else:
            seen[journal] += len(pids)
            node = groups.add("n:" + name_key(journal))
            for issn in issns:
                groups.union(node, "i:" + issn)
        journal_of.append((pids, journal, node))
        for other in others:
            seen[other] += 0  # known, though no paper's journal field reads so
            soft.append((node, "n:" + name_key(other)))
    for a, b in soft:  # an alias shared by two groups joins them unless their ISSNs say two journals
        groups.union(a, b, soft=True)
    _join_stems(groups, seen)
    _join_sections(groups, seen)

    members: dict[str, Counter[str]] = defaultdict(Counter)
    for spelling, n in seen.items():
        members[groups.find("n:" + name_key(spelling))][spelling] += n
    for pids, journal, node in journal_of:
        if node.startswith("i:"):  # an ambiguous name: a spelling of each journal its records belong to, never shown
            members[groups.find(node)][journal] += 0
    shown = {root: shown_name(spellings) for root, spellings in members.items()}
    out = JournalIdentities()
    for pids, journal, node in journal_of:
        name = shown[groups.find(node)]
        out.names.update(dict.fromkeys(pids, name))
        out.papers[name] = out.papers.get(name, 0) + len(pids)
    for root, spellings in members.items():
        name = shown[root]
        if name not in out.papers:
            continue  # a group of aliases only, no paper's journal
        out.spellings[name] = [s for s, _ in sorted(spellings.items(), key=lambda kv: (-counts[kv[0]], kv[0]))]
        out.keys.update((name_key(s), name) for s in spellings if name_key(s) not in ambiguous)
        out.issns[name] = sorted(groups.issns.get(root, ()))
        out.in_field[name] = sum(1 for s in spellings if counts[s])
    for text, journal in sorted(tails.items()):  # kept as a spelling, never shown
        name = out.keys.get(name_key(journal))
        if name is not None and text not in out.spellings[name]:
            out.spellings[name].append(text)
            out.keys.setdefault(name_key(text), name)
            out.in_field[name] += 1  # the journal field's own text
    return out


def _ambiguous_names(groups: _Groups, parsed: list[tuple[list[str], str, list[str], list[str]]]) -> set[str]:
    """Names that are no journal's identity: their records carry the ISSNs of several journals, and the other names
    those journals' records give (journal fields, abbreviations) tell every two of them apart — Europe PMC's source
    code "MED" read as the journal of Animals, Plants and Scientific Reports records. One journal's print and
    electronic ISSNs on different databases' records share a name besides ("Anat. Rec."), or have no other."""
    roots_of: dict[str, set[str]] = defaultdict(set)  # name key -> ISSN groups of its records
    names_in: dict[str, set[str]] = defaultdict(set)  # ISSN group -> every name its records give
    for _, journal, issns, others in parsed:
        if issns:
            root = groups.find("i:" + issns[0])
            roots_of[name_key(journal)].add(root)
            names_in[root].update((name_key(journal), *(name_key(other) for other in others)))
    found = set()
    for key, roots in roots_of.items():
        named = [names_in[root] - {key} for root in roots] if len(roots) > 1 else []
        named = [names for names in named if names]
        if len(named) > 1 and all(a.isdisjoint(b) for i, a in enumerate(named) for b in named[i + 1:]):
            found.add(key)
    return found


def _join_stems(groups: _Groups, seen: Mapping[str, int]) -> None:
    """Join 'Title : subtitle' (or 'Title (qualifier)') to 'Title' when the corpus has that bare title and no other
    group with a subtitled form of it, and the subtitle describes the title, not a section (`names_a_section`:
    "Nature: New biology" is no Nature); NLM's 'Acronym (qualifier)' to the one group whose subtitle spells the
    acronym out ("G3 (Bethesda, Md.)", "G3: Genes|Genomes|Genetics"); NLM's 'Title of the X Society' (whatever the
    ISSNs: see the module)."""
    keys = {name_key(s) for s in seen}
    variants: dict[str, set[str]] = defaultdict(set)
    sections: dict[str, set[str]] = defaultdict(set)  # stem -> groups of a 'Title: Section' form of it
    qualified: dict[str, set[str]] = defaultdict(set)  # acronym -> groups of 'Acronym (qualifier)' forms
    spelled: dict[str, set[str]] = defaultdict(set)  # acronym -> groups of 'Acronym: Words Spelling It'
    societies: dict[str, set[str]] = defaultdict(set)
    for spelling in seen:
        stem = stem_of(spelling)
        root = groups.find("n:" + name_key(spelling))
        if stem is not None:
            variants[name_key(stem)].add(root)
            if names_a_section(spelling):
                sections[name_key(stem)].add(root)
            if spelled_acronym(spelling):
                spelled[name_key(stem)].add(root)
            elif stem_of(stem) is None and name_key(stem) == name_key(_QUALIFIED.sub("", spelling)):
                qualified[name_key(stem)].add(root)
        head = society_stem(stem or spelling)
        if head is not None:
            societies[name_key(head)].add(root)
    for stem, roots in sorted(spelled.items()):
        if len(roots) == 1 and len(qualified[stem]) == 1 and variants[stem] == roots | qualified[stem] \
                and not sections[stem]:
            groups.union(next(iter(qualified[stem])), next(iter(roots)), soft=True)
    for stem, roots in sorted(variants.items()):
        roots = {groups.find(root) for root in roots}
        if stem in keys and len(roots) == 1 and not sections[stem]:
            groups.union("n:" + stem, next(iter(roots)), soft=True)
    for stem, roots in sorted(societies.items()):
        roots = {groups.find(root) for root in roots}
        if stem in keys and len(roots) == 1 and len({groups.find(r) for r in variants.get(stem, roots)} | roots) == 1:
            groups.union("n:" + stem, next(iter(roots)))


def _join_sections(groups: _Groups, seen: Mapping[str, int]) -> None:
    """Join NLM's 'Title. Section' to the one other journal whose reduced form (`reduced_form`) reads the same, its
    section letter agreeing where NLM's form has one; refused when both have ISSNs and share none."""
    sections = {spelling: form for spelling in seen if (form := section_form(spelling)) is not None and form[0]}
    if not sections:
        return
    by_words: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    for spelling in seen:
        words, letters = reduced_form(spelling, qualifier_only=True)  # a publisher's ':' is no subtitle
        by_words[words].append((spelling, letters))
    for spelling, (words, letters) in sorted(sections.items()):
        if len(words) < 2:
            continue
        root = groups.find("n:" + name_key(spelling))
        others = {groups.find("n:" + name_key(other)) for other, their in by_words[words]
                  if not letters or their == letters} - {root}
        if len(others) == 1:
            groups.union(root, next(iter(others)), soft=True)
