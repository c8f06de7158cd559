"""Downstream value of curation: does LoRA-SFT on ACE-selected data predict held-out tool calls better than random data?

1. **Pool**: synthesized retail tasks (templates, DB seed 0) from every goal kind
   but the held-out ones (--holdout-kinds), each rolled out by the oracle agent
   and by the perturbed agent (seeded faults) with the scripted user; every
   rollout verified.
2. **Held-out set**, fixed and written to disk (its sha256 printed) before any
   arm runs: tasks from another DB (--heldout-db-seed: other users, orders,
   products) and every goal kind, the held-out kinds included, with their
   verified oracle rollouts; tasks are taken in synthesis order until they hold
   --heldout-turns tool-call turns.
3. **Arms**, for each N in --n and each seed in --seeds, all trained with the
   same optimizer steps, batch and LoRA settings (the project's SFT stage,
   training/sft.py; the seed sets the random draw, the data order and the LoRA
   init): ``random-all`` (N pool rollouts, verified or not), ``random-verified``
   (N verified successes), ``ace`` (``aceforge score`` -> ``dedup`` ->
   ``select --budget N`` on the pool; the declared learner (--ace-learner) is
   the perturbed agent, whose rollouts are in the pool: a cheap stand-in, since
   rolling SmolLM2 out on 400 tasks does not fit the CPU budget; its pass rates
   only, never the oracle's, place complexity; ACE's set does not depend on the
   seed). ``base`` is the untrained
   model.
4. **Primary metric**: teacher-forced next-call exact match on the held-out
   tool-call turns (bench/next_call.py: the model's argmax at every token of
   the gold turn, rendered as SFT renders it, is the gold token: tool name and
   arguments reproduced verbatim), also on the turns of tasks with a held-out
   goal kind. Paired bootstrap 95 % intervals for ace − random-verified (and
   ace − random-all), over held-out turns and over seeds.
5. **Secondary** (--pass-k-tasks > 0): pass^1 over k=--pass-k rollouts on that
   many held-out tasks with the model as the ``llm`` agent, scripted user,
   --max-turns, beside the do-nothing agent (0 by construction: synthesis
   rejects any task the empty, refuse or read-only agent passes,
   generators/synthesis/trivial_agents.py).

The table is printed whatever it shows, and written to the output folder
(table.md, results.json with every per-turn hit, heldout.jsonl).

Defaults are sized for 2 CPU cores shared with other work (load 3-6), where
SmolLM2-135M reads ~40-60 tokens/s forward on one torch thread (two threads
were twice slower there: --threads) and one LoRA step on a 3k-token retail
conversation (2.7k of it the system prompt) takes ~2 min with the merge and
save. So on a CPU the run is smoke-sized (N=100 but 1 step of batch 1, 16
held-out turns, no pass^k: SmolLM2 rollouts through vLLM CPU took ~9 s per
conversation) and cannot give a verdict; every part's time is printed to
show why. The issue's sizes, for a GPU:

    python bench/downstream.py                                   # CPU defaults, <= 60 min on 2 cores
    python bench/downstream.py --device cuda --precision bf16 --n 100 400 --seeds 0 1 2 \\
        --steps 200 --batch-size 8 --max-length 4096 --heldout-turns 500 --learning-rate 2e-4 \\
        --pass-k-tasks 100 --pass-k 4 --max-turns 12 --backend vllm [--model /path/to/larger/model]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# Held out of the pool entirely: a write whose tool no pool task calls, and a refusal.
HOLDOUT_KINDS = ["modify_pending_order_address", "refuse_return_not_delivered"]
ARMS = ["random-all", "random-verified", "ace"]
timings: dict[str, float] = {}


def timed(part: str):
    class Timer:
        def __enter__(self):
            self.started = time.perf_counter()

        def __exit__(self, *exc):
            timings[part] = time.perf_counter() - self.started
            print(f"[{timings[part]:7.1f}s] {part}", flush=True)

    return Timer()


def aceforge(*args) -> None:
    subprocess.run([sys.executable, "-m", "pipelines.cli.main", *map(str, args)], check=True, stdout=subprocess.DEVNULL)


def sha256(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def make_heldout(args, folder: Path, tokenizer, template):
    """The held-out tasks and gold turns, written to disk before any arm runs."""
    from next_call import gold_turns
    from training_pool import passed, roll_out, synth_tasks

    from schemas.io import write_records
    from schemas.task_identity import task_of

    def synth(n: int, goals: list[str] | None) -> list:
        return synth_tasks(n, seed=args.heldout_seed, users=args.users, db_seed=args.heldout_db_seed, goals=goals)

    with timed("held-out set: synthesize, roll out the oracle, render"):
        unseen_turns = round(args.unseen_share * args.heldout_turns)
        unseen_tasks = synth(
            max(unseen_turns // 2 + 5, round(args.unseen_share * args.pass_k_tasks)), args.holdout_kinds
        )
        any_tasks = synth(max(args.pass_k_tasks, args.heldout_turns // 2 + 10), None)
        rollouts = {task_of(r): r for r in roll_out(unseen_tasks + any_tasks, "oracle", 1) if passed(r)}
        chosen: dict[str, object] = {}
        for tasks, target in [(unseen_tasks, unseen_turns), (any_tasks, args.heldout_turns)]:
            for task in tasks:
                turns = sum(len(gold_calls(r)) for r in chosen.values())
                if turns < target and task.id in rollouts and task.id not in chosen:
                    chosen[task.id] = rollouts[task.id]
        held = gold_turns(list(chosen.values()), tokenizer, template, set(args.holdout_kinds))
        write_records(chosen.values(), folder / "heldout.jsonl")
        firsts = unseen_tasks[: round(args.unseen_share * args.pass_k_tasks)]
        eval_tasks = list({task.id: task for task in firsts + any_tasks}.values())[: args.pass_k_tasks]
        write_records(eval_tasks, folder / "heldout_tasks.jsonl")
    unseen = sum(turn.unseen_kind for turn in held.turns)
    print(
        f"held-out: {len(held.conversations)} conversations, {len(held.turns)} tool-call turns ({unseen} in tasks of a held-out "
        f"kind {', '.join(args.holdout_kinds)}), {sum(map(len, held.conversations)) - held.prefix * len(held.conversations)} "
        f"dialogue tokens + a {held.prefix}-token shared prefix; {len(eval_tasks)} pass^k tasks; "
        f"sha256 {sha256(folder / 'heldout.jsonl', folder / 'heldout_tasks.jsonl')}",
        flush=True,
    )
    return held, eval_tasks


def gold_calls(record) -> list:
    from schemas.steps import ApiAction

    return [step for step in record.trajectory if isinstance(step, ApiAction)]


def make_pool(args, folder: Path) -> tuple[Path, list]:
    from training_pool import goal_kinds, passed, roll_out, synth_tasks

    from schemas.io import write_records

    kinds = [kind for kind in goal_kinds() if kind not in args.holdout_kinds]
    with timed(f"pool: synthesize {args.pool} tasks, oracle k=1 and perturbed k={args.perturbed_k} rollouts"):
        tasks = synth_tasks(args.pool, seed=0, users=args.users, db_seed=0, goals=kinds)
        rollouts = roll_out(tasks, "oracle", 1) + roll_out(tasks, "perturbed", args.perturbed_k)
        pool = folder / "pool.parquet"
        write_records(rollouts, pool)
    print(f"pool: {len(tasks)} tasks, {len(rollouts)} rollouts, {sum(map(passed, rollouts))} verified successes")
    return pool, rollouts


def ace_set(args, pool: Path, n: int, folder: Path) -> Path:
    scored, dedup, out = folder / "scored.parquet", folder / "dedup.parquet", folder / f"ace-{n}"
    from generators.rollouts.config import PolicyConfig

    learner = PolicyConfig(agent=args.ace_learner, user="scripted", k=args.perturbed_k).policy_id()
    with timed(f"ACE: score (learner: the {args.ace_learner} agent's rollouts), dedup, select --budget {n}"):
        if not scored.exists():
            aceforge("score", pool, "-o", scored, "--learner-id", learner, "--no-catalog")
            aceforge("dedup", scored, "-o", dedup, "--no-catalog")
        aceforge("select", dedup, "--budget", n, "--out-dir", out, "--no-catalog")
    return out / "sft.parquet"


def random_set(rollouts: list, n: int, seed: int, path: Path) -> Path:
    from schemas.io import write_records

    write_records(random.Random(seed).sample(rollouts, min(n, len(rollouts))), path)
    return path


def fine_tune(args, data: Path, output_dir: Path, seed: int) -> dict:
    from training.sft import run_sft
    from training.sft_config import SftConfig

    cfg = SftConfig(
        data=data, output_dir=output_dir, model=args.model, max_steps=args.steps, batch_size=args.batch_size,
        max_length=args.max_length, learning_rate=args.learning_rate, seed=seed, precision=args.precision,
        gradient_checkpointing=args.gradient_checkpointing, logging_steps=1, save_steps=10_000,
        lora={"enabled": True, "r": args.lora_r, "alpha": 2 * args.lora_r},
    )  # fmt: skip
    return run_sft(cfg)


def next_call(args, model_path: str, held) -> tuple[list[tuple[bool, int, int]], float]:
    import torch
    from next_call import score_turns
    from transformers import AutoModelForCausalLM

    started = time.perf_counter()
    dtype = torch.bfloat16 if args.precision == "bf16" else torch.float32
    model = AutoModelForCausalLM.from_pretrained(model_path, dtype=dtype).to(args.device).eval()
    hits = score_turns(model, held, args.device)
    return hits, time.perf_counter() - started


def pass_k(args, model_path: str, tasks: list) -> float | None:
    if not tasks:
        return None
    from training.eval_config import EvalConfig
    from training.evaluate import evaluate

    cfg = EvalConfig(
        tasks=Path("heldout_tasks.jsonl"), model=model_path, backend=args.backend, k=args.pass_k, user="scripted",
        budget={"max_turns": args.max_turns}, sampling={"max_tokens": args.turn_tokens},
        cache=False,
    )  # fmt: skip
    generator = cfg.make_generator()
    try:
        _, report = evaluate(tasks, cfg, generator)
    finally:
        generator.close()
    return report["overall"]["pass^1"]


def run_model(args, label: str, model_path: str, held, eval_tasks: list) -> dict:
    hits, seconds = next_call(args, model_path, held)
    timings[f"next-call eval {label}"] = seconds
    exact = [hit for hit, _, _ in hits]
    entry = {
        "exact": exact,
        "tokens_right": sum(right for _, right, _ in hits) / max(1, sum(total for _, _, total in hits)),
        "eval_s": round(seconds, 1),
    }
    print(f"[{seconds:7.1f}s] next-call eval {label}: exact match {sum(exact) / len(exact):.3f}", flush=True)
    if eval_tasks:
        with timed(f"pass^1 (k={args.pass_k}) {label} on {len(eval_tasks)} tasks"):
            entry["pass^1"] = pass_k(args, model_path, eval_tasks)
    return entry


def arm_data(arm: str, n: int, seed: int, folder: Path, ace: Path, rollouts: list, verified: list) -> Path:
    if arm == "ace":
        return ace
    drawn_from = rollouts if arm == "random-all" else verified
    return random_set(drawn_from, n, seed, folder / f"{arm}-{n}-{seed}.parquet")


def run_arms(args, folder: Path, pool: Path, rollouts: list, held, eval_tasks: list) -> dict:
    from training_pool import passed

    from generators.llm.model_store import resolve_model

    verified = [r for r in rollouts if passed(r)]
    results = {"base": {"runs": [run_model(args, "base", resolve_model(args.model), held, eval_tasks)]}}
    for n in args.n:
        ace = ace_set(args, pool, n, folder)
        for arm in ARMS:
            runs = []
            for seed in args.seeds:
                label = f"{arm} N={n} seed={seed}"
                data = arm_data(arm, n, seed, folder, ace, rollouts, verified)
                model_dir = folder / f"model-{arm}-{n}-{seed}"
                with timed(f"SFT {label} ({args.steps} steps)"):
                    summary = fine_tune(args, data, model_dir, seed)
                run = run_model(args, label, str(model_dir), held, eval_tasks)
                run.update(seed=seed, records=summary["train"], train_loss=summary["train_loss"])
                runs.append(run)
                shutil.rmtree(model_dir)  # ~0.5 GB of merged fp32 weights per model
            results[f"{arm} N={n}"] = {"n": n, "arm": arm, "runs": runs}
    return results


def table(args, results: dict, held) -> str:
    from next_call import paired_difference

    unseen = [i for i, turn in enumerate(held.turns) if turn.unseen_kind]

    def rate(hits: list[bool], subset: list[int] | None = None) -> float:
        chosen = [hits[i] for i in subset] if subset is not None else hits
        return sum(chosen) / len(chosen) if chosen else float("nan")

    def spread(values: list[float]) -> str:
        mean = statistics.fmean(values)
        return f"{mean:.3f}" + (f" ± {statistics.stdev(values):.3f}" if len(values) > 1 else "")

    lines = [
        f"Teacher-forced next-call exact match on {len(held.turns)} held-out tool-call turns "
        f"({len(unseen)} in tasks of held-out goal kinds); mean ± sd over seeds",
        "",
        "| arm | N | seeds | SFT records | train loss | exact match | held-out kinds | token acc | pass^1 | eval s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in results.items():
        runs = entry["runs"]
        loss = "-" if "train_loss" not in runs[0] else spread([r["train_loss"] for r in runs])
        records = "-" if "records" not in runs[0] else "/".join(str(r["records"]) for r in runs)
        pk = [r["pass^1"] for r in runs if r.get("pass^1") is not None]
        lines.append(
            f"| {entry.get('arm', name)} | {entry.get('n', '-')} | {len(runs)} | {records} | {loss} "
            f"| {spread([rate(r['exact']) for r in runs])} | {spread([rate(r['exact'], unseen) for r in runs])} "
            f"| {spread([r['tokens_right'] for r in runs])} | {spread(pk) if pk else '-'} "
            f"| {statistics.fmean(r['eval_s'] for r in runs):.0f} |"
        )
    if args.pass_k_tasks:
        lines.append(
            "| do-nothing (empty / refuse / read-only) | - | - | - | - | 0 | 0 | - | 0 (by construction) | - |"
        )
    lines += ["", "Paired bootstrap (2000 resamples), 95 % intervals:", ""]
    for n in args.n:
        for other in ["random-verified", "random-all"]:
            a, b = results[f"ace N={n}"]["runs"], results[f"{other} N={n}"]["runs"]
            diff = paired_difference([r["exact"] for r in a], [r["exact"] for r in b])
            lines.append(
                f"- N={n}: ace − {other} = {diff['difference']:+.3f}; over turns "
                f"[{diff['ci_turns'][0]:+.3f}, {diff['ci_turns'][1]:+.3f}]; over seeds "
                f"[{diff['ci_seeds'][0]:+.3f}, {diff['ci_seeds'][1]:+.3f}]"
            )
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--out", type=Path, help="output folder (default: a new temporary folder, kept)")
    add("--pool", type=int, default=400, help="pool tasks (each: 1 oracle + --perturbed-k perturbed rollouts)")
    add("--perturbed-k", type=int, default=1, help="perturbed rollouts per pool task")
    add("--users", type=int, default=200, help="users in each generated retail database")
    add("--holdout-kinds", nargs="+", default=HOLDOUT_KINDS, help="goal kinds kept out of the pool")
    add("--heldout-db-seed", type=int, default=1, help="DB seed of the held-out tasks (the pool's is 0)")
    add("--heldout-seed", type=int, default=1, help="sampling seed of the held-out tasks")
    add("--heldout-turns", type=int, default=16, help="held-out tool-call turns at least (issue: 500)")
    add("--unseen-share", type=float, default=0.25, help="share of held-out turns from tasks of --holdout-kinds")
    add("--n", type=int, nargs="+", default=[100], help="SFT records per arm (issue: 100 400)")
    add("--seeds", type=int, nargs="+", default=[0, 1, 2], help="one training run per arm, N and seed")
    add("--steps", type=int, default=1, help="optimizer steps of every run")
    add("--batch-size", type=int, default=1)
    add("--max-length", type=int, default=2944, help="training sequences are cut here (CPU cost; the prompt is 2.7k)")
    add("--learning-rate", type=float, default=2e-4)
    add("--lora-r", type=int, default=16, help="LoRA rank (alpha = 2 r)")
    add(
        "--gradient-checkpointing",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="recompute activations: a third more compute; without it one 3k-token step took 14 GB and was OOM-killed",
    )
    add(
        "--ace-learner",
        default="perturbed",
        choices=["oracle", "perturbed"],
        help="the agent of the pool whose rollouts are ACE's declared learner (aceforge score --learner-id)",
    )
    add("--model", default="default", help="model to fine-tune: 'default' (SmolLM2-135M-Instruct) or a folder")
    add("--threads", type=int, default=1, help="torch CPU threads (see docs/downstream.md: 1 beats 2 on shared cores)")
    add("--device", default="cpu", help="device of the next-call eval (training picks its own)")
    add("--precision", default="fp32", choices=["fp32", "bf16", "auto"])
    add("--pass-k-tasks", type=int, default=0, help="held-out tasks for pass^1 (0: skip; issue: 100)")
    add("--pass-k", type=int, default=4, help="rollouts per task for pass^1")
    add("--max-turns", type=int, default=12)
    add("--turn-tokens", type=int, default=256, help="most tokens per generated turn")
    add("--backend", default="vllm", choices=["vllm", "transformers"], help="backend of the pass^k rollouts")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # the aceforge CLI children too
    import torch

    torch.set_num_threads(args.threads)
    from generators.llm.model_store import resolve_model
    from training.model_io import load_tokenizer

    started = time.perf_counter()
    folder = args.out or Path(tempfile.mkdtemp(prefix="downstream-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"output: {folder}", flush=True)
    tokenizer, template = load_tokenizer(resolve_model(args.model))
    held, eval_tasks = make_heldout(args, folder, tokenizer, template)
    pool, rollouts = make_pool(args, folder)
    results = run_arms(args, folder, pool, rollouts, held, eval_tasks)
    text = table(args, results, held)
    total = time.perf_counter() - started
    text += f"\n\ntotal {total:.0f} s; parts: " + "; ".join(f"{k} {v:.1f}s" for k, v in timings.items())
    print("\n" + text)
    (folder / "table.md").write_text(text + "\n")
    settings = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    (folder / "results.json").write_text(
        json.dumps({"args": settings, "results": results, "timings": timings, "total_s": total}, indent=1)
    )


if __name__ == "__main__":
    main()
