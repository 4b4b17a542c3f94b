"""A BibTeX entry bibtexparser could not read because a value's braces do not balance, in a file written one field
a line (Scopus: ``abstract={…},`` on one line, ``}`` alone closing the entry): read line by line.

Scopus writes a chemical name's braces as text and may drop one ("…imino]methyl}-6-methoxyphenol"); BibTeX reads
every brace as grouping, so the extra "}" ended the entry early and the paper was lost. Only an entry whose every
line is one whole field (``name={value},``) up to a line holding "}" alone is read so: the value is what stands
between the field's first "{" and the line's last "}". The braces of such a value stand in for themselves while
bibtexparser reads the entry rebuilt (`stand_in`), and are put back in the row it gives (`put_back`).

A script that writes BibTeX again (R's bib2df, say) may strip a title's outer braces, leaving the braces that kept
its words' case one too many or too few (``Title = {THE} {DIVERSITY} … {STUDY}.},``, ``{Antibody-{Mediated} …
{Infection},``, ``{IN}-{VITRO} … {SKIN},``): bibtexparser read the rest of the entry into the title, or nothing.
Where the missing braces go at the value's ends and every group then holds one word, the value is read so balanced
(`word_braces`): the braces are the words' case, not text.

SAGE's export writes an entry's key a second time alone on the next line (`key_again_blanked`): that line is blanked.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["key_again_blanked", "line_entry", "put_back"]

_HEAD = re.compile(r"^\s*@([A-Za-z]+)\s*\{\s*([^,\s{}]+)\s*,\s*$")
_FIELD = re.compile(r"^\s*([A-Za-z][\w-]*)\s*=\s*\{(.*)\}\s*,?\s*$")
_MAX_LINES = 200  # an entry's lines looked at: a Scopus entry has about twenty
_OPEN, _CLOSE = "\ue000", "\ue001"  # private-use characters standing in for a value's text braces
_BACK = str.maketrans({_OPEN: "{", _CLOSE: "}"})
_WORD_GROUP = re.compile(r"\{[^{}\s]+\}")


def word_braces(value: str) -> str | None:
    """`value` with the braces it lacks at its ends put back, where each group then holds one word (the braces that
    keep a word's case); None if it balances already or is not such a value (a brace written as text)."""
    front = depth = 0
    for char in value:
        if char == "{":
            depth += 1
        elif char == "}":
            front, depth = (front + 1, depth) if depth == 0 else (front, depth - 1)
    if not 0 < front + depth <= 2:
        return None
    balanced = "{" * front + value + "}" * depth
    groups = _WORD_GROUP.findall(balanced)
    return balanced if len(groups) >= 2 and "{" not in _WORD_GROUP.sub("", balanced) else None


def line_entry(lines: list[str]) -> tuple[str, list[str], list[str]] | None:
    """The entry starting at ``lines[0]`` rebuilt so its braces balance, with the fields whose braces did not (kept as
    text) and those balanced as words' case (`word_braces`); None unless the entry is laid out one whole field a line
    and closed by a line holding "}" alone."""
    head = _HEAD.match(lines[0]) if lines else None
    if head is None:
        return None
    fields: list[str] = []
    unbalanced: list[str] = []
    cased: list[str] = []
    for line in lines[1:_MAX_LINES]:
        if not line.strip():
            continue
        if line.strip() == "}":
            if not fields or not (unbalanced or cased):
                return None
            return "\n".join([f"@{head.group(1)}{{{head.group(2)},", *fields, "}"]), unbalanced, cased
        match = _FIELD.match(line)
        if match is None:
            return None
        name, value = match.group(1), match.group(2)
        balanced = word_braces(value)
        if balanced is not None:
            cased.append(name.lower())
            value = balanced
        elif value.count("{") != value.count("}"):
            unbalanced.append(name.lower())
            value = value.replace("{", _OPEN).replace("}", _CLOSE)
        fields.append(f"{name}={{{value}}},")
    return None


def put_back(value: Any) -> Any:
    """A row's value with the stand-ins of `line_entry` turned back into braces (strings, and lists of them)."""
    if isinstance(value, str):
        return value.translate(_BACK) if _OPEN in value or _CLOSE in value else value
    if isinstance(value, list):
        return [put_back(item) for item in value]
    return value


# SAGE Journals' (Atypon's) export writes an entry's key twice, the second time alone on the next line with "doi:"
# before it and no "=" ("@article{10.1177/x,", "doi:10.1177/x,"): bibtexparser read no entry of such a file.
_KEY_AGAIN = re.compile(r"^([ \t]*@[A-Za-z]+[ \t]*[{(][ \t]*([^,{}=\s]+)[ \t]*,[ \t]*\r?\n)[ \t]*(?:[Dd][Oo][Ii]:)?\2"
                        r"[ \t]*,[ \t]*(?=\r?$)", re.MULTILINE)


def key_again_blanked(text: str) -> str:
    """A BibTeX text with each entry's key written again alone on its next line (SAGE) blanked: that line says
    nothing the key does not; the file's line numbers stay."""
    return _KEY_AGAIN.sub(r"\1", text) if "\n" in text else text


_ESCAPED_PATH = re.compile(r"\\([\\:;_{}%&#$])")  # Better BibTeX's "C\:\\Users\\…" for "C:\Users\…"


def attachment_paths(value: str) -> str:
    """A ``file`` field (the attachments' paths on the exporting machine) as the paths: no LaTeX is read in it, only
    BibTeX's escapes undone (Better BibTeX's "C\\:\\\\Users", Mendeley's "C$\\backslash$:/Users")."""
    value = value.replace("$\\backslash$", "\\")
    return _ESCAPED_PATH.sub(r"\1", value) if _ESCAPED_PATH.search(value) else value
