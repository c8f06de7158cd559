"""``aceforge export verl|sharegpt|openai|dpo``: record sets written for other trainers.

Each calls its exporter by name (``exporters.registry.EXPORTERS``), which reads AgentRecords or plain chat files
(``messages`` + ``tools``, through the openai_chat converter: training/inputs.py); the command prints its counts
as one JSON line (records = written + skipped, with reasons) and exits 1 when nothing could
be written, or when the input is empty, unless ``--allow-empty``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from generators.rollouts.agent_prompt import Rendering, RenderingOption
from pipelines.cli.common import FAILED, USAGE, fail, print_json, say
from pipelines.cli.export import export_app
from pipelines.cli.records import check_file

INPUT_HELP = "A Parquet or JSONL file of AgentRecords, or of chat conversations (messages + tools)."
ALLOW_EMPTY_HELP = "An empty input writes empty outputs and exits 0 (default: an error, exit 1)."
AllowEmpty = Annotated[bool, typer.Option("--allow-empty", help=ALLOW_EMPTY_HELP)]
# Documented once, on the config field the learner's rollouts, training and evaluation read too.
RenderingFlag = Annotated[
    Rendering, typer.Option(help=" ".join(RenderingOption.model_fields["rendering"].description.split()))
]


def run_exporter(name: str, file: Path, output: Path, allow_empty: bool, **options: Any) -> dict[str, Any]:
    """Exporter ``name``'s summary, or one error line (exit 1 for an input with nothing to export, 2 for a file of
    something else)."""
    from exporters.registry import EXPORTERS
    from training.inputs import EmptyInput, InputError

    check_file(file, chats=True)
    try:
        return EXPORTERS.get(name)(file, output, allow_empty=allow_empty, **options)
    except InputError as exc:
        fail(str(exc), FAILED if isinstance(exc, EmptyInput) else USAGE)


def _report(summary: dict[str, Any], allow_empty: bool) -> None:
    say(f"wrote {summary['written']} of {summary['records']} records to {summary['output']}")
    print_json(summary)
    if not summary["written"] and not (allow_empty and not summary["records"]):
        fail("no record could be exported", FAILED)


@export_app.command("verl")
def verl(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP + " Tasks (an RL set).")],
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="Output folder: <split>.parquet, the reward module, tool and interaction configs."
        ),
    ],
    split: Annotated[str, typer.Option(help="Split name: the file name and extra_info.split.")] = "train",
    allow_empty: AllowEmpty = False,
) -> None:
    """verl's RL Parquet (data_source, prompt, ability, reward_model, extra_info with tools/interaction kwargs)."""
    # Records but no task (trajectories): the same refusal as `train rl`, exit 1.
    _report(run_exporter("verl", file, output, allow_empty, split=split), allow_empty)


@export_app.command("sharegpt")
def sharegpt(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP)],
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="Output file: a JSON array (.json) or JSON Lines (.jsonl); dataset_info.json goes beside it.",
        ),
    ],
    allow_empty: AllowEmpty = False,
    rendering: RenderingFlag = "full",
) -> None:
    """LLaMA-Factory's ShareGPT format with tools (function_call / observation turns)."""
    _report(run_exporter("sharegpt", file, output, allow_empty, rendering=rendering), allow_empty)


@export_app.command("openai")
def openai(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL file.")],
    arguments_as_strings: Annotated[
        bool, typer.Option(help="Tool-call arguments as JSON strings (OpenAI fine-tuning files) instead of objects.")
    ] = False,
    allow_empty: AllowEmpty = False,
    rendering: RenderingFlag = "full",
) -> None:
    """Chat messages + tools per record, as TRL's SFTTrainer reads them."""
    options = {"arguments_as_strings": arguments_as_strings, "rendering": rendering}
    _report(run_exporter("openai", file, output, allow_empty, **options), allow_empty)


@export_app.command("dpo")
def dpo(
    file: Annotated[Path, typer.Argument(help=INPUT_HELP + " Verified rollouts: a task's successes and failures.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output JSONL file of preference pairs.")],
    allow_empty: AllowEmpty = False,
) -> None:
    """Preference pairs for TRL's DPOTrainer: for each task with a verified success and failure among its rollouts,
    the shared prompt and the chosen / rejected continuations with their tool calls, plus the tools."""
    summary = run_exporter("dpo", file, output, allow_empty)
    say(f"wrote {summary['written']} pairs from {summary['records']} records to {summary['output']}")
    print_json(summary)
    if not summary["written"] and not (allow_empty and not summary["records"]):
        why = ", ".join(f"{k} {v}" for k, v in {**summary["tasks_without_pair"], **summary["skipped"]}.items())
        fail(f"no preference pair: no task has both a verified success and a verified failure ({why})", FAILED)
