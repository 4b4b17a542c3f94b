"""The `mcp` command: serve the workspace to AI assistants over the Model Context Protocol (core/mcp, docs/mcp.md),
over stdio (what Claude Desktop and VS Code start) or streamable HTTP on 127.0.0.1 with --http PORT."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from core.cli.output import Emit
from core.errors import MireadError
from core.store import Store


def cmd_mcp(store: Store, args: argparse.Namespace, emit: Emit) -> dict[str, Any]:
    """Serve until the client goes away; read-only unless --allow-write."""
    from core.mcp.server import serve
    from core.mcp.workspace import Workspace

    if args.corpus and not store.has_corpus(args.corpus):
        raise MireadError(f"there is no corpus {args.corpus!r} in workspace {store.root}")
    if args.http is not None and not 1 <= args.http <= 65535:
        raise MireadError(f"--http takes a port between 1 and 65535, got {args.http}")
    token = args.token or args.settings.mcp_token
    if args.token and args.http is None:
        raise MireadError("--token is for the HTTP transport: add --http PORT (over stdio the client starts the "
                          "server itself)")
    ws = Workspace(store, corpus=args.corpus, model=args.model, allow_write=args.allow_write, settings=args.settings)
    serve(ws, http_port=args.http, token=token if args.http is not None else None)
    return {}


def add_mcp_command(add: Callable[..., argparse.ArgumentParser]) -> None:
    """Register `mcp` on the main parser (``add`` as in core.cli.build_parser)."""
    p = add("mcp", cmd_mcp, "serve the workspace to AI assistants over the Model Context Protocol (stdio)")
    p.add_argument("--workspace", default=argparse.SUPPRESS,
                   help="workspace folder, here or before the command (default $MIREAD_WORKSPACE or ./workspace)")
    p.add_argument("--corpus", default=None, help="the corpus tools use when a call names none")
    p.add_argument("--model", default=None, help="the model tools use when a call names none (default minilm)")
    p.add_argument("--http", type=int, default=None, metavar="PORT",
                   help="serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (Host and Origin must be "
                        "127.0.0.1:PORT or localhost:PORT)")
    p.add_argument("--token", default=None,
                   help="with --http: serve only requests with 'Authorization: Bearer TOKEN' (default "
                        "$MIREAD_MCP_TOKEN)")
    p.add_argument("--allow-write", action="store_true",
                   help="also offer the tools that change the workspace (import_file, start_training, "
                        "save_collection)")
