"""Peak memory of the training stages: SFT and GRPO of SmolLM2-135M on CPU, lean settings vs the plain ones.

Each run goes in a fresh child process (its own peak RSS, read from
``getrusage`` when the run ends). The data is the pipeline's own: oracle
rollouts of synthesized retail tasks with every tool of the world declared
(the SFT set ``aceforge run`` selects), and those tasks as the RL set.

Two settings per stage, the same data, seed and steps:

- ``defaults``: the stage's configuration as it ships (gradient checkpointing on);
- ``plain``: the same with gradient checkpointing off (the settings before it
  was the default): the full-parameter run whose loss curve the lean one should
  follow.

    python bench/train.py --memory                    # 2 steps of each
    python bench/train.py --memory --steps 5 --only sft
"""

from __future__ import annotations

import json
import multiprocessing
import resource
from pathlib import Path
from typing import Any


def make_sets(records: int, folder: Path) -> tuple[Path, Path]:
    from training_pool import roll_out, synth_tasks

    from schemas.io import write_records

    tasks = synth_tasks(records, seed=0)
    write_records(roll_out(tasks, "oracle", k=1), folder / "sft.parquet")
    write_records(tasks, folder / "rl.parquet")
    return folder / "sft.parquet", folder / "rl.parquet"


def _child(stage: str, settings: dict[str, Any], queue: Any) -> None:
    """Run one stage with these settings; send back peak RSS (MB), the logged losses and the summary."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from training.run_files import read_log

    if stage == "sft":
        from training.sft import run_sft
        from training.sft_config import SftConfig

        cfg = SftConfig(**settings)
        summary = run_sft(cfg)
    else:
        from training.rl import run_rl
        from training.rl_config import RlConfig

        cfg = RlConfig(**settings)
        summary = run_rl(cfg)
    log = read_log(cfg.output_dir)
    key = "loss"
    queue.put(
        {
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "curve": [(entry["step"], entry[key], entry.get("reward")) for entry in log if key in entry],
            "summary": summary,
        }
    )


def run_child(stage: str, settings: dict[str, Any]) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_child, args=(stage, settings, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def measure(folder: Path, steps: int, only: str | None) -> None:
    sft_set, rl_set = make_sets(12, folder)
    common = {"max_steps": steps, "logging_steps": 1, "save_steps": 10_000}
    stages = {
        "sft": {"data": sft_set, **common},
        "rl": {"data": rl_set, **common},
    }
    for stage, base in stages.items():
        if only and stage != only:
            continue
        results = {}
        for name, extra in (("defaults", {}), ("plain", {"gradient_checkpointing": False})):
            settings = {**base, **extra, "output_dir": folder / stage / name}
            results[name] = run_child(stage, settings)
            summary = results[name]["summary"]
            print(
                f"{stage} {name:8s}: peak RSS {results[name]['peak_rss_mb']:.0f} MB, {summary['steps']} steps, "
                f"wall {summary['wall_s']:.0f}s, max_length {summary.get('max_length', '?')}",
                flush=True,
            )
        print(f"{stage} loss per step (defaults | plain):", flush=True)
        for lean, plain in zip(results["defaults"]["curve"], results["plain"]["curve"]):
            reward = f"  reward {lean[2]:.3f} | {plain[2]:.3f}" if lean[2] is not None else ""
            print(f"  step {lean[0]}: {lean[1]:.4f} | {plain[1]:.4f}{reward}", flush=True)
        print(json.dumps({stage: {name: round(r["peak_rss_mb"]) for name, r in results.items()}}), flush=True)
