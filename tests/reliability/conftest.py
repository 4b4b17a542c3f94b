"""Reliability tests: print the tally of bad inputs, faults and load at the end of the run."""

from __future__ import annotations

import json
from pathlib import Path

from tests.reliability.support import FIGURES, ROOT, TALLY


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print what the reliability tests tried and held, and keep a copy in test-artifacts/."""
    if not TALLY and not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for key in sorted(TALLY):
        terminalreporter.write_line(f"{key}: {TALLY[key]}")
    for key in sorted(FIGURES):
        terminalreporter.write_line(f"{key}: {FIGURES[key]}")
    out = Path(ROOT, "test-artifacts")
    out.mkdir(exist_ok=True)
    (out / "reliability.json").write_text(json.dumps({"tally": dict(TALLY), "figures": FIGURES}, indent=2))
