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
