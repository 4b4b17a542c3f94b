"""Line breaks inside a RIS abstract: which continuation lines of ``AB``/``N2`` start a new line of the text and
which continue a line the exporting program wrapped.

RIS has no escaping: Zotero (RIS.js) and our own writer put each line of an abstract on a line of its own and an
empty line between paragraphs; EndNote and others wrap long values at about 80 columns. Zotero's reader keeps a
break when the file has a line over 85 characters, the line before was short or the line is empty; this reader
decides per abstract, so one long keyword line elsewhere does not turn a wrapped abstract into lines:

- an empty line is a paragraph break;
- an abstract with a line over 85 characters (not counting its tag) was not wrapped: each break is the author's;
- otherwise a break is the author's when the next line's first word would have fitted on the line before within
  the abstract's longest line (a program that wraps moves a word down only when it does not fit); else the lines
  are joined with a space.

The first characters of a line that a writer indented (EndNote's six spaces, Web of Science's three, our writer's
one space before a line that would read as a tag) are not kept.
"""

from __future__ import annotations

_PARAGRAPH_TAGS = ("AB", "N2")
_UNWRAPPED = 85  # a line longer than this was not wrapped by its writer (Zotero's RIS.js uses the same figure)


def _is_tag(line: str) -> bool:
    """A RIS tag line as the RIS reader's parser takes it ("AB  - …")."""
    return line[2:5] == "  -" and line[:2].isupper() and line[:1].isalpha()


def _joined(field: list[str]) -> str:
    """The tag line of an abstract with its continuation lines joined by line breaks or spaces."""
    lines = [field[0][5:].lstrip(), *field[1:]]
    indents = [len(line) - len(line.lstrip()) for line in field[1:] if line.strip()]
    # the first line's text stands where the continuation lines' text does (EndNote indents them by the tag's six
    # characters, a program wrapping only the value does not indent them)
    lines[0] = " " * min(indents, default=0) + lines[0]
    width = max(len(line) for line in lines)  # trailing spaces count: our writer pads a short first line
    text = lines[0].strip()
    for before, line in zip(lines, lines[1:], strict=False):
        content, before = line.strip(), before.rstrip()
        if not content:
            text += "\n"
        elif width > _UNWRAPPED or not before.strip() or len(before) + 1 + len(content.split()[0]) <= width:
            text += "\n" + content
        else:
            text += " " + content
    return f"{field[0][:2]}  - {text.strip()}"


def join_paragraphs(chunk: list[str]) -> list[str]:
    """The lines of one RIS record with each ``AB``/``N2`` value and its continuation lines made one line, whose
    line breaks are the abstract's own (see the module's docstring); other lines as given."""
    out: list[str] = []
    index = 0
    while index < len(chunk):
        line = chunk[index]
        index += 1
        if not (_is_tag(line) and line[:2] in _PARAGRAPH_TAGS):
            out.append(line)
            continue
        field = [line]
        while index < len(chunk) and not _is_tag(chunk[index]):
            field.append(chunk[index])
            index += 1
        out.append(_joined(field) if len(field) > 1 else line)
    return out


def read_back(lines: list[str]) -> str:
    """The text this reader gives for an abstract written as these lines (the first after its tag): the RIS writer
    asks, to pad a first line only where a break would otherwise read as a wrap."""
    return _joined([f"AB  - {lines[0]}", *lines[1:]])[6:] if len(lines) > 1 else lines[0].strip()
