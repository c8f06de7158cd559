"""Labelled cases: how they are written, frozen and turned into records.

A case module (``retail.py``, ``airline.py``, or a later set of a domain, ``retail_<set>.py``) defines
``CASES``, a list of ``Case``. A script is a list of
steps: ``U("...")`` a user turn, ``A("...")`` an agent message, and ``("tool_name", {arguments})`` a tool call,
answered by the live world (the task's own seed and size), so every tool result is real. Tasks are frozen in
``tasks_<domain>.json`` ({name: {"env_params", "seed", "task"}}), written once by ``freeze_tasks`` from
synthesized records: a later change to synthesis does not move the cases onto other rows.

``records()`` gives (record, case) pairs; ``python -m labelled.cases --export out.jsonl`` (from bench/) writes
each record as JSON with its ``label``, ``kind`` and ``rationale``, for other harnesses.
"""

from __future__ import annotations

import argparse
import importlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from environments.registry import get_environment
from environments.to_record import to_record_environment
from schemas.record import AgentRecord, Source, Task, Verifier, stable_id
from schemas.steps import ApiAction, MessageAction, TextObservation

HERE = Path(__file__).resolve().parent
DOMAINS = ("retail", "airline")
Label = Literal["right", "wrong"]


def U(text: str) -> TextObservation:
    """A user turn."""
    return TextObservation(content=text, source="user")


def A(text: str) -> MessageAction:
    """An agent message to the user."""
    return MessageAction(content=text)


@dataclass(frozen=True)
class Case:
    name: str  # unique within its domain, e.g. "cancel_consent_without_yes_word"
    task: str  # a key of tasks_<domain>.json
    script: list  # U(...), A(...) and ("tool", {arguments}) in order
    label: Label  # what a careful grader says, from the instruction and the policy
    kind: str  # what the case exercises (KINDS)
    rationale: str  # one line: why this label


# What a case exercises; the bench reports precision and recall of a pass per kind.
KINDS = {
    "consent": "the user's decision on a write: consent or refusal in any words, retractions, a yes to another question",
    "confirmation_match": "the action, rows and money the agent asked to confirm against the write it made",
    "told_facts": "dates, times, legs, counts, payment methods, money said to move, refund destinations, statuses",
    "goals": "every goal of the task answered; no closing that claims more than was done; transfers to a human",
    "refusal": "refusals: their stated reason against the task's and the tools' (worded any way), invented reasons",
    "path": "another valid path to the same end: extra reads, clarifying questions, goals in another order, recovery",
}


def freeze_tasks(domain: str, tasks: dict[str, AgentRecord]) -> None:
    """Add synthesized ``tasks`` to tasks_<domain>.json under their names (an existing name must not change)."""
    path = HERE / f"tasks_{domain}.json"
    frozen = json.loads(path.read_text()) if path.exists() else {}
    for name, record in tasks.items():
        entry = {
            "env_params": record.environment.sandbox.get("env_params", {}),
            "seed": record.environment.sandbox.get("seed", 0),
            "task": record.task.model_dump(mode="json", exclude_defaults=True),
        }
        if frozen.get(name, entry) != entry:
            raise ValueError(f"task {name!r} is frozen already, as another task")
        frozen[name] = entry
    path.write_text(json.dumps(frozen, indent=1, sort_keys=True) + "\n")


@cache
def frozen_tasks(domain: str) -> dict[str, dict[str, Any]]:
    return json.loads((HERE / f"tasks_{domain}.json").read_text())


def modules(domain: str) -> list[str]:
    """The case modules of ``domain`` by name: its first set (``retail``) and any later set of it (``retail_*``)."""
    return [domain, *sorted(path.stem for path in HERE.glob(f"{domain}_*.py"))]


def cases(domain: str) -> list[Case]:
    """The cases of ``domain``: those of its module (``retail.py``) and of any later set of it (``retail_*.py``)."""
    found = [case for module in modules(domain) for case in importlib.import_module(f"labelled.{module}").CASES]
    names = [case.name for case in found]
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise ValueError(f"{domain}: case names used twice: {duplicated}")
    return found


def record_of(domain: str, case: Case) -> AgentRecord:
    """The case as a record: E rebuilds the task's world, q is the frozen task, τ the script with real results."""
    frozen = frozen_tasks(domain)[case.task]
    env = get_environment(domain, **frozen["env_params"])
    env.reset(seed=frozen["seed"])
    environment = to_record_environment(env)
    steps: list = []
    for position, step in enumerate(case.script):
        if isinstance(step, tuple):
            name, arguments = step
            call_id = f"call_{position}"
            steps.append(ApiAction(function=name, kwargs=arguments, tool_call_id=call_id))
            steps.append(
                TextObservation(content=env.call(name, arguments).as_text(), source="tool", tool_call_id=call_id)
            )
        elif isinstance(step, (TextObservation, MessageAction)):
            steps.append(step)
        else:
            raise TypeError(f"{domain}/{case.name}: a script step is U(...), A(...) or (tool, arguments): {step!r}")
    return AgentRecord(
        id=f"labelled-{domain}-{stable_id(case.name)}",
        environment=environment,
        task=Task.model_validate(frozen["task"]),
        trajectory=steps,
        verifier=Verifier(kind="constraints"),
        source=Source(dataset=f"labelled_{domain}", format="aceforge", original_id=case.name),
    )


def records(domains: tuple[str, ...] = DOMAINS) -> list[tuple[AgentRecord, Case]]:
    return [(record_of(domain, case), case) for domain in domains for case in cases(domain)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", required=True, help="JSONL file to write: each record with its label")
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    args = parser.parse_args()
    with open(args.export, "w") as out:
        for record, case in records(tuple(args.domains)):
            row = {**record.model_dump(mode="json"), "label": case.label, "kind": case.kind}
            out.write(json.dumps({**row, "rationale": case.rationale}) + "\n")


if __name__ == "__main__":
    main()
