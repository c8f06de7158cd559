"""Web agent data with one raw record per step (nnetnav-live), grouped into trajectories.

A step row is ``{id, dataset, task_name, messages: [system, user, assistant], prompt,
output, n_tokens}``; the user turn renders the page (``OBSERVATION:`` axtree, ``URL:``,
``OBJECTIVE:``, numbered ``PREVIOUS ACTIONS:``), the assistant turn reasons and ends
with one action in a code span (``click [12]``, ``type [89] [text] [1]``, ``stop [answer]``).
``prompt`` / ``output`` repeat the messages in a chat template and are not stored.

A trajectory: the system prompt (source "system"), the objective (source "user",
also q.instruction), then per step a WebObservation(axtree, url) and the action:
ApiAction with kwargs named as the action space names them, ``stop`` as a
MessageAction with the answer, a turn with no parsable action as a MessageAction.

Grouping streams: rows are grouped by ``id`` and ordered by their number of
previous actions. At most ``open_groups`` trajectories are held at once (memory
stays bounded); when a new id would exceed that, the oldest is written. A row whose
trajectory was already written (its rows were further apart than that) is
quarantined with that reason: sort or group the input by id first.

Counts: ``read`` counts trajectories (as they are opened, plus rows quarantined
on their own), ``rows`` the step rows; a record's id hashes all its rows.
An action argument written ``[name=value]`` (``scroll [direction=down]``) is
the value of that name.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from data_catalog.sources.base import (
    ConversionError,
    Converted,
    Converter,
    ConvertOptions,
    Detected,
    Quarantined,
    RawItem,
    describe_error,
    register,
    require,
    require_content,
)
from schemas.record import AgentRecord, Environment, Source, Task, stable_id
from schemas.steps import ApiAction, MessageAction, TextObservation, WebObservation

_PREVIOUS_ACTION = re.compile(r"^\d+: ", re.MULTILINE)
_TYPE = re.compile(r"type \[(\w+)\] \[(.*?)\](?: \[([01])\])?", re.DOTALL)
_STOP = re.compile(r"stop(?: \[(.*)\])?", re.DOTALL)
_NAME_AND_ARGS = re.compile(r"(\w+)((?: \[[^\]]*\])*)")
_ARG = re.compile(r"\[([^\]]*)\]")
# The action space of the nnetnav / WebArena prompt: argument names for each action.
_ACTIONS = {
    "click": ("id",),
    "hover": ("id",),
    "press": ("key_comb",),
    "scroll": ("direction",),
    "new_tab": (),
    "tab_focus": ("tab_index",),
    "close_tab": (),
    "goto": ("url",),
    "go_back": (),
    "go_forward": (),
}


@dataclass
class WebStep:
    trajectory_id: str
    number: int  # how many actions the page says came before (1: None counts), i.e. its position
    system: str | None
    objective: str
    axtree: str
    url: str
    action: ApiAction | MessageAction
    extra: dict[str, Any]
    digest: str = ""  # of the raw row, for the trajectory's content id


def parse_action(text: str) -> ApiAction | MessageAction:
    """The action at the end of an assistant turn (the last ```...``` span); its lead-in is the reasoning."""
    close = text.rfind("```")
    start = text.rfind("```", 0, close) if close >= 0 else -1
    if start < 0:
        return MessageAction(content=text)
    action = text[start + 3 : close].strip()
    after = text[close + 3 :].strip()
    reasoning = (text[:start].strip() + ("\n" + after if after.strip(" .") else "")).strip() or None
    if (match := _TYPE.fullmatch(action)) is not None:
        kwargs: dict[str, Any] = {"id": match[1], "content": match[2]}
        if match[3] is not None:
            kwargs["press_enter_after"] = int(match[3])
        return ApiAction(function="type", kwargs=kwargs, reasoning=reasoning)
    if (match := _STOP.fullmatch(action)) is not None:
        return MessageAction(content=match[1] or "", reasoning=reasoning)
    match = _NAME_AND_ARGS.fullmatch(action)
    names = _ACTIONS.get(match[1]) if match else None
    args = _ARG.findall(match[2]) if match else []
    if names is None or len(args) != len(names):
        return MessageAction(content=text)
    kwargs = {name: _argument(name, value) for name, value in zip(names, args)}
    return ApiAction(function=match[1], kwargs=kwargs, reasoning=reasoning)


def _argument(name: str, value: str) -> str | int:
    """One ``[...]`` argument: ``direction=down`` names itself, so its value is ``down``; tab indexes are ints."""
    key, sep, rest = value.partition("=")
    if sep and key.strip() == name:
        value = rest.strip()
    return int(value) if name == "tab_index" and value.isdigit() else value


def _page(content: str) -> tuple[str, str, str, int]:
    """(axtree, url, objective, step number) of a rendered page."""
    url_at = content.rfind("\nURL: ")
    objective_at = content.find("\nOBJECTIVE: ", url_at)
    previous_at = content.find("\nPREVIOUS ACTIONS:", objective_at)
    if min(url_at, objective_at, previous_at) < 0:
        raise ConversionError("user turn lacks the URL / OBJECTIVE / PREVIOUS ACTIONS sections of a rendered page")
    axtree = content[:url_at].removeprefix("OBSERVATION:").strip()
    url = content[url_at + 6 : objective_at].strip()
    objective = content[objective_at + 12 : previous_at].strip()
    number = len(_PREVIOUS_ACTION.findall(content, previous_at))
    return axtree, url, objective, number


def parse_step(raw: Any) -> WebStep:
    trajectory_id = require(raw, "id", (str, int))
    turns: dict[str, str] = {}
    for i, msg in enumerate(require(raw, "messages", list)):
        role = msg.get("role") if isinstance(msg, dict) else None
        if role not in ("system", "user", "assistant") or role in turns:
            raise ConversionError(
                f"messages[{i}]: unexpected role {role!r} (a step is one system, user and assistant turn)"
            )
        if not isinstance(msg.get("content"), str):
            raise ConversionError(f"messages[{i}]: content is {type(msg.get('content')).__name__}, expected a string")
        turns[role] = msg["content"]
    if "user" not in turns or "assistant" not in turns:
        raise ConversionError("a step needs a user turn (the page) and an assistant turn (the action)")
    axtree, url, objective, number = _page(turns["user"])
    extra = {k: raw[k] for k in ("dataset", "task_name", "n_tokens") if k in raw}
    action = parse_action(turns["assistant"])
    return WebStep(
        str(trajectory_id), number, turns.get("system"), objective, axtree, url, action, extra, stable_id(raw)
    )


@register
class WebStepsConverter(Converter):
    name = "web_steps"
    description = "Web agent steps, one record per step (nnetnav-live), grouped by trajectory id into WebObservation + action trajectories."
    options = {"open_groups": "how many trajectories may be open at once while grouping (default 8)"}
    layouts = (
        "one row per step, JSON array or JSONL: {id, messages: [system, user (the page: OBSERVATION, URL, "
        "OBJECTIVE, PREVIOUS ACTIONS), assistant (reasoning + one action in ```...```)], dataset?, task_name?}",
    )
    groups_items = True

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        if (
            isinstance(value, dict)
            and "messages" in value
            and "output" in value
            and ("task_name" in value or "prompt" in value)
        ):
            return 3, "one row per web step (nnetnav)"
        return None

    def __init__(self, options: ConvertOptions | None = None):
        super().__init__(options)
        value = self.opts.extra.get("open_groups", "8")
        if not str(value).isdigit() or int(value) < 1:
            raise ValueError(f"option open_groups must be a positive integer, not {value!r}")
        self.open_groups = int(value)

    def _record(self, steps: list[WebStep]) -> AgentRecord:
        steps.sort(key=lambda s: s.number)  # stable: rows with the same number keep their input order
        first = steps[0]
        trajectory: list = [TextObservation(content=first.system, source="system")] if first.system else []
        trajectory.append(TextObservation(content=first.objective, source="user"))
        for step in steps:
            trajectory.append(WebObservation(axtree=step.axtree, url=step.url))
            trajectory.append(step.action)
        numbers = [s.number for s in steps]
        details = {**first.extra, "n_tokens": [s.extra.get("n_tokens") for s in steps]}
        if numbers != list(range(1, len(steps) + 1)):
            details["step_numbers"] = numbers  # steps missing or repeated: say so
        return AgentRecord(
            id=self.record_id(first.trajectory_id, sorted(s.digest for s in steps)),
            environment=Environment(kind="web", name=first.extra.get("dataset")),
            task=Task(instruction=first.objective),
            trajectory=trajectory,
            source=Source(
                dataset=self.dataset, format=self.name, original_id=first.trajectory_id, license=self.opts.license
            ),
            details=details,
        )

    def _flush(self, group: list[tuple[str, int, WebStep]]) -> Converted | Quarantined:
        source, index, step = group[0]
        raw = {"id": step.trajectory_id, "rows": [i for _, i, _ in group]}
        try:
            record = self._record([s for _, _, s in group])
            require_content(record.trajectory)
            return Converted(record, source, index, raw, raw_items=len(group))
        except Exception as exc:  # one bad trajectory must never stop the run
            return Quarantined(source, index, describe_error(exc), raw, raw_items=len(group))

    def convert_stream(self, items: Iterable[RawItem]) -> Iterator[Converted | Quarantined]:
        limit = self.open_groups
        self.units_formed = 0
        # Only parsed steps are held, not the raw rows (whose prompt/output repeat everything).
        groups: OrderedDict[str, list[tuple[str, int, WebStep]]] = OrderedDict()
        written: set[str] = set()
        for item in items:
            rejected = self._rejected(item, written)
            if isinstance(rejected, Quarantined):
                self.units_formed += 1
                yield rejected
                continue
            key = rejected.trajectory_id
            if key not in groups:
                self.units_formed += 1
                if len(groups) >= limit:
                    oldest, group = groups.popitem(last=False)
                    written.add(oldest)
                    yield self._flush(group)
            groups.setdefault(key, []).append((item.source, item.index, rejected))
        for key, group in groups.items():
            written.add(key)
            yield self._flush(group)

    def _rejected(self, item: RawItem, written: set[str]) -> WebStep | Quarantined:
        """The row's step, or why the row is quarantined on its own."""
        if item.error is not None:
            return Quarantined(item.source, item.index, item.error, item.raw_text)
        try:
            step = parse_step(item.value)
        except Exception as exc:
            return Quarantined(item.source, item.index, describe_error(exc), item.value)
        if step.trajectory_id in written:
            reason = (
                f"step of trajectory {step.trajectory_id!r} comes after that trajectory was written "
                f"({self.open_groups} others in between); group the input by id"
            )
            return Quarantined(item.source, item.index, reason, item.value)
        return step
