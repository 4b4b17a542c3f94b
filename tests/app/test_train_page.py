"""The Train page: class preview, starting a background job, reattaching to it, curves and the jobs list."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.evaluation import Verdict
from core.store import Store
from core.training import TrainConfig, jobs
from tests.helpers import register_tiny
from tests.unit.training.support import add_corpus, stop_workers, tiny_config

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "train.py")


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Iterator[Store]:
    """A workspace with the corpus 'toy' and the tiny model registered as 'tiny'; no worker outlives it."""
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    store = add_corpus(Store(tmp_path / "ws"))
    register_tiny(store, tiny_model_dir)
    yield store
    stop_workers(store)


def open_page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=60).run()


def widget(elements, label: str):
    return next(w for w in elements if w.label == label)


def wait_until_finished(store: Store, job_id: str, timeout: float = 90) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        job = jobs.get_job(store, job_id)
        if job["status"] not in jobs.ACTIVE:
            return job
        time.sleep(0.3)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s")


def table(at: AppTest, column: str):
    """The first dataframe on the page that has this column."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def add_job(store: Store, job_id: str, status: str, progress: float, metrics: dict | None = None) -> None:
    """A job row as a worker would leave it (this process stands in for a running worker)."""
    cfg = TrainConfig(corpus="toy", label="journal", base="tiny", name=f"model-{job_id}")
    result = json.dumps({"model": cfg.name, "metrics": metrics}) if metrics is not None else None
    now = time.time()
    with store.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created, started, heartbeat, progress, result) "
                     "VALUES (?, 'train', ?, ?, ?, ?, ?, ?, ?, ?)",
                     (job_id, status, json.dumps({"config": cfg.to_dict()}), os.getpid(), now, now, now, progress,
                      result))


def chart_traces(at: AppTest) -> list[list[str]]:
    """Trace names of each plotly chart on the page."""
    return [[t.get("name") for t in json.loads(c.proto.spec)["data"]] for c in at.get("plotly_chart")]


def test_page_previews_classes_and_starts_a_background_job_whose_curves_it_shows(workspace):
    at = open_page()
    assert not at.exception
    preview = at.dataframe[0].value
    assert sorted(preview["label"]) == ["J. Astro", "J. Bio", "J. Econ"] and preview["used"].all()
    # 36 papers, a 20 % test share: 2 of each journal's 12, 6 in all, are too few for a verdict: said before the run
    [before] = [w.value for w in at.warning if "too few test papers to judge" in w.value]
    assert before.startswith("This run will hold out 6 test papers: too few test papers to judge (6 in 3 classes")
    widget(at.selectbox, "Base model").set_value("tiny")
    widget(at.number_input, "Epochs").set_value(1.0)
    widget(at.number_input, "Batch size").set_value(8)
    widget(at.number_input, "Max length (tokens)").set_value(48)
    widget(at.number_input, "Validation share").set_value(0.25)
    widget(at.text_input, "New model name").set_value("from-the-page")
    widget(at.button, "Start training").click()
    at.run()
    assert not at.exception and not at.error
    [job] = jobs.list_jobs(workspace)
    assert job["model"] == "from-the-page" and job["config"]["base"] == "tiny"
    assert wait_until_finished(workspace, job["id"])["status"] == "completed"

    at = open_page()  # a reload: nothing was kept in the session
    assert widget(at.selectbox, "Job").value == job["id"]
    assert chart_traces(at) == [["train", "train-probe", "val", "base model"],  # accuracy: each share with its band
                                ["95 % interval", "train-probe (n = 5 papers)", "95 % interval", "val (n = 9 papers)",
                                 "base model"]]
    assert widget(at.metric, "Validation accuracy").value.endswith("%")
    assert widget(at.metric, "Test accuracy").value.endswith("%")
    [verdict] = [e.value for e in [*at.success, *at.warning, *at.info] if "its base tiny" in e.value]
    assert "too few test papers to judge (6 in 3 classes of 2 or more)" in verdict and "beats" not in verdict
    labels = [m.label for m in at.metric]
    assert len(labels) == len(set(labels))  # never two tiles with one name
    assert "from-the-page" in table(at, "progress")["model"].tolist()


def test_a_fresh_session_reattaches_to_a_running_job_and_can_cancel_it(workspace, tiny_model_dir):
    job_id = jobs.launch(workspace, tiny_config(tiny_model_dir, name="long", epochs=400))
    deadline = time.time() + 60
    while jobs.get_job(workspace, job_id)["status"] != "running" and time.time() < deadline:
        time.sleep(0.3)
    at = open_page()
    assert widget(at.selectbox, "Job").value == job_id
    assert any("running" in m.value for m in at.markdown)
    widget(at.button, "Cancel").click()
    at.run()
    assert wait_until_finished(workspace, job_id)["status"] == "cancelled"


def test_an_impossible_config_shows_one_sentence_and_starts_nothing(workspace):
    at = open_page()
    widget(at.text_input, "New model name").set_value("minilm")
    widget(at.button, "Start training").click()
    at.run()
    assert [e.value for e in at.error] == ["a model named 'minilm' already exists; choose another name"]
    assert jobs.list_jobs(workspace) == []


def test_a_job_whose_process_died_is_shown_failed_with_the_reason(workspace):
    cfg = TrainConfig(corpus="toy", label="journal", name="ghost")
    with workspace.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created) VALUES ('ghost-job', 'train', "
                     "'running', ?, 999999999, ?)", (json.dumps({"config": cfg.to_dict()}), time.time()))
    at = open_page()
    assert not at.exception
    assert [e.value for e in at.error] == [jobs.LOST]


@pytest.mark.parametrize(("max_papers", "papers"), [(4, 6), (12, 12)])
def test_the_class_preview_follows_max_papers(workspace, max_papers, papers):
    at = open_page()
    assert any("36 papers in all" in m.value for m in at.markdown)
    widget(at.number_input, "Max papers").set_value(max_papers)
    at.run()
    assert any(f"{papers} papers in all" in m.value for m in at.markdown)
    assert int(table(at, "sampled")["sampled"].sum()) == papers


def test_the_jobs_table_shows_the_same_progress_as_the_job_header(workspace, monkeypatch):
    add_job(workspace, "live-job", "running", 0.0)
    read = jobs.list_jobs

    def list_then_progress(store):  # the job moves on while the page is being drawn
        items = read(store)
        with store.connect() as conn:
            conn.execute("UPDATE jobs SET progress = 0.17 WHERE id = 'live-job'")
        return items

    monkeypatch.setattr(jobs, "list_jobs", list_then_progress)
    at = open_page()
    assert not at.exception
    header = next(m.value for m in at.markdown if "live-job" in m.value)
    shown = table(at, "progress").set_index("job")["progress"]["live-job"]
    assert f"{shown:.0%}" in header
    ids = [b.proto.id for b in at.get("download_button")]  # the jobs table and the class preview keep a download
    assert any(i.endswith("-train_jobs_csv") for i in ids) and any(i.endswith("-train_classes_csv") for i in ids)


@pytest.mark.parametrize(("verdict", "kind", "text", "cell"), [
    (Verdict(600, 0.55, 0.65, -0.14, -0.06), "warning", "The new model is worse than its base tiny on 600 held-out "
     "test papers: test accuracy 55.0% against 65.0%, -10.0 points (95 % interval -14.0 to -6.0)", "-10.0 ± 4.0 pts "
     "(worse, n=600)"),
    (Verdict(600, 0.7, 0.65, 0.01, 0.09), "success", "The new model beats its base tiny on 600 held-out test papers",
     "+5.0 ± 4.0 pts (better, n=600)"),
    (Verdict(30, 0.4, 0.333, -0.1, 0.233), "info", "The new model: no measurable change against its base tiny "
     "(±16.7 points on 30 held-out test papers)", "+6.7 ± 16.7 pts (no measurable change, n=30)"),
    (Verdict(12, 1.0, 0.0, 1.0, 1.0, classes=3), "warning", "The new model: too few test papers to judge (12 in 3 "
     "classes of 2 or more): a verdict needs at least 30 test papers", "too few test papers to judge (n=12 test)"),
])
def test_a_finished_job_says_whether_it_beats_its_base_with_n_and_interval(workspace, verdict, kind, text, cell):
    add_job(workspace, "done-job", "completed", 1.0, {
        "val_accuracy": 0.6, "val_top5_accuracy": 1.0, "classes": 3, "base_val_accuracy": 0.65,
        "val_accuracy_gain": -0.05, "test_accuracy": verdict.new, "test_papers": verdict.n,
        "verdict": verdict.to_dict(), "beats_base": verdict.beats_base, "seconds": 3})
    at = open_page()
    shown = [e.value for e in getattr(at, kind) if "its base tiny" in e.value]
    assert shown and shown[0].startswith(text)
    assert widget(at.metric, "Test accuracy").value == f"{verdict.new:.1%}"
    assert table(at, "vs base").set_index("job")["vs base"]["done-job"] == cell


def test_an_old_verdict_on_validation_papers_is_not_called_a_test_verdict_nor_shown_twice(workspace):
    """Issue 44: 'no measurable change (±0.0 points on 105 validation papers)' under two 'Validation accuracy'
    tiles, on a page that says the verdict uses held-out test papers."""
    old = Verdict(105, 0.4, 0.4, 0.0, 0.0, split="validation")
    add_job(workspace, "old-job", "completed", 1.0, {
        "val_accuracy": 0.4, "val_top5_accuracy": 1.0, "classes": 50, "base_val_accuracy": 0.4,
        "val_accuracy_gain": 0.0, "test_papers": 0, "verdict": old.to_dict(), "beats_base": False, "seconds": 3})
    at = open_page()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert labels.count("Validation accuracy") == 1 and widget(at.metric, "Test accuracy").value == "–"
    [said] = [w.value for w in at.warning if "its base tiny" in w.value]
    assert "not on held-out test papers" in said and "±0.0" not in said and "no measurable change" not in said


def test_the_citation_loss_is_chosen_on_the_page_for_the_specter_objectives(tmp_path, monkeypatch, tiny_model_dir):
    from core.io import read_papers

    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    store = Store(tmp_path / "ws")
    cited = Path(__file__).resolve().parents[1] / "fixtures" / "citations" / "arxiv_150.jsonl"
    store.import_papers("cited", read_papers(cited), source=cited.name)
    register_tiny(store, tiny_model_dir)
    try:
        at = open_page()
        assert widget(at.selectbox, "Citation loss").disabled  # cos: no citation term
        widget(at.selectbox, "Base model").set_value("tiny")
        widget(at.selectbox, "Objective").set_value("specter").run()
        loss = widget(at.selectbox, "Citation loss")
        assert not loss.disabled and loss.value == "in-batch" and loss.options == ["triplet", "in-batch"]
        loss.set_value("triplet")
        widget(at.number_input, "Epochs").set_value(0.2)
        widget(at.number_input, "Max length (tokens)").set_value(32)
        widget(at.text_input, "New model name").set_value("triplet-run")
        widget(at.button, "Start training").click()
        at.run()
        assert not at.exception and not at.error
        [job] = jobs.list_jobs(store)
        assert job["config"]["objective"] == "specter" and job["config"]["cite_loss"] == "triplet"
    finally:
        stop_workers(store)


def test_an_embedding_job_is_in_the_jobs_table_with_its_time_left_and_cancel_but_no_curves(workspace):
    from core.embedding.job import EmbedConfig

    now = time.time()
    with workspace.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created, started, heartbeat, progress, eta) "
                     "VALUES ('embed-1', 'embed', 'running', ?, ?, ?, ?, ?, 0.25, ?)",
                     (json.dumps({"config": EmbedConfig("toy", "tiny").to_dict(), "background": True}), os.getpid(),
                      now, now, now, now + 185))
    at = open_page()
    assert not at.exception
    row = table(at, "time left").set_index("job").loc["embed-1"]
    assert (row["kind"], row["model"], row["corpus"]) == ("embed", "tiny", "toy")
    assert row["time left"].startswith("about 3m 0")
    header = next(m.value for m in at.markdown if "embed-1" in m.value)
    assert "embeds **toy** with model **tiny**" in header and "about 3m 0" in header
    assert not at.get("plotly_chart") and widget(at.button, "Cancel")


def test_a_finished_runs_accuracies_each_say_their_papers_and_interval(workspace):
    """The tiles showed 'Validation accuracy 50.9%' and 'Top-5 accuracy 81.2%' bare: no n, no interval, and the top-5
    tile did not say whether it was measured on test or validation papers."""
    verdict = Verdict(112, 0.4375, 0.4554, -0.071, 0.027, classes=20)
    add_job(workspace, "done-job", "completed", 1.0, {
        "val_accuracy": 0.5088, "val_top5_accuracy": 0.79, "val_papers": 57, "classes": 26, "base_val_accuracy": 0.47,
        "val_accuracy_gain": 0.035, "test_accuracy": 0.4375, "test_top5_accuracy": 0.8125, "test_papers": 112,
        "verdict": verdict.to_dict(), "beats_base": False, "seconds": 3})
    at = open_page()
    assert not at.exception
    [said] = [c.value for c in at.caption if "held-out test papers: accuracy" in c.value]
    assert said == ("On 112 held-out test papers: accuracy 43.8 % (95 % interval 34.9–53.0 %), top-5 81.2 % "
                    "(73.0–87.4 %). On 57 validation papers: accuracy 50.9 % (38.3–63.4 %).")


def test_a_job_cancelled_before_its_first_step_says_so_instead_of_empty_charts(workspace):
    """A run cancelled before its first step has no curve: the page drew four empty charts (the walk-through's
    leftover); it now says what happened."""
    cfg = TrainConfig(corpus="toy", label="journal", name="early")
    with workspace.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, created) VALUES ('early-job', 'train', 'cancelled', ?, "
                     "?)", (json.dumps({"config": cfg.to_dict()}), time.time()))
    at = open_page()
    assert not at.exception
    assert not at.get("plotly_chart")
    assert any("cancelled before its first step" in i.value for i in at.info), [i.value for i in at.info]


def test_a_job_cancelled_after_the_head_warm_up_only_says_so_instead_of_an_empty_looking_chart(workspace):
    """Cancelled during its first steps, a run has only the warm-up's step-0 loss: the page drew a loss chart whose
    one point was invisible and an empty accuracy chart."""
    cfg = TrainConfig(corpus="toy", label="journal", name="early")
    with workspace.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, created) VALUES ('warm-job', 'train', 'cancelled', ?, "
                     "?)", (json.dumps({"config": cfg.to_dict()}), time.time()))
    workspace.record_metrics("warm-job", 0, 0.0, "train", {"loss": 0.1, "ce_loss": 0.1}, time.time())
    at = open_page()
    assert not at.exception and not at.get("plotly_chart")
    [said] = [i.value for i in at.info if "cancelled" in i.value]
    assert "only the head warm-up ran" in said and "no training step" in said
