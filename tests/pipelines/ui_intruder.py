"""What another local user tries against `aceforge ui`: run as a separate process (as uid 65534 where the tests run
as root; as this user, without the token, besides), it prints one JSON object of what each attempt gave.

``python -m tests.pipelines.ui_intruder URL TOKEN_SHA256``: look for the token in every process's command line and
environment it can read (it knows only the token's SHA-256, to recognise it), then load the UI's pages, query
and mutate its GraphQL (by GET and by POST, claiming the UI's own Origin), open its websocket, and guess a token.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import sys
from pathlib import Path
from urllib.parse import quote, urlsplit

LAUNCH = (
    'mutation { launchRun(executionParams: {selector: {repositoryLocationName: "pipelines.definitions",'
    ' repositoryName: "__repository__", jobName: "ingest"}, executionMetadata: {tags: [{key: "dagster/partition",'
    ' value: "demo_bookstore_qa"}]}}) { __typename } }'
)
WIPE = 'mutation { wipeAssets(assetPartitionRanges: [{assetKey: {path: ["converted"]}}]) { __typename } }'
TOKEN_LIKE = re.compile(rb"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)


def token_seen(digest: str) -> bool:
    """Whether any /proc/*/cmdline or /proc/*/environ this user can read holds the token."""
    for process in Path("/proc").glob("[0-9]*"):
        for name in ("cmdline", "environ"):
            try:
                text = (process / name).read_bytes()
            except OSError:  # another user's environment, a process gone
                continue
            if any(hashlib.sha256(m.group()).hexdigest() == digest for m in TOKEN_LIKE.finditer(text)):
                return True
    return False


def status(url: str, method: str, path: str, headers: dict[str, str], body: str | None = None) -> int:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Host": parts.netloc, **headers})
        return connection.getresponse().status
    finally:
        connection.close()


def attempts(url: str) -> dict[str, int]:
    own_page = {"Origin": url, "Content-Type": "application/json"}
    websocket = {
        "Origin": url,
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    return {
        "page": status(url, "GET", "/", {}),
        "asset page": status(url, "GET", "/assets/converted", {}),
        "server_info": status(url, "GET", "/server_info", {}),
        "query by GET": status(url, "GET", f"/graphql?query={quote('{ version }')}", {}),
        "query by POST": status(url, "POST", "/graphql", own_page, json.dumps({"query": "{ version }"})),
        "launchRun": status(url, "POST", "/graphql", own_page, json.dumps({"query": LAUNCH})),
        "wipeAssets": status(url, "POST", "/graphql", own_page, json.dumps({"query": WIPE})),
        "websocket": status(url, "GET", "/graphql", websocket),
        "guessed token": status(url, "GET", "/?token=" + "A" * 43, {}),
        "guessed header": status(url, "GET", "/", {"Authorization": "token " + "A" * 43}),
    }


def main() -> None:
    url, digest = sys.argv[1], sys.argv[2]
    print(json.dumps({"uid": os.getuid(), "token seen": token_seen(digest), "answers": attempts(url)}))


if __name__ == "__main__":
    main()
