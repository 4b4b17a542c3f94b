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


def client_config(workspace: str | Path, python: str | None = None, allow_write: bool = False) -> dict[str, Any]:
    """Both clients' configuration: {"claude_desktop": {"mcpServers": ...}, "vscode": {"servers": ...}}."""
    command = server_command(workspace, python, allow_write)
    return {"claude_desktop": {"mcpServers": {SERVER_NAME: command}},
            "vscode": {"servers": {SERVER_NAME: {"type": "stdio", **command}}}}


def config_json(workspace: str | Path, client: str, python: str | None = None, allow_write: bool = False) -> str:
    """One client's configuration as the JSON text to paste ("claude_desktop" or "vscode")."""
    return json.dumps(client_config(workspace, python, allow_write)[client], indent=2)
