"""A double click on Start training (or the same form sent from a second tab) while that run is queued or running
joins it: it queued a second identical job under the next free name ('…-2'), or, with a name typed, said 'a model
named X already exists' of the job just started."""

from __future__ import annotations

import pytest

from core.store import Store
from core.training import jobs
from tests.unit.training.support import add_corpus, stop_workers, tiny_config


@pytest.mark.parametrize("name", ["", "typed-name"])
def test_the_same_training_sent_twice_while_it_runs_is_one_job(tmp_path, tiny_model_dir, name):
    store = add_corpus(Store(tmp_path / "ws"))
    try:
        first = jobs.launch(store, tiny_config(tiny_model_dir, name=name, epochs=50))
        again = jobs.launch(store, tiny_config(tiny_model_dir, name=name, epochs=50))
        assert again == first
        assert len([j for j in jobs.list_jobs(store) if j["status"] in jobs.ACTIVE]) == 1
        other = jobs.launch(store, tiny_config(tiny_model_dir, name="", epochs=50, seed=1))  # another run: its own
        assert other != first
    finally:
        stop_workers(store)


def test_two_runs_named_apart_are_two_jobs_even_with_the_same_settings(tmp_path, tiny_model_dir):
    """Only a request that names no model, or the running one's name, joins it: 'short' and 'doomed' asked with the
    same settings are two runs (cancelling one must not cancel the other)."""
    store = add_corpus(Store(tmp_path / "ws"))
    try:
        first = jobs.launch(store, tiny_config(tiny_model_dir, name="short", epochs=50))
        second = jobs.launch(store, tiny_config(tiny_model_dir, name="doomed", epochs=50))
        assert second != first
        assert jobs.launch(store, tiny_config(tiny_model_dir, name="", epochs=50)) in (first, second)
    finally:
        stop_workers(store)
