"""The ACE report: five PNG plots and a markdown summary whose numbers match the data."""

import struct

import numpy as np

from curation.config import DedupConfig, ScoreConfig, SelectConfig
from curation.dedup_stage import run_dedup
from curation.report import ace_report, read_scored, report_inputs
from curation.report_plots import distinct_colors, palette, pca_2d
from curation.report_tables import difficulty_correlations, goal_kind_counts, tool_sequence_counts
from curation.score_stage import run_score
from curation.select_stage import run_select
from schemas.io import read_records, write_records
from schemas.record import Scores
from schemas.steps import ApiAction
from tests.curation.helpers import chat_record, rollout_of, task_record, trajectory_record
from tests.pipelines.cli_helpers import invoke

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    return struct.unpack(">II", data[16:24])


def test_report_renders_every_plot_and_a_summary_with_the_numbers(tmp_path):
    asks = ["Cancel order W0 and tell me when.", "My parcel W1 never came; stop it.", "Drop W2, I bought it twice."]
    tasks = [task_record(f"t{i}", order_id=f"W{i}", instruction=ask) for i, ask in enumerate(asks)]
    # The learner sometimes solves t0, always t1, never t2; the oracle's demonstrations of t0 and t2 are data.
    learner = [rollout_of(tasks[0], 0, True, "smol"), rollout_of(tasks[0], 1, False, "smol")]
    learner += [rollout_of(tasks[1], 0, True, "smol"), rollout_of(tasks[2], 0, False, "smol")]
    write_records(learner, tmp_path / "learner.parquet")
    rollouts = [rollout_of(tasks[0], 0, True, "oracle"), rollout_of(tasks[2], 0, True, "oracle")]
    questions = ["Will it rain in Oslo?", "Best pasta recipe?", "Who wrote Hamlet?", "How far is the Moon?"]
    chats = [chat_record(f"c{i}", question, "An answer.", "quiz") for i, question in enumerate(questions)]
    records = [*tasks, *rollouts, trajectory_record("copy-of-r", order_id="W0"), *chats]
    write_records(records, tmp_path / "in.parquet")
    run_score(
        tmp_path / "in.parquet", tmp_path / "scored.parquet", ScoreConfig(), read_records(tmp_path / "learner.parquet")
    )
    run_dedup(tmp_path / "scored.parquet", tmp_path / "deduped.parquet", DedupConfig())
    run_select(tmp_path / "deduped.parquet", tmp_path / "sel", SelectConfig(budget=2))

    inputs = report_inputs(tmp_path / "sel")
    assert inputs.records == (tmp_path / "deduped.parquet").resolve() and inputs.audit is not None
    report = ace_report(
        inputs.records, tmp_path / "report", audit=inputs.audit, left_out=inputs.left_out, sets=inputs.sets
    )
    assert set(report.plots) == {"complexity", "pass_rate", "difficulty", "embedding_map", "dedup", "rejects"}
    for path in report.plots.values():
        width, height = png_size(path)
        assert width > 300 and height > 300
    numbers = report.numbers
    assert numbers["tasks"] == 3 and numbers["tasks_with_pass_rate"] == 3
    assert numbers["frontier"] == 1 and numbers["always_solved"] == 1
    assert numbers["by_source"]["quiz"] == 4
    assert sum(numbers["dedup_removed"].values()) >= 1  # copy-of-r repeats rollout t0-r0 but for its id
    assert numbers["sft"] == 1 and numbers["rl"] == 1  # t2's demonstration (never solved); t0 (frontier)
    assert "frontier (0 < p < 1) 1, always solved 1, never solved 1; unequal rewards (the RL set's rule) 1 " in (
        report.markdown
    )
    assert "frontier (0 < p < 1) 1" in report.markdown and "![embedding_map](embedding_map.png)" in report.markdown
    assert "- select: SFT 1, RL 1" in report.markdown and "- dedup: audit of " in report.markdown
    assert "a source at 100% reaches every cluster" in report.markdown  # why coverage shares add up over 100%
    assert (tmp_path / "report" / "summary.md").read_text() == report.markdown


def test_report_of_a_records_file_with_no_learner_and_no_dedup_still_draws_every_plot(tmp_path):
    write_records([chat_record("a", "hello there", "hi"), chat_record("b", "", "")], tmp_path / "plain.parquet")
    inputs = report_inputs(tmp_path / "plain.parquet")
    assert inputs.audit is None and inputs.left_out is None
    report = ace_report(inputs.records, tmp_path / "report")
    assert all(png_size(path) for path in report.plots.values())
    assert report.numbers["tasks_with_pass_rate"] == 0 and report.numbers["dedup_removed"] == {}
    # What the input does not hold is said in words, not as "SFT -, RL -, mean None".
    assert "- records: 2 (0 tasks, 2 trajectories)" in report.markdown
    assert "- learner pass rate: none in this input (`aceforge score --rollouts LEARNER.parquet` counts" in (
        report.markdown
    )
    assert "- select: no sets (`aceforge select`, then report its output directory)" in report.markdown
    assert "None" not in report.markdown


def test_pca_keeps_the_direction_of_largest_spread_first():
    points = np.array([[x, 0.1 * (x % 2), 0.0] for x in range(10)], dtype=float)
    coords = pca_2d(points)
    assert coords.shape == (10, 2)
    assert np.ptp(coords[:, 0]) > 10 * np.ptp(coords[:, 1])


def test_every_source_gets_its_own_colour_however_many_there_are():
    for n in (3, 11, 20, 25, 60):
        assert len(set(distinct_colors(n))) == n
    assert all(len(c) == 4 and all(0 <= v <= 1 for v in c) for c in distinct_colors(25))  # RGBA matplotlib takes
    colors = palette([f"source-{i}" for i in range(25)] * 2)
    assert len(colors) == 25 and len(set(colors.values())) == 25
    assert palette(["b", "a"]) == palette(["a", "b", "a"])  # a source has one colour in every plot


def task_with_calls(calls: int, pass_rate: float | None):
    """A task whose gold actions are ``calls`` distinct tools, with the pass rate a learner left in its scores."""
    record = task_record(f"t{calls}", order_id=f"#W100000{calls}")
    gold = [{"name": f"tool_{j}", "arguments": {"order_id": f"#W100000{calls}"}} for j in range(calls)]
    record.task.expected_outputs = {"gold_actions": gold}
    if pass_rate is not None:
        record.scores = Scores(extra={"pass_rate": pass_rate, "difficulty": 1.0 - pass_rate})
    return record


def test_complexity_relates_to_learner_failure_by_rank_over_the_tasks_with_a_pass_rate(tmp_path):
    harder = [task_with_calls(n, p) for n, p in ((1, 1.0), (2, 0.75), (3, 0.5), (4, 0.0))]
    failed_rollout = rollout_of(harder[0], 0, False)
    failed_rollout.scores = Scores(extra={"pass_rate": 0.0, "difficulty": 1.0})  # not a task: not counted
    write_records([*harder, task_with_calls(5, None), failed_rollout], tmp_path / "harder.parquet")
    found = difficulty_correlations(read_scored(tmp_path / "harder.parquet")[1])
    assert found["n"] == 4 and found["levels"] == 4
    rho = found["spearman"]
    assert rho["tool_calls"] == rho["distinct_tools"] == rho["tokens"] == rho["complexity"] == 1.0
    assert rho["turns"] is None and rho["write_actions"] is None and rho["constraints"] is None  # same for all

    easier = [task_with_calls(n, p) for n, p in ((1, 0.0), (2, 0.25), (3, 0.75), (4, 1.0))]
    write_records(easier, tmp_path / "easier.parquet")
    assert difficulty_correlations(read_scored(tmp_path / "easier.parquet")[1])["spearman"]["tool_calls"] == -1.0

    report = ace_report(tmp_path / "harder.parquet", tmp_path / "report")
    assert report.numbers["difficulty_correlation"] == found
    assert "| feature | Spearman rho (n = 4) |" in report.markdown
    assert "| tool_calls | 1.0 |" in report.markdown and "| constraints | undefined |" in report.markdown
    assert png_size(report.plots["difficulty"])[0] > 300

    write_records([task_with_calls(2, None)], tmp_path / "unrolled.parquet")
    assert difficulty_correlations(read_scored(tmp_path / "unrolled.parquet")[1]) == {
        "n": 0,
        "levels": 0,
        "spearman": {},
    }
    report = ace_report(tmp_path / "unrolled.parquet", tmp_path / "report2")
    assert "No learner pass rates in this input" in report.markdown

    # Every task at p = 1/3 (the main job: 1 oracle + 2 perturbed rollouts): no ranking to show.
    write_records([task_with_calls(n, 1 / 3) for n in (1, 2, 3)], tmp_path / "flat.parquet")
    report = ace_report(tmp_path / "flat.parquet", tmp_path / "report3")
    assert "All 3 tasks a learner rolled out have the same pass rate: nothing to rank." in report.markdown
    assert "Spearman rho" not in report.markdown


def test_coverage_counts_goal_kinds_tool_sequences_and_sources(tmp_path):
    cancel, address = task_record("cancel", "#W1000001"), task_record("both", "#W1000002")
    cancel.task.metadata = {"goal_kinds": ["cancel_order"]}
    address.task.metadata = {"goal_kinds": ["cancel_order", "modify_address"]}
    rollouts = [rollout_of(cancel, 0, True), rollout_of(cancel, 1, False), rollout_of(address, 0, True)]
    lookup = trajectory_record("lookup", dataset="other")
    lookup.trajectory = [
        step for step in lookup.trajectory if not isinstance(step, ApiAction) or step.function == "get_order"
    ]
    records = [cancel, address, *rollouts, lookup, chat_record("c", "Hello?", "Hi.")]
    write_records(records, tmp_path / "in.parquet")
    table = read_scored(tmp_path / "in.parquet")[1]
    assert goal_kind_counts(table) == {
        "cancel_order": {"tasks": 2, "trajectories": 3},
        "none": {"tasks": 0, "trajectories": 2},  # the lookup and the chat name no goal kind
        "modify_address": {"tasks": 1, "trajectories": 1},
    }
    sequences = tool_sequence_counts(table)
    assert sequences == {
        "distinct": 2,
        "top": {"get_order -> cancel_order": 3, "get_order": 1},
        "without_tool_calls": 1,
    }
    assert tool_sequence_counts(table, top=1)["top"] == {"get_order -> cancel_order": 3}

    report = ace_report(tmp_path / "in.parquet", tmp_path / "report")
    assert report.numbers["by_source"] == {"rollouts": 3, "tasks": 2, "other": 1, "chat": 1}
    assert "- sources: 4 (records per source above)" in report.markdown
    assert "- tool sequences: 2 distinct ordered sequences of tool names among the trajectories" in report.markdown
    assert "| modify_address | 1 | 1 |" in report.markdown and "| `get_order -> cancel_order` | 3 |" in report.markdown


def test_report_on_each_stage_output_says_what_it_holds_and_which_command_adds_the_rest(data_home, tmp_path):
    tasks = [task_record(f"t{i}", order_id=f"#W100000{i}", instruction=f"Cancel order {i}, please.") for i in range(2)]
    verified = [*tasks, rollout_of(tasks[0], 0, True), rollout_of(tasks[0], 1, False), rollout_of(tasks[1], 0, True)]
    converted = [chat_record("a", "Is it raining?", "No."), chat_record("b", "Is it raining?", "No.")]
    write_records(converted, tmp_path / "converted.parquet")
    write_records([*verified, *converted], tmp_path / "verified.parquet")
    run_score(tmp_path / "verified.parquet", tmp_path / "scored.parquet", ScoreConfig())
    run_dedup(tmp_path / "scored.parquet", tmp_path / "deduped.parquet", DedupConfig())
    run_select(tmp_path / "deduped.parquet", tmp_path / "sel", SelectConfig(budget=2))

    def summary(path):
        inputs = report_inputs(path)
        return ace_report(
            inputs.records, tmp_path / f"report-{path.stem}", None, inputs.audit, inputs.left_out, inputs.sets
        )

    converted = summary(tmp_path / "converted.parquet")
    assert converted.numbers["by_format"] == {"openai_chat": 2} and converted.numbers["by_verdict"] == {"no verdict": 2}
    for line in (
        "- verify: no verdicts (`aceforge verify` adds them)",
        "- score: no scores (`aceforge score` adds them)",
        "- dedup: no dedup audit (`aceforge dedup`, then report its output)",
        "- select: no sets (`aceforge select`, then report its output directory)",
        "| openai_chat | 2 |",
    ):
        assert line in converted.markdown
    assert "dedup removed" not in converted.markdown and "left out, by reason" not in converted.markdown

    verified = summary(tmp_path / "verified.parquet")
    assert verified.numbers["by_verdict"] == {"no verdict": 4, "passed": 2, "failed": 1}
    assert "- verify: 3 of 7 records have a verdict" in verified.markdown
    assert "- score: no scores (`aceforge score` adds them)" in verified.markdown

    scored = summary(tmp_path / "scored.parquet")
    assert "- score: 7 of 7 records scored" in scored.markdown and "mean diversity: 0." in scored.markdown
    assert "- dedup: no dedup audit" in scored.markdown

    deduped = summary(tmp_path / "deduped.parquet")
    assert deduped.numbers["dedup_removed"] == {"exact": 1}  # chat b repeats chat a
    assert "- dedup: audit of 1 removed records" in deduped.markdown and "| exact | 1 |" in deduped.markdown
    assert "- select: no sets" in deduped.markdown

    selected = summary(tmp_path / "sel")
    assert f"- select: SFT {selected.numbers['sft']}, RL {selected.numbers['rl']}" in selected.markdown
    assert "left out, by reason" in selected.markdown

    # `aceforge report` on the dedup output prints the same summary (it printed "SFT -, RL -").
    result = invoke("report", tmp_path / "deduped.parquet", "-o", tmp_path / "cli-report")
    assert result.exit_code == 0, result.output
    assert "- dedup: audit of 1 removed records" in result.stdout and "- score: 6 of 6 records scored" in result.stdout
