"""The MCP server against hostile callers and files (issue 41, item 7): over HTTP only its own host and port may
be the Origin, and with a token only a request carrying it is served; an import's error sentence never quotes a
file that does not read as a table (a forced format=csv of /etc/passwd or a .env)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.errors import MireadError
from core.mcp.config import client_config
from core.mcp.server import build_server, one_sentence
from core.mcp.workspace import Workspace
from core.store import Store

PORT = 8765
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
SECRETS = ("root:x:0:0", "hunter2", "sk-live-12345", "DB_PASSWORD")


def _statuses(store: Store, token: str | None, requests: list[dict[str, str]]) -> list[int]:
    from starlette.testclient import TestClient

    from core.mcp.http import http_app

    app = http_app(build_server(Workspace(store)), PORT, token)
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as client:
        return [client.post("/mcp", json=INIT, headers={**HEADERS, **extra}).status_code for extra in requests]


def test_over_http_only_the_servers_own_origin_is_served(store: Store):
    said = _statuses(store, None, [{}, {"origin": f"http://127.0.0.1:{PORT}"}, {"origin": f"http://localhost:{PORT}"},
                                   {"origin": "http://127.0.0.1:8501"}, {"origin": "http://evil.test"},
                                   {"origin": f"http://evil.test:{PORT}"}])
    assert said[:3] == [200, 200, 200]
    assert all(status >= 400 for status in said[3:]), said


def test_with_a_token_only_a_request_carrying_it_is_served(store: Store):
    said = _statuses(store, "s3cret-token", [{}, {"authorization": "Bearer wrong"},
                                             {"authorization": "Bearer s3cret-token"}])
    assert said == [401, 401, 200]


def test_the_client_configuration_carries_the_token(tmp_path: Path):
    config = client_config(tmp_path, python="python", http_port=PORT, token="s3cret-token")
    server = config["vscode"]["servers"]["miread-explorer"]
    assert server == {"type": "http", "url": f"http://127.0.0.1:{PORT}/mcp",
                      "headers": {"Authorization": "Bearer s3cret-token"}}
    assert "--token" not in json.dumps(config["claude_desktop"])  # stdio: no token, the token is for HTTP
    assert client_config(tmp_path, python="python")["vscode"]["servers"]["miread-explorer"]["type"] == "stdio"


@pytest.mark.parametrize("fmt", ["csv", "tsv", "ris", "bibtex", "jsonl", "medline", "xml", "enw", None])
def test_an_import_error_never_quotes_a_file_that_is_not_a_table(store: Store, tmp_path: Path, fmt: str | None):
    from core.mcp.writing import import_file

    ws = Workspace(store, allow_write=True)
    for name, text in (("passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/bin/false\n"),
                       (".env", "API_KEY=sk-live-12345\nDB_PASSWORD=hunter2\n"),
                       ("creds.csv", "API_KEY=sk-live-12345,DB_PASSWORD=hunter2\n")):
        path = tmp_path / name
        path.write_text(text)
        try:
            said = json.dumps(import_file(ws, str(path), "c", format=fmt, embed=False))
        except (MireadError, ValueError) as error:
            said = one_sentence("import_file", error)
        assert not [s for s in SECRETS if s in said], said
