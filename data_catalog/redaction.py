"""What a published artefact (dataset card, recipe) must not carry: secrets, the user's local paths and
private network addresses.

Secrets go by key (a config's ``hf_token``, ``password``, ``api_key``, ...: any
key with such a word, whose value is text) and by pattern (the ``user:password@``
of a URL, a ``Bearer`` credential, an ``hf_...`` token, wherever they appear). Paths under the data directory are
written relative to it (``$ACEFORGE_HOME/assets/...``), so a card says the same on every machine; every other
local path keeps only its last name and private addresses go whole (private_refs.py states those rules).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from data_catalog.private_refs import scrub_private

REDACTED = "<redacted>"
DATA_DIR = "$ACEFORGE_HOME"
# Words that make a key a secret's name (as a whole word of it: max_tokens and author stay).
SECRET_WORDS = frozenset(
    {"token", "password", "passwd", "pwd", "secret", "apikey", "credential", "credentials", "auth", "authorization"}
)
SECRET_PAIRS = frozenset(
    {("api", "key"), ("access", "key"), ("private", "key"), ("secret", "key"), ("client", "secret")}
)
_URL_CREDENTIALS = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]*:[^/@\s]*@")
# Tokens recognisable by their form: an HTTP bearer credential, a Hugging Face access token.
_TOKENS = re.compile(r"(?P<bearer>\bBearer\s+)[\w.~+/=-]+|\bhf_[A-Za-z0-9]{20,}\b")
# "key: value" / "key=value" / "key": "value" in free text (a summary, a card line).
_KEYED_VALUE = re.compile(r"""(?P<key>[A-Za-z_][\w.-]*)(?P<sep>["']?\s*[:=]\s*["']?)(?P<value>[^\s"',;)}\]]+)""")


def is_secret_key(key: str) -> bool:
    words = [w for w in re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).lower()) if w]
    return any(w in SECRET_WORDS for w in words) or any(pair in SECRET_PAIRS for pair in zip(words, words[1:]))


def redact_value(value: Any, data_dir: Path | None = None) -> Any:
    """A copy of ``value`` (mappings, lists, text) with secrets replaced and local paths made portable."""
    if isinstance(value, dict):
        return {
            key: REDACTED
            if isinstance(key, str) and is_secret_key(key) and isinstance(item, str) and item
            else redact_value(item, data_dir)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_value(item, data_dir) for item in value]
    if isinstance(value, str):
        return redact_text(value, data_dir)
    return value


def redact_text(text: str, data_dir: Path | None = None) -> str:
    """``text`` with URL credentials and secret-named values replaced, the data directory written as
    ``$ACEFORGE_HOME``, and other local paths and private addresses taken out (``scrub_private``)."""
    text = _URL_CREDENTIALS.sub(lambda m: f"{m['scheme']}{REDACTED}@", text)
    text = _TOKENS.sub(lambda m: (m["bearer"] or "") + REDACTED, text)
    text = _KEYED_VALUE.sub(_redact_keyed, text)
    for folder in _data_dir_forms(data_dir):
        text = re.sub(re.escape(folder) + r"(?=/|\b|$)", lambda _: DATA_DIR, text)
    return scrub_private(text)


def _redact_keyed(match: re.Match) -> str:
    value = match["value"]
    if not is_secret_key(match["key"]) or value.startswith(REDACTED) or value.replace(".", "").isdigit():
        return match[0]
    return f"{match['key']}{match['sep']}{REDACTED}"


def _data_dir_forms(data_dir: Path | None) -> list[str]:
    """The data directory as written (absolute) and as resolved, the longer first."""
    if data_dir is None:
        return []
    forms = {str(Path(data_dir).absolute()).rstrip("/"), os.path.realpath(data_dir).rstrip("/")}
    return sorted((form for form in forms if form), key=len, reverse=True)
