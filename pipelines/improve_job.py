"""The ``improve`` Dagster job: ``aceforge improve``'s rounds (training/improve.py) as one op.

Its run config is ImproveConfig's fields, with their defaults and help in the launchpad; ``out_dir`` is
required there as on the command line. The op's output metadata holds the round table (Markdown) and the
path of the held-out plot, so the UI shows both beside the run. It is not one of the main job's jobs
(definitions.JOBS): rounds of training are launched on purpose, never as a step of ``aceforge run``.
"""

import dagster as dg
from dagster import OpExecutionContext, Output

from pipelines.assets.config_schema import config_schema
from training.improve_config import ImproveConfig


def markdown_table(rows: list[dict[str, str]]) -> str:
    header = list(rows[0])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row[column] for column in header) + " |" for row in rows]
    return "\n".join(lines)


@dg.op(
    config_schema=config_schema(ImproveConfig),
    description="Rounds of learner rollouts, failure labels, new tasks at adapted levels, ACE-selected SFT set and "
    "LoRA SFT; held-out pass^1, pass^k and graded score after each round.",
)
def improve_rounds(context: OpExecutionContext) -> Output:
    from training.improve import run_improve
    from training.improve_report import round_rows

    cfg = ImproveConfig.from_mapping(context.op_config, "run config")
    report = run_improve(cfg, context.log.info)
    last = report["evaluations"][-1]
    return Output(
        {key: report[key] for key in ("k", "heldout_tasks", "evaluations", "plot", "wall_s")},
        metadata={
            "rounds": dg.MetadataValue.md(markdown_table(round_rows(report))),
            "plot": dg.MetadataValue.path(report["plot"]),
            "heldout_pass^1": last["pass^1"],
            f"heldout_pass^{report['k']}": last["pass^k"],
            "heldout_score": last["score"],
        },
    )


@dg.job(description="aceforge improve: train the declared learner on its failures, judged on held-out tasks.")
def improve() -> None:
    improve_rounds()
