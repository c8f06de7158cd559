"""An ASGI guard in front of Dagster's webserver: only same-origin browser pages may change anything.

Dagster's webserver runs GraphQL mutations (launching runs, wiping assets)
from any request that reaches it, GET included, and answers to any Host
header. Binding to 127.0.0.1 does not stop a web page in the user's browser:
it can send requests to the loopback address (an image or a form), or rename
itself onto it by DNS rebinding. So every request must:

- carry a Host header naming the UI as it was started (loopback names or the
  names the user allowed, with the port): anything else is DNS rebinding (400);
- when a browser says where it comes from (``Origin``, or ``Sec-Fetch-Site``
  on GraphQL and on anything that is not GET/HEAD/OPTIONS), come from the UI
  itself (403). Clients without those headers (curl, scripts) are no
  browser's page, so no page can ride on them;
- send GraphQL mutations by POST only: a GET must hold queries alone (405),
  as an ``<img src=".../graphql?query=mutation...">`` is a GET without Origin.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import parse_qs, urlsplit

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_SITE_FETCH = frozenset({"same-origin", "none"})  # `none`: typed in the address bar, a bookmark


def allowed_hosts(host: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """Host header values the UI answers to: loopback names, the address it listens on, ``extra`` names."""
    names = {*LOOPBACK_NAMES, *(n.strip().lower() for n in extra if n.strip())}
    if host not in WILDCARDS:
        names.add(f"[{host}]" if ":" in host and not host.startswith("[") else host.lower())
    return frozenset(name if _has_port(name) else f"{name}:{port}" for name in names)


def _has_port(name: str) -> bool:
    return name.rsplit("]", 1)[-1].count(":") == 1


def _with_port(netloc: str, default_port: int) -> str:
    netloc = netloc.strip().lower()
    return netloc if _has_port(netloc) else f"{netloc}:{default_port}"


class RequestGuard:
    """Wraps the webserver's ASGI app; refuses what the module docstring lists, passes the rest on untouched."""

    def __init__(self, app: App, hosts: frozenset[str], graphql_path: str = "/graphql"):
        self.app, self.hosts, self.graphql_path = app, hosts, graphql_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            refusal = self.refusal(scope)
            if refusal is not None:
                status, reason = refusal
                await _refuse(scope, receive, send, status, reason)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """(status, reason) for a request to refuse, None for one to serve."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host")
        if host is None or _with_port(host, 80) not in self.hosts:
            return 400, f"unknown Host header {host!r}: this UI answers to {', '.join(sorted(self.hosts))}"
        method = scope.get("method", "GET").upper()
        is_graphql = scope.get("path", "").rstrip("/") == self.graphql_path
        origin = headers.get("origin")
        if origin is not None and not self._same_origin(origin):
            return 403, f"cross-origin request from {origin!r} refused"
        fetch_site = headers.get("sec-fetch-site")
        guarded = is_graphql or method not in SAFE_METHODS or scope["type"] == "websocket"
        if guarded and fetch_site is not None and fetch_site not in SAME_SITE_FETCH:
            return 403, f"{fetch_site} request refused: only the UI's own pages may call it"
        if is_graphql and scope["type"] == "http" and method in SAFE_METHODS:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("query", [])
            if query and not _only_queries(query[0]):
                return 405, "GraphQL mutations and subscriptions must be sent by POST"
        return None

    def _same_origin(self, origin: str) -> bool:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (sandboxed frames, file: pages) and the like
        return _with_port(parts.netloc, 443 if parts.scheme == "https" else 80) in self.hosts


def _only_queries(document: str) -> bool:
    """True when every operation of the GraphQL document is a query (an unparsable one is not)."""
    from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse

    try:
        parsed = parse(document)
    except GraphQLError:
        return False
    operations = [d for d in parsed.definitions if isinstance(d, OperationDefinitionNode)]
    return all(op.operation == OperationType.QUERY for op in operations)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, reason: str) -> None:
    body = f"aceforge ui: {reason}\n".encode()
    if scope["type"] == "websocket":
        await receive()  # the handshake (websocket.connect); closing before accepting answers it with 403
        await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
        return
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
