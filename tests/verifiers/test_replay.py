"""Each replay reason code on a literal trajectory in the toy bank."""

from __future__ import annotations

import orjson

from environments.base import canonical_hash
from schemas.record import StateRef
from tests.verifiers.toy_bank import INITIAL, ToyBank, bank_factory, bank_record, call, good_trajectory, result, say
from verifiers.base import CheckContext
from verifiers.replay import ReplayVerifier


def replay(record, factory=bank_factory):
    ctx = CheckContext(record=record, env_factory=factory)
    return ReplayVerifier().check(ctx), ctx


def final_hash_after(*calls) -> str:
    env = ToyBank()
    for name, args in calls:
        env.call(name, args)
    return env.state_hash()


def test_a_faithful_trajectory_replays_and_yields_the_final_hash():
    verdict, ctx = replay(bank_record(good_trajectory()))
    assert verdict.passed and verdict.reasons == []
    expected = final_hash_after(("transfer", {"source": "a1", "target": "a2", "amount": 30}))
    assert verdict.evidence["final_state_hash"] == expected
    assert verdict.evidence["calls"] == 2
    assert ctx.final_env.state()["accounts"]["a2"]["balance"] == 50.0
    assert ctx.initial_env.state()["accounts"]["a2"]["balance"] == 20.0
    assert [e["changed"] for e in ctx.write_log] == [True, False]


def test_a_recorded_result_the_replay_never_produces():
    trajectory = good_trajectory()
    trajectory[4] = result("c2", '{"balance": 80.0}')
    verdict, _ = replay(bank_record(trajectory))
    assert verdict.reasons == ["replay_mismatch"]
    assert verdict.evidence["mismatch"]["step"] == 4
    assert verdict.evidence["mismatch"]["replayed"] == '{"balance":50.0}'


def test_a_call_on_a_missing_id_that_claims_success_is_a_mismatch():
    trajectory = [call("transfer", "c1", source="a1", target="a9", amount=5), result("c1", "done"), say("done")]
    verdict, _ = replay(bank_record(trajectory))
    assert verdict.reasons == ["replay_mismatch"]
    assert verdict.evidence["mismatch"]["replayed"] == "Error: no such account"


def test_a_failed_call_recorded_as_failed_is_consistent_unless_errors_are_disallowed():
    trajectory = [
        call("transfer", "c1", source="a1", target="a9", amount=5),
        result("c1", "Error: no such account"),
        say("sorry"),
    ]
    verdict, _ = replay(bank_record(trajectory))
    assert verdict.passed and verdict.evidence["tool_errors"] == 1
    strict, _ = replay(bank_record(trajectory, spec={"allow_tool_errors": False}))
    assert strict.reasons == ["tool_error"]


def test_json_results_compare_as_values_and_status_mode_ignores_the_text():
    trajectory = good_trajectory()
    trajectory[4] = result("c2", '{ "balance" : 50 }')
    assert replay(bank_record(trajectory))[0].passed
    trajectory[4] = result("c2", "balance is fifty")
    assert replay(bank_record(trajectory))[0].reasons == ["replay_mismatch"]
    assert replay(bank_record(trajectory, spec={"replay_compare": "status"}))[0].passed


def test_the_expected_final_hash_is_checked():
    record = bank_record(good_trajectory(), kind="state_hash", spec={"final_state_hash": "0" * 64})
    assert replay(record)[0].reasons == ["state_hash_mismatch"]


def test_an_initial_state_that_does_not_match_the_pinned_hash():
    record = bank_record(good_trajectory(), initial_state=StateRef(snapshot_id="bank-seed0", content_hash="f" * 64))
    verdict, _ = replay(record)
    assert verdict.reasons == ["initial_state_mismatch"]
    pinned = bank_record(
        good_trajectory(), initial_state=StateRef(snapshot_id="bank-seed0", content_hash=canonical_hash(INITIAL))
    )
    assert replay(pinned)[0].passed


def test_initial_state_from_seed_inline_state_and_file(tmp_path):
    seeded = bank_record(good_trajectory(), sandbox={"seed": 5})
    _, ctx = replay(seeded)
    assert ctx.initial_env.state()["accounts"]["a1"]["balance"] == 105.0
    small = {
        "accounts": {
            "a1": {"owner": "ana", "balance": 30.0, "note": ""},
            "a2": {"owner": "bo", "balance": 20.0, "note": ""},
        }
    }
    inline, _ = replay(bank_record(good_trajectory(), sandbox={"initial_state": small}))
    assert inline.passed
    path = tmp_path / "db.json"
    path.write_bytes(orjson.dumps(small))
    from_file, ctx = replay(bank_record(good_trajectory(), initial_state=StateRef(snapshot_id=f"file:{path}")))
    assert from_file.passed and ctx.final_env.state()["accounts"]["a1"]["balance"] == 0.0
    missing, _ = replay(bank_record(good_trajectory(), sandbox={"state_path": str(tmp_path / "nope.json")}))
    assert missing.reasons == ["initial_state_unavailable"]


def test_unknown_or_missing_environment():
    record = bank_record(good_trajectory())
    record.environment.name = "casino"
    assert replay(record)[0].reasons == ["unknown_environment"]
    record.environment.name = None
    assert replay(record)[0].reasons == ["no_environment"]


def test_an_environment_that_raises_is_a_replay_error():
    class Exploding(ToyBank):
        def call(self, name, arguments):
            raise RuntimeError("boom")

    verdict, _ = replay(bank_record(good_trajectory()), factory=lambda name, **kw: Exploding(**kw))
    assert verdict.reasons == ["replay_error"]
    assert verdict.evidence["detail"] == "RuntimeError: boom"


def test_a_bad_call_refused_before_it_ran_is_not_replayed():
    # The toy bank does not check arguments: replayed, amount "30" would raise (str < float) or act on them.
    trajectory = good_trajectory()
    trajectory[1:1] = [
        call("transfer", "c0", source="a1", target="a2", amount="30"),
        result("c0", "Error: invalid arguments for transfer: amount: '30' is not of type 'number'"),
    ]
    verdict, ctx = replay(bank_record(trajectory))
    assert (verdict.passed, verdict.reasons) == (True, [])
    assert (verdict.evidence["calls"], verdict.evidence["tool_errors"]) == (3, 1)
    assert ctx.final_env.state()["accounts"]["a2"]["balance"] == 50.0
    assert [(e["step"], e["ok"], e["changed"]) for e in ctx.write_log] == [
        (1, False, False),
        (3, True, True),
        (5, True, False),
    ]
