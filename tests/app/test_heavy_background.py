"""Heavy steps run in the background (issue 32): the click answers with a progress bar before the work ends, a second
click does not start a second run, and the duration the page reports is the whole wait (from the click to the result), not
the part core timed."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import core.evaluation
from core.embedding import get_model, vectors_fingerprint
from core.training import jobs
from tests.app.background_jobs import wait_for_background
from tests.app.test_evaluate_page import workspace  # noqa: F401 - the fixture: corpus c embedded with tiny
from tests.helpers import add_fine_tuned_twin, make_papers

ROOT = Path(__file__).resolve().parents[2]
@pytest.fixture()
def gated(monkeypatch: pytest.MonkeyPatch) -> dict:
    """core's evaluate_models held at a gate the test opens; counts its calls and whether it has ended."""
    real = core.evaluation.evaluate_models
    seen = {"calls": 0, "ended": False, "gate": threading.Event()}

    def held(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - the same call, held until the gate opens
        seen["calls"] += 1
        seen["gate"].wait(timeout=8)
        try:
            return real(*args, **kwargs)
        finally:
            seen["ended"] = True

    monkeypatch.setattr(core.evaluation, "evaluate_models", held)
    return seen


def test_an_evaluation_shows_progress_at_once_runs_once_and_reports_the_whole_wait(workspace, gated):  # noqa: F811
    at = AppTest.from_file(str(ROOT / "app_pages" / "evaluate.py"), default_timeout=60)
    at.session_state["corpus"], at.session_state["model"] = "c", "tiny"
    at.run()
    at.multiselect(key="eval_tasks").set_value(["probe", "knn"])
    at.number_input(key="eval_sample").set_value(30)
    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run()
    assert not at.exception
    assert not gated["ended"], "the page waited for the evaluation instead of answering at once"
    assert [p.proto.text for p in at.get("progress")][0].startswith("Evaluating tiny")
    assert not at.dataframe  # no results yet

    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run()
    assert gated["calls"] == 1  # the second click found the running evaluation
    assert any("already running" in i.value for i in at.info)

    time.sleep(1.0)  # the user waits; core's own timer starts only when the gate opens
    gated["gate"].set()
    wait_for_background(at)
    assert not at.exception and not at.error
    assert list(at.dataframe[0].value.columns) == ["tiny", "n"]
    caption = next(c.value for c in at.caption if "results from the cache" in c.value)
    seconds = float(caption.rsplit(";", 1)[1].strip().removesuffix(" s."))
    [job] = [j for j in jobs.list_jobs(workspace) if j["kind"] == "evaluate"]
    assert seconds >= max(1.0, job["finished"] - job["created"] - 0.05)  # from the click to the result
    assert seconds > job["result"]["evaluation"]["seconds"]  # not core's own timing


def test_leaving_the_page_does_not_stop_the_evaluation(workspace, gated):  # noqa: F811
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["corpus"], at.session_state["model"] = "c", "tiny"
    at.run()
    at.switch_page("app_pages/evaluate.py").run()
    at.multiselect(key="eval_tasks").set_value(["knn"])
    at.number_input(key="eval_sample").set_value(30)
    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run()
    at.switch_page("app_pages/journals.py").run()  # the user looks elsewhere meanwhile
    assert not at.exception
    gated["gate"].set()
    at.switch_page("app_pages/evaluate.py").run()
    wait_for_background(at)
    assert gated["calls"] == 1 and gated["ended"]
    assert list(at.dataframe[0].value.columns) == ["tiny", "n"]


def test_the_library_embeds_in_the_background_and_says_how_long_the_whole_wait_was(workspace):  # noqa: F811
    from core.training import jobs

    papers = make_papers(2)
    for paper in papers:  # new texts: nothing cached under the tiny model yet
        paper.title += " (a new paper)"
    workspace.import_papers("new", papers)
    at = AppTest.from_file(str(ROOT / "app_pages" / "library.py"), default_timeout=60)
    at.session_state["corpus"], at.session_state["model"] = "new", "tiny"
    at.session_state["embed_target"] = "new"
    at.run()
    next(b for b in at.button if b.label == "Embed with tiny").click()
    at.run()
    assert not at.exception
    [job] = jobs.list_jobs(workspace)  # a job in the store: every tab, and a reload, find it
    assert job["kind"] == "embed" and (at.get("progress") or job["status"] not in jobs.ACTIVE)
    wait_for_background(at)
    job = jobs.get_job(workspace, job["id"])
    message = next(s.value for s in at.success if s.value.startswith("Embedded"))
    seconds = float(message.rsplit(" in ", 1)[1].removesuffix(" s."))
    assert "6 new papers" in message and seconds == pytest.approx(job["finished"] - job["created"], abs=0.051)
    assert not workspace.missing_hashes("new", vectors_fingerprint(get_model("tiny", workspace)))


def test_compare_models_evaluates_a_model_in_the_background_with_its_bar_at_the_top(
        workspace, gated, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    add_fine_tuned_twin(workspace, tmp_path / "tiny-ft")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["corpus"], at.session_state["model"] = "c", "tiny"
    at.session_state["compare_method"] = "pca"
    at.run()
    at.switch_page("app_pages/compare.py").run()
    next(b for b in at.button if b.label == "Evaluate tiny-ft").click().run()
    assert not at.exception
    assert not gated["ended"], "the page waited for the evaluation instead of answering at once"
    [bar] = at.get("progress")
    assert bar.proto.text.startswith("Evaluating tiny-ft")
    assert len(at.get("bidi_component")) >= 2  # the rest of the page (both maps) is drawn meanwhile
    next(b for b in at.button if b.label == "Evaluate tiny").click().run()
    assert gated["calls"] == 1 and any("already running" in i.value for i in at.info)
    gated["gate"].set()
    wait_for_background(at)
    assert any(s.value.startswith("Evaluated tiny-ft in ") for s in at.success)
    assert [b.label for b in at.button if b.label.startswith("Evaluate ")] == ["Evaluate tiny"]


def test_a_quick_evaluation_from_compare_is_a_job_another_tab_sees_and_follows(
        workspace, gated, tmp_path, monkeypatch):  # noqa: F811
    """Issue 44: an evaluation is a job of the workspace wherever it starts; Compare's quick one was a thread of one
    session, so another tab (or a reload) neither saw it nor its result until it rendered the page again."""
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    add_fine_tuned_twin(workspace, tmp_path / "tiny-ft")

    def compare_tab() -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
        at.session_state["corpus"], at.session_state["model"] = "c", "tiny"
        at.session_state["compare_method"] = "pca"
        at.run()
        return at.switch_page("app_pages/compare.py").run()

    first = compare_tab()
    next(b for b in first.button if b.label == "Evaluate tiny-ft").click().run()
    assert not first.exception
    [job] = [j for j in jobs.list_jobs(workspace) if j["kind"] == "evaluate"]
    assert job["config"]["models"] == ["tiny-ft"] and job["status"] in jobs.ACTIVE
    second = compare_tab()  # another tab, or the same one reloaded
    assert not second.exception
    assert any(p.proto.text.startswith("Evaluating tiny-ft") for p in second.get("progress"))
    gated["gate"].set()
    wait_for_background(second)
    assert gated["calls"] == 1
    assert any(s.value.startswith("Evaluated tiny-ft in ") for s in second.success)
    figures = next(d.value for d in second.dataframe if d.value.index.name == "measure")
    assert "tiny-ft" in figures.columns
