"""A Hugging Face Hub on 127.0.0.1 that answers the calls huggingface_hub 2.4 makes to upload a folder.

Without Xet (HF_HUB_DISABLE_XET=1), ``HfApi.upload_folder`` makes one commit:
``POST /api/repos/create``, ``POST /api/validate-yaml`` (for README.md),
``POST /api/datasets/{repo}/preupload/main`` (here every file is "regular", so
its bytes travel inside the commit) and ``POST /api/datasets/{repo}/commit/main``
(NDJSON: a header line, then one line per file with its base64 content). Every
request is recorded; anything else is answered 404 and recorded as unexpected.
The client also fetches ``GET /api/agent-harnesses`` (a registry it uses to
label its user agent, unauthenticated, cached for a day under HF_HOME): it
gets the empty registry.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_PREUPLOAD = re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/preupload/main$")
_COMMIT = re.compile(r"^/api/datasets/(?P<repo>[^/]+/[^/]+)/commit/main$")


@dataclass
class Request:
    method: str
    path: str
    authorization: str | None
    body: bytes


@dataclass
class FakeHub:
    url: str = ""  # set by serve()
    requests: list[Request] = field(default_factory=list)
    created: list[dict] = field(default_factory=list)
    committed: dict[str, bytes] = field(default_factory=dict)  # path in repo -> content
    unexpected: list[str] = field(default_factory=list)
    reject_create_with: tuple[int, str] | None = None  # (status, error message) for the create call

    def handle(self, method: str, path: str, body: bytes) -> tuple[int, dict]:
        if method == "POST" and path == "/api/repos/create":
            if self.reject_create_with:
                status, message = self.reject_create_with
                return status, {"error": message}
            self.created.append(json.loads(body))
            payload = self.created[-1]
            return 200, {"url": f"{self.url}/datasets/{payload['organization']}/{payload['name']}"}
        if method == "GET" and path == "/api/agent-harnesses":
            return 200, {"standardEnvVars": [], "harnesses": {}}
        if method == "POST" and path == "/api/validate-yaml":
            return 200, {"errors": [], "warnings": []}
        if method == "POST" and _PREUPLOAD.match(path):
            files = json.loads(body)["files"]
            return 200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]}
        if method == "POST" and (match := _COMMIT.match(path)):
            for line in body.splitlines():
                item = json.loads(line)
                if item["key"] == "file":
                    self.committed[item["value"]["path"]] = base64.b64decode(item["value"]["content"])
            url = f"{self.url}/datasets/{match['repo']}/commit/{'0' * 40}"
            return 200, {"commitUrl": url, "commitOid": "0" * 40, "pullRequestUrl": None}
        self.unexpected.append(f"{method} {path}")
        return 404, {"error": f"not served here: {method} {path}"}


def serve(hub: FakeHub) -> tuple[ThreadingHTTPServer, str]:
    """Start the server on a free loopback port; returns it and its URL (stop it with ``server.shutdown()``)."""

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            hub.requests.append(Request(self.command, self.path, self.headers.get("Authorization"), body))
            status, payload = hub.handle(self.command, self.path.split("?")[0], body)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _answer

        def log_message(self, *args) -> None:  # keep the test output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, hub.url
