"""The MCP server: an `MCPServer` (the official SDK's) with the tools, resources and prompt of this package, served
over stdio or streamable HTTP on 127.0.0.1 (core.mcp.http). A failing call answers one sentence as a tool error,
never a traceback: a user error says what is wrong, bad arguments name the argument, and a write tool on a read-only
server says how to allow it."""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from core.errors import MireadError, NotEmbeddedError, bounded
from core.mcp.workspace import Workspace

log = logging.getLogger("core.mcp")

INSTRUCTIONS = (
    "MIReAD Explorer: scientific papers of a local workspace, searched by meaning (MIReAD-style embeddings). "
    "Start with list_corpora; search_papers finds papers about a text; get_paper opens one; suggest_journals names "
    "journals that fit; list_topics and papers_in_topic browse the topic map; similar_to_paper widens a set."
)


def one_sentence(tool: str, exc: BaseException) -> str:
    """What a failed call tells the client: the user error's own sentence, or a sentence naming the bad argument."""
    cause = exc.__cause__ or exc
    if isinstance(cause, ValidationError):
        parts = []
        for error in cause.errors():
            where = ".".join(str(p) for p in error["loc"]) or "arguments"
            parts.append(f"{where}: {error['msg'][:1].lower()}{error['msg'][1:]}")
        return bounded(f"bad arguments for {tool}: " + "; ".join(parts))
    if isinstance(cause, NotEmbeddedError):
        return f"{cause}; embed it first (`python -m core embed --corpus NAME --model MODEL`, or the Library page)"
    if isinstance(cause, MireadError):
        return str(cause)
    if isinstance(cause, ToolError):
        return bounded(str(cause).removeprefix(f"Error executing tool {tool}: "))
    log.error("tool %s failed unexpectedly", tool, exc_info=cause)
    return bounded(f"{tool} failed unexpectedly ({cause.__class__.__name__}: {cause}); the server's log has the "
                   "details")


def unknown_arguments(tool: str, arguments: dict[str, Any] | None, schema: dict[str, Any] | None) -> str | None:
    """One sentence naming the arguments a tool does not have, and the ones it has (None when all are known): an
    unknown argument would otherwise be dropped in silence (`abstract=` for `text=`, answered for the title alone)."""
    if schema is None or not arguments:
        return None
    known = list(schema.get("properties", {}))
    extra = [name for name in arguments if name not in known]
    if not extra:
        return None
    names = ", ".join(repr(name) for name in extra)
    has = f"its arguments are {', '.join(known)}" if known else "it takes none"
    return bounded(f"bad arguments for {tool}: unknown argument{'s' if len(extra) > 1 else ''} {names}; {has}")


class MireadMCP(MCPServer):
    """The SDK's MCPServer over one workspace; refuses write tools when read-only and makes every error a sentence."""

    def __init__(self, ws: Workspace, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ws = ws

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context | None = None) -> Any:
        from core.mcp.tools import WRITE_TOOLS

        if name in WRITE_TOOLS and not self.ws.allow_write:
            raise ToolError(f"{name} changes the workspace, and this server is read-only; start it with "
                            "`python -m core mcp --allow-write` to allow it")
        unknown = unknown_arguments(name, arguments, self._tool_input_schema(name))
        if unknown:
            raise ToolError(unknown)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            raise ToolError(one_sentence(name, exc)) from None


def build_server(ws: Workspace) -> MireadMCP:
    """The server with every tool (write tools only with allow_write), the resources and the prompt."""
    from core.mcp.resources import register_resources
    from core.mcp.tools import register_tools

    mcp = MireadMCP(ws, name="miread-explorer", title="MIReAD Explorer", instructions=INSTRUCTIONS,
                    version=_version(), log_level="WARNING")
    register_tools(mcp, ws)
    register_resources(mcp, ws)
    return mcp


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mired-explorer")
    except PackageNotFoundError:
        return ""


def serve(ws: Workspace, http_port: int | None = None, token: str | None = None) -> None:
    """Serve until the client disconnects (stdio) or the process is stopped (HTTP on 127.0.0.1:PORT/mcp: only the
    server's own Host and Origin, and with `token` only requests bearing it; core.mcp.http)."""
    server = build_server(ws)
    for noisy in ("bm25s", "httpx", "numba"):  # their debug lines would fill the client's server log
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if http_port is None:
        server.run("stdio")
    else:
        from core.mcp.http import serve_http

        serve_http(server, int(http_port), token)

