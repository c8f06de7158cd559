"""How rich synthesized tasks are, beside τ²-bench's real tasks, by the same definitions on both sides.

Run: python bench/task_quality.py [--n 200] [--seed 0] [--difficulty MIX] [--fixtures ../shared/fixtures]

aceforge: ``--n`` tasks per domain of ``aceforge synth tasks`` (templates, no model). τ²: the retail and
airline tasks of τ²-bench v1.0.1 (``tau/tau2-bench/v1.0.1/domains/<domain>/tasks.json`` under
``--fixtures``). Definitions, applied to both sides alike:

- **request**: what the user is told they want: ``user_scenario.reason`` here, ``reason_for_call`` there;
- **words**: whitespace-separated tokens of the request (the median is printed);
- **conditional**: the request has ``if``, ``otherwise``, ``unless`` or ``in case`` as a word;
- **writes**: gold actions whose tool is not a read (a read's name starts with get_, find_, search_, list_,
  or it is calculate, think or transfer_to_human_agents); **facts to tell**: read goals here,
  ``communicate_info`` entries there; **several goals**: >= 2 writes, or a write and a fact to tell;
- **sentence templates**: the request cut into sentences (after . ! ? or a line break); a template is the
  sentence lower-cased with numbers, amounts, dates, ids, emails and capitalised words after the first
  replaced by placeholders; printed as distinct templates / sentences;
- **persona**: ``user_scenario.persona`` here; there ``persona`` when set, else ``task_instructions`` (how the
  user behaves); compared as templates with every capitalised word masked too (a customer's name does not
  make a persona new);
- **task-specific reason or preference**: the request has ``because``, ``since``, ``so that``, ``due to``,
  ``as you``, ``rather`` or a form of ``prefer`` ("because you want to" frames a request: not a reason).

Targets (issue 35): conditional >= 40 % retail, >= 25 % airline; several goals >= 50 % retail, >= 30 %
airline; templates >= 0.6 of sentences; >= 50 distinct personas; reasons >= 50 %. Prints figures only.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generators.synthesis.config import SynthTasksConfig  # noqa: E402
from generators.synthesis.levels import DEFAULT_MIX  # noqa: E402
from generators.synthesis.stages import run_tasks  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures"
TAU2_TASKS = "tau/tau2-bench/v1.0.1/domains/{domain}/tasks.json"
READ_PREFIXES = ("get_", "find_", "search_", "list_")
READ_TOOLS = {"calculate", "think", "transfer_to_human_agents"}
CONDITIONAL = re.compile(r"\b(if|otherwise|unless|in case)\b", re.IGNORECASE)
# "... because you want to" frames a request and says nothing of this task's reason.
REASON = re.compile(
    r"\b(because(?! you (?:want|would like|need|'d like) to\b)|since|so that|due to|as you|rather|prefer\w*)\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
MASKS = (
    (re.compile(r"\S+@\S+"), "<email>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "<date>"),
    (re.compile(r"\$?\d[\d,]*(?:\.\d+)?"), "<n>"),
    (re.compile(r"#?\b\w*\d\w*\b"), "<id>"),
    (re.compile(r"(?<=\S\s)[A-Z][\w'-]*"), "<name>"),
)
CAPITALISED = re.compile(r"\b[A-Z][\w'-]*")


@dataclass
class Task:
    request: str
    persona: str
    writes: int
    facts: int


def is_write(tool: str) -> bool:
    return not tool.startswith(READ_PREFIXES) and tool not in READ_TOOLS


def template(sentence: str) -> str:
    for pattern, placeholder in MASKS:
        sentence = pattern.sub(placeholder, sentence)
    return " ".join(sentence.lower().split())


def sentences(text: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(text) if part.strip()]


def ours(domain: str, n: int, seed: int, difficulty: str) -> tuple[list[Task], Counter]:
    records, _ = run_tasks(SynthTasksConfig(env=domain, n=n, seed=seed, difficulty=difficulty), "task_quality")
    tasks = []
    for record in records:
        scenario, meta = record.task.user_scenario, record.task.metadata
        actions = record.task.expected_outputs["gold_actions"]
        tasks.append(
            Task(
                request=scenario["reason"],
                persona=scenario.get("persona", ""),
                writes=sum(is_write(action["name"]) for action in actions),
                facts=sum(goal["outcome"] == "read" for goal in meta["goals"]),
            )
        )
    return tasks, Counter(record.task.metadata["level"] for record in records)


def tau2(domain: str, fixtures: Path) -> list[Task]:
    tasks = []
    for raw in json.loads((fixtures / TAU2_TASKS.format(domain=domain)).read_text()):
        instructions = raw["user_scenario"]["instructions"]
        criteria = raw.get("evaluation_criteria") or {}
        tasks.append(
            Task(
                request=instructions.get("reason_for_call") or "",
                persona=raw["user_scenario"].get("persona") or instructions.get("task_instructions") or "",
                writes=sum(is_write(action["name"]) for action in criteria.get("actions") or []),
                facts=len(criteria.get("communicate_info") or []),
            )
        )
    return tasks


def figures(tasks: list[Task]) -> dict[str, str]:
    share = lambda hits: f"{100 * sum(hits) / len(tasks):.1f} %"  # noqa: E731
    cut = [sentence for task in tasks for sentence in sentences(task.request)]
    return {
        "tasks": str(len(tasks)),
        "median words in the request": f"{statistics.median(len(t.request.split()) for t in tasks):g}",
        "conditional requests": share(bool(CONDITIONAL.search(t.request)) for t in tasks),
        "several goals": share(t.writes >= 2 or (t.writes >= 1 and t.facts >= 1) for t in tasks),
        "distinct templates / sentences": f"{len({template(s) for s in cut})}/{len(cut)}",
        "distinct personas": str(
            len({template(CAPITALISED.sub("<name>", t.persona)) for t in tasks if t.persona.strip()})
        ),
        "task-specific reasons or preferences": share(bool(REASON.search(t.request)) for t in tasks),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200, help="Synthesized tasks per domain.")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the synthesis.")
    parser.add_argument("--difficulty", default=DEFAULT_MIX, help="Level mix of the synthesis (synth tasks').")
    parser.add_argument("--fixtures", type=Path, default=FIXTURES, help="The shared fixtures folder (τ² tasks).")
    args = parser.parse_args()
    for domain in ("retail", "airline"):
        mine, levels = ours(domain, args.n, args.seed, args.difficulty)
        theirs = figures(tau2(domain, args.fixtures))
        print(
            f"\n=== {domain}: aceforge (seed {args.seed}, levels {dict(sorted(levels.items()))}) beside τ² v1.0.1 ==="
        )
        print(f"{'figure':<40}{'aceforge':>16}{'τ²':>16}")
        for name, value in figures(mine).items():
            print(f"{name:<40}{value:>16}{theirs[name]:>16}")


if __name__ == "__main__":
    main()
