"""Journals: after a suggestion, changing the title (not only the abstract or a setting) hides the old suggestions
and says what changed truly (it said 'The abstract or the settings changed' when the title was edited)."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, widget, workspace  # noqa: F401 (fixtures)


def test_editing_the_title_hides_the_suggestions_and_says_so(workspace):  # noqa: F811
    at = open_app("app_pages/journals.py")
    at.text_input(key="journal_title").set_value("galaxy redshift telescope survey")
    widget(at.button, "Suggest journals").click().run()
    assert any(" — " in e.label for e in at.expander)
    at.text_input(key="journal_title").set_value("cells proteins genes").run()
    assert not any(" — " in e.label for e in at.expander)
    assert any(c.value.startswith("The title, abstract or settings changed") for c in at.caption), [
        c.value for c in at.caption]


def test_the_bm25_baseline_has_its_interval_too(workspace):  # noqa: F811
    """'…60 % (95 % interval 36–80 %); a BM25 text search 67 %': the baseline compared with had no interval, so two
    figures on 15 papers read as a difference."""
    import re

    at = open_app("app_pages/journals.py")
    at.text_input(key="journal_title").set_value("galaxy redshift telescope survey")
    widget(at.button, "Suggest journals").click().run()
    measured = " ".join(s.value for s in at.success)
    assert re.search(r"BM25 text search, as JANE-style finders use, \d+ % \(95 % interval \d+–\d+ %\)", measured), \
        measured
