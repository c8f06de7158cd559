"""`aceforge verify`: re-verifies records, writes them all, counts changed verdicts, and judges with a model."""

from __future__ import annotations

import pytest

from schemas.io import read_records, write_records
from schemas.record import VerifierResult
from tests.pipelines.cli_helpers import invoke, last_json
from tests.pipelines.verify_records import inputs
from tests.verifiers.handwritten import rollout
from tests.verifiers.labelled_tasks import cancel_task, tove_cancel
from tests.verifiers.retail_cancel import actions
from tests.verifiers.retail_cancel import record as retail_record
from tests.verifiers.scripted_model import JUDGE_REASONS, greeting_record
from verifiers.judge_trust import Agreement, JudgeAgreement


def test_verify_counts_changed_verdicts_and_writes_every_record(tmp_path):
    source, target = tmp_path / "in.parquet", tmp_path / "out.jsonl"
    write_records(inputs(), source)
    result = invoke("verify", source, "-o", target, "--json")
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert {k: summary[k] for k in ("records", "verified", "skipped", "passed", "failed", "verdicts_changed")} == {
        "records": 5,
        "verified": 4,
        "skipped": 1,
        "passed": 2,
        "failed": 2,
        "verdicts_changed": 3,
    }
    assert summary["reasons"] == {"answer_mismatch": 1, "constraint_failed:reason": 1}
    written = {r.id: r for r in read_records(target)}
    assert len(written) == 5
    assert written["right-but-stored-failed"].verifier.result.passed is True
    assert written["not-verifiable"].verifier.result.verifier == "old"
    assert (
        written["retail-cancel"].verifier.version
        == "structure@1+replay@1+constraints@3+grounding@7+statements@3+policy@5"
    )
    assert summary["quarantined"] == 0 and not (tmp_path / "out.quarantine.parquet").exists()


def test_verify_prints_a_text_summary_and_rerunning_changes_nothing(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    source = tmp_path / "in.jsonl"
    write_records(inputs(), source)
    assert invoke("verify", source, "-o", first).exit_code == 0
    result = invoke("verify", first, "-o", second)
    assert result.exit_code == 0
    assert "verdicts changed: 0" in result.stdout


def test_verify_refuses_bad_paths(tmp_path):
    missing = invoke("verify", tmp_path / "none.parquet", "-o", tmp_path / "o.parquet")
    assert missing.exit_code == 2 and "file not found" in missing.output
    source = tmp_path / "in.jsonl"
    write_records(inputs()[:1], source)
    same = invoke("verify", source, "-o", source)
    assert same.exit_code == 2


def test_a_file_that_is_not_records_is_one_line_and_exit_non_zero(tmp_path):
    """The fault: verify on a wrong-schema Parquet exited 0 having done nothing; on a non-Parquet file, a traceback."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"text": ["hello"], "n": [1]}), other)
    result = invoke("verify", other, "-o", tmp_path / "o.parquet")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {other} is a Parquet file of other columns (text, n), not records;")
    assert result.stderr.count("\n") == 1 and not (tmp_path / "o.parquet").exists()
    text = tmp_path / "notes.parquet"
    text.write_text("just some text, not Parquet\n")
    result = invoke("verify", text, "-o", tmp_path / "o.parquet")
    assert result.exit_code == 2 and "Traceback" not in result.output and result.stderr.count("\n") == 1
    assert f"{text} is not a Parquet file (text, 28 bytes, starting 'just some text, not Parquet')" in result.stderr
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"id": "x", "trajectory": "not a list"}\n[1, 2]\n')
    result = invoke("verify", junk, "-o", tmp_path / "o.jsonl")
    assert result.exit_code == 1 and "nothing verified" in result.stderr and "every row is unreadable" in result.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = invoke("verify", empty, "-o", tmp_path / "o.jsonl")
    assert result.exit_code == 1 and "it holds no records" in result.stderr


def test_unreadable_rows_are_quarantined_not_fatal(tmp_path):
    from schemas.io import iter_parquet_rows

    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_records(inputs()[:2], source)
    with source.open("ab") as f:
        f.write(b'{"id": "broken", "trajectory": "not a list"}\n')
    result = invoke("verify", source, "-o", target, "--json")
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert (summary["records"], summary["quarantined"]) == (2, 1)
    rows = list(iter_parquet_rows(tmp_path / "out.quarantine.parquet"))
    assert rows[0]["index"] == 2 and "broken" in rows[0]["raw_excerpt"]


def test_judge_only_records_keep_their_verdict_without_a_judge(tmp_path):
    stored = greeting_record()
    stored.verifier.result = VerifierResult(passed=True, score=1.0, verifier="old", version="0")
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_records([stored], source)
    summary = last_json(invoke("verify", source, "-o", target, "--json"))
    assert (summary["skipped"], summary["verified"], summary["judge"]) == (1, 0, None)
    [kept] = read_records(target)
    assert kept.verifier.result.verifier == "old"


@pytest.mark.slow  # starts the transformers backend (which then fails to find the model)
def test_a_judge_model_that_cannot_be_loaded_is_a_usage_error(tmp_path):
    source = tmp_path / "in.jsonl"
    write_records([greeting_record()], source)
    missing = tmp_path / "no-such-model"
    result = invoke(
        "verify",
        source,
        "-o",
        tmp_path / "out.jsonl",
        "--judge-backend",
        "transformers",
        "--judge-model",
        missing,
        "--no-judge-cache",
    )
    assert result.exit_code == 2 and "cannot load the judge model" in result.output
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.slow  # loads SmolLM2 with transformers
def test_verify_judges_with_smollm2_on_the_transformers_backend(tmp_path):
    wrong_reason = retail_record(rollout("retail", actions("no longer needed")))
    wrong_reason.verifier.spec = {"judge": True}  # fails its constraints first: the judge is not asked
    conditional = cancel_task().model_copy(
        update={"trajectory": rollout("retail", tove_cancel(answer="Yes, as long as it goes back to my card."))}
    )
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_records([greeting_record(), wrong_reason, conditional], source)
    args = ("--judge-backend", "transformers", "--no-judge-cache")
    result = invoke("verify", source, "-o", target, "--json", *args)
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert summary["judge"]["model"].endswith("SmolLM2-135M-Instruct")
    assert summary["judge_untrusted"].startswith("its agreement with the hand labels was not measured")
    assert (summary["records"], summary["verified"], summary["skipped"], summary["undecided"]) == (3, 3, 0, 1)
    written = {r.id: r.verifier.result for r in read_records(target)}
    judged = written["greeting"]  # its own v asks for the judge: judged, trusted or not
    assert judged.passed in (True, False) and set(judged.reasons) <= JUDGE_REASONS - {"judge_unavailable"}
    assert judged.evidence["llm_judge"]["model"] == summary["judge"]
    rejected = written["retail-cancel"]
    assert rejected.reasons == ["constraint_failed:reason"] and "llm_judge" not in rejected.evidence
    assert (
        written[conditional.id].reasons == ["consent_conditional"]
        and "llm_judge" not in written[conditional.id].evidence
    )

    # Measured (here: a file saying so) for this very model, the judge decides the record the rules left open.
    measured = Agreement(right=20, right_agreed=19, wrong=20, wrong_agreed=19)
    agreement = tmp_path / "agreement.json"
    agreement.write_text(
        JudgeAgreement(judge=summary["judge"], labelled_set="x", by_kind={"consent": measured}).model_dump_json()
    )
    summary = last_json(invoke("verify", source, "-o", target, "--json", "--judge-agreement", agreement, *args))
    assert summary["judge_untrusted"] is None and summary["undecided"] == 0
    decided = {r.id: r.verifier.result for r in read_records(target)}[conditional.id]
    assert decided.passed in (True, False) and decided.evidence["llm_judge"]["model"] == summary["judge"]
