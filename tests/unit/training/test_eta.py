"""The training ETA: measured step and encoding times over the work left, so it neither grows nor jumps.

Issue 29 saw it grow from 2 min 48 s to 4 min 29 s: the old ETA scaled the elapsed time by a share of papers that
left out the validations and under-weighted the head warm-up. The runs here are simulated with a fake clock.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.training.recording import Plan, Recorder


class FakeStore:
    """Collects what the recorder reports: (fraction, finish time), and from when the training steps run."""

    def __init__(self) -> None:
        self.reports: list[tuple[float, float | None]] = []
        self.steps_from = 0  # index of the first report after the first few steps were timed

    def set_progress(self, job_id: str, fraction: float, eta: float | None) -> None:
        self.reports.append((fraction, eta))


def simulate(step_s: float, paper_s: float, warm: int = 1024, steps: int = 100, val: int = 300, test: int = 300,
             every: int = 10, jitter: float = 0.0, settle: int = 3) -> tuple[FakeStore, float, float]:
    """A run like the loop's: warm-up features, base score, steps with a validation every `every`, the test split."""
    rng = np.random.default_rng(0)
    now = [1000.0]
    store = FakeStore()
    forward = warm + val + 2 * test + (steps // every) * val
    recorder = Recorder(store, "job", Plan(steps, 32, forward), clock=lambda: now[0])

    def encode(papers: int) -> None:
        seconds = papers * paper_s
        now[0] += seconds
        recorder.forward(papers, seconds)

    for _ in range(0, warm, 64):
        encode(64)
    encode(val)
    encode(test)
    for step in range(1, steps + 1):
        seconds = step_s * (1 + jitter * rng.uniform(-1, 1))
        now[0] += seconds
        recorder.step(seconds)
        if step == settle:
            store.steps_from = len(store.reports)
        if step % every == 0:
            encode(val)
    encode(test)
    recorder.finished()
    return store, 1000.0, now[0]


@pytest.mark.parametrize(("step_s", "paper_s"), [(1.0, 0.01), (0.2, 0.02), (3.0, 0.001)])
def test_the_predicted_finish_time_stays_within_a_few_percent_of_the_real_one(step_s, paper_s):
    store, start, finish = simulate(step_s, paper_s)
    later = [eta for _, eta in store.reports[store.steps_from:]]  # once the first steps are timed
    assert max(abs(e - finish) for e in later) < 0.01 * (finish - start)
    store, start, finish = simulate(step_s, paper_s, jitter=0.3, settle=20)  # steps taking 0.7x to 1.3x the mean
    later = [eta for _, eta in store.reports[store.steps_from:]]
    assert max(abs(e - finish) for e in later) < 0.05 * (finish - start)
    early = [eta for _, eta in store.reports if eta is not None][0]  # a step priced as 3 encodings of its papers
    assert abs(early - finish) < 10 * (finish - start)


def test_the_time_left_never_grows_while_the_work_runs_at_a_steady_pace():
    store, _, _ = simulate(1.0, 0.01)
    left = [eta for _, eta in store.reports[store.steps_from:]]
    assert all(b <= a + 1e-6 for a, b in zip(left, left[1:]))  # the finish time holds still or comes closer
    fractions = [f for f, _ in store.reports]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)


def test_nothing_timed_yet_means_no_eta():
    store = FakeStore()
    recorder = Recorder(store, "job", Plan(10, 8, 100), clock=lambda: 5.0)
    assert recorder.remaining() is None and recorder.fraction() == 0.0
    recorder.report(force=True)
    assert store.reports == [(0.0, None)]


@pytest.mark.parametrize("overrides", [{}, {"head_warmup_epochs": 0.5, "eval_every": 3, "grad_accum": 2},
                                       {"head_warmup_epochs": 0, "test_fraction": 0}])
def test_the_plan_of_a_real_run_is_the_work_it_does(store, tiny_model_dir, monkeypatch, overrides):
    """Every paper the loop encodes and every step it takes was planned: nothing is left out of the ETA."""
    from core.training import recording, run_training
    from tests.unit.training.support import add_corpus, one_torch_thread, tiny_config

    seen = {}
    monkeypatch.setattr(recording.Recorder, "finished", lambda self: seen.update(
        planned=(self.plan.forward_papers, self.plan.steps), done=(self.forward_done, self.steps_done)))
    with one_torch_thread():
        run_training(add_corpus(store), tiny_config(tiny_model_dir, epochs=1, **overrides), job_id="planned")
    assert seen["done"] == seen["planned"]


def test_the_plan_of_a_specter_run_counts_the_head_refit_at_its_end(store, tiny_model_dir, monkeypatch):
    from core.io import read_papers
    from core.training import recording, run_training
    from tests.unit.training.support import one_torch_thread, tiny_config
    from tests.unit.training.test_specter import FIXTURE

    store.import_papers("toy", read_papers(FIXTURE), source="arxiv_150.jsonl")
    seen = {}
    monkeypatch.setattr(recording.Recorder, "finished", lambda self: seen.update(
        planned=(self.plan.forward_papers, self.plan.steps), done=(self.forward_done, self.steps_done)))
    cfg = tiny_config(tiny_model_dir, label="category", objective="specter", epochs=0.3, max_length=32,
                      head_warmup_epochs=1, min_per_class=5)
    with one_torch_thread():
        run_training(store, cfg, job_id="planned-specter")
    assert seen["done"] == seen["planned"]
