"""BFCL multi-turn task data (gorilla's ``bfcl_eval/data/BFCL_v4_multi_turn_*.json``): tasks, q and E, no τ.

Each line is one test entry ``{id, question: [[{role, content}], ...], initial_config, path,
involved_classes, excluded_function?, missed_function?: {turn: [names]}}``: a conversation of user turns
(one list of messages per turn; an empty list is a turn where the held-out functions come back) over
stateful API classes (GorillaFileSystem, TwitterAPI, ...). It becomes a record with an empty trajectory,
as τ² tasks do (tau2_tasks.py):

- q: the first turn's user message is the instruction; every turn, the initial state of each class
  (``initial_config``), ``path``, ``excluded_function`` and ``missed_function`` go to ``task.metadata``;
  the ground truth calls, parsed from their Python form (``mv(source='a', destination='b')`` ->
  ``{function: mv, kwargs: {...}}``; positional arguments under ``args``), are ``task.expected_outputs
  ["actions"]``, one list per turn;
- E: kind ``tool_world`` named by the involved classes; its tools are the functions of those classes
  from BFCL's function docs (``multi_turn_func_doc/<class file>.json``), their parameters with BFCL's
  Python type names (dict, float, tuple, any) in JSON Schema terms; a function the entry holds out
  (``missed_function``) is left out, as BFCL leaves it out until its turn;
- v: kind ``bfcl_multi_turn`` with the ground truth strings as its spec and no result yet.

BFCL keeps the function docs and the ground truth in files beside the questions (``possible_answer/<same
name>``); they are found there, as BFCL lays out its data, or given as options. An entry that lists its
functions already (``function``) uses those.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from data_catalog.sources.base import ConversionError, Converter, ConvertOptions, Detected, register, require
from data_catalog.sources.chat_common import parse_tools
from schemas.record import AgentRecord, Environment, Source, Task, Verifier

# Which function-doc file holds each class (BFCL's own table, bfcl_eval/constants/executable_backend_config.py).
FUNC_DOC_FILES = {
    "GorillaFileSystem": "gorilla_file_system.json",
    "MathAPI": "math_api.json",
    "MessageAPI": "message_api.json",
    "TwitterAPI": "posting_api.json",
    "TicketAPI": "ticket_api.json",
    "TradingBot": "trading_bot.json",
    "TravelAPI": "travel_booking.json",
    "VehicleControlAPI": "vehicle_control.json",
    "WebSearchAPI": "web_search.json",
    "MemoryAPI_kv": "memory_kv.json",
    "MemoryAPI_vector": "memory_vector.json",
    "MemoryAPI_rec_sum": "memory_rec_sum.json",
}
_JSON_TYPES = {"dict": "object", "float": "number", "tuple": "array"}
_ENTRY_FIELDS = ("path", "involved_classes", "excluded_function", "missed_function")


def json_schema(value: Any) -> Any:
    """BFCL's parameter schema in JSON Schema terms: Python type names mapped, ``any`` left untyped."""
    if isinstance(value, list):
        return [json_schema(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: json_schema(v) for k, v in value.items() if not (k == "type" and v == "any")}
    if isinstance(out.get("type"), str):
        out["type"] = _JSON_TYPES.get(out["type"], out["type"])
    return out


def gold_call(text: str, where: str) -> dict[str, Any]:
    """One ground truth call, written as Python (``grep(file_name='a', pattern='b')``), as data."""
    try:
        call = ast.parse(text.strip(), mode="eval").body
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
            raise ValueError("not a call of a named function")
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError) as exc:
        raise ConversionError(f"{where}: ground truth {text!r} is not a call with literal arguments ({exc})") from None
    return {"function": call.func.id, **({"args": args} if args else {}), "kwargs": kwargs}


def _lines(path: Path) -> list[Any]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


@register
class BfclMultiTurnConverter(Converter):
    name = "bfcl_multi_turn"
    description = "BFCL multi-turn test entries as tasks: question turns as q, the classes' functions as E's tools."
    options = {
        "func_docs": "the folder of BFCL's function docs (default: multi_turn_func_doc/ beside the input)",
        "answers": "BFCL's ground truth file for the input (default: possible_answer/<the input's name> beside it)",
    }
    layouts = (
        "BFCL_v4_multi_turn_*.json (JSONL): {id, question: [[{role, content}]], initial_config, path, "
        "involved_classes, excluded_function?, missed_function?}",
    )

    def __init__(self, options: ConvertOptions | None = None):
        super().__init__(options)
        self._docs: dict[Path, list[Any]] = {}  # function-doc file -> its functions
        self._answers: dict[Path, dict[str, Any]] = {}  # ground truth file -> ground truth by entry id

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if not isinstance(value, dict) or not isinstance(value.get("question"), list):
            return None
        if "involved_classes" in value and "initial_config" in value:
            return 3, "BFCL multi-turn test entry"
        return None

    def items(self, document: Any, source: str = "-") -> Iterable[Any]:
        entries = document if isinstance(document, list) else [document]
        return entries if source == "-" else ({"entry": e, "source": source} for e in entries)

    def _func_docs(self, source: str | None, cls: str) -> list[Any]:
        folder = self.opts.extra.get("func_docs") or (source and Path(source).parent / "multi_turn_func_doc")
        if not folder or cls not in FUNC_DOC_FILES:
            raise ConversionError(f"no function docs for class {cls!r}: give the func_docs option")
        path = Path(folder) / FUNC_DOC_FILES[cls]
        if path not in self._docs:
            if not path.is_file():
                raise ConversionError(f"no function docs for class {cls!r} at {path}: give the func_docs option")
            self._docs[path] = _lines(path)
        return self._docs[path]

    def _ground_truth(self, source: str | None, entry_id: str) -> Any:
        given = self.opts.extra.get("answers")
        path = Path(given) if given else source and Path(source).parent / "possible_answer" / Path(source).name
        if not path or not path.is_file():
            return None  # a task without its answers is still a task
        if path not in self._answers:
            self._answers[path] = {a.get("id"): a.get("ground_truth") for a in _lines(path) if isinstance(a, dict)}
        return self._answers[path].get(entry_id)

    def convert(self, raw: Any) -> AgentRecord:
        source = None
        if isinstance(raw, dict) and "entry" in raw:
            raw, source = raw["entry"], raw.get("source")
        entry_id = require(raw, "id", str)
        turns = require(raw, "question", list)
        first = next((m for turn in turns for m in turn if isinstance(m, dict) and m.get("role") == "user"), None)
        if first is None:
            raise ConversionError("question has no user message")
        classes = require(raw, "involved_classes", list)
        held_out = {name for names in (raw.get("missed_function") or {}).values() for name in names}
        functions = raw.get("function") or [f for cls in classes for f in self._func_docs(source, cls)]
        tools = parse_tools([{**f, "parameters": json_schema(f.get("parameters"))} for f in functions])
        truth = self._ground_truth(source, entry_id)
        task = Task(
            instruction=first.get("content") or "",
            metadata={
                "task_id": entry_id,
                "turns": turns,
                "initial_config": raw.get("initial_config"),
                **{k: raw[k] for k in _ENTRY_FIELDS if raw.get(k)},
            },
        )
        if truth is not None:
            actions = [
                [gold_call(call, f"ground_truth[{t}][{i}]") for i, call in enumerate(turn)]
                for t, turn in enumerate(truth)
            ]
            task.expected_outputs = {"actions": actions}
        return AgentRecord(
            id=self.record_id(entry_id, raw),
            environment=Environment(
                kind="tool_world", name="+".join(map(str, classes)), tools=[t for t in tools if t.name not in held_out]
            ),
            task=task,
            verifier=Verifier(kind="bfcl_multi_turn", spec={"ground_truth": truth} if truth is not None else {}),
            source=Source(dataset=self.dataset, format=self.name, original_id=entry_id, license=self.opts.license),
            details={"held_out_tools": [t.model_dump(mode="json") for t in tools if t.name in held_out]}
            if held_out
            else {},
        )
