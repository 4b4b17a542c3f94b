"""Authors held in one text cell, as a list: the separators the exports write.

Tagged formats (RIS, MEDLINE, Web of Science, BibTeX) give one name per tag or ``and``; tables give one cell.
There, ``;`` separates names (Scopus, Web of Science, Lens, IEEE), ``|`` in OpenAlex's CSV; ``, `` does in
Scopus' older CSV and in Embase ("Yang Z., Jiang B.") and PubMed's CSV ("Griffin DK, Larkin DM, O'Connor RE."),
where every part ends in initials, and in Scopus' CSV of about 2015 with a comma inside each name too
("Pan, Y., Yu, C., Mei, C."), read as family/initials pairs; `` and `` in Rayyan and Abstrackr
("Yang, Z. and Jiang, B."), where every part is "Family, Given", and in ACM's CSV ("Lars Braubach and Kai Jander"),
where every part is "Given Family" (its HTML entities, "Gan&#225;n", unescaped first). Google Scholar (Publish or
Perish) writes initials first ("C Kun‐Rodrigues, J Salmona, ...", its "…" and "..." dropped at either end) and
Consensus whole names ("Vikram S Chundawat, A. Tarun"). Anything else is one name ("Smith, John", "Janko Wolfgang",
"Department of Health, Education and Welfare"), as a list of one.
"""

from __future__ import annotations

import html
import re

# a name ending in initials: "Yang Z.", "McNamara M.E.", "Griffin DK", "Villard M.-A.", "O'Connor RE."
_INITIALS_LAST = re.compile(r"^[^\W\d_][\w'’. -]*?\s(?:[A-ZÀ-ÖØ-Þ]{1,4}|(?:[A-ZÀ-ÖØ-Þ]\.-?\s?){1,4})\.?$")
# a name starting with initials, as Google Scholar (Publish or Perish) writes it: "C Kun‐Rodrigues", "KC McGoogan"
_INITIALS_FIRST = re.compile(r"^(?:[A-ZÀ-ÖØ-Þ]{1,4}|(?:[A-ZÀ-ÖØ-Þ]\.\s?){1,4})\s+[^\W\d_]")
_MORE = ("...", "…")
# a whole name, given names first, of two to five capitalised words or name particles ("Vikram S Chundawat",
# "A. Tarun", "Saif ul Islam"); "Department of Health" is none
_WORD = r"(?:-?[A-ZÀ-ÖØ-Þ][^\s\d,]*|van|von|de|da|del|der|di|du|la|le|ul|bin|al|dos|das)"
_GIVEN_FAMILY = re.compile(rf"^{_WORD}(?:\s+{_WORD}){{1,4}}$")
_SUFFIX = re.compile(r"^(?:Jr|Sr|I{2,3}|IV|2nd|3rd)\.?$")  # "Roach M.C., Thompson F.R., III, …": joins the name
_TRAILING_SUFFIX = re.compile(r"\s+(?:Jr|Sr|I{2,3}|IV|2nd|3rd)\.?$")  # PubMed's CSV: "Hormuth DA 2nd", "Cox LA Jr."
_FAMILY_GIVEN = re.compile(r"^[^,]+,\s*[^,]+$")
_INITIALS_ONLY = re.compile(r"^(?:[A-ZÀ-ÖØ-Þ][a-zà-ÿ]{0,2}\.[\s-]?)+$")  # "Y.", "J.R.", "M.-A.", "Ch."
# Lens writes an author without given names as "null Ratkóczy" (its JSON's null, printed): the null is no name
_NULL_GIVEN = re.compile(r"(?:^|(?<=; ))null (?=[^\W\d_])")
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")  # "Jimenez-Gan&#225;n" in ACM's CSV
_BARE_INITIALS = re.compile(r"^[A-ZÀ-ÖØ-Þ]{1,4}$")  # "R", "MM", "BFM": the Cochrane Library's BibTeX


def _family_initials_pairs(parts: list[str], bare: bool = False) -> list[str] | None:
    """Scopus' CSV of about 2015: "Pan, Y., Yu, C., Mei, C." as ["Pan, Y.", "Yu, C.", "Mei, C."] (a "Jr." joins the
    name before it); None unless every name is a family name followed by initials, and there are two or more.
    ``bare`` also takes initials without full stops ("Blok, BFM")."""

    def initials(part: str) -> bool:
        return bool(_INITIALS_ONLY.match(part) or (bare and _BARE_INITIALS.match(part)))

    names: list[str] = []
    i = 0
    while i + 1 < len(parts):
        family, given = parts[i], parts[i + 1]
        if initials(family) or not initials(given):
            return None
        names.append(f"{family}, {given}")
        i += 2
        if i < len(parts) and _SUFFIX.match(parts[i]):
            names[-1] = f"{names[-1]}, {parts[i]}"
            i += 1
    return names if i == len(parts) and len(names) > 1 else None


_NAME_WORD = (r"(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þa-zß-öø-ÿ][a-zß-öø-ÿ'’]+)*"  # "Uribe-Zarain"
              r"|(?:[A-ZÀ-ÖØ-Þ]\.-?){1,4}|[A-ZÀ-ÖØ-Þ]{1,4}|van|von|de|da|del|der|di|du|la|le|dos|das)")  # "L.", "RMM"
_NAME_WORDS = re.compile(rf"^{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}}$")  # a family name, or given names "Jessica L."


def _family_given_pairs(parts: list[str]) -> list[str] | None:
    """DistillerSR's author cell: "Husted, Jessica L., Davis, Derald E., Haniger, Jason T." as ["Husted, Jessica
    L.", "Davis, Derald E.", "Haniger, Jason T."] (a "Jr." joins the name before it); None unless there are two
    names or more and every one is a family name then given names, each of one to four capitalised words."""
    names: list[str] = []
    i = 0
    while i + 1 < len(parts):
        family, given = parts[i], parts[i + 1]
        if not (_NAME_WORDS.match(family) and _NAME_WORDS.match(given)) or _SUFFIX.match(given):
            return None
        names.append(f"{family}, {given}")
        i += 2
        if i < len(parts) and _SUFFIX.match(parts[i]):
            names[-1] = f"{names[-1]}, {parts[i]}"
            i += 1
    return names if i == len(parts) and len(names) > 1 else None


_ONE_WORD = re.compile(r"^[A-ZÀ-ÖØ-Þ][^\W\d_]+\.?$")  # a name of one word: "Badinqiuying", "Ouzhuluobu"


def _ending_in_initials(names: list[str]) -> bool:
    """Whether every name ends in initials ("Harris RB"), but for a few of one word (Europe PMC's authorString:
    "Harris RB, Wenying W, Badinqiuying, Smith AT"), fewer than those with initials."""
    initials = sum(1 for name in names if _INITIALS_LAST.match(_TRAILING_SUFFIX.sub("", name.split(", ")[0])))
    one_word = sum(1 for name in names if _ONE_WORD.match(name))
    return initials == len(names) or (initials >= 2 and initials > one_word and initials + one_word == len(names))


def author_list(value: str) -> list[str]:
    """The names in one cell, in order (see the module); empty for a blank cell."""
    text = _NULL_GIVEN.sub("", " ".join(value.split()))
    if _ENTITY.search(text):  # before splitting at ";": an entity's own ";" is not a separator
        text = html.unescape(text)
    if not text:
        return []
    for separator in (";", "|"):  # "|": OpenAlex's CSV ("Alba Vicente|Josep Sanjuan")
        if separator in text:
            return [part.strip() for part in text.split(separator) if part.strip()]
    parts = [part.strip() for part in re.split(r"\s+and\s+", text)]
    if len(parts) > 1 and (all(_FAMILY_GIVEN.match(part) for part in parts)
                           or all(_GIVEN_FAMILY.match(part) for part in parts)):  # ACM's CSV: "Lars Braubach and …"
        return parts
    parts = [part.strip() for part in text.split(",") if part.strip()]
    pairs = _family_initials_pairs(parts)
    if pairs:
        return pairs
    names: list[str] = []
    for part in parts:
        if names and _SUFFIX.match(part):
            names[-1] = f"{names[-1]}, {part}"
        else:
            names.append(part)
    if len(names) > 1 and _ending_in_initials(names):
        if "." not in "".join(names[:-1]) and names[-1].endswith("."):  # PubMed ends its list with a full stop
            names[-1] = names[-1][:-1]
        return names
    shown = names
    while len(shown) > 2 and shown[-1] in _MORE:  # Google Scholar's list cut at its end ("…, W Tobler, ...")
        shown = shown[:-1]
    while len(shown) > 2 and shown[0] in _MORE:  # and at its start, before the names it shows
        shown = shown[1:]
    if len(shown) > 1 and all(_INITIALS_FIRST.match(name) for name in shown):
        return shown
    if len(names) > 1 and all(_GIVEN_FAMILY.match(name) for name in names):  # Consensus: "Vikram S Chundawat, …"
        return names
    return _family_given_pairs(parts) or [text]


_NAMES_JOINED = re.compile(r";(?=\s|$)")
# where SpringerLink's CSV runs two names together: a lower-case letter, then a capital ("AlievNigar")
# (not "Du" or "Le" among the particles: Chinese and Vietnamese family names, "Qing-Xiu DuShu-Ming Tang")
_GLUE = re.compile(r"(?<=[a-zß-öø-ÿ])(?=[A-ZÀ-ÖØ-Þ])")
_PARTICLES = frozenset(("Mc", "Mac", "De", "Di", "Da", "La", "Van", "Von", "Del", "Della", "Fitz", "St"))


def glued_names(value: str) -> list[str]:
    """SpringerLink's CSV writes a paper's authors in one cell without separators ("Araz R. AlievNigar T.
    Ismayilova"): split where a lower-case letter meets a capital, unless the word so far is a particle of a family
    name ("McDonald", "DeVries", "MacArthur") or the name so far is one word (a given name such as "JoAnn")."""
    names: list[str] = []
    start = 0
    for match in _GLUE.finditer(value):
        piece = value[start:match.start()]
        word = re.split(r"[\s\-'’.]", piece)[-1]
        if word in _PARTICLES or " " not in piece.strip():
            continue
        names.append(piece.strip())
        start = match.start()
    names.append(value[start:].strip())
    return [name for name in names if name]


def tagged_names(value: str) -> list[str]:
    """One author tag's value as names: a tag holds one name ("Smith, John", "van der Berg, J.-P."), except where a
    tool writes them all in one, joined by "; " ("Szlachta, Grzegorz; Dębski, Przemysław": citationchaser's RIS) or
    each ending in initials ("Griffiths RR, Johnson MW": Cochrane CENTRAL in Ovid)."""
    if ";" in value:  # a ";" before a space or at the end: an entity's own ";" ("M&uuml;ller") is followed by a letter
        names = [part.strip() for part in _NAMES_JOINED.split(value) if part.strip()]
        if len(names) > 1:
            return names
        value = names[0] if names else value
    parts = [part.strip() for part in value.split(",")]
    if len(parts) > 1 and all(_INITIALS_LAST.match(part) for part in parts):
        return parts
    if len(parts) == 2 and parts[0] and not parts[1]:  # "NCT06882096,": CENTRAL's registry id as a trial's author
        return [parts[0]]
    return [value]


# ScienceDirect's BibTeX brackets a family name of several words: "Wim [Van den Noortgate]"
_BRACKETED_FAMILY = re.compile(r"^([^\[\],]*?)\s*\[([^\[\]]+)\]$")


def bibtex_names(names: list[str]) -> list[str]:
    """BibTeX names as split at "and"; except where a value holds names joined by "; " (Zotero keeping a Web of
    Science record's "Osnabrugge, M; Ash, E; Morelli, M" as one name, R writing "Kaiser, Jonas; Rauchfleisch,
    Adrian"): read as those names; where ScienceDirect brackets a family name ("Patrick [Marques Ciarelli]"): read
    as "Marques Ciarelli, Patrick"; where the Cochrane Library writes every author in one value, "Family,
    Initials" joined by commas before a last ", and" ("Utomo, E, Groen, J, and Blok, BFM"): read as those pairs;
    and where a name holds three or more whole names joined by commas, each "Given Family" (an EndNote record typed
    so: "Jacopo Di Clemente, Fredrik Christiansen, …"): read as those names."""
    names = [part.strip() for name in names
             for part in (_NAMES_JOINED.split(name) if ";" in name else [name]) if part.strip()]
    names = [_BRACKETED_FAMILY.sub(lambda m: f"{m[2]}, {m[1]}" if m[1] else m[2], name) for name in names]
    if not any(name.count(",") > 1 for name in names):
        return names
    parts = [part.strip() for name in names for part in name.split(",") if part.strip()]
    pairs = _family_initials_pairs(parts, bare=True)
    if pairs:
        return pairs
    split = [[part.strip() for part in name.split(",")] for name in names]
    return [part for name, whole in zip(names, split, strict=True)
            for part in (whole if len(whole) > 2 and all(_GIVEN_FAMILY.match(p) for p in whole) else [name])]
