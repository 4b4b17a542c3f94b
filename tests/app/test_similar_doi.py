"""Similar papers with a DOI typed as the query: one sentence when no paper of the corpus has it (not also 'No paper
passes the filters', which blamed filters nobody set), and nothing placed on the map for it."""

from __future__ import annotations

from tests.app.test_pages import empty_workspace, open_app, workspace  # noqa: F401 (fixtures)
from ui import state


def test_a_doi_no_paper_has_is_one_sentence_and_no_map_star(workspace):  # noqa: F811
    at = open_app("app_pages/similar.py")
    at.text_input(key="similar_title").set_value("galaxy redshift").run()
    assert state.MAP_QUERY in at.session_state  # a search that found papers puts its ★ on the map
    at.text_input(key="similar_title").set_value("https://doi.org/10.9999/nowhere.1").run()
    assert not at.exception and not at.error
    infos = [i.value for i in at.info]
    assert infos == ["No paper of c has the DOI 10.9999/nowhere.1; paste its title and abstract to find papers "
                     "like it."], infos
    assert state.MAP_QUERY not in at.session_state
