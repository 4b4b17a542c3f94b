"""An MCP tool call with an argument the tool does not have is refused with one sentence naming it and the tool's
arguments: `suggest_journals(title=..., abstract=...)` used to answer for the title alone ('Your query has only 1
word'), the abstract silently dropped."""

from __future__ import annotations

import concurrent.futures

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

from core.mcp.server import build_server
from core.mcp.workspace import Workspace
from core.store import Store


def _call(store: Store, tool: str, arguments: dict) -> str:
    server = build_server(Workspace(store))

    async def call() -> str:
        with pytest.raises(ToolError) as caught:
            await server.call_tool(tool, arguments)
        return str(caught.value)

    # in a thread of its own: in the full suite the browser tests' Playwright (sync API) leaves an event loop marked
    # running in the main thread, where anyio refuses to start another (tests/integration/test_mcp.py's run_client)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, call).result()


def test_an_unknown_argument_is_named_with_the_tools_own(store: Store):
    said = _call(store, "suggest_journals", {"title": "Dark matter", "abstract": "We measure rotation curves."})
    assert said.startswith("bad arguments for suggest_journals: unknown argument 'abstract'")
    assert "text, title, paper_id" in said


def test_unknown_arguments_are_refused_before_any_work(store: Store):
    said = _call(store, "list_corpora", {"corpus": "c", "verbose": True})
    assert said == "bad arguments for list_corpora: unknown arguments 'corpus', 'verbose'; it takes none"
