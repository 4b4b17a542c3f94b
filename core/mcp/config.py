"""The client configuration that starts this workspace's MCP server: the JSON Claude Desktop and VS Code read
(the app's sidebar shows it; docs/mcp.md explains where it goes)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SERVER_NAME = "miread-explorer"


def server_command(workspace: str | Path, python: str | None = None, allow_write: bool = False) -> dict[str, Any]:
    """The command that starts the server over stdio: this Python, `-m core mcp --workspace <absolute folder>`."""
    args = ["-m", "core", "mcp", "--workspace", str(Path(workspace).expanduser().resolve())]
    return {"command": python or sys.executable, "args": args + (["--allow-write"] if allow_write else [])}


HTTP_PORT = 8765  # the port the sidebar's HTTP configuration names (`python -m core mcp --http 8765`)


def http_entry(port: int, token: str | None = None) -> dict[str, Any]:
    """A client's entry for the server over streamable HTTP on 127.0.0.1:port, with its bearer token if it has one."""
    entry: dict[str, Any] = {"type": "http", "url": f"http://127.0.0.1:{port}/mcp"}
    if token:
        entry["headers"] = {"Authorization": f"Bearer {token}"}
    return entry


def client_config(workspace: str | Path, python: str | None = None, allow_write: bool = False,
                  http_port: int | None = None, token: str | None = None) -> dict[str, Any]:
    """Both clients' configuration: {"claude_desktop": {"mcpServers": ...}, "vscode": {"servers": ...}}. Claude
    Desktop starts the server over stdio; VS Code does too, or with `http_port` connects to one serving HTTP (the
    token, when the server has one, in its Authorization header)."""
    command = server_command(workspace, python, allow_write)
    vscode = http_entry(http_port, token) if http_port else {"type": "stdio", **command}
    return {"claude_desktop": {"mcpServers": {SERVER_NAME: command}}, "vscode": {"servers": {SERVER_NAME: vscode}}}


def config_json(workspace: str | Path, client: str, python: str | None = None, allow_write: bool = False,
                http_port: int | None = None, token: str | None = None) -> str:
    """One client's configuration as the JSON text to paste ("claude_desktop" or "vscode")."""
    return json.dumps(client_config(workspace, python, allow_write, http_port, token)[client], indent=2)
