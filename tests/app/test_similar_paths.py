"""Similar papers walked with filters (issue 43, helper qa14): a quoted phrase that only papers outside the filters
hold is not said to be held by "no paper here", and filters that leave no paper say so, never "the closest are
these" over an empty list."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, widget, workspace  # noqa: F401 (fixtures)


def test_a_phrase_held_only_outside_the_journal_filter_says_the_filters_leave_it_out(workspace):  # noqa: F811
    at = open_app("app_pages/similar.py")
    at.multiselect(key="filter_c_journal").set_value(["J. Bio"]).run()
    at.text_input(key="similar_title").set_value('"dark matter"').run()
    assert not at.exception and not at.error
    infos = [i.value for i in at.info]
    assert infos == ["No paper that passes the filters mentions all of dark matter; the closest by words or meaning "
                     "are these."], infos
    assert not any("No paper here" in i for i in infos), infos


def test_filters_that_leave_no_paper_say_so_and_only_so(workspace):  # noqa: F811
    workspace.save_collection("c", "Sky", ["astro-0", "astro-1"], note="")
    at = open_app("app_pages/similar.py")
    at.selectbox(key="similar_collection_c").set_value("Sky").run()
    at.multiselect(key="filter_c_journal").set_value(["J. Bio"]).run()
    at.text_input(key="similar_title").set_value("galaxy inflation").run()
    assert not at.exception and not at.error
    infos = [i.value for i in at.info]
    assert infos == ["No paper passes the filters (collection **Sky**)."], infos


def test_the_maps_find_says_why_each_paper_matched_as_the_similar_page_does(workspace):  # noqa: F811
    from core.explore.search.hybrid import search, why_text

    query = "stellar spectra of distant objects"  # no title holds it: the map offers the word + meaning search
    at = open_app()
    at.text_input(key="map_find").set_value(query).run()
    assert not at.exception
    options = at.selectbox(key="map_find_pick").options
    found = search(workspace, "c", "tiny", query, k=20)
    assert len(options) == len(found.results)
    for option, result in zip(options, found.results):
        assert option.startswith(result["title"][:60]) and option.endswith(" · " + why_text(result["why"])), option
