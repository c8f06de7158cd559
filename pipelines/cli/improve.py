"""``aceforge improve``: rounds that train the declared learner on its own failures (training/improve.py).

Prints progress on stderr, then the round table on stdout (or the report as JSON with ``--json``); the
report (improve.json) and the plot (improve.png) are written in ``--out-dir`` beside the rounds' folders.
Exit codes: 0 when every round ran, 1 when a stage failed on its data, 2 on usage errors.
"""

from __future__ import annotations

from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import out, plain_text, print_json, say
from pipelines.cli.config import with_config
from training.improve_config import ImproveConfig


@app.command("improve")
@with_config(ImproveConfig)
def improve(
    cfg: ImproveConfig,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON on stdout.")] = False,
) -> None:
    """Rounds of: the learner's rollouts (k per training task, sampled) and their verdicts, turn-level failure
    labels per task kind, new tasks a level lower where it never succeeds and a level higher where it always
    does, an ACE-selected SFT set of verified demonstrations, LoRA SFT merged into the next round's learner.
    Held-out tasks (another database seed) are evaluated before the first round and after each."""
    from pipelines.cli.train import run_stage
    from training.improve import run_improve

    report = run_stage(lambda: run_improve(cfg, say))
    if as_json:
        print_json(report)
    else:
        out.print(round_table(report))
    say(f"report -> {cfg.out_dir / 'improve.json'}; plot -> {report['plot']}")


def round_table(report: dict):
    from rich.table import Table

    from training.improve_report import round_rows

    rows = round_rows(report)
    table = Table(title=plain_text(f"improve: {report['heldout_tasks']} held-out tasks, k={report['k']}"))
    for column in rows[0]:
        table.add_column(column, justify="left" if column in ("round", "top failure", "new tasks") else "right")
    for row in rows:
        table.add_row(*(plain_text(value) for value in row.values()))
    return table
