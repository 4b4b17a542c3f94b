"""Similar papers: the results can be exported (RIS, BibTeX, CSL JSON, CSV, JSONL) through the app's own export,
which neutralises spreadsheet formulas; Streamlit's raw table download, the only way before, is off."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)


def test_the_results_have_an_export_of_exactly_those_papers(workspace):  # noqa: F811
    at = open_app("app_pages/similar.py")
    at.text_input(key="similar_title").set_value("galaxy redshift").run()
    assert not at.exception and not at.error
    shown = len(at.dataframe[0].value)
    [download] = [d for d in at.get("download_button") if d.proto.label.startswith("Download")]
    assert download.proto.label == f"Download {shown} papers"
    assert at.selectbox(key="similar_export-export-format").value == "ris"
