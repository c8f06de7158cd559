"""The UI's request guard: only the UI's user drives it, through its own pages or its token.

The first tests drive the guard over a stand-in app (fast); the last start the real `aceforge ui` and send the
forged requests of the attacks: the hostile trial's repeated ``query`` parameter that launched a run (the guard
read the first, Dagster the last), a wipeAssets POST claiming ``Sec-Fetch-Site: none``, a GET mutation from a
foreign Origin, a foreign Host; and another local user (uid 65534) without the token.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import subprocess
import sys
from urllib.parse import quote

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pipelines.ui.access_token import cookie_name, without_token
from pipelines.ui.guard import RequestGuard, allowed_hosts
from tests.conftest import ROOT
from tests.pipelines.ui_intruder import LAUNCH, WIPE
from tests.unprivileged import AS_ROOT, unprivileged_python

PORT = 3000
UI = f"http://127.0.0.1:{PORT}"
EVIL = "http://evil.example"
TOKEN = "t0k3n-" + "x" * 37
AUTH = {"Authorization": f"token {TOKEN}"}
COOKIE = cookie_name(PORT)
MUTATION = 'mutation { launchRun(executionParams: {selector: {jobName: "ingest"}}) { __typename } }'
# The hostile trial's request: the guard read the first `query`, Dagster's webserver (Starlette) reads the last.
REPEATED_QUERY = f"/graphql?query={quote('query{version}')}&query={quote(LAUNCH)}"


def stand_in(token: str | None = TOKEN) -> tuple[TestClient, list[str]]:
    """The guard over an app that records what reached it (method, path and query, and a POST's body)."""
    reached: list[str] = []

    async def endpoint(request):
        body = (await request.body()).decode("utf-8", "replace") if request.method == "POST" else ""
        reached.append(f"{request.method} {request.url.path}?{request.url.query} {body}".strip())
        return PlainTextResponse("ok")

    async def socket(websocket):
        reached.append("websocket")
        await websocket.accept()
        await websocket.close()

    app = Starlette(
        routes=[
            Route("/graphql", endpoint, methods=["GET", "POST"]),
            Route("/assets/x", endpoint, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", socket),
        ]
    )
    guarded = RequestGuard(app, allowed_hosts("127.0.0.1", PORT), token)
    return TestClient(guarded, base_url=UI, follow_redirects=False), reached


def test_allowed_hosts_are_loopback_names_the_bound_address_and_extra_names():
    assert allowed_hosts("127.0.0.1", 3000) == {"127.0.0.1:3000", "localhost:3000", "[::1]:3000"}
    assert "10.0.0.5:8080" in allowed_hosts("10.0.0.5", 8080)
    assert "box.lan:8080" in allowed_hosts("0.0.0.0", 8080, ["Box.lan"])
    assert "0.0.0.0:8080" not in allowed_hosts("0.0.0.0", 8080)


def test_a_get_mutation_is_refused_with_or_without_an_origin():
    client, reached = stand_in()
    forged = client.get(f"/graphql?query={quote(MUTATION)}", headers={**AUTH, "Origin": EVIL})
    assert forged.status_code == 403 and "cross-origin" in forged.text
    as_image = client.get(f"/graphql?query={quote(MUTATION)}", headers=AUTH)  # an <img src>: no Origin header
    assert as_image.status_code == 405 and "must be sent by POST" in as_image.text
    assert client.get(f"/graphql?query={quote('subscription { x }')}", headers=AUTH).status_code == 405
    assert client.head(f"/graphql?query={quote(MUTATION)}", headers=AUTH).status_code == 405
    # operationName picks the mutation of a document that also holds a query: the whole document is refused.
    both = quote(f"query A {{ version }} {MUTATION.replace('mutation', 'mutation B', 1)}")
    assert client.get(f"/graphql?query={both}&operationName=B", headers=AUTH).status_code == 405
    assert reached == []
    assert client.get(f"/graphql?query={quote('{ version }')}", headers=AUTH).status_code == 200
    assert reached == ["GET /graphql?query=%7B%20version%20%7D"]


def test_graphql_parameters_are_read_as_the_server_reads_them_repeated_or_unknown_ones_refused():
    client, reached = stand_in()
    trial = client.get(REPEATED_QUERY, headers=AUTH)
    assert (trial.status_code, trial.text) == (400, "aceforge ui: repeated parameter 'query' refused\n")
    encoded_name = f"/graphql?query={quote('{version}')}&%71uery={quote(MUTATION)}"  # %71 is q: still `query`
    assert client.get(encoded_name, headers=AUTH).status_code == 400
    case_variant = client.get(f"/graphql?query={quote('{version}')}&Query={quote(MUTATION)}", headers=AUTH)
    assert case_variant.status_code == 400 and "parameter 'Query' refused" in case_variant.text
    assert client.get("/graphql?query={version}&operationName=A&operationName=B", headers=AUTH).status_code == 400
    assert client.get(f"/graphql?query={{version}}&token={TOKEN}&token={TOKEN}").status_code == 400
    with_body = client.request("GET", "/graphql?query={version}", headers=AUTH, content=json.dumps({"query": MUTATION}))
    assert with_body.status_code == 400 and "GET with a body" in with_body.text
    assert client.put("/graphql", headers=AUTH, json={"query": "{ version }"}).status_code == 405
    assert reached == []
    assert client.get("/graphql?query={version}&op=Version", headers=AUTH).status_code == 200


def test_mutations_only_by_post_with_one_json_object():
    client, reached = stand_in()
    own = {**AUTH, "Origin": UI}
    # With any other Content-Type, or none, Dagster reads the query string, as a GET: a form can send that.
    as_form = client.post(f"/graphql?query={quote(MUTATION)}", headers=own, data={"x": "1"})
    assert as_form.status_code == 415 and "takes a JSON body" in as_form.text
    assert client.post(f"/graphql?query={quote(MUTATION)}", headers=own).status_code == 415
    for content_type in ("text/plain", "application/graphql", "multipart/form-data; boundary=x", "Application/JSON"):
        refused = client.post("/graphql", headers={**own, "Content-Type": content_type}, content=MUTATION)
        assert refused.status_code == 415, content_type
    as_json = {**own, "Content-Type": "application/json"}
    for body, why in (
        (json.dumps([{"query": MUTATION}]), "one JSON object"),  # a batch
        (f'{{"query": "{{ version }}", "query": {json.dumps(MUTATION)}}}', "repeated key 'query'"),
        ('{"query": "{ version }", "variables": {"a": 1, "a": 2}}', "repeated key 'a'"),
        (b'{"query": "\xff"}', "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ('{"query": ["{ version }"]}', "'query' must be a string"),
    ):
        refused = client.post("/graphql", headers=as_json, content=body)
        assert (refused.status_code, why in refused.text) == (400, True), why
    assert reached == []
    served = client.post(
        "/graphql?op=X",
        headers={**as_json, "Content-Type": "application/json; charset=utf-8"},
        content='{"query":"{ version }"}',
    )
    assert served.status_code == 200
    assert client.post("/graphql", headers=as_json, content=json.dumps({"query": MUTATION})).status_code == 200
    assert reached == [
        'POST /graphql?op=X {"query":"{ version }"}',
        f"POST /graphql? {json.dumps({'query': MUTATION})}",
    ]


def test_cross_origin_posts_and_cross_site_fetches_are_refused():
    client, reached = stand_in()
    assert client.post("/graphql", json={"query": MUTATION}, headers={**AUTH, "Origin": EVIL}).status_code == 403
    assert client.post("/graphql", json={"query": MUTATION}, headers={**AUTH, "Origin": "null"}).status_code == 403
    other_port = {**AUTH, "Origin": "http://127.0.0.1:3001"}
    assert client.post("/graphql", json={"query": MUTATION}, headers=other_port).status_code == 403
    for site in ("cross-site", "same-site", "none"):  # none: the trial's wipeAssets claimed a typed-in URL
        posted = client.post("/graphql", json={"query": MUTATION}, headers={**AUTH, "Sec-Fetch-Site": site})
        assert posted.status_code == 403, site
    assert client.get("/graphql?query={version}", headers={**AUTH, "Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.post("/assets/x", headers={**AUTH, "Sec-Fetch-Site": "none"}).status_code == 403
    assert reached == []
    # The UI's own page, a bookmark of a query, a link to the UI followed from another site are served.
    assert client.post("/graphql", json={"query": MUTATION}, headers={**AUTH, "Origin": UI}).status_code == 200
    assert (
        client.post(
            "/graphql", json={"query": "{ version }"}, headers={**AUTH, "Origin": "http://localhost:3000"}
        ).status_code
        == 200
    )
    assert client.get("/graphql?query={version}", headers={**AUTH, "Sec-Fetch-Site": "none"}).status_code == 200
    assert client.get("/assets/x", headers={**AUTH, "Sec-Fetch-Site": "cross-site"}).status_code == 200
    assert client.post("/graphql", json={"query": "{ version }"}, headers=AUTH).status_code == 200  # a script
    assert len(reached) == 5


def test_repeated_headers_the_guard_reads_are_refused():
    client, reached = stand_in()
    for name, values in (
        ("Origin", [UI, EVIL]),
        ("Host", ["127.0.0.1:3000", "evil.example"]),
        ("Authorization", ["token x", AUTH["Authorization"]]),
    ):
        headers = [(name, value) for value in values]
        if name != "Authorization":
            headers.append(("Authorization", AUTH["Authorization"]))
        refused = client.post("/graphql", json={"query": "{ version }"}, headers=headers)
        assert (refused.status_code, refused.text) == (400, f"aceforge ui: repeated {name} header refused\n")
    assert reached == []


def test_an_unknown_host_header_is_refused_dns_rebinding():
    client, reached = stand_in()
    rebound = client.get("/assets/x", headers={**AUTH, "Host": "evil.example"})
    assert rebound.status_code == 400 and "unknown Host header 'evil.example'" in rebound.text
    assert client.get("/assets/x", headers={**AUTH, "Host": "evil.example:3000"}).status_code == 400
    assert client.get("/assets/x", headers={**AUTH, "Host": "127.0.0.1"}).status_code == 400  # port 80: not this UI
    assert reached == []
    assert client.get("/assets/x", headers={**AUTH, "Host": "localhost:3000"}).status_code == 200


def test_without_the_token_nothing_is_served():
    client, reached = stand_in()
    nothing = client.get("/assets/x")
    assert (nothing.status_code, nothing.text) == (
        403,
        "aceforge ui: no access token: open the URL `aceforge ui` printed (it ends in ?token=...)\n",
    )
    assert client.get("/graphql?query={version}").status_code == 403
    assert client.post("/graphql", json={"query": "{ version }"}, headers={"Origin": UI}).status_code == 403
    wrong = "x" * len(TOKEN)
    in_the_wrong_place = [
        {"params": {"token": wrong}},
        {"headers": {"Authorization": f"token {wrong}"}},
        {"headers": {"Authorization": f"Bearer {TOKEN}"}},  # not the scheme the UI asks for
        {"headers": {"X-Token": TOKEN}},
        {"headers": {"Cookie": f"aceforge-ui-token-3001={TOKEN}"}},  # another port's UI's cookie
        {"params": {"Token": TOKEN}},  # the parameter's name is `token`
        {"params": {"token": TOKEN[:-1]}},
        # A right cookie does not excuse a wrong token.
        {"params": {"token": wrong}, "headers": {"Cookie": f"{COOKIE}={TOKEN}"}},
    ]
    for where in in_the_wrong_place:
        assert client.get("/assets/x", **where).status_code == 403, where
    assert client.post("/graphql", json={"query": "{ version }", "token": TOKEN}).status_code == 403
    assert reached == []


def test_the_tokenized_url_trades_the_token_for_a_strict_httponly_cookie():
    client, reached = stand_in()
    visit = client.get(f"/assets/x?a=1&token={TOKEN}&b=2")
    assert visit.status_code == 303 and visit.headers["location"] == "/assets/x?a=1&b=2"
    assert visit.headers["set-cookie"] == f"{COOKIE}={TOKEN}; Path=/; HttpOnly; SameSite=Strict"
    assert reached == []
    cookie = {"Cookie": f"other=1; {COOKIE}={TOKEN}"}
    assert client.get("/assets/x", headers=cookie).status_code == 200
    assert client.get("/graphql?query={version}", headers=cookie).status_code == 200
    # The browser adds the cookie by itself, to every port of the host: what changes something needs the Origin.
    posted = client.post("/graphql", json={"query": MUTATION}, headers=cookie)
    assert posted.status_code == 403 and "Origin" in posted.text
    assert client.post("/graphql", json={"query": MUTATION}, headers={**cookie, "Origin": UI}).status_code == 200
    # A script names the token each time: by header, or as the parameter (GraphQL is not sent to a cookie).
    assert client.get(f"/graphql?query={{version}}&token={TOKEN}").status_code == 200
    assert len(reached) == 4


def test_the_cookie_redirect_stays_on_the_ui():
    assert without_token("//evil.example/x", f"token={TOKEN}") == "/evil.example/x"
    assert without_token("/\\evil.example", f"a=%26&%74oken={TOKEN}&b") == "/evil.example?a=%26&b"


def test_no_token_serves_without_one_and_keeps_the_other_checks():
    client, reached = stand_in(token=None)
    assert client.get("/assets/x").status_code == 200
    assert client.post("/graphql", json={"query": MUTATION}).status_code == 200
    assert client.get(REPEATED_QUERY).status_code == 400
    assert client.post("/graphql", json={"query": MUTATION}, headers={"Origin": EVIL}).status_code == 403
    assert len(reached) == 2


def websocket_refusal(client, path: str, headers: dict[str, str]) -> str | None:
    """The close reason of a refused websocket to ``path``, None when it was accepted."""
    try:
        with client.websocket_connect(f"ws://127.0.0.1:{PORT}{path}", headers=headers):
            return None
    except WebSocketDisconnect as refused:
        assert refused.code == 1008
        return refused.reason


def test_the_websocket_needs_the_token_and_the_uis_origin():
    client, reached = stand_in()
    cookie = {"Cookie": f"{COOKIE}={TOKEN}"}
    assert "cross-origin" in websocket_refusal(client, "/graphql", {**cookie, "Origin": EVIL})
    assert "no access token" in websocket_refusal(client, "/graphql", {"Origin": UI})
    assert "Origin" in websocket_refusal(client, "/graphql", cookie)
    assert "same-site" in websocket_refusal(client, "/graphql", {**cookie, "Origin": UI, "Sec-Fetch-Site": "same-site"})
    assert reached == []
    assert websocket_refusal(client, "/graphql", {**cookie, "Origin": UI}) is None
    assert websocket_refusal(client, f"/graphql?token={TOKEN}", {}) is None  # a script, naming the token
    assert reached == ["websocket", "websocket"]


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
        return response.status, response.read().decode(), response.headers
    finally:
        connection.close()


def runs(data_home) -> list:
    from dagster import DagsterInstance

    with DagsterInstance.from_config(str(data_home / "dagster")) as instance:
        return instance.get_runs()


@pytest.mark.slow
def test_the_real_ui_refuses_forged_requests_and_serves_its_own(ui, data_home):
    host = ui.url.removeprefix("http://")
    auth = {"Host": host, "Authorization": f"token {ui.token}"}
    # The hostile trial's two requests, now with the token: the repeated `query`, wipeAssets from "none".
    status, text, _ = request(ui.url, "GET", REPEATED_QUERY, auth)
    assert (status, text) == (400, "aceforge ui: repeated parameter 'query' refused\n")
    json_from = {**auth, "Content-Type": "application/json"}
    wipe = json.dumps({"query": WIPE})
    assert request(ui.url, "POST", "/graphql", {**json_from, "Sec-Fetch-Site": "none"}, wipe)[0] == 403
    launch = quote(LAUNCH)
    status, text, _ = request(ui.url, "GET", f"/graphql?query={launch}", {**auth, "Origin": EVIL})
    assert (status, "cross-origin request from 'http://evil.example' refused" in text) == (403, True)
    assert request(ui.url, "GET", f"/graphql?query={launch}", auth)[0] == 405
    assert request(ui.url, "POST", f"/graphql?query={launch}", {**auth, "Content-Type": "text/plain"}, "")[0] == 415
    post = json.dumps({"query": LAUNCH})
    assert request(ui.url, "POST", "/graphql", {**json_from, "Origin": EVIL}, post)[0] == 403
    assert request(ui.url, "GET", "/", {**auth, "Host": "evil.example"})[0] == 400
    assert (
        request(ui.url, "POST", "/graphql", {**json_from, "Host": f"evil.example:{host.split(':')[1]}"}, post)[0] == 400
    )
    assert request(ui.url, "GET", "/", {"Host": host})[0] == 403  # no token
    assert runs(data_home) == []
    # The printed URL: a cookie, then the UI's own page, whose queries are answered.
    status, _, headers = request(ui.url, "GET", f"/?token={ui.token}", {"Host": host})
    assert (status, headers["Location"], "HttpOnly; SameSite=Strict" in headers["Set-Cookie"]) == (303, "/", True)
    cookie = {"Host": host, "Cookie": headers["Set-Cookie"].split(";")[0]}
    assert request(ui.url, "GET", "/", cookie)[0] == 200
    own = {**cookie, "Origin": ui.url, "Content-Type": "application/json"}
    status, text, _ = request(ui.url, "POST", "/graphql", own, '{"query": "{ version }"}')
    assert status == 200 and json.loads(text)["data"]["version"]
    assert ui.log.read_text().count(ui.token) == 1  # printed once: the access log's lines hide it


def intrude(command: list[str], ui) -> dict:
    digest = hashlib.sha256(ui.token.encode()).hexdigest()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([*command, ui.url, digest], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_another_local_user_without_the_token_can_neither_query_nor_mutate_nor_load_a_page(ui, data_home):
    as_this_user = intrude([sys.executable, "-m", "tests.pipelines.ui_intruder"], ui)
    assert as_this_user["uid"] == os.getuid()
    assert set(as_this_user["answers"].values()) == {403}, as_this_user["answers"]
    command = unprivileged_python("tests.pipelines.ui_intruder")
    if not AS_ROOT or command is None:
        pytest.skip("another user's attempts need root and a Python uid 65534 can run this checkout with")
    other = intrude(command, ui)
    assert other["uid"] == 65534
    assert other["token seen"] is False  # not on any command line (ps), not in an environment it can read
    assert set(other["answers"].values()) == {403}, other["answers"]
    assert runs(data_home) == []


@pytest.mark.slow
@pytest.mark.parametrize("ui", [["--no-token"]], indirect=True)
def test_no_token_is_said_and_serves_without_one(ui):
    assert ui.token is None
    assert "warning: --no-token: anyone who can reach this port can launch runs as you" in ui.log.read_text()
    host = ui.url.removeprefix("http://")
    assert request(ui.url, "GET", "/", {"Host": host})[0] == 200
    assert request(ui.url, "GET", REPEATED_QUERY, {"Host": host})[0] == 400


def test_the_webserver_does_not_start_without_a_token_or_no_token_said():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ACEFORGE_UI_HOSTS": "127.0.0.1:3000"}
    for key in ("ACEFORGE_UI_TOKEN", "ACEFORGE_UI_NO_TOKEN"):
        env.pop(key, None)
    done = subprocess.run(
        [sys.executable, "-m", "pipelines.ui.webserver"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert (
        done.stderr
        == "error: ACEFORGE_UI_TOKEN is not set (and ACEFORGE_UI_NO_TOKEN is not 1): the UI would be anyone's\n"
    )
