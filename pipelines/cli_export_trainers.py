"""``aceforge export verl|sharegpt|openai``: record sets written for other trainers.

Each prints its counts as one JSON line (records = written + skipped, with
reasons) and exits 1 when nothing could be written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from pipelines.cli_common import FAILED, fail, print_json, say
from pipelines.cli_export import export_app
from pipelines.cli_records import check_file

INPUT_HELP = "A Parquet (or JSONL) file of AgentRecords."


def _report(summary: dict[str, Any]) -> None:
    say(f"wrote {summary['written']} of {summary['records']} records to {summary['output']}")
    print_json(summary)
    if not summary["written"]:
        fail("no record could be exported", FAILED)


@export_app.command("verl")
def verl(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP + " Tasks (an RL set).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output folder: <split>.parquet and tools.json.")],
    split: Annotated[str, typer.Option(help="Split name: the file name and extra_info.split.")] = "train",
) -> None:
    """verl's RL Parquet (data_source, prompt, ability, reward_model, extra_info with tools/interaction kwargs)."""
    from schemas.io import read_records
    from training.export_verl import export_verl

    check_file(file)
    _report(export_verl(read_records(file), output, split))


@export_app.command("sharegpt")
def sharegpt(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP)],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="Output JSONL file; dataset_info.json goes beside it.")
    ],
) -> None:
    """LLaMA-Factory's ShareGPT format with tools (function_call / observation turns)."""
    from schemas.io import read_records
    from training.export_sharegpt import export_sharegpt

    check_file(file)
    _report(export_sharegpt(read_records(file), output))


@export_app.command("openai")
def openai(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL file.")],
    arguments_as_strings: Annotated[
        bool, typer.Option(help="Tool-call arguments as JSON strings (OpenAI fine-tuning files) instead of objects.")
    ] = False,
) -> None:
    """Chat messages + tools per record, as TRL's SFTTrainer reads them."""
    from schemas.io import read_records
    from training.export_openai import export_openai

    check_file(file)
    _report(export_openai(read_records(file), output, arguments_as_strings))
