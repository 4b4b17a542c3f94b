"""The Journals page's corpus-wide check names its n: how many papers were predicted, and for each journal how many
papers it has and how many were predicted to it, with readable column names and shares in percent (the table was
raw 'actual_share' / 'predicted_share' fractions with four decimals and no count)."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, widget, workspace  # noqa: F401 (fixtures)


def test_the_corpus_check_shows_counts_and_its_n(workspace):  # noqa: F811
    at = open_app("app_pages/journals.py")
    widget(at.button, "Run the check").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert list(table.columns)[:3] == ["journal", "papers", "predicted for"]
    assert int(table["papers"].sum()) == 36 and int(table["predicted for"].sum()) == 36
    assert "actual_share" not in table.columns and "predicted_share" not in table.columns
    assert any("36 papers of **c**" in c.value for c in at.caption), [c.value for c in at.caption]
