"""A page never changes corpus silently: when the corpus a tab was on is deleted (in another tab, or the CLI), the
sidebar says which corpus went and which one is shown now; a link naming a corpus this workspace lacks says so on the
page it opens (Journals, Similar papers, Library…), not only on the Domain map."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.test_pages import APP, empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from tests.helpers import make_papers


def test_a_corpus_deleted_elsewhere_is_named_in_the_sidebar(workspace):  # noqa: F811
    workspace.import_papers("gone soon", make_papers(1), source="make_papers")
    at = open_app("app_pages/journals.py")
    at.sidebar.selectbox(key="corpus").set_value("gone soon").run()
    workspace.delete_corpus("gone soon")  # another tab's Library, or `python -m core delete`
    at.run()
    assert not at.exception
    assert at.sidebar.selectbox(key="corpus").value == "c"
    warnings = [w.value for w in at.sidebar.warning]
    assert any("gone soon" in w and "no longer in this workspace" in w and "**c**" in w for w in warnings), warnings
    at.run()  # said once
    assert not [w for w in at.sidebar.warning if "gone soon" in w.value]


def test_a_link_to_a_missing_corpus_is_said_on_the_page_it_opens(workspace):  # noqa: F811
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["corpus"] = "typo"
    at.switch_page("app_pages/journals.py")
    at.run()
    assert not at.exception
    assert at.title[0].value == "Journals"
    assert any("corpus 'typo'" in w.value and "not in this workspace" in w.value for w in at.warning), [
        w.value for w in at.warning]


def test_a_link_problem_naming_a_hostile_corpus_is_plain_text(workspace):  # noqa: F811
    from tests.hostile import PHISH, markdown_dangers

    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["corpus"] = PHISH
    at.switch_page("app_pages/similar.py")
    at.run()
    assert not at.exception
    [problem] = [w.value for w in at.warning if "not in this workspace" in w.value]
    assert not markdown_dangers(problem), problem


def test_a_link_problem_names_the_corpus_the_sidebar_shows(workspace):  # noqa: F811
    """It named the newest corpus while the sidebar opened on the demo corpus."""
    workspace.import_papers("pubmed-demo", make_papers(1), source="make_papers")
    workspace.import_papers("newer", make_papers(1), source="make_papers")
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["corpus"] = "typo"
    at.switch_page("app_pages/journals.py")
    at.run()
    shown = at.sidebar.selectbox(key="corpus").value
    [problem] = [w.value for w in at.warning if "not in this workspace" in w.value]
    assert f"showing '{shown}' instead" in problem, (shown, problem)
