"""Downstream value of curation: does LoRA-SFT on ACE-selected data predict held-out tool calls better than random data?

1. **Held-out set**, fixed before anything is trained: retail tasks of another database (--heldout-db-seed:
   other users, orders, products) with their verified oracle rollouts, taken in synthesis order until
   --heldout-turns tool-call turns are held, --unseen-share of them (counted in turns) from tasks of the
   held-out goal kinds (--holdout-kinds, absent from the pool). Written with the plan (arms, sizes, metrics)
   to the output folder and hashed; --heldout-sha256 refuses to run on any other set.
2. **Pool**: --pool tasks of DB seed 0 from every other goal kind, each rolled out once by the oracle agent
   and --perturbed-k times by the perturbed agent (seeded faults), scripted user, every rollout verified. The
   held-out set is checked disjoint from it by task (schemas/task_identity.py task_of) and by instruction text.
3. **Arms** (--arms), for each N in --n and each seed in --seeds: ``random-verified`` (N verified successes
   drawn with the seed), ``ace`` (``aceforge score`` -> ``dedup`` -> ``select --budget N``; its declared
   learner is the perturbed agent, whose k = --perturbed-k rollouts per task give pass rates between 0 and 1:
   rolling SmolLM2 itself out on the pool does not fit the CPU budget, docs/downstream.md), ``random-all``
   (N pool rollouts, verified or not: GPU design), and the untrained ``base``. Every record is cut after its
   last tool call (what the eval scores; on the CPU also at --max-length: docs/downstream.md) and trained by
   the project's SFT stage (training/sft.py, LoRA, the compact rendering); every run sees N x --epochs
   records (optimizer steps = that / (batch x accumulation)).
   The seed sets the draw, the data order and the LoRA init.
4. **Primary metric**: teacher-forced next-call exact match on the held-out turns (training/next_call.py), in the
   same compact rendering the training saw; the verdict is ace − random-verified with a 95 % cluster
   bootstrap interval (conversations resampled, seeds resampled: bench/verdict.py) and the minimum detectable
   effect at that size. **Secondary figures**, fixed in advance: tool-name accuracy and gold-call NLL per
   token (same forward pass), and with --pass-k-tasks > 0 pass^1 on held-out tasks (the model as the llm agent).

The table is printed whatever it shows, and written to the output folder (table.md, results.json with every
per-turn score, plan.json, heldout.jsonl).

    python bench/downstream.py                                   # CPU design (its cost: docs/downstream.md)
    python bench/downstream.py --device cuda --precision bf16 --n 100 400 --seeds 0 1 2 --arms random-all \\
        random-verified ace --epochs 4 --batch-size 8 --grad-accum 1 --max-length 8192 --heldout-turns 500 \\
        --pass-k-tasks 100 --pass-k 4 --max-turns 12 --backend vllm [--model /path/to/larger/model]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

# Held out of the pool entirely: a write whose tool no pool task calls, and a refusal.
HOLDOUT_KINDS = ["modify_pending_order_address", "refuse_return_not_delivered"]
ARMS = ["random-all", "random-verified", "ace"]
RENDERING = "compact"  # the small learner's rendering (generators/rollouts/agent_prompt.py), in training and eval
timings: dict[str, float] = {}


def timed(part: str):
    class Timer:
        def __enter__(self):
            self.started = time.perf_counter()

        def __exit__(self, *exc):
            timings[part] = timings.get(part, 0.0) + time.perf_counter() - self.started
            print(f"[{time.perf_counter() - self.started:7.1f}s] {part}", flush=True)

    return Timer()


def aceforge(*args) -> None:
    subprocess.run([sys.executable, "-m", "pipelines.cli.main", *map(str, args)], check=True, stdout=subprocess.DEVNULL)


def sha256(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def call_count(record) -> int:
    from schemas.steps import ApiAction

    return sum(isinstance(step, ApiAction) for step in record.trajectory)


def choose_heldout(unseen: list, seen: list, unseen_turns: int, turns: int) -> list:
    """Rollouts in order: of held-out kinds until they hold ``unseen_turns`` tool-call turns, then of pool kinds
    until all hold ``turns``; the share is counted in turns, each list filling its own part."""
    chosen = []
    for rollouts, target in [(unseen, unseen_turns), (seen, turns - unseen_turns)]:
        held = 0
        for record in rollouts:
            if held >= target:
                break
            chosen.append(record)
            held += call_count(record)
    return chosen


def make_heldout(args, folder: Path, tokenizer, template):
    """The held-out rollouts, gold turns and pass^k tasks, written with the plan and hashed before any arm runs."""
    from training_pool import goal_kinds, passed, roll_out, synth_tasks

    from schemas.io import write_records
    from training.next_call import gold_turns

    def verified(kinds: list[str], n: int) -> tuple[list, list]:
        tasks = synth_tasks(n, seed=args.heldout_seed, users=args.users, db_seed=args.heldout_db_seed, goals=kinds)
        return tasks, [r for r in roll_out(tasks, "oracle", 1) if passed(r)]

    with timed("held-out set: synthesize, roll out the oracle, render"):
        unseen_turns = round(args.unseen_share * args.heldout_turns)
        seen_kinds = [kind for kind in goal_kinds() if kind not in args.holdout_kinds]
        # ~4.7 calls per retail conversation: twice the tasks needed, so a few unverified ones cannot starve it
        unseen_tasks, unseen = verified(args.holdout_kinds, unseen_turns // 2 + 5)
        seen_tasks, seen = verified(seen_kinds, max(args.pass_k_tasks, (args.heldout_turns - unseen_turns) // 2 + 10))
        chosen = choose_heldout(unseen, seen, unseen_turns, args.heldout_turns)
        held = gold_turns(chosen, tokenizer, template, RENDERING, set(args.holdout_kinds))
        write_records(chosen, folder / "heldout.jsonl")
        firsts = unseen_tasks[: round(args.unseen_share * args.pass_k_tasks)]
        eval_tasks = (firsts + seen_tasks)[: args.pass_k_tasks]
        write_records(eval_tasks, folder / "heldout_tasks.jsonl")
    digest = sha256(folder / "heldout.jsonl", folder / "heldout_tasks.jsonl")
    share = sum(turn.unseen_kind for turn in held.turns)
    print(
        f"held-out: {len(held.conversations)} conversations, {len(held.turns)} tool-call turns ({share} in tasks of a "
        f"held-out kind {', '.join(args.holdout_kinds)}), {sum(map(len, held.conversations)) - held.prefix * len(held.conversations)} "
        f"dialogue tokens + a {held.prefix}-token shared prefix; {len(eval_tasks)} pass^k tasks; sha256 {digest}",
        flush=True,
    )
    if args.heldout_sha256 and args.heldout_sha256 != digest:
        raise SystemExit(f"held-out set {digest} is not the fixed one {args.heldout_sha256}: refusing to run")
    plan = {
        "heldout_sha256": digest,
        "turns": len(held.turns),
        "conversations": len(held.conversations),
        "unseen_kind_turns": share,
        "arms": ["base", *args.arms],
        "n": args.n,
        "seeds": args.seeds,
        "epochs": args.epochs,
        "primary": "ace − random-verified, teacher-forced next-call exact match, 95 % cluster bootstrap",
        "secondary": ["tool-name accuracy", "gold-call NLL per token"] + (["pass^1"] if args.pass_k_tasks else []),
    }
    (folder / "plan.json").write_text(json.dumps(plan, indent=1))
    return chosen, held, eval_tasks


def make_pool(args, folder: Path, heldout: list) -> tuple[Path, list]:
    """The training pool, without the tasks that share a task or an instruction with the held-out set (generic
    instructions such as 'Update the profile address.' recur across databases)."""
    from training_pool import goal_kinds, passed, roll_out, synth_tasks

    from schemas.io import write_records
    from training.improve_tasks import keep_disjoint

    kinds = [kind for kind in goal_kinds() if kind not in args.holdout_kinds]
    with timed(f"pool: synthesize {args.pool} tasks, oracle k=1 and perturbed k={args.perturbed_k} rollouts"):
        tasks, dropped = keep_disjoint(
            synth_tasks(args.pool, seed=0, users=args.users, db_seed=0, goals=kinds), heldout
        )
        rollouts = roll_out(tasks, "oracle", 1) + roll_out(tasks, "perturbed", args.perturbed_k)
        pool = folder / "pool.parquet"
        write_records(rollouts, pool)
    print(
        f"pool: {len(tasks)} tasks ({dropped} dropped: shared with the held-out set), {len(rollouts)} rollouts, "
        f"{sum(map(passed, rollouts))} verified successes"
    )
    return pool, rollouts


def ace_set(args, pool: Path, n: int, folder: Path) -> list:
    from schemas.io import read_records

    scored, dedup, out = folder / "scored.parquet", folder / "dedup.parquet", folder / f"ace-{n}"
    from generators.rollouts.config import PolicyConfig

    learner = PolicyConfig(agent="perturbed", user="scripted", k=args.perturbed_k).policy_id()
    with timed(f"ACE: score (learner: the perturbed agent, k={args.perturbed_k}), dedup, select --budget {n}"):
        if not scored.exists():
            aceforge("score", pool, "-o", scored, "--learner-id", learner, "--no-catalog")
            aceforge("dedup", scored, "-o", dedup, "--no-catalog")
        aceforge("select", dedup, "--budget", n, "--out-dir", out, "--no-catalog")
    return list(read_records(out / "sft.parquet"))


def training_file(records: list, path: Path) -> Path:
    """The records cut after their last tool call (bench/training_pool.py), written for the SFT stage."""
    from training_pool import through_last_call

    from schemas.io import write_records

    write_records([through_last_call(record) for record in records], path)
    return path


def steps_for(args, n: int) -> int:
    """Optimizer steps that show the run n x epochs records: each step sees batch x accumulation records."""
    return max(1, math.ceil(n * args.epochs / (args.batch_size * args.grad_accum)))


def fine_tune(args, data: Path, output_dir: Path, seed: int, n: int) -> dict:
    from training.sft import run_sft
    from training.sft_config import SftConfig

    cfg = SftConfig(
        data=data, output_dir=output_dir, model=args.model, max_steps=steps_for(args, n), batch_size=args.batch_size,
        gradient_accumulation=args.grad_accum, max_length=args.max_length, learning_rate=args.learning_rate,
        seed=seed, precision=args.precision, gradient_checkpointing=args.gradient_checkpointing, logging_steps=1,
        save_steps=10_000, rendering=RENDERING, lora={"enabled": True, "r": args.lora_r, "alpha": 2 * args.lora_r},
    )  # fmt: skip
    summary = run_sft(cfg)
    summary["seen"] = summary["steps"] * args.batch_size * args.grad_accum
    return summary


def next_call(args, model_path: str, held) -> tuple[list, float]:
    import torch
    from transformers import AutoModelForCausalLM

    from training.next_call import score_turns

    started = time.perf_counter()
    dtype = torch.bfloat16 if args.precision == "bf16" else torch.float32
    model = AutoModelForCausalLM.from_pretrained(model_path, dtype=dtype).to(args.device).eval()
    scores = score_turns(model, held, args.device)
    return scores, time.perf_counter() - started


def pass_k(args, model_path: str, tasks: list) -> float | None:
    from training.eval_config import EvalConfig
    from training.evaluate import evaluate

    cfg = EvalConfig(
        tasks=Path("heldout_tasks.jsonl"), model=model_path, backend=args.backend, k=args.pass_k, user="scripted",
        budget={"max_turns": args.max_turns}, sampling={"max_tokens": args.turn_tokens}, cache=False,
        rendering=RENDERING,
    )  # fmt: skip
    generator = cfg.make_generator()
    try:
        _, report = evaluate(tasks, cfg, generator)
    finally:
        generator.close()
    return report["overall"]["pass^1"]


def run_model(args, label: str, model_path: str, held, eval_tasks: list) -> dict:
    scores, seconds = next_call(args, model_path, held)
    timings["next-call evals"] = timings.get("next-call evals", 0.0) + seconds
    entry = {
        "exact": [s.exact for s in scores],
        "name": [s.name_right for s in scores],
        "nll": [s.nll / s.tokens for s in scores],
        "nll_per_token": sum(s.nll for s in scores) / sum(s.tokens for s in scores),
        "tokens_right": sum(s.right for s in scores) / sum(s.tokens for s in scores),
        "eval_s": round(seconds, 1),
    }
    print(f"[{seconds:7.1f}s] next-call eval {label}: exact match {sum(entry['exact']) / len(scores):.3f}", flush=True)
    if eval_tasks:
        with timed(f"pass^1 (k={args.pass_k}) on {len(eval_tasks)} tasks"):
            entry["pass^1"] = pass_k(args, model_path, eval_tasks)
    return entry


def arm_records(arm: str, n: int, seed: int, ace: list, rollouts: list, verified: list) -> list:
    if arm == "ace":
        return ace
    drawn_from = rollouts if arm == "random-all" else verified
    return random.Random(seed).sample(drawn_from, min(n, len(drawn_from)))


def run_arms(args, folder: Path, pool: Path, rollouts: list, held, eval_tasks: list) -> dict:
    from training_pool import passed

    from generators.llm.model_store import resolve_model

    verified = [r for r in rollouts if passed(r)]
    results = {"base": {"runs": [run_model(args, "base", resolve_model(args.model), held, eval_tasks)]}}
    for n in args.n:
        ace = ace_set(args, pool, n, folder) if "ace" in args.arms else []
        for arm in args.arms:
            runs = []
            for seed in args.seeds:
                label = f"{arm} N={n} seed={seed}"
                data = training_file(
                    arm_records(arm, n, seed, ace, rollouts, verified), folder / f"{arm}-{n}-{seed}.jsonl"
                )
                model_dir = folder / f"model-{arm}-{n}-{seed}"
                with timed("SFT runs"):
                    summary = fine_tune(args, data, model_dir, seed, n)
                print(f"SFT {label}: {summary['steps']} steps, {summary['seen']} records seen, {summary['wall_s']} s")
                run = run_model(args, label, str(model_dir), held, eval_tasks)
                keys = (
                    "train",
                    "truncated",
                    "steps",
                    "seen",
                    "train_loss",
                    "tokens_per_epoch",
                    "train_runtime_s",
                    "wall_s",
                )
                run.update(seed=seed, **{key: summary[key] for key in keys})
                runs.append(run)
                shutil.rmtree(model_dir)  # ~0.5 GB of merged fp32 weights per model
            results[f"{arm} N={n}"] = {"n": n, "arm": arm, "runs": runs}
    return results


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--out", type=Path, help="output folder (default: a new temporary folder, kept)")
    add("--pool", type=int, default=200, help="pool tasks (each: 1 oracle + --perturbed-k perturbed rollouts)")
    add("--perturbed-k", type=int, default=4, help="perturbed rollouts per pool task (ACE's learner pass rates)")
    add("--users", type=int, default=200, help="users in each generated retail database")
    add("--holdout-kinds", nargs="+", default=HOLDOUT_KINDS, help="goal kinds kept out of the pool")
    add("--heldout-db-seed", type=int, default=1, help="DB seed of the held-out tasks (the pool's is 0)")
    add("--heldout-seed", type=int, default=1, help="sampling seed of the held-out tasks")
    add("--heldout-turns", type=int, default=200, help="held-out tool-call turns at least (issue: ~200 CPU, 500 GPU)")
    add("--unseen-share", type=float, default=0.25, help="share of held-out turns from tasks of --holdout-kinds")
    add("--heldout-sha256", help="the fixed held-out set's sha256: refuse to run on any other")
    add("--arms", nargs="+", default=["random-verified", "ace"], choices=ARMS, help="trained arms (base always runs)")
    add("--n", type=int, nargs="+", default=[56], help="SFT records per arm")
    add("--seeds", type=int, nargs="+", default=[0, 1], help="one training run per arm, N and seed")
    add("--epochs", type=float, default=1.0, help="records seen per run = N x epochs (sets the optimizer steps)")
    add("--batch-size", type=int, default=1, help="sequences per micro-batch")
    add("--grad-accum", type=int, default=2, help="micro-batches per optimizer step")
    add(
        "--max-length",
        type=int,
        default=1536,
        help="training sequences are cut here: the CPU budget (records to their last call: mean 2.8k tokens, 8192 holds all)",
    )
    add("--learning-rate", type=float, default=2e-4)
    add("--lora-r", type=int, default=16, help="LoRA rank (alpha = 2 r)")
    add(
        "--gradient-checkpointing",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="recompute activations: a third more compute, a fraction of the memory",
    )
    add("--model", default="default", help="model to fine-tune: 'default' (SmolLM2-135M-Instruct) or a folder")
    add("--threads", type=int, default=2, help="torch CPU threads (docs/downstream.md: 2 on idle cores, 1 on shared)")
    add("--device", default="cpu", help="device of the next-call eval (training picks its own)")
    add("--precision", default="fp32", choices=["fp32", "bf16", "auto"])
    add("--pass-k-tasks", type=int, default=0, help="held-out tasks for pass^1 (0: skip; GPU design: 100)")
    add("--pass-k", type=int, default=4, help="rollouts per task for pass^1")
    add("--max-turns", type=int, default=12)
    add("--turn-tokens", type=int, default=256, help="most tokens per generated turn")
    add("--backend", default="vllm", choices=["vllm", "transformers"], help="backend of the pass^k rollouts")
    return parser.parse_args(argv)


def main() -> None:
    args = parse_args()
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # the aceforge CLI children too
    import torch

    torch.set_num_threads(args.threads)
    from downstream_table import table
    from training_pool import assert_disjoint

    from generators.llm.model_store import resolve_model
    from training.model_io import load_tokenizer

    started = time.perf_counter()
    folder = args.out or Path(tempfile.mkdtemp(prefix="downstream-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"output: {folder}", flush=True)
    tokenizer, template = load_tokenizer(resolve_model(args.model))
    chosen, held, eval_tasks = make_heldout(args, folder, tokenizer, template)
    pool, rollouts = make_pool(args, folder, chosen + eval_tasks)
    assert_disjoint(rollouts, chosen + eval_tasks)
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
