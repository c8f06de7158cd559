"""Peak memory of the training stages: SFT and GRPO of SmolLM2-135M on CPU, lean settings vs the plain ones.

Each run goes in a fresh child process; its peak RSS is the kernel's high-water
mark of that process's own memory (``VmHWM``), read when the run ends. The data is the pipeline's own: oracle
rollouts of synthesized retail tasks with every tool of the world declared
(the SFT set ``aceforge run`` selects), and those tasks as the RL set.

Two settings per stage, the same data, seed and steps:

- ``defaults``: the stage's configuration as it ships (gradient checkpointing on);
- ``plain``: the same with gradient checkpointing off (the setting before it
  was the default; TRL's LM-head tiles stay the small CPU ones): the full-
  parameter run whose loss curve the lean one should follow.

Both runs train every weight (no LoRA). The losses (and GRPO's rewards) of each
step are printed after the peaks.

    python bench/train.py --memory                    # 2 steps of each
    python bench/train.py --memory --steps 5 --only sft
    python bench/train.py --memory --settings defaults  # without the plain run (10+ GB)

Measured (--steps 1, 2-core machine shared with other work): SFT at the defaults
7626 MB with TRL's 4096 x 32768 LM-head tiles and batch 2 x 4096 tokens; 3660 MB
with 1024 x 8192 tiles and one-sequence micro-batches (loss 0.7478). The plain
SFT run passed 15 GB before it was stopped. GRPO with the small tiles, a batch of
4 episodes of 2,841 tokens (max_length was 1024, below the prompts): 8342 MB;
the same step with glibc's mmap threshold fixed (training.devices.unmap_freed_buffers):
3045 MB, the same loss (0.0701) and reward (0.625). GRPO at today's defaults
(max_length 3776 chosen from the prompts, one episode per micro-batch, a group
of 4 per step): 2917 MB (loss 0.3869, reward 0.625).
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable
from pathlib import Path
from queue import Empty
from typing import Any


def make_sets(records: int, folder: Path) -> tuple[Path, Path]:
    from training_pool import roll_out, synth_tasks

    from schemas.io import write_records

    tasks = synth_tasks(records, seed=0)
    write_records(roll_out(tasks, "oracle", k=1), folder / "sft.parquet")
    write_records(tasks, folder / "rl.parquet")
    return folder / "sft.parquet", folder / "rl.parquet"


def peak_rss_mb() -> float:
    """This process's peak resident memory (MB): VmHWM, the high-water mark of its own address space (Linux).

    Not ``getrusage(RUSAGE_SELF).ru_maxrss``: a spawned child is exec'd from a vfork of its parent, and Linux
    carries the parent's peak into the child's ru_maxrss across that exec, so the child would report at least
    the parent's peak. VmHWM starts afresh with the child's own address space.
    """
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def _report_peak(target: Callable[..., dict[str, Any]], args: tuple, queue: Any) -> None:
    queue.put({**target(*args), "peak_rss_mb": peak_rss_mb()})


def run_in_child(target: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``target(*args)`` in a fresh spawned process: its result with that process's peak RSS (``peak_rss_mb``)."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_report_peak, args=(target, args, queue))
    process.start()
    while True:
        try:
            result = queue.get(timeout=1)
            break
        except Empty:
            if not process.is_alive():  # killed (out of memory) or raised: no result will come
                raise RuntimeError(f"the measured process exited with {process.exitcode} before reporting") from None
    process.join()
    return result


def train_stage(stage: str, settings: dict[str, Any]) -> dict[str, Any]:
    """Run one stage with these settings: the logged losses (and rewards) and the summary."""
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
    return {
        "curve": [(entry["step"], entry["loss"], entry.get("reward")) for entry in log if "loss" in entry],
        "summary": summary,
    }


SETTINGS = {"defaults": {}, "plain": {"gradient_checkpointing": False}}


def measure(folder: Path, steps: int, only: str | None, settings: list[str]) -> None:
    """Peak RSS of each stage under each of ``settings`` (names in SETTINGS), then their losses step by step."""
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
        for name in settings:
            config = {**base, **SETTINGS[name], "output_dir": folder / stage / name}
            results[name] = run_in_child(train_stage, stage, config)
            summary = results[name]["summary"]
            print(
                f"{stage} {name:8s}: peak RSS {results[name]['peak_rss_mb']:.0f} MB, {summary['steps']} steps, "
                f"wall {summary['wall_s']:.0f}s, max_length {summary.get('max_length', '?')}",
                flush=True,
            )
        print(f"{stage} loss per step ({' | '.join(results)}):", flush=True)
        for points in zip(*(r["curve"] for r in results.values())):
            losses = " | ".join(f"{loss:.4f}" for _, loss, _ in points)
            rewards = " | ".join(f"{reward:.3f}" for _, _, reward in points if reward is not None)
            print(f"  step {points[0][0]}: {losses}" + (f"  reward {rewards}" if rewards else ""), flush=True)
        print(json.dumps({stage: {name: round(r["peak_rss_mb"]) for name, r in results.items()}}), flush=True)
