"""A GraphQL request read exactly as Dagster's webserver reads it, and the forms of it the guard refuses.

dagster-webserver 1.13 (``GraphQLServer.graphql_http_endpoint``) reads:

- GET (and HEAD, which it answers 405): Starlette's ``query_params``, i.e. ``parse_qsl`` of the query string
  decoded as latin-1, blanks kept, percent-escapes of names decoded, names case-sensitive, and of a repeated
  name the LAST value ("Accept: text/html" gets GraphiQL's page instead);
- POST: with ``application/json`` anywhere in the (first) Content-Type, ``json.loads`` of the body bytes (UTF-8,
  -16 or -32 by its first bytes; of a repeated key the last value; a list or a scalar fails with a 500);
  with ``application/graphql`` in it, the whole body as the query; with any other type or none, the query
  string, as a GET.

The guard took the first ``query`` parameter where the server takes the last, so
``query=query{version}&query=mutation{launchRun(...)}`` launched a run. Now it parses with the same functions
and accepts only what it reads exactly as the server will: GET with the parameters below, each at most once
and a document of queries only; POST with a JSON object body whose keys are all distinct. Everything else is
refused: a batch (JSON list), other content types (forms, text, application/graphql), a GET with a body.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

from pipelines.ui.access_token import PARAM as TOKEN_PARAM

Refusal = tuple[int, str]  # (HTTP status, one line)

# What a GraphQL URL may carry: the request (GET), the operation's name the UI adds to its POSTs, the token.
PARAMS = frozenset({"query", "variables", "operationName", "op", TOKEN_PARAM})
JSON_TYPE = "application/json"


def query_params(query_string: bytes) -> list[tuple[str, str]]:
    """The query string's (name, value) pairs, as Starlette's ``QueryParams`` parses them."""
    return parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)


def repeated(names: list[str]) -> str | None:
    """The first name that occurs twice in ``names``, or None."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def params_refusal(params: list[tuple[str, str]]) -> Refusal | None:
    """A GraphQL URL's parameters: known names only, each once."""
    names = [name for name, _ in params]
    unknown = sorted(set(names) - PARAMS)
    if unknown:
        return 400, f"GraphQL parameter {unknown[0]!r} refused: the UI's GraphQL takes {', '.join(sorted(PARAMS))}"
    name = repeated(names)
    return (400, f"repeated parameter {name!r} refused") if name is not None else None


def get_refusal(params: list[tuple[str, str]], has_body: bool) -> Refusal | None:
    """A GraphQL GET (or HEAD): no body, a document of queries only (an <img src> is a GET without Origin)."""
    if has_body:
        return 400, "a GraphQL GET with a body refused"
    query = dict(params).get("query")
    if query is not None and not only_queries(query):
        return 405, "GraphQL mutations and subscriptions must be sent by POST"
    return None


def post_refusal(content_type: str | None, body: bytes) -> Refusal | None:
    """A GraphQL POST: a JSON object (one operation, distinct keys at every level) with a string ``query``."""
    if content_type is None or content_type.split(";")[0].strip() != JSON_TYPE:
        return 415, f"GraphQL by POST takes a JSON body (Content-Type: {JSON_TYPE}), not {content_type!r}"
    try:
        data = json.loads(body, object_pairs_hook=_distinct_keys)
    except _RepeatedKey as error:
        return 400, f"repeated key {error.args[0]!r} in the GraphQL body refused"
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError; nesting past Python's stack
        return 400, "the GraphQL body is not valid JSON"
    if not isinstance(data, dict):
        return 400, "the GraphQL body must be one JSON object (batches and other values are refused)"
    if not isinstance(data.get("query"), str):
        return 400, "the GraphQL body's 'query' must be a string"
    return None


class _RepeatedKey(ValueError):
    pass


def _distinct_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    name = repeated([key for key, _ in pairs])
    if name is not None:
        raise _RepeatedKey(name)
    return dict(pairs)


def only_queries(document: str) -> bool:
    """True when every operation of the GraphQL document is a query (an unparsable one is not): whatever
    ``operationName`` picks, nothing else runs."""
    from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse

    try:
        parsed = parse(document)
    except (GraphQLError, RecursionError):
        return False
    operations = [d for d in parsed.definitions if isinstance(d, OperationDefinitionNode)]
    return all(op.operation == OperationType.QUERY for op in operations)
