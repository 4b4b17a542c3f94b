"""Citations on the map and in Similar papers: a paper's references and citing papers, listed and drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embedding import embed_corpus
from core.io import read_papers
from core.store import Store
from tests.app.map_component import map_sent
from tests.app.test_pages import open_app, texts, widget
from tests.helpers import register_tiny

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "citations" / "arxiv_150.jsonl"


@pytest.fixture()
def cited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Store:
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    store = Store(tmp_path / "ws")
    store.import_papers("c", read_papers(FIXTURE), source=FIXTURE.name)
    register_tiny(store, tiny_model_dir)
    embed_corpus(store, "c", "tiny")
    return store


def _busiest(store: Store) -> tuple[int, str]:
    frame = store.papers_frame("c", with_abstract=False)
    ids = frame["id"].astype(str).tolist()
    pid = max(ids, key=lambda p: (len(store.references_of("c", p)) > 0) * (len(store.cited_by("c", p)) > 0)
              * (len(store.references_of("c", p)) + len(store.cited_by("c", p))))
    return ids.index(pid), pid


def test_the_map_draws_and_lists_a_papers_references_and_citing_papers(cited):
    row, pid = _busiest(cited)
    at = open_app("app_pages/map.py")
    at.selectbox(key="map_cite_c").set_value(row).run()
    assert not at.exception and not at.error
    refs, citers = cited.references_of("c", pid), cited.cited_by("c", pid)
    state = map_sent(at)["page"]["state"]
    assert len(state["lines"]) == len(refs) + len(citers)  # to its references solid, from citing papers dotted
    assert sum(line[4] for line in state["lines"]) == len(citers) and len(state["stars"]) == 1
    star = state["stars"][0]  # every line leaves the paper's own place on the map (its star), to another paper's
    assert all(line[:2] == [star["x"], star["y"]] and line[2:4] != line[:2] for line in state["lines"])
    assert f"{len(refs):,} references and {len(citers):,} citing papers" in texts(at.caption)
    frame = cited.papers_frame("c", with_abstract=False).set_index("id")
    listed = [d.value for d in at.dataframe if "year" in d.value.columns and "id" in d.value.columns]
    assert set(listed[0]["id"]) == set(refs) and set(listed[1]["id"]) == set(citers)
    assert set(listed[0]["title"]) == set(frame.loc[refs, "title"])


def test_similar_papers_lists_the_citations_of_a_picked_paper_and_marks_ties(cited):
    row, pid = _busiest(cited)
    at = open_app("app_pages/similar.py")
    at.radio[0].set_value("Pick a paper from the corpus").run()
    widget(at.selectbox, "Paper").set_value(row).run()
    assert not at.exception
    assert any(e.label == "Its citations in this corpus" for e in at.expander)
    assert f"{len(cited.references_of('c', pid)):,} references" in texts(at.markdown)
    widget(at.button, "Find similar papers").click().run()
    assert not at.exception and not at.error
    results = next(d.value for d in at.dataframe if "rank" in d.value.columns)
    assert "citation" in results.columns
    assert set(results["citation"].dropna()) <= {"", "cites it", "cited by it", "both ways"}


def test_the_evaluate_page_shows_cite_figures_with_intervals_and_no_empty_cache_count(cited):
    """A citations-only evaluation said 'Seed 0; 0 of 0 results from the cache' (the cite task keeps no timings)
    and its figures had no interval; now each figure has its 95 % interval and no empty count is said."""
    from tests.app.background_jobs import wait_for_background

    at = open_app("app_pages/evaluate.py")
    at.multiselect(key="eval_models").set_value(["tiny"])
    at.multiselect(key="eval_tasks").set_value(["cite"])
    widget(at.button, "Run evaluation").click()
    wait_for_background(at.run())
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert all("(" in cell for cell in table["tiny"]), table
    assert not [c.value for c in at.caption if "0 of 0 results" in c.value]
