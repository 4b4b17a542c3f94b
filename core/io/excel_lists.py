"""List fields in our Excel export, and reading them back (an export -> import round trip keeps them as lists).

The export writes a list of texts as Scopus and Embase sheets do, joined by "; " ("Smith, J.; Doe, A."), or as a
JSON list where joining would not split back the same (an item holding "; ", an empty list); a column of other
lists, dicts or mixed kinds as JSON. The workbook names each such column in a custom document property
(``miread.list.N`` / ``miread.json.N`` = the column's name; Excel and LibreOffice keep them when they save), and the
reader decodes only those columns: a user's cell that merely starts with "[" stays text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

LIST, JSON = "list", "json"  # the two forms of a marked column
_PREFIX = "miread."
_JOIN = "; "
_NAME_LIMIT = 255  # the longest text a custom document property holds in Excel


def column_forms(kinds: dict[str, set[str]]) -> dict[str, str]:
    """The marked columns by their kinds of value (`core.io.export._kind`): lists of texts alone, or JSON."""
    forms = {}
    for column, kind in kinds.items():
        if kind == {"list_str"}:
            forms[column] = LIST
        elif "json" in kind or ("list_str" in kind and len(kind) > 1):
            forms[column] = JSON
    return forms


def cell_text(value: Any, form: str | None) -> str:
    """A list, dict or text as the cell text of a column of ``form`` (None: an unmarked column)."""
    if form == LIST and isinstance(value, list):
        joined = _JOIN.join(value)
        if joined and joined[:1] != "[" and joined.split(_JOIN) == value:
            return joined
        return json.dumps(value, ensure_ascii=False)
    if form == JSON:
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return _JOIN.join(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def mark(book: Any, forms: dict[str, str]) -> None:
    """Name the marked columns in the workbook's custom document properties."""
    from openpyxl.packaging.custom import StringProperty

    for number, (column, form) in enumerate(forms.items(), start=1):
        if len(column) <= _NAME_LIMIT:
            book.custom_doc_props.append(StringProperty(name=f"{_PREFIX}{form}.{number}", value=column))


def marked(book: Any) -> dict[str, str]:
    """The columns our export marked in a workbook, with their forms (empty for any other workbook)."""
    forms: dict[str, str] = {}
    properties: Iterable[Any] = getattr(book, "custom_doc_props", None) or []
    for prop in properties:
        name = str(getattr(prop, "name", "") or "")
        form = name[len(_PREFIX):].split(".", 1)[0] if name.startswith(_PREFIX) else ""
        if form in (LIST, JSON) and isinstance(getattr(prop, "value", None), str):
            forms[prop.value] = form
    return forms


def decoded(value: Any, form: str) -> Any:
    """A marked column's cell as the value the export wrote; a cell a person changed into other text stays text."""
    if not isinstance(value, str):
        return value
    if value[:1] in '["{' or form == JSON:
        try:
            result = json.loads(value)
        except (ValueError, RecursionError):
            result = value
        if form == JSON or isinstance(result, list):
            return result
    return value.split(_JOIN) if form == LIST and value else value
