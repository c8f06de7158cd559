"""The ``improve`` Dagster job: in the Definitions beside the main job's jobs, and one round run in process with
the oracle as the learner (no model: it always solves, so nothing is left to train on)."""

from __future__ import annotations

from pipelines.definitions import JOBS, defs
from pipelines.improve_job import improve


def test_improve_is_a_job_of_the_definitions_but_not_of_the_main_job():
    assert defs.get_job_def("improve").name == "improve"
    assert "improve" not in JOBS


def test_one_round_in_process_reports_the_held_out_figures_and_the_round_table(tmp_path):
    config = {
        "out_dir": str(tmp_path),
        "rounds": 1,
        "tasks": {"n": 2, "users": 20, "difficulty": "1"},
        "heldout": {"n": 1, "users": 20, "difficulty": "1"},
        "new_tasks": 0,
        "learner": {"agent": "oracle"},
    }
    result = improve.execute_in_process(run_config={"ops": {"improve_rounds": {"config": config}}})
    assert result.success
    output = result.output_for_node("improve_rounds")
    assert [e["pass^1"] for e in output["evaluations"]] == [1.0, 1.0] and output["k"] == 4
    [materialization] = [
        e for e in result.all_events if e.event_type_value == "STEP_OUTPUT" and e.step_key == "improve_rounds"
    ]
    metadata = materialization.event_specific_data.metadata
    assert metadata["heldout_pass^1"].value == 1.0 and metadata["plot"].value == str(tmp_path / "improve.png")
    assert "| round | held-out pass^1 | pass^4 | score |" in metadata["rounds"].value


def test_a_section_given_in_part_in_the_launchpad_keeps_its_embedded_defaults():
    """Dagster fills a section's missing keys from its fields' defaults: those must be the section's default (the
    llm learner, the held-out database seed 1), not its class's (the oracle, seed 0)."""
    from pipelines.assets.config_schema import config_schema
    from training.improve_config import ImproveConfig

    schema = config_schema(ImproveConfig)
    learner = schema["learner"].config_type.fields
    assert (learner["agent"].default_value, learner["k"].default_value, learner["backend"].default_value) == (
        "llm",
        4,
        "vllm",
    )
    assert schema["heldout"].config_type.fields["db_seed"].default_value == 1
