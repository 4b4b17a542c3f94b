"""The map as a reading tool (issue 31): the side panel of one paper, Find a paper, the kept zoom window, colour by
collection, and Similar papers / Journals limited to a collection."""

from __future__ import annotations

from core.records import Paper
from tests.app.map_component import legend_names, map_sent
from tests.app.test_pages import (  # noqa: F401
    PAPERS,
    chart,
    decode,
    empty_workspace,
    open_app,
    texts,
    widget,
    workspace,
)
from ui.map.panel import PANEL_COLLECT

ABSTRACT = "First paragraph about galaxies.\n\nSecond paragraph: the stellar results."


def _with_authors(store) -> None:
    """One more paper with authors, a DOI and a two-paragraph abstract, embedded."""
    from core.embedding import embed_corpus

    store.import_papers("c", [Paper(id="doi-paper", title="Galaxies in two paragraphs", abstract=ABSTRACT,
                                    fields={"journal": "J. Astro", "year": 2004, "doi": "http://dx.doi.org/10.5/XY",
                                            "authors": ["Yang, Z.", "Jiang, B.", "Xu, J.", "McNamara, M.E."]})])
    embed_corpus(store, "c", "tiny")


def test_a_found_paper_opens_in_the_side_panel_with_its_abstract_in_paragraphs(workspace):  # noqa: F811
    _with_authors(workspace)
    at = open_app()
    at.text_input(key="map_find").set_value("10.5/xy").run()  # a DOI, whatever its case and prefix
    assert not at.exception
    assert at.session_state["map_paper"] == "doi-paper"
    shown = texts(at.markdown)
    assert "Galaxies in two paragraphs" in shown
    assert "Yang, Z.; Jiang, B.; Xu, J.; McNamara, M.E." in shown  # every author in the panel
    assert "https://doi.org/10.5/XY" in shown  # the link, without the export's dx.doi.org prefix
    assert "First paragraph about galaxies." in shown and "Second paragraph: the stellar results." in shown
    assert "First paragraph about galaxies.\n\nSecond" not in shown  # two paragraphs, two blocks
    # its star is drawn by the side fragment's instance: opening a paper leaves the points and the page state as is
    sent = map_sent(at)
    row = int(workspace.papers_frame("c").index[workspace.papers_frame("c")["id"] == "doi-paper"][0])
    events = sent["events"]["state"]
    assert events["star"]["row"] == row and events["flight"] >= 1
    x0, x1 = events["zoom"][:2]  # flown there: the window is a part of the map around the paper
    x = float(sent["points"]["x"].iloc[row])
    assert x0 < x < x1 and x1 - x0 < 1
    assert at.session_state["map_zoom"] is not None
    assert "zoom" in at.query_params and at.query_params["paper"] == "doi-paper"


def test_the_hover_cards_show_the_first_three_authors(workspace):  # noqa: F811
    _with_authors(workspace)
    at = open_app()
    points = map_sent(at)["points"]
    card = points[points["title"].str.contains("two paragraphs")]
    assert card["author"].tolist() == ["Yang, Z.; Jiang, B.; Xu, J. et al."]


def test_title_words_offer_every_match_and_the_panel_closes(workspace):  # noqa: F811
    at = open_app()
    at.text_input(key="map_find").set_value("galaxy").run()
    matching = [p for p in PAPERS if "galaxy" in p.title.lower()]
    assert len(matching) > 1
    assert at.selectbox(key="map_find_pick").options and len(at.selectbox(key="map_find_pick").options) == len(
        matching)
    assert at.selectbox(key="map_find_pick").label == f"{len(matching)} papers match by title or DOI"
    assert at.session_state["map_paper"] in {p.id for p in matching}
    at.button(key="map_panel_close").click().run()
    assert "map_paper" not in at.session_state
    at.text_input(key="map_find").set_value("stellar spectra of distant objects").run()  # no title holds it
    assert not at.exception
    pick = at.selectbox(key="map_find_pick")
    assert pick.label == "No title or DOI holds it; the closest by words and meaning"  # the Similar page's search
    assert 1 <= len(pick.options) <= 20 and at.session_state["map_paper"] is not None


def test_find_says_how_many_titles_match_when_it_offers_only_some(workspace, monkeypatch):  # noqa: F811
    import ui.map.panel

    monkeypatch.setattr(ui.map.panel, "FIND_OFFERED", 2)  # the page offers 20; the demo corpus has fewer matches
    at = open_app()
    at.text_input(key="map_find").set_value("galaxy").run()
    matching = [p for p in PAPERS if "galaxy" in p.title.lower()]
    pick = at.selectbox(key="map_find_pick")
    assert pick.label == f"{len(matching)} papers match by title or DOI (the first 2 offered)"  # not "2 papers match"
    assert len(pick.options) == 2


def test_a_shared_zoom_window_is_drawn_and_a_malformed_one_is_said(workspace):  # noqa: F811
    from streamlit.testing.v1 import AppTest

    from tests.app.test_pages import APP

    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params.update({"corpus": "c", "model": "tiny", "method": "pca", "zoom": "-1,1,-0.5,0.5"})
    at.run()
    assert not at.exception
    assert at.session_state["map_zoom"] == (-1, 1, -0.5, 0.5)  # the map component flies there in the browser
    assert map_sent(at)["events"]["state"]["zoom"] is not None
    bad = AppTest.from_file(APP, default_timeout=90)
    bad.query_params.update({"corpus": "c", "model": "tiny", "method": "pca", "zoom": "1,0,2"})
    bad.run()
    assert "The link's zoom '1,0,2' is not a window like x0,x1,y0,y1" in texts(bad.warning)
    assert map_sent(bad)["events"]["state"]["zoom"] is None


def test_the_map_colours_by_collection_and_saves_a_panel_paper_into_one(workspace):  # noqa: F811
    workspace.save_collection("c", "to read", ["astro-1", "astro-2", "bio-3"], note="first pass")
    workspace.save_collection("c", "core", ["astro-2"])
    at = open_app()
    widget(at.selectbox, "Colour by").set_value("collection").run()
    assert not at.exception
    names = set(legend_names(at))
    assert {"to read", "to read + core"} <= names or {"to read", "core + to read"} <= names
    at.session_state["map_paper"] = "econ-4"
    at.run()
    assert not [s for s in at.selectbox if s.key == "map_panel_collect_target"]  # its form waits for its expander
    at.session_state[PANEL_COLLECT] = True  # the user opens "Add to a collection"
    at.run()
    at.selectbox(key="map_panel_collect_target").set_value("to read")  # in a form: sent with its submit
    next(b for b in at.button if b.label.startswith("Add 1 paper")).click().run()
    assert not at.exception
    assert workspace.collection_ids("c", "to read") == ["astro-1", "astro-2", "bio-3", "econ-4"]
    assert "Collection **to read** now holds 4 papers (1 paper added)." in texts(at.success)


def test_similar_papers_and_journals_can_be_limited_to_a_collection(workspace):  # noqa: F811
    keep = ["econ-1", "econ-2", "econ-3", "bio-5"]
    workspace.save_collection("c", "mine", keep)
    at = open_app("app_pages/similar.py")
    at.radio[0].set_value("Pick a paper from the corpus").run()
    at.selectbox(key="similar_paper_c").set_value(0).run()
    at.selectbox(key="similar_collection_c").set_value("mine").run()
    next(b for b in at.button if b.label == "Find similar papers").click().run()
    assert not at.exception
    found = at.session_state["similar_result"].value.results
    assert found and {r["id"] for r in found} <= set(keep)

    at.switch_page("app_pages/journals.py").run()
    at.selectbox(key="journal_collection_c").set_value("mine").run()
    assert "nearest papers in collection **mine** (4 papers)" in texts(at.caption)
    at.text_input(key="journal_title").set_value("On galaxy and stellar").run()
    at.text_area(key="journal_abstract").set_value("We study the galaxy stellar problem in astro.").run()
    next(b for b in at.button if b.label.startswith("Suggest")).click().run()
    assert not at.exception
    made = at.session_state["journal_prediction"].value
    evidence = {e for p in made.predictions for e in p["evidence"]}
    assert evidence and evidence <= set(keep)
    assert {p["label"] for p in made.predictions if p["neighbours"]} <= {"J. Econ", "J. Bio"}


def test_an_export_carries_each_papers_collections_as_keywords_and_a_note(workspace):  # noqa: F811
    import io

    from core.store import export_corpus_file
    from ui.export_menu import with_collections

    workspace.save_collection("c", "to read", ["astro-1", "bio-3"])
    workspace.save_collection("c", "core", ["astro-1"])
    tags = with_collections(workspace, "c", {"astro-1": {"keywords": ["topic: A1"]}})
    assert tags["astro-1"]["keywords"] == ["topic: A1", "collection: to read", "collection: core"]
    assert tags["bio-3"]["notes"] == ["MIReAD collections: to read"]
    out = io.BytesIO()
    export_corpus_file(workspace, "c", out, "ris", pids=["astro-1", "bio-3"], tags=tags)
    text = out.getvalue().decode("utf-8")
    first = text.split("ER  - ")[0]
    assert "KW  - collection: to read" in first and "KW  - collection: core" in first and "KW  - topic: A1" in first
    assert text.count("TY  - ") == 2


def test_a_topic_and_search_results_can_be_kept_as_collections(workspace):  # noqa: F811
    at = open_app()
    widget(at.selectbox, "Colour by").set_value("topics").run()
    widget(at.number_input, "Clusters (k)").set_value(4).run()
    pick = at.selectbox(key="topic_to_keep")
    topic = pick.options[0]
    at.text_input(key="topic_collect_name").set_value("first topic")
    next(b for b in at.button if b.label.startswith("Add") and "(topic " in b.label).click().run()
    assert not at.exception
    kept = workspace.collection_ids("c", "first topic")
    assert kept and f"Collection **first topic** now holds {len(kept)}" in texts(at.success)
    assert topic.split(":")[0] in next(b.label for b in at.button if "(topic " in b.label)

    at.switch_page("app_pages/similar.py").run()
    at.radio[0].set_value("Pick a paper from the corpus").run()
    next(b for b in at.button if b.label == "Find similar papers").click().run()
    found = [r["id"] for r in at.session_state["similar_result"].value.results]
    at.text_input(key="similar_collect_name").set_value("near it")
    next(b for b in at.button if b.label.startswith("Add") and "(search results)" in b.label).click().run()
    assert workspace.collection_ids("c", "near it") == found


def test_an_edited_books_editors_are_shown_as_editors_in_the_panel(workspace):  # noqa: F811
    """A book that names only editors (BibLaTeX ``editor``, issue 40 round 8) shows them as its people, marked
    "(eds.)" as a reference manager shows them."""
    from core.embedding import embed_corpus

    workspace.import_papers("c", [Paper(id="edited", title="An edited volume on galaxies", abstract=ABSTRACT,
                                        fields={"year": 2012, "authors": ["Uhlir, P. F.", "Cohen, D."],
                                                "editors": ["Uhlir, P. F.", "Cohen, D."], "author_role": "editors"})])
    embed_corpus(workspace, "c", "tiny")
    at = open_app()
    at.text_input(key="map_find").set_value("An edited volume on galaxies").run()
    assert not at.exception and at.session_state["map_paper"] == "edited"
    assert "Uhlir, P. F.; Cohen, D. (eds.)" in texts(at.markdown)


def test_the_panel_makes_similar_papers_sources_and_figures_only_when_opened(workspace):  # noqa: F811
    """A click draws the paper without what waits closed (BENCHMARKS §31n: expanders drawn the first time made a
    click's panel settle in up to 0.9 s): Similar to this is neither searched nor drawn until it is opened."""
    _with_authors(workspace)
    at = open_app()
    at.session_state["map_paper"] = "doi-paper"
    at.run()
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert "Similar to this" in labels and "Add to a collection" in labels
    assert any(label.startswith("Found in") for label in labels)
    assert not [b for b in at.button if (b.key or "").startswith("map_similar_")]
    assert not at.get("arrow_data_frame") and not at.dataframe  # the sources' table waits closed
    at.session_state["map_panel_similar"] = True
    at.session_state["map_panel_sources"] = True
    at.run()
    assert not at.exception
    similar = [b for b in at.button if (b.key or "").startswith("map_similar_")]
    assert similar and all(" · " in b.label for b in similar)
    assert at.dataframe  # one row per source record
    assert "Galaxies in two paragraphs" in texts(at.markdown)
