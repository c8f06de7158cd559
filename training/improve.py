"""``aceforge improve``: rounds that train the declared learner on what it fails, judged on held-out tasks.

Each round r, with the round's learner (the declared one in round 0, then the model round r-1 trained):

a. the learner's rollouts, k per training task, sampled (generators/rollouts), each verified by the chain;
b. + c. every failed rollout labelled with the step and the reason of its first failed check, counted per task
   kind (verifiers/failure_labels.py);
d. new tasks where it fails: a level lower where it never succeeds, a level higher where it always does
   (training/improve_tasks.py); they join the training tasks from this round on;
e. the demonstrations (the oracle's verified rollouts of the training tasks) scored with the learner's pass
   rates and ACE-selected into an SFT set (curation: score, select): verified successes of tasks the learner
   never solves, diverse;
f. LoRA SFT on that set, merged into a model folder (training/sft.py): the next round's learner.

The held-out tasks (another database seed, disjoint by task and by text) are evaluated with the learner before
the first round and after each: pass^1, pass^k (training/metrics.py) and the graded score, the mean reward of
verifiers/reward.py. Everything a round makes stays in ``out_dir/round_<r>``; ``improve.json`` holds the
rounds and evaluations, ``improve.png`` plots the held-out figures over rounds (training/improve_report.py).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curation.config import ScoreConfig
from curation.score_stage import run_score
from curation.select_stage import run_select
from generators.rollouts.config import PolicyConfig, RolloutConfig
from generators.rollouts.runner import run_rollouts
from schemas.generation import Generator
from schemas.io import read_records, write_jsonl_rows, write_records
from schemas.record import AgentRecord
from training.eval_config import EvalConfig
from training.evaluate import evaluate
from training.heldout_calls import call_figures, held_out_turns, write_tools
from training.improve_config import ImproveConfig
from training.improve_report import write_plot
from training.improve_tasks import adapt_levels, add_new, keep_disjoint, level_of, level_rates, new_tasks, tasks_from
from training.inputs import EmptyInput
from training.metrics import pass_k_report
from training.next_call import HeldOutTurns
from training.sft import run_sft
from verifiers.failure_labels import count_by_kind, label_rows
from verifiers.reward import rollout_reward

Say = Callable[[str], None]
REPORT, PLOT = "improve.json", "improve.png"


@contextmanager
def policy_model(policy: PolicyConfig) -> Iterator[Generator | None]:
    """The generator of a policy that calls a model (None for the oracle), closed after its rollouts."""
    generator = policy.make_generator() if policy.uses_model() else None
    try:
        yield generator
    finally:
        if generator is not None:
            generator.close()


def roll(tasks: list[AgentRecord], policy: PolicyConfig, generator: Generator | None, dataset: str) -> list:
    return list(run_rollouts(tasks, RolloutConfig.model_validate(policy.model_dump()), generator, dataset))


@dataclass
class HeldOut:
    """The held-out tasks, the first of which the learner is rolled out on, and the call turns of the oracle's
    verified conversations of all of them."""

    path: Path
    tasks: list[AgentRecord]
    rolled: list[AgentRecord]
    turns: HeldOutTurns | None  # None when the learner calls no model (the oracle): no next token to score
    writes: set[str]


def heldout_scores(held: HeldOut, policy: PolicyConfig, generator: Generator | None, out: Path) -> dict[str, Any]:
    """pass^1, pass^k and the graded score of ``policy`` on the held-out tasks it is rolled out on; its rollouts
    are written to out."""
    cfg = EvalConfig.model_validate({**policy.model_dump(), "tasks": held.path})
    rollouts, report = evaluate(held.rolled, cfg, generator)
    write_records(rollouts, out)
    overall = report["overall"]
    return {
        "model": policy.model,
        "tasks": overall["tasks"],
        "rollouts": overall["rollouts"],
        "pass^1": overall["pass^1"],
        "pass^k": overall[f"pass^{policy.k}"],
        "score": round(sum(rollout_reward(r.verifier.result) for r in rollouts) / len(rollouts), 6)
        if rollouts
        else 0.0,
        "end_reasons": report["rollout_summary"]["end_reasons"],
    }


class Clock:
    """Seconds per phase of a round."""

    def __init__(self) -> None:
        self.phases: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.phases[phase] = round(now - self._last, 1)
        self._last = now


def select_sft(
    pool: list[AgentRecord], rollouts: list[AgentRecord], folder: Path, cfg: ImproveConfig
) -> tuple[Path, dict]:
    """Score the pool (tasks and demonstrations) with the learner's pass rates and select the SFT set."""
    write_records(pool, folder / "pool.parquet")
    run_score(folder / "pool.parquet", folder / "scored.parquet", ScoreConfig(seed=cfg.seed), rollouts=rollouts)
    result = run_select(folder / "scored.parquet", folder / "select", cfg.select)
    return folder / "select" / "sft.parquet", result.summary()


def train(sft_set: Path, records: int, model: str, folder: Path, cfg: ImproveConfig, say: Say) -> dict | None:
    """LoRA SFT of ``model`` on the set, merged into folder/model; None (the learner stays) when the set is empty."""
    if not records:
        say(f"{folder.name}: the SFT set is empty; the learner is not trained this round")
        return None
    # The learner is trained on the prompt it is rolled out and evaluated with (its rendering).
    update = {"data": sft_set, "output_dir": folder / "model", "model": model, "rendering": cfg.learner.rendering}
    sft = cfg.sft.model_copy(update=update)
    return run_sft(sft, say=say)


def evaluate_heldout(
    held: HeldOut, policy: PolicyConfig, generator: Generator | None, out: Path, say: Say
) -> dict[str, Any]:
    """The closed-loop figures (heldout_scores) and the next-call figures with gold history of ``policy``."""
    evaluation = heldout_scores(held, policy, generator, out)
    if held.turns is None:
        return {**evaluation, "calls": None}
    calls = call_figures(policy.model, held.turns, held.writes)
    exact, writes = calls["exact"], calls["write_exact"]
    say(
        f"held-out {policy.model}: pass^1 {evaluation['pass^1']}; next call exact {exact['rate']} {exact['ci95']} "
        f"of {exact['turns']} turns, write turns {writes['right']} of {writes['turns']}"
    )
    return {**evaluation, "calls": calls}


def run_round(
    index: int, tasks: list[AgentRecord], held: HeldOut, policy: PolicyConfig, cfg: ImproveConfig, say: Say
) -> tuple[dict[str, Any], list[AgentRecord]]:
    """One round: its row for the report, and the training tasks of the next round."""
    folder = cfg.out_dir / f"round_{index}"
    folder.mkdir(parents=True, exist_ok=True)
    clock = Clock()
    with policy_model(policy) as generator:  # one engine start for the held-out and the training rollouts
        evaluation = evaluate_heldout(held, policy, generator, folder / "heldout_rollouts.parquet", say)
        clock.lap("heldout_eval")
        say(f"round {index}: rolling out {len(tasks)} tasks")
        rollouts = roll(tasks, policy, generator, "learner_rollouts")
        clock.lap("learner_rollouts")
    write_records(rollouts, folder / "learner_rollouts.parquet")
    labels = label_rows(rollouts)
    write_jsonl_rows(labels, folder / "failures.jsonl")
    rates = level_rates(rollouts)
    plan = adapt_levels(rates)
    made = add_new(tasks, new_tasks(plan, cfg.tasks, cfg.new_tasks, index, f"improve_new_{index}"), held.tasks)
    write_records(made, folder / "new_tasks.parquet")
    clock.lap("new_tasks")
    with policy_model(cfg.demonstrations) as teacher:
        demos = roll(tasks + made, cfg.demonstrations, teacher, "demonstrations")
    clock.lap("demonstrations")
    sft_set, selection = select_sft(tasks + made + demos, rollouts, folder, cfg)
    clock.lap("score_select")
    summary = train(sft_set, selection["sft"], policy.model, folder, cfg, say)
    clock.lap("sft")
    row = {
        "round": index,
        "learner": policy.model,
        "heldout": evaluation,
        "train_tasks": len(tasks),
        "train": pass_k_report(rollouts, policy.k)["overall"],
        "levels": {level: {"passes": r.passes, "rollouts": r.rollouts} for level, r in rates.items()},
        "plan": plan,
        "new_tasks": dict(Counter(level_of(task) for task in made)),
        "failed_rollouts": len(labels),
        "failures_by_kind": count_by_kind(labels),
        "demonstrations": {"made": len(demos), "passed": sum(bool(d.verifier.result.passed) for d in demos)},
        "selection": selection,
        "sft_levels": dict(Counter(level_of(r) for r in read_records(sft_set))) if selection["sft"] else {},
        "sft": summary,
        "trained": summary["model"] if summary else None,
        "wall_s": clock.phases,
    }
    return row, tasks + made


def first_tasks(cfg: ImproveConfig, say: Say) -> tuple[HeldOut, list[AgentRecord]]:
    """The held-out set and the first round's training tasks, written to out_dir; training tasks overlapping a
    held-out one are dropped (said)."""
    heldout = tasks_from(cfg.heldout_file, cfg.heldout, "improve_heldout")
    tasks, dropped = keep_disjoint(tasks_from(cfg.tasks_file, cfg.tasks, "improve_tasks"), heldout)
    if dropped:
        say(f"dropped {dropped} training task(s) that share a task id or an instruction with a held-out task")
    if not tasks or not heldout:
        raise EmptyInput(f"no {'training' if heldout else 'held-out'} task to run improve on")
    write_records(heldout, cfg.out_dir / "heldout.parquet")
    write_records(tasks, cfg.out_dir / "train_tasks.parquet")
    with policy_model(cfg.demonstrations) as teacher:
        gold = [r for r in roll(heldout, cfg.demonstrations, teacher, "heldout_gold") if r.verifier.result.passed]
    write_records(gold, cfg.out_dir / "heldout_gold.parquet")
    turns = held_out_turns(gold, cfg.learner.model, cfg.learner.rendering) if cfg.learner.uses_model() else None
    say(f"held-out: {len(heldout)} tasks, {len(gold)} verified gold conversations")
    held = HeldOut(
        cfg.out_dir / "heldout.parquet", heldout, heldout[: cfg.heldout_rollout_tasks], turns, write_tools(heldout)
    )
    return held, tasks


def run_improve(cfg: ImproveConfig, say: Say = lambda _: None) -> dict[str, Any]:
    """Every round, then the last model's held-out evaluation; the report (also written to out_dir)."""
    started = time.perf_counter()
    cfg.out_dir.mkdir(parents=True, exist_ok=True)
    held, tasks = first_tasks(cfg, say)
    policy, rounds = cfg.learner, []
    for index in range(cfg.rounds):
        row, tasks = run_round(index, tasks, held, policy, cfg, say)
        rounds.append(row)
        report = {"rounds": rounds}
        (cfg.out_dir / REPORT).write_text(json.dumps(report, indent=2, default=str) + "\n")
        if row["trained"]:
            policy = policy.model_copy(update={"model": row["trained"]})
    with policy_model(policy) as generator:
        last = evaluate_heldout(held, policy, generator, cfg.out_dir / "heldout_last.parquet", say)
    evaluations = [row["heldout"] for row in rounds] + [last]
    report = {
        "k": cfg.learner.k,
        "heldout_tasks": len(held.tasks),
        "heldout_rolled_out": len(held.rolled),
        "evaluations": evaluations,
        "rounds": rounds,
        "plot": str(write_plot(evaluations, cfg.learner.k, cfg.out_dir / PLOT)),
        "wall_s": round(time.perf_counter() - started, 1),
        "config": cfg.model_dump(mode="json"),
    }
    (cfg.out_dir / REPORT).write_text(json.dumps(report, indent=2, default=str) + "\n")
    return report
