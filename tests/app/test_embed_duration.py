"""The embedding message reports the wait the user had, loading the model included, not the encoding alone
(issue 29, section 5: "Embedded in 2.7 s" after an 18 s wait)."""

from __future__ import annotations

import itertools

import pytest
from streamlit.testing.v1 import AppTest

import core.embedding
import ui.embedding
from core.embedding.encoder import EmbedReport
from core.store import Store
from tests.helpers import make_papers

TICKS = {"clock": itertools.count(0.0, 9.0)}  # each look at the clock: 9 s later


def _script() -> None:
    import streamlit as st

    import ui.embedding as common
    from core.embedding import get_model
    from tests.app.test_embed_duration import TICKS
    from ui.resources import store

    report = common.embed_with_progress("c", get_model("minilm", store()),
                                        clock=lambda: next(TICKS["clock"]))
    st.write(f"seconds={report.seconds:.1f}")


def test_the_reported_duration_counts_the_model_load(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    Store(tmp_path / "ws").import_papers("c", make_papers(1))
    TICKS["clock"] = itertools.count(0.0, 9.0)

    def slow_encoder(spec):  # noqa: ANN001, ANN202 - stands in for the cached model load: the clock moves on
        next(TICKS["clock"])

    def embed_corpus(store, corpus, spec, **kwargs):  # noqa: ANN001, ANN202, ANN003 - core's times encoding only
        return EmbedReport(corpus, spec.name, 3, 0, 3, 2.7)

    monkeypatch.setattr(ui.embedding, "encoder", slow_encoder)  # restored after the test, unlike a script's patch
    monkeypatch.setattr(core.embedding, "embed_corpus", embed_corpus)
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception
    seconds = float(next(m.value for m in at.markdown if m.value.startswith("seconds=")).split("=")[1])
    assert seconds > 2.7 and seconds >= 18.0  # the clock's 9 s steps: start, model load, end
