"""The shared machinery of stateful tool worlds (retail, airline, ...).

A domain subclasses :class:`ToolWorld`, writes ``generate_state(seed)`` and
declares each tool once, as a method under ``@tool(...)`` (name, description,
JSON-schema parameters, read/write access). ``call`` then:

1. rejects unknown tools and arguments that fail the schema (stable messages);
2. runs the method, which reads rows with ``row``/``find``/``rows`` and changes
   them only through ``edit``/``insert``: those stage copies, so the committed
   state is untouched until the method returns;
3. on ``ToolError`` (or any exception) drops the staged rows and restores the
   session, so a failed call leaves the state (and its hash) unchanged;
4. on success commits the staged rows to a copy-on-write overlay over a shared
   :class:`~environments.state_store.Snapshot` and appends to ``action_log``.

Replaying many trajectories from one state: call ``reset(state=d)`` with the
*same* dict ``d`` (or a ``Snapshot``) each time. The snapshot's table hashes
are computed once, after which ``state_hash()`` costs O(rows changed). States
given to ``reset`` are never mutated and must not be mutated by the caller.

``session`` holds per-conversation facts that are not part of the database
(e.g. which user's identity a lookup verified); it starts empty at ``reset``
and is rebuilt by replaying the same calls.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import fastjsonschema
from jsonschema import Draft202012Validator

from environments.base import ToolEnvironment, ToolResult
from environments.state_store import Snapshot, TableOverlay, as_snapshot, copy_row, cycle_collector_paused
from schemas.record import Tool


class ToolError(Exception):
    """A tool refused the call; the message is the stable, user-visible error."""


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]
    access: Literal["read", "write"]
    method: str


def tool(
    description: str,
    parameters: dict[str, Any] | None = None,
    *,
    access: Literal["read", "write"] = "read",
    name: str | None = None,
) -> Callable:
    """Declare a method as a tool; the method takes the validated arguments as keywords."""

    def wrap(fn: Callable) -> Callable:
        fn.__tool_spec__ = ToolSpec(name or fn.__name__, description, parameters or params({}), access, fn.__name__)
        return fn

    return wrap


def params(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object schema: every property is required unless named in ``optional``; no extras."""
    return {
        "type": "object",
        "properties": properties,
        "required": [key for key in properties if key not in optional],
        "additionalProperties": False,
    }


def _schema_error(error) -> str:
    path = ".".join(str(part) for part in error.absolute_path)
    where = f"argument '{path}'" if path else "arguments"
    if error.validator == "required":
        missing = [key for key in error.validator_value if key not in error.instance]
        prefix = f"{path}." if path else ""
        return f"missing required argument '{prefix}{missing[0]}'"
    if error.validator == "additionalProperties":
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(key for key in error.instance if key not in allowed)
        return f"unexpected argument '{extra[0]}'" if not path else f"{where} has unexpected field '{extra[0]}'"
    if error.validator == "type":
        return f"{where} must be of type {error.validator_value}"
    if error.validator == "enum":
        return f"{where} must be one of {error.validator_value}"
    return f"{where} is invalid: {error.message}"


_GENERATED: OrderedDict[tuple, Snapshot] = OrderedDict()
_TOOLS: dict[type, list[Tool]] = {}
_GENERATED_CACHE_SIZE = 4


class ToolWorld(ToolEnvironment):
    """Base class of tool worlds: tools from decorated methods, validated, transactional calls."""

    name: ClassVar[str] = ""
    policy: ClassVar[str] = ""
    # The policy summarized for small learners: the rules the verifier enforces, a few lines (empty: none).
    compact_policy: ClassVar[str] = ""
    # What the verifier's grounding and policy stages read about a domain (verifiers/grounding.py, policy.py):
    # tools whose success verifies who the user is (empty: the user states their id and it is used as said),
    identity_tools: ClassVar[frozenset[str]] = frozenset()
    # tools that read a user's account data (allowed only after an identity tool succeeded),
    account_tools: ClassVar[frozenset[str]] = frozenset()
    # categorical values an agent may state as facts (statuses, levels), by kind (a status, a level): each must
    # have been read, and another of its kind is a wrong fact (bench/verifier_quality.py swaps within a kind),
    fact_groups: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # the same values in one tuple, as the verifiers read them,
    fact_terms: ClassVar[tuple[str, ...]] = ()
    # fields whose numbers are money (what a write moves, which its confirmation must name),
    money_keys: ClassVar[frozenset[str]] = frozenset()
    # and the words an agent names each write by ("cancel", "exchange", "upgrade"): a request to confirm a write
    # proposes it with one of them, and one that uses only another write's words confirms something else.
    action_words: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Those of the action words that name what a write acts on ("items", "flights"), not the write: a clause that
    # names a write by its own word ("the return of 2 items") says that write, whatever else it acts on.
    object_words: ClassVar[frozenset[str]] = frozenset()
    # Other words that say exactly what a fact or a rule says (regexes over lower-case text): a reply that says
    # "on its way" says the order is processed; "the card you paid with" is the original payment method.
    phrasings: ClassVar[dict[str, tuple[str, ...]]] = {}
    _specs: ClassVar[dict[str, ToolSpec]] = {}
    _validators: ClassVar[dict[str, Draft202012Validator]] = {}
    # Compiled checks: ~50x faster than jsonschema on valid arguments, the common case in replays.
    # jsonschema still words the error when one fails, so messages stay stable.
    _fast_checks: ClassVar[dict[str, Callable[[Any], Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs: dict[str, ToolSpec] = {}
        for klass in cls.__mro__:  # the domain's own tools first; a subclass's tool overrides a base's
            for attr in vars(klass).values():
                spec = getattr(attr, "__tool_spec__", None)
                if spec is not None and spec.name not in specs:
                    specs[spec.name] = spec
        for spec in specs.values():
            Draft202012Validator.check_schema(spec.parameters)
        cls._specs = specs
        cls._validators = {name: Draft202012Validator(spec.parameters) for name, spec in specs.items()}
        cls._fast_checks = {name: fastjsonschema.compile(spec.parameters) for name, spec in specs.items()}

    def __init__(self, seed: int = 0, state: dict[str, Any] | Snapshot | None = None):
        self.reset(seed=seed, state=state)

    # ---- what a domain provides -------------------------------------------------------
    def generate_state(self, seed: int) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def env_params(self) -> dict[str, Any]:
        """Constructor arguments (besides seed/state) that change the generated state, e.g. {"users": 500}.

        `get_environment(name, **env_params)` rebuilds the same world; they are part of the cache key.
        """
        return {}

    # ---- the protocol -----------------------------------------------------------------
    def reset(self, seed: int | None = None, state: dict[str, Any] | Snapshot | None = None) -> None:
        # The seed of a generated state (None when reset to a given state), for describing E.
        self.seed = None if state is not None else (0 if seed is None else seed)
        snapshot = as_snapshot(state) if state is not None else self._generated(self.seed)
        self._store = TableOverlay(snapshot)
        self._staged: dict[tuple[str, str], Any] = {}
        self.session: dict[str, Any] = {}
        self.action_log: list[dict[str, Any]] = []

    def _generated(self, seed: int) -> Snapshot:
        key = (type(self).__qualname__, seed, tuple(sorted(self.env_params().items())))
        snapshot = _GENERATED.get(key)
        if snapshot is None:
            with cycle_collector_paused():  # 50,000 retail users: 7.0 s -> 3.7 s
                snapshot = _GENERATED[key] = Snapshot(self.generate_state(seed))
            if len(_GENERATED) > _GENERATED_CACHE_SIZE:
                _GENERATED.popitem(last=False)
        return snapshot

    def tools(self) -> list[Tool]:
        # Built once per class: every replay asks, and Tool models are costly to build (a sixth of a verification).
        cached = _TOOLS.get(type(self))
        if cached is None:
            cached = _TOOLS[type(self)] = [
                Tool(name=s.name, description=s.description, parameters=s.parameters, access=s.access)
                for s in self._specs.values()
            ]
        return list(cached)  # shared, read-only Tool models

    def tool_spec(self, name: str) -> ToolSpec | None:
        return self._specs.get(name)

    def snapshot(self) -> Snapshot:
        """The shared initial snapshot this environment was reset to."""
        return self._store.snapshot

    def state(self) -> dict[str, Any]:
        return self._store.state()

    def state_hash(self) -> str:
        return self._store.state_hash()

    def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        spec = self._specs.get(name)
        if spec is None:
            return self._log(name, arguments, "read", ToolResult(ok=False, error=f"unknown tool '{name}'"), [])
        if not isinstance(arguments, dict):
            result = ToolResult(ok=False, error=f"arguments of {name} must be a JSON object")
            return self._log(name, arguments, spec.access, result, [])
        error = self._argument_error(name, arguments)
        if error is not None:
            result = ToolResult(ok=False, error=f"invalid arguments for {name}: {error}")
            return self._log(name, arguments, spec.access, result, [])
        return self._run(spec, arguments)

    def _argument_error(self, name: str, arguments: dict[str, Any]) -> str | None:
        try:
            self._fast_checks[name](arguments)
            return None
        except fastjsonschema.JsonSchemaException:
            pass
        errors = list(self._validators[name].iter_errors(arguments))
        if not errors:  # the two validators disagree: trust jsonschema, the reference implementation
            return None
        return _schema_error(min(errors, key=lambda e: (list(map(str, e.absolute_path)), e.validator)))

    def _run(self, spec: ToolSpec, arguments: dict[str, Any]) -> ToolResult:
        session_before = dict(self.session)
        self._staged = {}
        try:
            content = getattr(self, spec.method)(**copy_row(arguments))
        except ToolError as exc:
            result, writes = ToolResult(ok=False, error=str(exc)), []
        except Exception as exc:  # a tool bug must not crash a replay; report it as a failed call
            result, writes = (
                ToolResult(ok=False, error=f"internal error in {spec.name}: {type(exc).__name__}: {exc}"),
                [],
            )
        else:
            writes = sorted(self._staged)
            rows = {}
            for (table, key), row in self._staged.items():
                rows[(table, key)] = (self._store.get(table, key), row)
                self._store.put(table, key, row)
            # a copy, so a caller that edits the result cannot reach into the database
            result = ToolResult(ok=True, content=copy_row(content))
        if not result.ok:
            self.session = session_before
            rows = {}
        self._staged = {}
        return self._log(spec.name, arguments, spec.access, result, writes, rows)

    def _log(
        self,
        name: str,
        arguments: Any,
        access: str,
        result: ToolResult,
        writes: list[tuple[str, str]],
        rows: dict | None = None,
    ) -> ToolResult:
        self.action_log.append(
            {
                "tool": name,
                "arguments": arguments,
                "access": access,
                "ok": result.ok,
                "error": result.error,
                "writes": [list(w) for w in writes],
                # {(table, key): (before, after)} of a successful call's writes (shared rows: never mutate them)
                "rows": rows or {},
            }
        )
        return result

    # ---- row access for tool methods --------------------------------------------------
    def find(self, table: str, key: str) -> Any | None:
        """The current row (staged in this call, else committed), or None. Do not mutate it."""
        staged = self._staged.get((table, key))
        return staged if staged is not None else self._store.get(table, key)

    def row(self, table: str, key: str, what: str) -> Any:
        """The current row, or a ToolError '<what> <key> not found'."""
        found = self.find(table, key)
        if found is None:
            raise ToolError(f"{what} '{key}' not found")
        return found

    def edit(self, table: str, key: str, what: str) -> Any:
        """A mutable copy of a row, committed when the tool returns successfully."""
        staged = self._staged.get((table, key))
        if staged is None:
            staged = self._staged[(table, key)] = copy_row(self.row(table, key, what))
        return staged

    def insert(self, table: str, key: str, row: Any) -> None:
        if self.find(table, key) is not None:
            raise ToolError(f"{table} row '{key}' already exists")
        self._staged[(table, key)] = row

    def lookup(self, table: str, field: Callable[[Any], Any], value: Any) -> list[str]:
        """Keys of current rows whose ``field(row) == value``, via an index built once per snapshot.

        Rows changed since the snapshot are re-checked, so the answer is always current.
        """

        def build(tables: dict[str, dict[str, Any]]) -> dict[Any, list[str]]:
            index: dict[Any, list[str]] = {}
            for key, row in tables[table].items():
                index.setdefault(field(row), []).append(key)
            return index

        index_name = f"{table}:{field.__qualname__}"
        candidates = list(self._store.snapshot.index(index_name, build).get(value, []))
        candidates += self._store.changed_keys(table) + [key for name, key in self._staged if name == table]
        found = []
        for key in dict.fromkeys(candidates):
            row = self.find(table, key)
            if row is not None and field(row) == value:
                found.append(key)
        return found

    def rows(self, table: str) -> Iterator[tuple[str, Any]]:
        """All current rows of a table (committed; staged rows of this call included)."""
        for key in self._store.keys(table):
            yield key, self.find(table, key)
        for (name, key), row in self._staged.items():
            if name == table and self._store.get(table, key) is None:
                yield key, row


class UserDatabaseWorld(ToolWorld):
    """A tool world whose database comes from ``generate_db(users=N, seed=S)`` (retail, airline)."""

    generate_db: ClassVar[Callable[..., dict[str, dict[str, Any]]]]

    def __init__(self, users: int = 500, seed: int = 0, state: dict[str, Any] | Snapshot | None = None):
        self.users = users
        super().__init__(seed=seed, state=state)

    def generate_state(self, seed: int) -> dict[str, dict[str, Any]]:
        return type(self).generate_db(users=self.users, seed=seed)

    def env_params(self) -> dict[str, Any]:
        return {"users": self.users}
