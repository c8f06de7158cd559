"""Downstream value of curation: SmolLM2 fine-tuned on ACE-selected vs random data, pass^1 on held-out tasks.

1. One pool: synthesized retail tasks (templates, seed 0), each rolled out by
   the oracle agent and by the perturbed agent (seeded faults), with the
   scripted user; every rollout verified.
2. (a) ACE: ``aceforge score`` -> ``dedup`` -> ``select --budget N`` on the pool
   (verified successes, diverse, keeping the mix of complexity levels);
   (b) random: N rollouts of the same pool drawn at random (seed 0).
3. SFT of SmolLM2 on each for the same steps (same config).
4. pass^1 on held-out tasks (another synthesis seed, ids disjoint from the
   pool) for the base model, (a) and (b): k=1 rollout per task with the model
   as the ``llm`` agent (native tool calls, the format SFT teaches) and the
   scripted user, through the vLLM backend (``--backend transformers`` also works).

The table is printed whatever it shows, with how long each part took. On a
CPU keep it small (defaults); on a GPU raise --pool/--heldout/--n/--steps.

    python bench/downstream.py
    python bench/downstream.py --pool 200 --heldout 100 --n 100 --steps 200 --batch-size 4   # e.g. on a GPU
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

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
    subprocess.run([sys.executable, "-m", "pipelines.cli", *map(str, args)], check=True, stdout=subprocess.DEVNULL)


def make_pool(args, folder: Path) -> tuple[Path, list]:
    from training_pool import roll_out, synth_tasks

    from schemas.io import write_records

    with timed(f"synthesize {args.pool} pool tasks and {args.heldout} held-out tasks"):
        pool_tasks = synth_tasks(args.pool, seed=0)
        seen = {t.id for t in pool_tasks} | {t.task.instruction for t in pool_tasks}
        heldout = [t for t in synth_tasks(args.heldout * 2, seed=1) if not {t.id, t.task.instruction} & seen]
        heldout = heldout[: args.heldout]
    with timed(f"roll out the pool: oracle k=1, perturbed k={args.perturbed_k}"):
        rollouts = roll_out(pool_tasks, "oracle", 1) + roll_out(pool_tasks, "perturbed", args.perturbed_k)
        pool = folder / "pool.parquet"
        write_records(rollouts, pool)
    passed = sum(bool(r.verifier.result and r.verifier.result.passed) for r in rollouts)
    print(f"pool: {len(rollouts)} rollouts, {passed} verified successes; held-out: {len(heldout)} tasks")
    return pool, heldout


def make_sets(args, pool: Path, folder: Path) -> dict[str, Path]:
    from schemas.io import read_records, write_records

    with timed(f"ACE selection (score, dedup, select --budget {args.n})"):
        aceforge("score", pool, "-o", folder / "scored.parquet", "--no-catalog")
        aceforge("dedup", folder / "scored.parquet", "-o", folder / "dedup.parquet", "--no-catalog")
        aceforge("select", folder / "dedup.parquet", "--budget", args.n, "--out-dir", folder / "ace", "--no-catalog")
    with timed(f"random selection of {args.n}"):
        records = list(read_records(pool))
        write_records(random.Random(0).sample(records, min(args.n, len(records))), folder / "random.parquet")
    return {"ACE-selected": folder / "ace" / "sft.parquet", "random": folder / "random.parquet"}


def fine_tune(args, sets: dict[str, Path], folder: Path) -> dict[str, dict]:
    from training.sft import run_sft
    from training.sft_config import SftConfig

    models = {}
    for name, data in sets.items():
        cfg = SftConfig(
            data=data, output_dir=folder / f"model-{name}", max_steps=args.steps, batch_size=args.batch_size,
            max_length=args.max_length, learning_rate=args.learning_rate, logging_steps=1, save_steps=10_000,
        )  # fmt: skip
        with timed(f"SFT on {name} ({args.steps} steps)"):
            summary = run_sft(cfg)
        models[name] = {"model": str(cfg.output_dir), "records": summary["train"], "loss": summary["train_loss"]}
    return models


def evaluate_models(args, heldout: list, models: dict[str, dict]) -> None:
    from training.eval_config import EvalConfig
    from training.evaluate import evaluate

    for name, entry in models.items():
        cfg = EvalConfig(
            tasks=Path("heldout.parquet"), model=entry["model"], backend=args.backend, dtype=args.dtype,
            k=1, user="scripted",
            budget={"max_turns": args.max_turns}, sampling={"temperature": 0.0, "max_tokens": args.turn_tokens},
            cache=False, catalog=False,
        )  # fmt: skip
        generator = cfg.make_generator()
        try:
            with timed(f"evaluate {name} on {len(heldout)} held-out tasks"):
                _, report = evaluate(heldout, cfg, generator)
        finally:
            generator.close()
        entry["pass^1"] = report["overall"]["pass^1"]
        entry["passed"] = report["rollout_summary"]["passed"]
        entry["end_reasons"] = report["rollout_summary"]["end_reasons"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pool", type=int, default=24, help="pool tasks")
    parser.add_argument("--perturbed-k", type=int, default=1, help="perturbed rollouts per pool task")
    parser.add_argument("--heldout", type=int, default=12, help="held-out tasks")
    parser.add_argument("--n", type=int, default=12, help="SFT records per set")
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--max-length", type=int, default=4096)
    parser.add_argument("--learning-rate", type=float, default=2e-5)
    parser.add_argument("--backend", default="vllm", choices=["vllm", "transformers"])
    parser.add_argument(
        "--dtype", default="float32", help="eval numerics (CPUs without AVX512-BF16: float32 is faster)"
    )
    parser.add_argument("--max-turns", type=int, default=6)
    parser.add_argument("--turn-tokens", type=int, default=128)
    args = parser.parse_args()

    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pool, heldout = make_pool(args, folder)
        sets = make_sets(args, pool, folder)
        models = {"base": {"model": "default", "records": 0, "loss": None}, **fine_tune(args, sets, folder)}
        evaluate_models(args, heldout, models)
    print(f"\npass^1 on {len(heldout)} held-out retail tasks (k=1, scripted user, {args.backend}):")
    print(f"{'model':14s} {'SFT records':>11s} {'train loss':>10s} {'pass^1':>7s} {'passed':>6s}  end reasons")
    for name, e in models.items():
        loss = "-" if e["loss"] is None else f"{e['loss']:.3f}"
        print(f"{name:14s} {e['records']:11d} {loss:>10s} {e['pass^1']:7.3f} {e['passed']:6d}  {e['end_reasons']}")
    print(
        f"total {time.perf_counter() - started:.1f}s; parts: " + ", ".join(f"{k} {v:.1f}s" for k, v in timings.items())
    )


if __name__ == "__main__":
    main()
