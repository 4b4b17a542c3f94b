"""Journals: a suggestion made with another number of suggestions than 5 was gone after a visit to another page (the
number went back to 5, so the inputs no longer matched the suggestion), where the title and abstract were kept
(helper qa16)."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, widget, workspace  # noqa: F401 (fixtures)


def test_suggestions_made_with_three_are_still_there_after_another_page(workspace):  # noqa: F811
    at = open_app("app_pages/journals.py")
    at.number_input[0].set_value(3).run()
    at.text_input(key="journal_title").set_value("galaxy redshift telescope survey")
    widget(at.button, "Suggest journals").click().run()
    shown = [e.label for e in at.expander if " — " in e.label]
    assert len(shown) == 3, shown
    at.switch_page("app_pages/similar.py").run()
    at.switch_page("app_pages/journals.py").run()
    assert not at.exception
    assert at.number_input[0].value == 3
    assert [e.label for e in at.expander if " — " in e.label] == shown
