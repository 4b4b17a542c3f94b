"""MIREAD_TIMING=1 (benchmarks): a fragment's own run is logged once, as a page run is; inside a page run it is not
(the page's line already holds it)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import ui.timing as timing


@pytest.mark.parametrize(("fragment_ids", "logged"), [(["abc"], True), ([], False), (None, False)])
def test_a_fragment_logs_its_own_runs_only(monkeypatch, capsys, fragment_ids, logged):
    monkeypatch.setattr(timing, "settings", lambda: SimpleNamespace(timing=True))
    monkeypatch.setattr(timing, "get_script_run_ctx", lambda: SimpleNamespace(fragment_ids_this_run=fragment_ids))
    body = timing.timed("quick")(lambda x: x + 1)
    assert body(1) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("MIREAD_TIMING")]
    assert (lines[0].split()[1] if lines else None) == ("page=fragment:quick" if logged else None)
    assert len(lines) == int(logged)


def test_nothing_is_logged_without_timing(monkeypatch, capsys):
    monkeypatch.setattr(timing, "settings", lambda: SimpleNamespace(timing=False))
    monkeypatch.setattr(timing, "get_script_run_ctx", lambda: SimpleNamespace(fragment_ids_this_run=["abc"]))
    timing.timed("quick")(lambda: None)()
    assert "MIREAD_TIMING" not in capsys.readouterr().err
