"""The sidebar's "Use from an AI assistant (MCP)" expander: the exact client configuration for this workspace."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.mcp.config import client_config

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_mcp(at: AppTest) -> None:
    """Open the sidebar's MCP expander, as a click on it does (its configuration is drawn only while open)."""
    from ui.sidebar import MCP_OPEN

    at.session_state[MCP_OPEN] = True
    at.run()
    assert not at.exception


def test_the_client_configuration_starts_this_workspace_with_this_python(tmp_path: Path):
    config = client_config(tmp_path / "ws", python="/venv/bin/python")
    server = config["claude_desktop"]["mcpServers"]["miread-explorer"]
    assert server == {"command": "/venv/bin/python",
                      "args": ["-m", "core", "mcp", "--workspace", str((tmp_path / "ws").resolve())]}
    assert config["vscode"]["servers"]["miread-explorer"] == {"type": "stdio", **server}
    assert client_config(tmp_path, allow_write=True)["claude_desktop"]["mcpServers"]["miread-explorer"]["args"][-1] \
        == "--allow-write"


def test_the_sidebar_shows_the_claude_desktop_and_vs_code_configuration(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch):
    workspace = tmp_path / "ws"
    monkeypatch.setenv("MIREAD_WORKSPACE", str(workspace))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    assert not at.exception
    assert [e.label for e in at.sidebar.expander] == ["Use from an AI assistant (MCP)"]
    assert not at.sidebar.code  # closed: nothing for the browser's syntax highlighter on every page (§31aa)
    open_mcp(at)
    shown = [json.loads(block.value) for block in at.sidebar.code if block.language == "json"]
    expected = client_config(workspace, python=sys.executable)
    assert shown == [expected["claude_desktop"], expected["vscode"]]
    assert shown[0]["mcpServers"]["miread-explorer"]["args"][-1] == str(workspace.resolve())


def test_with_an_mcp_token_the_sidebar_shows_the_http_configuration_carrying_it(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch):
    from core.mcp.config import HTTP_PORT

    monkeypatch.setenv("MIREAD_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("MIREAD_WARM_NUMBA", "0")
    monkeypatch.setenv("MIREAD_MCP_TOKEN", "s3cret-token")
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    assert not at.exception
    open_mcp(at)
    shown = [json.loads(block.value) for block in at.sidebar.code if block.language == "json"]
    assert shown[-1] == {"servers": {"miread-explorer": {"type": "http", "url": f"http://127.0.0.1:{HTTP_PORT}/mcp",
                                                         "headers": {"Authorization": "Bearer s3cret-token"}}}}
