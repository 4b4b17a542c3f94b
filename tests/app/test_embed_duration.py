"""The embedding message reports the wait the user had, loading the model included, not the encoding alone
(issue 29, section 5: "Embedded in 2.7 s" after an 18 s wait)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.store import Store
from tests.helpers import make_papers


def _script(root: str) -> None:
    import itertools

    import streamlit as st

    import pages.common as common
    from core.embedding.encoder import EmbedReport

    ticks = itertools.count(0.0, 9.0)  # each look at the clock: 9 s later (model loading, then encoding)

    def slow_encoder(spec):  # noqa: ANN001, ANN202 - stands in for the cached model load
        next(ticks)
        return None

    def embed_corpus(store, corpus, spec, **kwargs):  # noqa: ANN001, ANN202, ANN003 - core's, timing only encoding
        return EmbedReport(corpus, spec.name, 3, 0, 3, 2.7)

    common.encoder = slow_encoder
    import core.embedding

    core.embedding.embed_corpus = embed_corpus
    report = common.embed_with_progress("c", common.get_model("minilm", common.store()),
                                        clock=lambda: next(ticks))
    st.write(f"seconds={report.seconds:.1f}")


def test_the_reported_duration_counts_the_model_load(tmp_path, monkeypatch):
    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    Store(tmp_path / "ws").import_papers("c", make_papers(1))
    at = AppTest.from_function(_script, args=(str(tmp_path / "ws"),), default_timeout=60).run()
    assert not at.exception
    seconds = float(next(m.value for m in at.markdown if m.value.startswith("seconds=")).split("=")[1])
    assert seconds > 2.7 and seconds >= 18.0  # the clock's 9 s steps: start, model load, end
