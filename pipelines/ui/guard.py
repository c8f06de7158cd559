"""An ASGI guard in front of Dagster's webserver: only the UI's user, through its own pages or its token, may use it.

Dagster's webserver runs GraphQL mutations (launching runs, which run as the UI's user; wiping assets) from
any request that reaches it, GET included, and answers to any Host header. Binding to 127.0.0.1 stops neither
another user of the machine nor a web page in the user's browser: it can send requests to the loopback address
(an image, a form), or rename itself onto it by DNS rebinding. So every request must:

- carry one Host header naming the UI as it was started (loopback names or the names the user allowed, with the
  port): anything else is DNS rebinding (400). The headers the guard reads come once each (400): Starlette
  takes the first of a repeated header;
- when a browser says where it comes from (``Origin``; ``Sec-Fetch-Site`` on GraphQL, websockets and anything
  that is not GET/HEAD/OPTIONS), come from the UI itself (403). GraphQL by POST and websockets must be
  ``same-origin``; ``none`` (typed in the address bar) only reads;
- hold the access token (access_token.py: a query parameter, an ``Authorization: token`` header or the cookie
  its first tokenized visit set) unless ``aceforge ui --no-token`` (403). A request that holds it only by the
  cookie, which the browser adds by itself, and changes something (a POST, a websocket) must carry the UI's
  Origin: the cookie goes to every port of the host, Origin tells them apart;
- send GraphQL in a form the guard reads exactly as the server does (graphql_request.py): mutations only by
  POST with a JSON body, a GET holds queries only (405), nothing repeated or unparsed (400, 415).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from pipelines.ui import graphql_request
from pipelines.ui.access_token import PARAM as TOKEN_PARAM
from pipelines.ui.access_token import AccessToken, cookie_name, without_token

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
Refusal = graphql_request.Refusal

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
READS_ONLY_FETCH = frozenset({"same-origin", "none"})  # `none`: typed in the address bar, a bookmark
READ_HEADERS = (
    "host",
    "origin",
    "sec-fetch-site",
    "authorization",
    "cookie",
    "content-type",
    "content-length",
    "transfer-encoding",
)
NO_TOKEN = "no access token: open the URL `aceforge ui` printed (it ends in ?token=...)"


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
    """Wraps the webserver's ASGI app; refuses what the module docstring lists, passes the rest on untouched.
    ``token`` None: no token asked (``--no-token``)."""

    def __init__(self, app: App, hosts: frozenset[str], token: str | None, graphql_path: str = "/graphql"):
        self.app, self.hosts, self.graphql_path = app, hosts, graphql_path
        self.token = AccessToken(token) if token is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None and self._is_graphql_post(scope):
            body = await _read_body(receive)
            if body is None:  # the client went away before sending it all
                return
            refusal = graphql_request.post_refusal(dict(_header_pairs(scope)).get("content-type"), body)
            receive = _replay(body, receive)
        if refusal is not None:
            await _refuse(scope, receive, send, *refusal)
        elif self._trades_token_for_cookie(scope):
            await self._send_to_cookie(scope, send)
        else:
            await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> Refusal | None:
        """(status, reason) for a request to refuse on its headers and URL, None for one to pass on."""
        raw = _header_pairs(scope)
        name = graphql_request.repeated([k for k, _ in raw if k in READ_HEADERS])
        if name is not None:
            return 400, f"repeated {name.title()} header refused"
        headers = dict(raw)
        host = headers.get("host")
        if host is None or _with_port(host, 80) not in self.hosts:
            return 400, f"unknown Host header {host!r}: this UI answers to {', '.join(sorted(self.hosts))}"
        method = scope.get("method", "GET").upper()
        websocket = scope["type"] == "websocket"
        is_graphql = scope.get("path", "").rstrip("/") == self.graphql_path
        origin = headers.get("origin")
        if origin is not None and not self._same_origin(origin):
            return 403, f"cross-origin request from {origin!r} refused"
        fetch_site = headers.get("sec-fetch-site")
        changes = websocket or method not in SAFE_METHODS
        allowed = {"same-origin"} if changes else READS_ONLY_FETCH
        if (is_graphql or changes) and fetch_site is not None and fetch_site not in allowed:
            return 403, f"{fetch_site} request refused: only the UI's own pages may call it"
        params = graphql_request.query_params(scope.get("query_string", b""))
        if graphql_request.repeated([n for n, _ in params if n == TOKEN_PARAM]):
            return 400, f"repeated parameter {TOKEN_PARAM!r} refused"
        if self.token is not None:
            named = [value for n, value in params if n == TOKEN_PARAM]
            key = cookie_name(_port(scope))
            credential = self.token.credential(named, headers.get("authorization"), headers.get("cookie"), key)
            if credential is None:
                return 403, NO_TOKEN
            if credential == "cookie" and changes and origin is None:
                return 403, "a request that changes something must carry the UI's Origin header"
        if is_graphql and not websocket:
            return self._graphql_refusal(method, params, headers)
        return None

    def _graphql_refusal(self, method: str, params: list[tuple[str, str]], headers: dict[str, str]) -> Refusal | None:
        if method not in ("GET", "HEAD", "POST"):
            return 405, f"GraphQL takes GET and POST, not {method}"
        refusal = graphql_request.params_refusal(params)
        if refusal is None and method != "POST":
            has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
            refusal = graphql_request.get_refusal(params, has_body)
        return refusal

    def _is_graphql_post(self, scope: Scope) -> bool:
        return (
            scope["type"] == "http"
            and scope["method"].upper() == "POST"
            and scope["path"].rstrip("/") == self.graphql_path
        )

    def _trades_token_for_cookie(self, scope: Scope) -> bool:
        """A page visited with the token in its URL (not GraphQL, whose callers name the token each time)."""
        return (
            self.token is not None
            and scope["type"] == "http"
            and scope["method"].upper() in ("GET", "HEAD")
            and scope["path"].rstrip("/") != self.graphql_path
            and any(name == TOKEN_PARAM for name, _ in graphql_request.query_params(scope.get("query_string", b"")))
        )

    async def _send_to_cookie(self, scope: Scope, send: Send) -> None:
        raw_path = scope.get("raw_path") or scope["path"].encode()
        location = without_token(raw_path.decode("latin-1"), scope.get("query_string", b"").decode("latin-1"))
        headers = [
            (b"location", location.encode("latin-1")),
            (b"set-cookie", self.token.set_cookie(cookie_name(_port(scope)))),
            (b"cache-control", b"no-store"),
            (b"content-length", b"0"),
        ]
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    def _same_origin(self, origin: str) -> bool:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False  # "null" (sandboxed frames, file: pages) and the like
        return _with_port(parts.netloc, 443 if parts.scheme == "https" else 80) in self.hosts


def _header_pairs(scope: Scope) -> list[tuple[str, str]]:
    return [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]


def _port(scope: Scope) -> int | None:
    server = scope.get("server")
    return server[1] if server else None


async def _read_body(receive: Receive) -> bytes | None:
    """The request's whole body; None when the client disconnects first."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app: the body the guard read, then what the client sends next (its disconnect)."""
    sent = False

    async def replay() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, reason: str) -> None:
    body = f"aceforge ui: {reason}\n".encode()
    if scope["type"] == "websocket":
        await receive()  # the handshake (websocket.connect); closing before accepting answers it with 403
        await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
        return
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
