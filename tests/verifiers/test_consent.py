"""Consent is the user's decision on a write, not a word; the confirmed action must be the write.

Each rule has a right trajectory (passes) and a wrong one (fails for its named reason) on real seed-0 tasks of
tests/verifiers/test_labelled_trajectories.py; the user-turn reader has its own literal table.
"""

from __future__ import annotations

import pytest

from tests.verifiers.labelled_tasks import (
    EXCHANGE,
    FARID,
    NADIA_B,
    NILS_ADDRESS,
    NILS_O,
    YES,
    A,
    U,
    assert_right,
    assert_wrong,
    cancel_task,
    exchange_task,
    return_task,
    tove_cancel,
    two_goal_task,
    verdict,
)
from verifiers.confirmations import Catalogue
from verifiers.decisions import decide, retracts

TURNS = {
    "Yes, please go ahead.": "consent",
    "OK, go for it": "consent",
    "Go on then.": "consent",
    "Absolutely, do it.": "consent",
    "That works, thanks": "consent",
    "Sounds good!": "consent",
    "Please do.": "consent",
    "No problem, go ahead.": "consent",
    "Yes, cancel it. I'm not flying in this weather.": "consent",
    "Yes — I no longer need it.": "consent",
    "Yes, but when will I get my money?": "consent",
    "Yes. Wait, actually no, leave it for now.": "refusal",
    "Correct me if I'm wrong, but I'd rather keep it": "refusal",
    "No.": "refusal",
    "Not now, thanks.": "refusal",
    "I've changed my mind, don't cancel it.": "refusal",
    "Hold on, let me think about it.": "refusal",
    "Wait, will I get all my money back?": "question",
    "Hmm, and when would I get my money back?": "question",
    "Yes, as long as the refund goes to my gift card.": "condition",
    "Only if it is free.": "condition",
    "No, that's all, thanks.": "none",
    "My email is nadia@post.example": "none",
    "I guess so": "none",
}


@pytest.mark.parametrize("text,decision", TURNS.items())
def test_a_user_turn_states_its_decision_in_any_words(text, decision):
    assert decide(text) == decision


def test_only_a_refusal_that_names_the_change_withdraws_it_whatever_it_answers():
    assert retracts("Wait, actually no, leave it for now.") and retracts("I changed my mind.")
    assert not retracts("No.") and not retracts("No, that's all.")


# ---------------------------------------------------------------- consent without a yes-word, and its opposite


@pytest.mark.parametrize("answer", ["OK, go for it.", "Absolutely, do it.", "Yes, cancel it. I'm not using it."])
def test_right_consent_without_a_yes_word_or_with_a_not_elsewhere(answer):
    assert_right(cancel_task(), tove_cancel(answer=answer))


def test_wrong_write_after_the_user_took_the_yes_back():
    script = tove_cancel()
    script[6:6] = [U("Wait, actually no, leave it for now.")]
    assert_wrong(cancel_task(), script, "write_after_refusal")


def test_wrong_polite_refusal_read_as_consent():
    script = tove_cancel(answer="Correct me if I'm wrong, but I'd rather keep it.")
    assert_wrong(cancel_task(), script, "write_after_refusal")


def test_wrong_yes_to_a_fact_check_taken_as_consent():
    script = tove_cancel()
    script[4:6] = [A("Before anything else: is your zip code still 43293?"), U("Yes.")]
    assert_wrong(cancel_task(), script, "write_without_confirmation")


def test_wrong_yes_to_another_offer_taken_as_consent():
    script = tove_cancel(answer="Hmm, I am not sure yet.")
    script[6:6] = [A("Would you like me to check your other orders too?"), U("Yes, please.")]
    assert_wrong(cancel_task(), script, "write_without_confirmation")


def test_right_question_answered_then_asked_again():
    script = tove_cancel(answer="When would I get the money back?")
    script[6:6] = [A("Within 5-7 business days, on your credit card. Shall I go ahead?"), U("Sure.")]
    assert_right(cancel_task(), script)


def test_a_yes_bound_to_an_open_condition_is_undecided_not_a_pass():
    result = verdict(cancel_task(), tove_cancel(answer="Yes, as long as the money goes back to my card."))
    assert (result.passed, result.origin, result.reasons) == (None, "undecided", ["consent_conditional"])


# ---------------------------------------------------------------- the confirmed action is the write


def farid_return(confirm: str, answer: str = YES) -> list:
    return [
        U("Hello, my email is farid.quiroga2727@mail.test. I want to return the Yoga Mat and the Cookware Set."),
        ("find_user_id_by_email", FARID),
        ("get_user_details", {"user_id": "farid_quiroga_2727"}),
        ("get_order_details", {"order_id": "#R3673072"}),
        A(confirm),
        U(answer),
        (
            "return_delivered_order_items",
            {
                "order_id": "#R3673072",
                "item_ids": ["6184554803", "0478724998"],
                "payment_method_id": "gift_card_8370131",
            },
        ),
        A("The return is requested; $235.68 will go to your gift card once the items are back."),
    ]


def test_right_items_and_payment_named_by_what_the_tools_showed():
    confirm = (
        "To confirm: I'll return the Yoga Mat and the Cookware Set from order #R3673072, and the $235.68 refund "
        "goes to your gift card. OK?"
    )
    assert_right(return_task(), farid_return(confirm))


def test_wrong_exchange_confirmed_return_written():
    confirm = (
        "I'll exchange the Yoga Mat and the Cookware Set from order #R3673072; $235.68 goes to your gift card. OK?"
    )
    assert_wrong(return_task(), farid_return(confirm), "confirmation_mismatch")


def test_wrong_refund_confirmed_to_another_payment_method():
    confirm = "I'll return the Yoga Mat and the Cookware Set from order #R3673072; $235.68 goes to your PayPal. OK?"
    assert_wrong(return_task(), farid_return(confirm), "confirmation_mismatch")


def test_wrong_another_item_confirmed():
    confirm = "I'll return the Yoga Mat and the Backpack from order #R3673072; $235.68 goes to your gift card. OK?"
    assert_wrong(return_task(), farid_return(confirm), "confirmation_mismatch")


def nadia_exchange(confirm: str) -> list:
    return [
        U("Hi, my email is nadia.brandt9165@post.example. I want to exchange my black 25l Backpack for the green one."),
        ("find_user_id_by_email", NADIA_B),
        ("get_user_details", {"user_id": "nadia_brandt_9165"}),
        ("get_order_details", {"order_id": "#R3050852"}),
        ("get_product_details", {"product_id": "8949007298"}),
        A(confirm),
        U("Yes please."),
        ("exchange_delivered_order_items", EXCHANGE["arguments"]),
        A("The exchange for order #R3050852 is requested; you pay $14.52 more with PayPal."),
    ]


def test_right_new_variant_named_by_its_options():
    confirm = "I'll exchange your Backpack in #R3050852 for the green one; the $14.52 difference is paid by PayPal. OK?"
    assert_right(exchange_task(), nadia_exchange(confirm))


def test_an_option_of_none_is_named_by_its_absence():
    catalogue = Catalogue()
    catalogue.items = {
        "old": ("Mechanical Keyboard", {"backlight": "white", "switch": "tactile"}),
        "new": ("Mechanical Keyboard", {"backlight": "none", "switch": "clicky"}),
    }
    for said in ("the clicky, no-backlight model", "the clicky one without backlight", "clicky, backlight: none"):
        assert catalogue.names_variant(said, "new", "old"), said
    for said in ("the clicky one", "the clicky one with a white backlight"):
        assert not catalogue.names_variant(said, "new", "old"), said


def test_wrong_another_variant_named():
    confirm = "I'll exchange your Backpack in #R3050852 for the grey one; the $14.52 difference is paid by PayPal. OK?"
    assert_wrong(exchange_task(), nadia_exchange(confirm), "confirmation_incomplete")


def test_right_one_confirmation_covers_two_writes():
    script = [
        U(
            "Hi, I am Nils Okafor, zip 12247. Please update my profile address to 4723 Iris Place, Apt 269, Boise, "
            "ID 83724, USA, and cancel my order with the Office Chair: I ordered it by mistake."
        ),
        ("find_user_id_by_name_zip", NILS_O),
        ("get_user_details", {"user_id": "nils_okafor_2324"}),
        ("get_order_details", {"order_id": "#R3184937"}),
        ("get_order_details", {"order_id": "#R1497173"}),
        A(
            "Here is the plan: change your profile address to 4723 Iris Place, Apt 269, Boise, ID 83724, USA, and "
            "cancel order #R1497173 (ordered by mistake), refunding $231.01 to your PayPal. Shall I do both?"
        ),
        U("Yes, both please."),
        ("modify_user_address", NILS_ADDRESS),
        ("cancel_pending_order", {"order_id": "#R1497173", "reason": "ordered by mistake"}),
        A("Done: your address is 4723 Iris Place, Apt 269, Boise, ID 83724, USA; order #R1497173 is cancelled."),
    ]
    assert_right(two_goal_task(), script)


def test_a_judge_given_decides_what_the_rules_left_undecided_and_nothing_else():
    from tests.verifiers.handwritten import rollout
    from tests.verifiers.scripted_model import ScriptedModel
    from verifiers.runner import verify_record

    conditional = cancel_task().model_copy(
        update={"trajectory": rollout("retail", tove_cancel(answer="Yes, as long as it goes back to my card."))}
    )
    passed = verify_record(conditional, model=ScriptedModel('{"score": 0.9, "reason": "the card was named"}'))
    assert (passed.passed, passed.origin, passed.evidence["llm_judge"]["judge_reason"]) == (
        True,
        "computed",
        "the card was named",
    )
    failed = verify_record(conditional, model=ScriptedModel('{"score": 0.1}'))
    assert failed.passed is False and "judge_failed" in failed.reasons
    decided = cancel_task().model_copy(update={"trajectory": rollout("retail", tove_cancel())})
    model = ScriptedModel('{"score": 0.0}')
    assert verify_record(decided, model=model).passed is True and model.requests == []  # nothing left to decide


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_the_scripted_users_recorded_decisions_and_the_text_rules_agree_on_every_conversation(domain):
    """The project's own users record what they decided; the verifier reads the words of imported data. On every
    scripted conversation of a synthesized set (oracle and perturbed agents), both give the same decision on every
    turn and the same verdict on every record."""
    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import run_rollouts
    from generators.synthesis.config import SynthTasksConfig
    from generators.synthesis.stages import run_tasks
    from schemas.steps import MessageAction, TextObservation
    from verifiers.confirmations import asks_for_decision
    from verifiers.consent import RECORDED
    from verifiers.runner import verify_record

    tasks, _ = run_tasks(SynthTasksConfig(env=domain, n=30, seed=1, users=500), "decisions")
    rollouts = [
        *run_rollouts(tasks, RolloutConfig(agent="oracle", user="scripted", k=1, seed=1), None, "decisions"),
        *run_rollouts(tasks, RolloutConfig(agent="perturbed", user="scripted", k=2, seed=1), None, "decisions"),
    ]
    turns = [s for r in rollouts for s in r.trajectory if isinstance(s, TextObservation) and s.source == "user"]
    assert turns and all(turn.decision is not None for turn in turns)
    assert (
        {"consent", "none", "insist", "change_request", "choose"}
        >= {turn.decision["kind"] for turn in turns}
        >= {
            "consent",
            "none",
        }
    )
    # The words decide where the verifier reads them: a turn answering an agent message that asks for a decision
    # (an opening's "if it has not shipped yet" is a request, not a decision).
    answers = [
        turn
        for rollout in rollouts
        for before, turn in zip(rollout.trajectory, rollout.trajectory[1:])
        if isinstance(turn, TextObservation) and turn.source == "user"
        if isinstance(before, MessageAction) and asks_for_decision(before.content)
    ]
    assert answers
    assert [RECORDED[turn.decision["kind"]][0] for turn in answers] == [decide(turn.content) for turn in answers]
    for rollout in rollouts:
        unrecorded = [
            s.model_copy(update={"decision": None}) if isinstance(s, TextObservation) else s for s in rollout.trajectory
        ]
        read = verify_record(rollout.model_copy(update={"trajectory": unrecorded}))
        assert (read.passed, read.reasons) == (rollout.verifier.result.passed, rollout.verifier.result.reasons)
