"""`python -m core corpora --json | head -c 300`: the reader closing the pipe is not a bug; it printed 'error: unexpected
BrokenPipeError: [Errno 32] Broken pipe (set MIREAD_DEBUG=1 for details)'. Now the command stops quietly with 141
(128 + SIGPIPE, as Unix tools do)."""

from __future__ import annotations

import io
import sys

from core.cli import main
from core.store import Store
from tests.helpers import make_papers


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_closes_the_pipe_stops_the_command_quietly(tmp_path, monkeypatch, capsys):
    Store(tmp_path / "ws").import_papers("c", make_papers(3))
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["--workspace", str(tmp_path / "ws"), "corpora", "--json"]) == 141
    assert "unexpected" not in capsys.readouterr().err
