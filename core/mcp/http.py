"""The MCP server's streamable HTTP transport on 127.0.0.1: only requests whose Host and Origin name this server's
own host and port (a web page elsewhere, or on another local port, cannot drive it: DNS rebinding and cross-site
requests are refused), and with a token (``--token`` or MIREAD_MCP_TOKEN) only requests that carry it as
``Authorization: Bearer <token>``."""

from __future__ import annotations

import hmac
from typing import Any

HOST = "127.0.0.1"
NAMES = ("127.0.0.1", "localhost")  # what a client on this machine calls the server


def http_app(server: Any, port: int, token: str | None = None) -> Any:
    """The ASGI app serving `server` (an MCPServer) at /mcp on HOST:port."""
    from mcp.server.transport_security import TransportSecuritySettings

    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:{port}" for name in NAMES],
        allowed_origins=[f"http://{name}:{port}" for name in NAMES],
    )
    app = server.streamable_http_app(transport_security=security, host=HOST)
    return BearerToken(app, token) if token else app


class BearerToken:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get 401 (compared in constant time)."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                        (b"www-authenticate", b'Bearer realm="miread-explorer"')]})
                await send({"type": "http.response.body",
                            "body": b"this MCP server needs its token: Authorization: Bearer <token>\n"})
                return
        await self.app(scope, receive, send)


def serve_http(server: Any, port: int, token: str | None = None) -> None:
    """Serve until the process is stopped."""
    import uvicorn

    uvicorn.run(http_app(server, port, token), host=HOST, port=port, log_level="warning")
