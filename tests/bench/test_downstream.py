"""bench/downstream.py: the held-out share of unseen goal kinds is counted in turns, and a run's size is the
records it sees (optimizer steps x batch x accumulation), not its steps."""

from __future__ import annotations

import json

import pytest
from downstream import choose_heldout, parse_args, steps_for

from schemas.record import AgentRecord, Source
from schemas.steps import ApiAction


def calls(record_id: str, count: int) -> AgentRecord:
    steps = [ApiAction(function="get_order_details", kwargs={"order_id": f"#W{i}"}) for i in range(count)]
    return AgentRecord(id=record_id, source=Source(dataset="bench", format="aceforge"), trajectory=steps)


def test_the_unseen_kind_share_is_counted_in_turns():
    unseen = [calls("u1", 6), calls("u2", 6), calls("u3", 6)]
    seen = [calls("s1", 2), calls("s2", 2), calls("s3", 2), calls("s4", 2), calls("s5", 2), calls("s6", 2)]
    chosen = choose_heldout(unseen, seen, unseen_turns=5, turns=20)
    # 5 unseen turns are due: one 6-call conversation holds them; 15 more are due from pool kinds
    assert [r.id for r in chosen] == ["u1", "s1", "s2", "s3", "s4", "s5", "s6"]  # seen runs out at 12 of 15
    chosen = choose_heldout(unseen, seen * 2, unseen_turns=5, turns=20)  # eight 2-call conversations: 16 turns
    assert sum(len(r.trajectory) for r in chosen if r.id.startswith("u")) == 6
    assert sum(len(r.trajectory) for r in chosen if r.id.startswith("s")) == 16


@pytest.mark.parametrize(
    ("flags", "steps", "seen"),
    [
        (["--n", "56"], 28, 56),  # the CPU design: batch 1, 2 micro-batches a step
        (["--n", "55"], 28, 56),  # an odd N is rounded up to whole steps, and the table says 56
        (["--n", "100", "--batch-size", "8", "--grad-accum", "1", "--epochs", "4"], 50, 400),
    ],
)
def test_steps_follow_the_records_seen(flags, steps, seen):
    args = parse_args(flags)
    assert steps_for(args, args.n[0]) == steps
    assert steps * args.batch_size * args.grad_accum == seen


def test_a_held_out_set_other_than_the_fixed_one_is_refused(smol_path, tmp_path):
    from downstream import make_heldout

    from training.model_io import load_tokenizer

    tokenizer, template = load_tokenizer(smol_path)
    args = parse_args(["--heldout-turns", "4", "--users", "50"])
    _, held, _ = make_heldout(args, tmp_path / "first", tokenizer, template)
    plan = json.loads((tmp_path / "first" / "plan.json").read_text())
    assert plan["turns"] == len(held.turns) >= 4
    fixed = plan["heldout_sha256"]
    make_heldout(
        parse_args(["--heldout-turns", "4", "--users", "50", "--heldout-sha256", fixed]),
        tmp_path / "again",
        tokenizer,
        template,
    )
    with pytest.raises(SystemExit, match=f"is not the fixed one {fixed}"):
        make_heldout(
            parse_args(["--heldout-turns", "8", "--users", "50", "--heldout-sha256", fixed]),
            tmp_path / "more",
            tokenizer,
            template,
        )
