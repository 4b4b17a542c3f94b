"""A table's own CSV download: Streamlit's table download is off app-wide (it writes cells as live formulas), so a
table a user may want to keep gets this button, whose cells are neutralised (`core.io.formulas.csv_bytes`)."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from core.io.formulas import csv_bytes

_UNSAFE = re.compile(r"[^A-Za-z0-9.-]+")


def table_file_name(*parts: str) -> str:
    """``<part>-<part>.csv`` with anything but letters, digits, "." and "-" turned into "-"."""
    stem = "-".join(p for p in (_UNSAFE.sub("-", part).strip("-.") for part in parts) if p)
    return (stem or "table") + ".csv"


def table_download(table: Any, key: str, *parts: str, label: str = "Download this table (CSV)",
                   where: Any = None) -> None:
    """A download button for `table` (a DataFrame or a list of row dicts), built only when it is clicked."""
    import pandas as pd

    frame = table if isinstance(table, pd.DataFrame) else pd.DataFrame(list(table))
    (where or st).download_button(label, lambda: csv_bytes(frame), file_name=table_file_name(*parts),
                                  mime="text/csv", key=key, icon=":material/download:", type="tertiary",
                                  on_click="ignore", disabled=frame.empty)
