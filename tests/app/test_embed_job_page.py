"""An embedding running in the background is one job for every tab and after a reload (issue 44: a second tab and a
reload offered Embed again and started a duplicate run; there was no Cancel)."""

from __future__ import annotations

import json
import os
import time

from core.embedding.job import EmbedConfig
from core.store import Store
from core.training import jobs
from tests.app.test_pages import empty_workspace, open_app, texts, widget, workspace  # noqa: F401
from tests.helpers import make_papers


def add_new_corpus(store: Store) -> None:
    """Corpus 'big': texts nothing has embedded yet."""
    papers = make_papers(3)
    for paper in papers:
        paper.title += " (not embedded yet)"
    store.import_papers("big", papers, source="make_papers")


def running_embedding(store: Store, corpus: str, model: str, progress: float, eta_s: float | None) -> str:
    """A running embedding job as its worker leaves it (this test process stands in for the worker)."""
    now = time.time()
    with store.connect() as conn:
        conn.execute("INSERT INTO jobs(id, kind, status, args, pid, created, started, heartbeat, progress, eta) "
                     "VALUES ('embed-1', 'embed', 'running', ?, ?, ?, ?, ?, ?, ?)",
                     (json.dumps({"config": EmbedConfig(corpus, model).to_dict(), "background": True}), os.getpid(),
                      now, now, now, progress, None if eta_s is None else now + eta_s))
    return "embed-1"


def test_a_running_embedding_shows_its_progress_and_cancel_on_every_tab_instead_of_a_second_embed(workspace):  # noqa: F811
    add_new_corpus(workspace)
    job_id = running_embedding(workspace, "big", "tiny", 0.4, 95)
    for tab in range(2):  # two tabs, or one tab and a reload: fresh sessions that started nothing
        at = open_app("app_pages/similar.py")
        at.selectbox(key="corpus").set_value("big").run()
        assert not at.exception
        assert not [b for b in at.button if b.label.startswith("Embed ")]  # no second run on offer
        assert "is being embedded with model **tiny** in the background" in texts(at.info)
        [bar] = [p for p in at.get("progress")]
        assert bar.proto.value == 40 and "Embedding big with tiny: 40% · about 1m 3" in bar.proto.text
        assert widget(at.button, "Cancel").label == "Cancel"
    widget(at.button, "Cancel").click().run()
    assert jobs.get_job(workspace, job_id)["cancel_requested"]
    elsewhere = open_app("app_pages/library.py")  # any page: the sidebar says what runs
    assert "Running: embedding big with tiny (40%, running)" in texts(elsewhere.caption)


def test_the_library_does_not_offer_embed_while_the_same_embedding_runs_and_says_estimating(workspace):  # noqa: F811
    add_new_corpus(workspace)
    running_embedding(workspace, "big", "tiny", 0.05, None)
    at = open_app("app_pages/library.py")
    at.selectbox(key="embed_target").set_value("big").run()
    assert widget(at.button, "Embed with tiny").disabled
    assert any("Embedding big with tiny: 5% · estimating…" in p.proto.text for p in at.get("progress"))
