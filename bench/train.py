"""SFT throughput: aceforge's SFT stage vs a bare TRL SFTTrainer, the same rendered data and the same steps.

The data: oracle rollouts of synthesized retail tasks (tools cut to those each
rollout calls, so a CPU can train on them), written as an SFT set. aceforge
runs its stage, ``run_sft``, on the file: read, render and tokenize with
assistant masks, train, save a model folder and the run files. The bare run
is TRL alone: an SFTTrainer given the same rendered conversations (the
``input_ids`` and ``assistant_masks`` aceforge renders, made before the clock
starts) and the same SFTConfig, then ``save_model``. Both train one epoch, so
they see the same tokens. (Feeding TRL the conversations as messages through
``datasets`` would not be the same data: Arrow unifies the tool-call argument
structs of all rows, so each call renders with every other call's argument
names set to null.)

Figures per run: training-loop tokens/s (tokens / trainer.train runtime) and
end-to-end tokens/s (tokens / wall time from the data to the saved model),
and the ratio aceforge / bare for each (target >= 0.95). Rounds alternate
which run goes first; the best round of each counts.

    python bench/train.py                      # 12 rollouts, batch 2, max_length 2048, 2 rounds
    python bench/train.py --records 64 --batch-size 4 --rounds 3
    python bench/train.py --memory             # peak RSS of SFT and GRPO (bench/train_memory.py)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def make_sft_set(records: int, folder: Path) -> Path:
    from training_pool import roll_out, synth_tasks, with_called_tools_only

    from schemas.io import write_records

    rollouts = [with_called_tools_only(r) for r in roll_out(synth_tasks(records, seed=0), "oracle", k=1)]
    write_records(rollouts, folder / "sft.parquet")
    return folder / "sft.parquet"


def rendered_rows(cfg) -> list[dict]:
    """What aceforge's stage trains on, rendered ahead of time for the bare run."""
    from generators.llm.model_store import resolve_model
    from schemas.io import read_records
    from training.model_io import load_tokenizer
    from training.sft import prepare_data

    tokenizer, template = load_tokenizer(resolve_model(cfg.model))
    data = prepare_data(read_records(cfg.data), tokenizer, template, cfg)
    return [{"input_ids": r["input_ids"], "assistant_masks": r["assistant_masks"]} for r in data.train]


def run_aceforge(cfg) -> dict:
    from training.sft import run_sft

    started = time.perf_counter()
    summary = run_sft(cfg)
    return {
        "tokens": summary["tokens_per_epoch"],
        "train_s": summary["train_runtime_s"],
        "wall_s": time.perf_counter() - started,
    }


def run_bare_trl(cfg, rows: list[dict], output: Path) -> dict:
    """TRL alone: the rendered rows, the same SFTConfig, train, save."""
    started = time.perf_counter()
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import SFTTrainer

    from generators.llm.model_store import resolve_model

    path = resolve_model(cfg.model)
    trainer = SFTTrainer(
        model=path,
        args=cfg.trl_config(output, has_eval=False),
        train_dataset=Dataset.from_list(rows),
        processing_class=AutoTokenizer.from_pretrained(path),
    )
    tokens = sum(len(ids) for ids in trainer.train_dataset["input_ids"])
    result = trainer.train()
    trainer.save_model(str(output / "model"))
    return {"tokens": tokens, "train_s": result.metrics["train_runtime"], "wall_s": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--max-length", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--memory", action="store_true", help="Peak RSS of SFT and GRPO at their defaults instead.")
    parser.add_argument("--steps", type=int, default=2, help="--memory: optimizer steps per run.")
    parser.add_argument("--only", choices=["sft", "rl"], help="--memory: one stage only.")
    parser.add_argument(
        "--settings", nargs="+", choices=["defaults", "plain"], default=["defaults", "plain"],
        help="--memory: which settings to run (plain: gradient checkpointing off).",
    )  # fmt: skip
    args = parser.parse_args()
    if args.memory:
        from train_memory import measure

        with tempfile.TemporaryDirectory() as tmp:
            measure(Path(tmp), args.steps, args.only, args.settings)
        return

    from training.sft_config import SftConfig

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        parquet = make_sft_set(args.records, folder)
        rows: list[dict] = []
        print(
            f"data: {args.records} oracle rollouts of synthesized retail tasks in {time.perf_counter() - started:.1f}s"
        )
        runs: dict[str, list[dict]] = {"aceforge": [], "bare TRL": []}
        for round_ in range(args.rounds):
            out = folder / f"round{round_}"
            cfg = SftConfig(
                data=parquet, output_dir=out / "aceforge", batch_size=args.batch_size, max_length=args.max_length,
                logging_steps=1, save_steps=10_000,
            )  # fmt: skip
            rows = rows or rendered_rows(cfg)
            order = ["aceforge", "bare TRL"][:: 1 if round_ % 2 == 0 else -1]  # who goes first alternates
            for name in order:
                result = run_aceforge(cfg) if name == "aceforge" else run_bare_trl(cfg, rows, out / "bare")
                runs[name].append(result)
            for name, results in runs.items():
                r = results[-1]
                print(
                    f"round {round_ + 1} {name:9s}: {r['tokens']} tokens, train {r['train_s']:.1f}s, wall {r['wall_s']:.1f}s"
                )
    report(runs)


def report(runs: dict[str, list[dict]]) -> None:
    tokens = {name: results[0]["tokens"] for name, results in runs.items()}
    print(f"same tokens: {len(set(tokens.values())) == 1} ({tokens})")
    best = {
        name: {key: min(r[key] for r in results) for key in ("train_s", "wall_s")} for name, results in runs.items()
    }
    print(f"{'':10s} {'loop tok/s':>11s} {'end-to-end tok/s':>17s}")
    rates = {}
    for name, times in best.items():
        rates[name] = (tokens[name] / times["train_s"], tokens[name] / times["wall_s"])
        print(f"{name:10s} {rates[name][0]:11.1f} {rates[name][1]:17.1f}")
    loop, whole = (rates["aceforge"][i] / rates["bare TRL"][i] for i in range(2))
    print(f"ratio aceforge / bare TRL: training loop {loop:.3f}, end to end {whole:.3f} (target >= 0.95)")


if __name__ == "__main__":
    main()
