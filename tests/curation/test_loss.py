"""Loss-based complexity with the real SmolLM2: what the learner finds surprising costs more loss."""

import pytest

from schemas.io import read_records, write_records
from schemas.record import AgentRecord, Source
from schemas.steps import TextObservation
from tests.curation.helpers import chat_record
from tests.pipelines.cli_helpers import invoke


@pytest.mark.slow
def test_the_loss_column_is_higher_for_a_garbled_answer_and_absent_without_an_assistant_turn(
    data_home, tmp_path, smol_path
):
    natural = chat_record("natural", "Hello!", "Hello! How can I help you today?")
    garbled = chat_record("garbled", "Hello!", "qz xv Kkp wq zzt 93 vvr plm")
    silent = AgentRecord(
        id="silent",
        trajectory=[TextObservation(content="Anyone there?", source="user")],
        source=Source(dataset="d", format="f"),
    )
    silent.trajectory.append(TextObservation(content="Still waiting.", source="user"))
    write_records([natural, garbled, silent], tmp_path / "in.parquet")
    result = invoke(
        "score", tmp_path / "in.parquet", "-o", tmp_path / "out.parquet", "--loss-model", smol_path, "--json"
    )
    assert result.exit_code == 0, result.output
    loss = {r.id: r.scores.extra.get("loss") for r in read_records(tmp_path / "out.parquet")}
    assert 0 < loss["natural"] < loss["garbled"]
    assert loss["silent"] is None  # nothing the learner would be trained on
