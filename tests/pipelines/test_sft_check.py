"""The blocking check before training: every SFT record is a success aceforge verified itself."""

from __future__ import annotations

from pipelines.curate_assets import sft_set_verified
from pipelines.record_store import RecordSet
from schemas.io import write_records
from tests.curation.helpers import trajectory_record


def check(tmp_path, records, accept_imported=False):
    path = tmp_path / "sft.parquet"
    write_records(records, path)
    return sft_set_verified(RecordSet([path]), accept_imported)


def test_computed_successes_pass_the_check(tmp_path):
    result = check(tmp_path, [trajectory_record("a", order_id="W1"), trajectory_record("b", order_id="W2")])
    assert result.passed is True
    assert result.metadata["verdicts_computed"].value == 2


def test_a_success_only_the_source_vouches_for_fails_it_unless_accepted(tmp_path):
    imported = trajectory_record("a", order_id="W1")
    imported.verifier.result.origin = None
    assert check(tmp_path, [imported]).passed is False
    assert check(tmp_path, [imported]).metadata["verdicts_imported"].value == 1
    assert check(tmp_path, [imported], accept_imported=True).passed is True


def test_a_failed_or_empty_sft_set_fails_it(tmp_path):
    assert check(tmp_path, [trajectory_record("a", order_id="W1", passed=False)]).passed is False
    assert check(tmp_path, []).passed is False
