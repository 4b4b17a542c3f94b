"""The Compare models page through the router: two models of a small corpus, linked highlights, the moved-papers
table, evaluation figures, a model without vectors, and a shared link that opens the view."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.embedding import build_tiny_model, embed_corpus, get_model
from core.explore.compare import paper_neighbours
from core.store import Store
from tests.app.background_jobs import wait_for_background
from tests.app.map_component import highlighted_rows, map_sent
from tests.app.test_pages import APP, texts
from tests.helpers import add_fine_tuned_twin, make_papers, register_tiny

PAPERS = make_papers(10)  # 30 papers of three journals


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    """Corpus 'c' embedded with 'tiny' and with 'tiny-ft' (another tiny model, registered as fine-tuned from it)."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers("c", PAPERS, source="make_papers")
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    add_fine_tuned_twin(store, tmp_path / "tiny-ft")
    return store


def open_compare(query: dict[str, str] | None = None, page: bool = True) -> AppTest:
    """The router on the compare page (PCA maps: no UMAP compile), sidebar model 'tiny'."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["model"] = "tiny"
    at.session_state["compare_method"] = "pca"
    at.session_state["map_method"] = "pca"  # the router's first page, the map: no UMAP fit job in the sidebar
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    if page:
        at.switch_page("app_pages/compare.py").run()
    assert not at.exception, at.exception
    return at


def maps(at: AppTest) -> list[dict]:
    """What each drawn map component (A, B) was sent: points, meta, the page's state."""
    return [sent for hub in ("compare_a", "compare_b") if (sent := map_sent(at, hub))]


def test_two_models_side_by_side_with_b_aligned_and_the_moved_papers_listed(workspace):
    at = open_compare()
    assert at.selectbox(key="compare_a").value == "tiny"
    assert at.selectbox(key="compare_b").value == "tiny-ft"  # the model fine-tuned from A
    a, b = maps(at)
    assert [c.value for c in at.caption[:2]] == ["**A**: tiny", "**B**: tiny-ft"]
    legends = [[e["label"] for e in m["page"]["state"]["legend"]] for m in (a, b)]
    assert legends[0] == legends[1] == ["J. Astro", "J. Bio", "J. Econ"]
    assert len(a["points"]) == len(b["points"]) == len(PAPERS)
    assert a["meta"]["link"] == ["compare_b"] and b["meta"]["link"] == ["compare_a"]  # a hover shows in both
    assert not np.allclose(a["points"][["x", "y"]], b["points"][["x", "y"]])  # two models, two layouts
    notes = a["points"]["note"].tolist()  # each card says how much the paper's neighbourhood changed
    assert notes == b["points"]["note"].tolist() and all(re.fullmatch(r"neighbours changed: \d+ of \d+", n)
                                                         for n in notes)
    table = at.dataframe[-1].value
    assert len(table) == len(PAPERS) and list(table.columns[:2]) == ["id", "title"]
    assert list(table["changed"]) == sorted(table["changed"], reverse=True)
    assert {m.label for m in at.metric} == {"Mean overlap", "Unchanged", "All changed", "Map residual"}
    assert at.query_params["compare"] == "tiny-ft" and at.query_params["model"] == "tiny"
    assert not at.error


def test_papers_picked_in_one_view_are_highlighted_in_both_maps(workspace):
    at = open_compare()
    at.session_state["compare_selected"] = ["bio-3", "econ-0"]  # what a map's lasso or the table's ticks leave
    at.run()
    rows = sorted(int(np.flatnonzero(workspace.papers_frame("c")["id"] == pid)[0]) for pid in ("bio-3", "econ-0"))
    a, b = maps(at)
    assert highlighted_rows(a) == highlighted_rows(b) == rows
    assert a["page"]["state"]["select"] == b["page"]["state"]["select"] == rows  # selected in both, as in a lasso's
    assert "**2** selected papers highlighted in both maps" in texts(at.caption)
    next(b for b in at.button if b.label == "Clear selection").click().run()
    assert all(highlighted_rows(m) == [] and m["page"]["state"]["select"] == [] for m in maps(at))


def test_one_chosen_paper_is_starred_in_both_maps_with_its_neighbours_under_each_model(workspace):
    at = open_compare()
    at.session_state["compare_selected"] = ["bio-3"]
    at.run()
    frame = workspace.papers_frame("c")
    row = int(np.flatnonzero(frame["id"] == "bio-3")[0])
    near = [paper_neighbours(workspace, "c", get_model(m, workspace), row) for m in ("tiny", "tiny-ft")]
    for sent, rows in zip(maps(at), near):
        assert highlighted_rows(sent) == sorted(rows.tolist())
        [star] = sent["page"]["state"]["stars"]
        assert star["label"] == frame["title"][row]
        assert np.allclose([star["x"], star["y"]], sent["points"][["x", "y"]].iloc[row], atol=1e-5)
    ranks = next(d.value for d in at.dataframe if "rank under A" in d.value.columns)
    assert ranks["rank under A"].tolist()[:10] == [str(i) for i in range(1, 11)]
    assert f"{len(set(near[0]) & set(near[1]))} of 10 shared" in texts(at.markdown)


def test_a_model_without_vectors_is_one_sentence_with_an_embed_button(workspace):
    tiny3 = register_tiny(workspace, build_tiny_model(workspace.root.parent / "tiny3", seed=3), name="tiny3")
    at = open_compare()
    at.selectbox(key="compare_b").set_value(tiny3.name).run()
    assert [w.value for w in at.warning] == ["Corpus **c** is not embedded with model **tiny3** yet."]
    assert [b.label for b in at.button] == ["Embed c with tiny3"]
    assert not maps(at)
    at.button[0].click().run()  # a background job (ui.embedding): the page shows its bar, then the charts
    assert "is being embedded with model **tiny3** in the background" in " ".join(i.value for i in at.info) \
        or not at.button
    at = wait_for_background(at)
    assert not at.exception and len(maps(at)) == 2


def test_stored_evaluations_are_shown_and_a_missing_one_runs_from_a_button(workspace):
    at = open_compare()
    assert {b.label for b in at.button} == {"Evaluate tiny", "Evaluate tiny-ft"}
    wait_for_background(next(b for b in at.button if b.label == "Evaluate tiny-ft").click().run())
    assert not at.exception and not at.error
    figures = next(d.value for d in at.dataframe if d.value.index.name == "measure")
    assert list(figures.columns) == ["tiny-ft", "n"] and "Linear probe macro-F1" in figures.index
    assert [b.label for b in at.button] == ["Evaluate tiny"]


def test_a_shared_link_with_compare_opens_the_compare_view(workspace):
    at = open_compare({"corpus": "c", "model": "tiny", "compare": "tiny-ft", "method": "pca"}, page=False)
    assert at.title[0].value == "Compare models"
    assert at.selectbox(key="compare_b").value == "tiny-ft"
    assert len(maps(at)) == 2


def test_choosing_model_b_in_the_sidebar_swaps_the_two(workspace):
    at = open_compare()
    at.sidebar.selectbox(key="model").set_value("tiny-ft").run()
    assert (at.selectbox(key="compare_a").value, at.selectbox(key="compare_b").value) == ("tiny-ft", "tiny")
    assert len(maps(at)) == 2


def test_choosing_the_same_model_twice_asks_for_two(workspace):
    at = open_compare()
    at.selectbox(key="compare_b").set_value("tiny").run()
    assert "Choose two different models to compare." in texts(at.info)
    assert not maps(at)


def test_the_two_maps_fits_are_jobs_every_tab_sees(workspace):
    """Issue 44: a map fit is a job of the workspace wherever it starts (the jobs panel, another tab, a reload, the
    CLI); Compare fitted its two maps in threads of its own that nothing else could see or stop."""
    from core.training import jobs

    at = open_compare()
    at.selectbox(key="compare_method").set_value("tsne").run()
    assert not at.exception
    fits = [j for j in jobs.list_jobs(workspace) if j["kind"] == "map"]
    assert sorted(j["config"]["model"] for j in fits) == ["tiny", "tiny-ft"]
    assert {j["config"]["method"] for j in fits} == {"tsne"}
    wait_for_background(at, kinds=("map",))
    assert not at.exception and len(maps(at)) == 2
    assert not at.get("progress")  # both final maps drawn: no preview bar left


def test_figures_of_two_models_run_on_different_papers_say_so(workspace):
    """minilm evaluated at 'Sample 400' on the Evaluate page, tiny from Compare's button (2,000 papers): purity at
    k = 100 on 400 papers beside the same on 2,000 is no comparison; the page says the papers differ."""
    from core.evaluation import QUICK_TASKS, evaluate_models

    evaluate_models(workspace, "c", "journal", ["tiny"], list(QUICK_TASKS), sample=20)
    evaluate_models(workspace, "c", "journal", ["tiny-ft"], list(QUICK_TASKS), sample=25)
    at = open_compare()
    figures = next(d.value for d in at.dataframe if d.value.index.name == "measure")
    assert figures.loc["Cluster purity (k = 10)", "n"] == "20 / 25"
    assert any("different papers" in c.value for c in at.caption), texts(at.caption)
