"""The map panel's "Similar to this": a long title was cut at 90 characters mid-word with nothing to say so
("…to reduce macrophages-mediated inf"), so the button named a title no paper has."""

from __future__ import annotations

from core.embedding import embed_corpus
from core.records import Paper
from core.store import Store
from tests.app.test_pages import empty_workspace, open_app  # noqa: F401 (fixtures)
from tests.helpers import make_papers, register_tiny

LONG = ("On galaxy and stellar number 0 in a survey of stellar populations showing that dark matter halos "
        "reduce macrophages-mediated inflammation in cosmic environments")


def test_a_long_similar_title_is_cut_at_a_word_and_marked_as_cut(empty_workspace, tiny_model_dir):  # noqa: F811
    store = Store(empty_workspace)
    papers = make_papers(per_topic=1)  # four papers: every other one is among the five similar
    store.import_papers("c", [*papers, Paper(id="long", title=LONG, abstract=papers[0].abstract,
                                             fields={"journal": "J. Astro", "year": 2004})])
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    at = open_app()
    at.session_state["map_paper"] = papers[0].id
    at.session_state["map_panel_similar"] = True
    at.run()
    assert not at.exception
    labels = {b.key: b.label for b in at.button if (b.key or "").startswith("map_similar_")}
    assert "map_similar_long" in labels, labels
    shown = labels["map_similar_long"].split(" · ", 1)[1]
    assert shown.endswith("…") and len(shown) <= 91, shown
    assert LONG.startswith(shown[:-1]) and LONG[len(shown) - 1] == " ", shown  # cut between two words
    assert all(" · " in label for label in labels.values())
