"""The ACE report: five PNG plots and a markdown summary whose numbers match the data."""

import struct

import numpy as np

from curation.config import DedupConfig, ScoreConfig, SelectConfig
from curation.dedup_stage import run_dedup
from curation.report import ace_report, report_inputs
from curation.report_plots import distinct_colors, palette, pca_2d
from curation.score_stage import run_score
from curation.select_stage import run_select
from schemas.io import write_records
from tests.curation.helpers import chat_record, rollout_of, task_record, trajectory_record

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    return struct.unpack(">II", data[16:24])


def test_report_renders_every_plot_and_a_summary_with_the_numbers(tmp_path):
    asks = ["Cancel order W0 and tell me when.", "My parcel W1 never came; stop it.", "Drop W2, I bought it twice."]
    tasks = [task_record(f"t{i}", order_id=f"W{i}", instruction=ask) for i, ask in enumerate(asks)]
    rollouts = [rollout_of(tasks[0], 0, True), rollout_of(tasks[0], 1, False), rollout_of(tasks[1], 0, True)]
    questions = ["Will it rain in Oslo?", "Best pasta recipe?", "Who wrote Hamlet?", "How far is the Moon?"]
    chats = [chat_record(f"c{i}", question, "An answer.", "quiz") for i, question in enumerate(questions)]
    records = [*tasks, *rollouts, trajectory_record("copy-of-r", order_id="W0"), *chats]
    write_records(records, tmp_path / "in.parquet")
    run_score(tmp_path / "in.parquet", tmp_path / "scored.parquet", ScoreConfig())
    run_dedup(tmp_path / "scored.parquet", tmp_path / "deduped.parquet", DedupConfig())
    run_select(tmp_path / "deduped.parquet", tmp_path / "sel", SelectConfig(budget=2))

    inputs = report_inputs(tmp_path / "sel")
    assert inputs.records == (tmp_path / "deduped.parquet").resolve() and inputs.audit is not None
    report = ace_report(
        inputs.records, tmp_path / "report", audit=inputs.audit, left_out=inputs.left_out, sets=inputs.sets
    )
    assert set(report.plots) == {"complexity", "pass_rate", "embedding_map", "dedup", "rejects"}
    for path in report.plots.values():
        width, height = png_size(path)
        assert width > 300 and height > 300
    numbers = report.numbers
    assert numbers["tasks"] == 3 and numbers["tasks_with_pass_rate"] == 2
    assert numbers["frontier"] == 1 and numbers["always_solved"] == 1
    assert numbers["by_source"]["quiz"] == 4
    assert sum(numbers["dedup_removed"].values()) >= 1  # copy-of-r repeats rollout t0-r0 but for its id
    assert numbers["sft"] == 2 and numbers["rl"] == 1
    assert "frontier (0 < p < 1) 1" in report.markdown and "![embedding_map](embedding_map.png)" in report.markdown
    assert "- selection: SFT 2, RL 1" in report.markdown
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
    assert "- learner pass rate: none in this input (`aceforge score --learner ...` rolls the tasks out)" in (
        report.markdown
    )
    assert "- selection: not in this input (report a `select` output directory to see the sets)" in report.markdown
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
