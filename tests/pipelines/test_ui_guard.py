"""The UI's request guard: a web page cannot run GraphQL mutations, nor reach the UI under a rebound name.

The first tests drive the guard over a stand-in app (fast); the last starts the real `aceforge ui` and sends the
forged requests of the attack: a GET mutation from a foreign Origin, a cross-origin POST, a foreign Host.
"""

from __future__ import annotations

import http.client
import json
from urllib.parse import quote

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pipelines.ui.guard import RequestGuard, allowed_hosts

PORT = 3000
UI = f"http://127.0.0.1:{PORT}"
EVIL = "http://evil.example"
MUTATION = 'mutation { launchRun(executionParams: {selector: {jobName: "ingest"}}) { __typename } }'


def stand_in() -> tuple[TestClient, list[str]]:
    """The guard over an app that records what reached it."""
    reached: list[str] = []

    async def endpoint(request):
        reached.append(f"{request.method} {request.url.path}")
        return PlainTextResponse("ok")

    async def socket(websocket):
        reached.append("websocket")
        await websocket.accept()
        await websocket.close()

    app = Starlette(
        routes=[
            Route("/graphql", endpoint, methods=["GET", "POST"]),
            Route("/assets/x", endpoint),
            WebSocketRoute("/graphql", socket),
        ]
    )
    guarded = RequestGuard(app, allowed_hosts("127.0.0.1", PORT))
    return TestClient(guarded, base_url=UI), reached


def test_allowed_hosts_are_loopback_names_the_bound_address_and_extra_names():
    assert allowed_hosts("127.0.0.1", 3000) == {"127.0.0.1:3000", "localhost:3000", "[::1]:3000"}
    assert "10.0.0.5:8080" in allowed_hosts("10.0.0.5", 8080)
    assert "box.lan:8080" in allowed_hosts("0.0.0.0", 8080, ["Box.lan"])
    assert "0.0.0.0:8080" not in allowed_hosts("0.0.0.0", 8080)


def test_a_get_mutation_is_refused_with_or_without_an_origin():
    client, reached = stand_in()
    forged = client.get(f"/graphql?query={quote(MUTATION)}", headers={"Origin": EVIL})
    assert forged.status_code == 403 and "cross-origin" in forged.text
    as_image = client.get(f"/graphql?query={quote(MUTATION)}")  # an <img src>: no Origin header
    assert as_image.status_code == 405 and "must be sent by POST" in as_image.text
    assert client.get(f"/graphql?query={quote('subscription { x }')}").status_code == 405
    assert reached == []
    assert client.get(f"/graphql?query={quote('{ version }')}").status_code == 200
    assert reached == ["GET /graphql"]


def test_cross_origin_posts_and_cross_site_fetches_are_refused():
    client, reached = stand_in()
    assert client.post("/graphql", json={"query": MUTATION}, headers={"Origin": EVIL}).status_code == 403
    assert client.post("/graphql", json={"query": MUTATION}, headers={"Origin": "null"}).status_code == 403
    other_port = {"Origin": "http://127.0.0.1:3001"}
    assert client.post("/graphql", json={"query": MUTATION}, headers=other_port).status_code == 403
    cross_site = {"Sec-Fetch-Site": "cross-site"}
    assert client.post("/graphql", json={"query": MUTATION}, headers=cross_site).status_code == 403
    assert client.get("/graphql?query={version}", headers=cross_site).status_code == 403
    assert reached == []
    # The UI's own page, and a link to the UI followed from another site, are served.
    assert client.post("/graphql", json={"query": MUTATION}, headers={"Origin": UI}).status_code == 200
    assert client.post("/graphql", json={}, headers={"Origin": "http://localhost:3000"}).status_code == 200
    assert client.get("/assets/x", headers=cross_site).status_code == 200
    assert client.post("/graphql", json={}).status_code == 200  # curl, a script: no browser, no page
    assert len(reached) == 4


def test_an_unknown_host_header_is_refused_dns_rebinding():
    client, reached = stand_in()
    rebound = client.get("/assets/x", headers={"Host": "evil.example"})
    assert rebound.status_code == 400 and "unknown Host header 'evil.example'" in rebound.text
    assert client.get("/assets/x", headers={"Host": "evil.example:3000"}).status_code == 400
    assert client.get("/assets/x", headers={"Host": "127.0.0.1"}).status_code == 400  # port 80: not this UI
    assert reached == []
    assert client.get("/assets/x", headers={"Host": "localhost:3000"}).status_code == 200


def test_a_cross_origin_websocket_is_refused():
    client, reached = stand_in()
    host = {"Host": f"127.0.0.1:{PORT}"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/graphql", headers={**host, "Origin": EVIL}),
    ):
        pass
    assert refused.value.code == 1008 and "cross-origin" in refused.value.reason
    assert reached == []
    with client.websocket_connect("/graphql", headers={**host, "Origin": UI}):
        pass
    assert reached == ["websocket"]


def request(url: str, method: str, path: str, headers: dict[str, str], body: str | None = None):
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body.encode() if body is not None else None)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.slow
def test_the_real_ui_refuses_forged_requests_and_serves_its_own(ui_url, data_home):  # noqa: F811
    from dagster import DagsterInstance

    host = ui_url.removeprefix("http://")
    launch = quote(MUTATION)
    status, text = request(ui_url, "GET", f"/graphql?query={launch}", {"Host": host, "Origin": EVIL})
    assert (status, "cross-origin request from 'http://evil.example' refused" in text) == (403, True)
    status, _ = request(ui_url, "GET", f"/graphql?query={launch}", {"Host": host})
    assert status == 405
    post = json.dumps({"query": MUTATION})
    json_from = {"Host": host, "Content-Type": "application/json"}
    assert request(ui_url, "POST", "/graphql", {**json_from, "Origin": EVIL}, post)[0] == 403
    assert request(ui_url, "GET", "/", {"Host": "evil.example"})[0] == 400
    assert (
        request(ui_url, "POST", "/graphql", {**json_from, "Host": f"evil.example:{host.split(':')[1]}"}, post)[0] == 400
    )
    with DagsterInstance.from_config(str(data_home / "dagster")) as instance:
        assert instance.get_runs() == []
    # The UI's own page: its queries are answered.
    status, text = request(ui_url, "POST", "/graphql", {**json_from, "Origin": ui_url}, '{"query": "{ version }"}')
    assert status == 200 and json.loads(text)["data"]["version"]
    assert request(ui_url, "GET", "/", {"Host": host})[0] == 200
