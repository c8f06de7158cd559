"""The UI's access token, as Jupyter's: a fresh random one per start, printed once in the UI's URL.

A request names it as the query parameter ``token`` or in an ``Authorization: token <token>`` header; a browser
that opened the printed URL holds it in a cookie instead: the first visit with the token in its URL sets the
cookie (HttpOnly: no script reads it; SameSite=Strict: no other site's page sends it) and is sent on to the
same URL without the token, so the token leaves the address bar and the browser's history.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Literal
from urllib.parse import parse_qsl

PARAM = "token"
SCHEME = "token"  # Authorization: token <token>

Credential = Literal["named", "cookie"]


def new_token() -> str:
    """A fresh token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int | None) -> str:
    """The cookie holding the token of the UI on ``port``: cookies do not tell ports apart, and two UIs on one
    machine must not overwrite each other's."""
    return f"aceforge-ui-token-{port}" if port else "aceforge-ui-token"


class AccessToken:
    """Checks what a request presents against the token, in constant time."""

    def __init__(self, value: str):
        self._value = value.encode()

    def matches(self, presented: str) -> bool:
        return hmac.compare_digest(self._value, presented.encode())

    def credential(
        self, named: list[str], authorization: str | None, cookie: str | None, cookie_key: str
    ) -> Credential | None:
        """How the request holds the token: ``named`` when it names it (``named``: its ``token`` query parameter
        values, then the Authorization header), ``cookie`` when only its cookie holds it; None when it does
        not, or names a wrong one (a wrong token is refused even beside a right cookie)."""
        if authorization is not None:
            scheme, _, value = authorization.strip().partition(" ")
            if scheme.lower() == SCHEME:
                named = [*named, value.strip()]
        if named:
            return "named" if all(map(self.matches, named)) else None
        held = [value for name, value in _cookies(cookie) if name == cookie_key]
        return "cookie" if held and any(map(self.matches, held)) else None

    def set_cookie(self, cookie_key: str) -> bytes:
        return f"{cookie_key}={self._value.decode()}; Path=/; HttpOnly; SameSite=Strict".encode()


def _cookies(header: str | None) -> list[tuple[str, str]]:
    pairs = [part.partition("=") for part in (header or "").split(";")]
    return [(name.strip(), value.strip()) for name, eq, value in pairs if eq]


def without_token(raw_path: str, query_string: str) -> str:
    """The URL (path and query) of a request, its ``token`` parameters left out: where a tokenized visit is sent.
    The path keeps one leading slash (``//host`` would name another site)."""
    kept = [piece for piece in query_string.split("&") if piece and not _names_token(piece)]
    path = "/" + raw_path.lstrip("/\\")
    return f"{path}?{'&'.join(kept)}" if kept else path


def _names_token(piece: str) -> bool:
    return any(name == PARAM for name, _ in parse_qsl(piece, keep_blank_values=True))
