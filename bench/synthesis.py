"""Synthesis throughput: constraint-first tasks per second without an LLM, at 500 and at 50,000 users.

Run: taskset -c 0 python bench/synthesis.py [--tasks 500] [--rounds 3] [--users 500 50000] [--envs retail airline]

Per world: the one-time setup (generating the DB, its first state hash, the
record's E, and 20 warm-up tasks that build the lookup indexes) and then
tasks/s for sampling, fuzzification with uniqueness
queries, gold solving and its verification by the chain (structure → replay →
constraints), with template scenarios and record building: everything
``aceforge synth tasks`` does but writing the file. Rates are the best of
``--rounds`` rounds, in CPU time (what one core delivers; the machine may be
shared) and in wall time.
Targets (issue 9): >= 200 tasks/s at 500 users, and at 50,000 users at least
half the 500-user rate (indexed lookups, not scans).

Each part of the benchmark is a function returning a row; ``main`` prints the
table (other synthesis benchmarks, such as rollout throughput, add their rows).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from generators.synthesis.config import SynthTasksConfig
from generators.synthesis.records import Provenance, Solved, finish_records
from generators.synthesis.stats import SynthStats
from generators.synthesis.synthesizer import TaskSynthesizer, synthesize_drafts

Row = dict[str, object]
WARM_UP = 20


def task_synthesis(env: str, users: int, tasks: int, rounds: int) -> Row:
    """Setup once, then ``rounds`` rounds (other seeds) of ``tasks`` tasks with 1-5 constraints, every goal kind
    allowed; the best round's rates (a shared machine only ever slows a round down)."""
    wall, cpu = time.perf_counter(), time.process_time()
    synth = TaskSynthesizer(env, users)
    # 20 tasks of another seed build the lookup indexes (one pass over the users each, once per world)
    synthesize_drafts(synth, WARM_UP, (1, 5), synth.domain.kinds(), 0, 20, SynthStats())
    setup_wall, setup_cpu = time.perf_counter() - wall, time.process_time() - cpu
    cfg = SynthTasksConfig(env=env, users=users, n=tasks, constraints="1-5")
    best_cpu = best_wall = 0.0
    for seed in range(1, rounds + 1):
        stats = SynthStats()
        wall, cpu = time.perf_counter(), time.process_time()
        drafts = synthesize_drafts(synth, tasks, (1, 5), synth.domain.kinds(), seed, 20, stats)
        solved = [Solved(draft, gold, rng, synth.environment) for draft, gold, rng in drafts]
        records = finish_records(solved, cfg, Provenance(synth.name, synth.version, seed, "bench", "bench"), stats)
        best_cpu = max(best_cpu, len(records) / (time.process_time() - cpu))
        best_wall = max(best_wall, len(records) / (time.perf_counter() - wall))
    return {
        "bench": "task synthesis",
        "env": env,
        "users": users,
        "tasks": f"{rounds} x {len(records)}",
        "made": stats.made,
        "setup_s": f"{setup_cpu:.1f} cpu / {setup_wall:.1f} wall",
        "tasks/s (cpu)": round(best_cpu),
        "tasks/s (wall)": round(best_wall),
    }


def print_table(rows: list[Row]) -> None:
    columns = list(dict.fromkeys(key for row in rows for key in row))
    widths = {c: max(len(c), *(len(str(row.get(c, ""))) for row in rows)) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    for row in rows:
        print("  ".join(str(row.get(c, "")).ljust(widths[c]) for c in columns))


def scaling_verdicts(rows: list[Row]) -> list[str]:
    """Each environment's rate at its largest world against its 500-user rate and the 200/s target."""
    lines = []
    for env in dict.fromkeys(row["env"] for row in rows):
        mine = {row["users"]: row["tasks/s (cpu)"] for row in rows if row["env"] == env}
        small, large = mine.get(500), mine.get(max(mine))
        if small is not None:
            lines.append(f"{env}: {small} tasks/s at 500 users (target >= 200: {'met' if small >= 200 else 'MISSED'})")
        if small and max(mine) != 500:
            ratio = large / small
            lines.append(
                f"{env}: {large} tasks/s at {max(mine):,} users = {ratio:.2f} x the 500-user rate "
                f"(target >= 0.5: {'met' if ratio >= 0.5 else 'MISSED'})"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=500, help="tasks per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per world; the best is printed")
    parser.add_argument("--users", type=int, nargs="+", default=[500, 50_000])
    parser.add_argument("--envs", nargs="+", default=["retail", "airline"])
    args = parser.parse_args()
    benches: list[Callable[[], Row]] = [
        (lambda env=env, users=users: task_synthesis(env, users, args.tasks, args.rounds))
        for env in args.envs
        for users in args.users
    ]
    rows = [bench() for bench in benches]
    print_table(rows)
    for line in scaling_verdicts(rows):
        print(line)


if __name__ == "__main__":
    main()
