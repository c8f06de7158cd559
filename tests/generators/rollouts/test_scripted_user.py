"""The scripted user simulator: deterministic answers from the scenario, slot by slot, in the words of its traits;
its behaviours (a change of mind, a push back on a refusal); leakage detection."""

import itertools

from generators.rollouts.conversation import Budget, Conversation, TaskContext, UserTurn
from generators.rollouts.persona import TRAITS, Voice
from generators.rollouts.scenario import leaks_everything, scenario_problem
from generators.rollouts.scripted_user import ScriptedUser, first_person
from schemas.generation import SamplingParams
from schemas.steps import ApiAction, MessageAction
from tests.generators.rollouts.helpers import balance_task, cancel_task, roll


def conversation(task) -> Conversation:
    return Conversation(TaskContext(task, task.environment.tools), 0, 1, None, Budget(30, 5, 1000), SamplingParams())


def replies(task, agent_messages: list[str]) -> list[UserTurn]:
    """The user's opening, then its answer to each agent message in turn."""
    conv, user = conversation(task), ScriptedUser()
    turns = [user.act(conv, None)]
    conv.apply_user(turns[0])
    for message in agent_messages:
        conv.steps.append(MessageAction(content=message))
        turns.append(user.act(conv, None))
        conv.apply_user(turns[-1])
    return turns


def test_answers_the_slots_a_question_names_else_the_next_one_and_confirms():
    turns = replies(
        balance_task(),
        [
            "What is your zip code?",
            "How can I help you?",  # names no slot: the next one not given yet
            "And your last name?",
            "Anything else I should know?",
            "Shall I proceed with that?",
            "Your balance is 54.00.",
        ],
    )
    assert [(t.text, t.stop) for t in turns] == [
        ("Hi! I want to know the balance of my gift card.", None),
        ("My zip is 31412.", None),
        ("My first name is Ivo.", None),
        ("My last name is Dvorak.", None),
        ("I have told you everything I know.", None),
        ("Yes, please go ahead.", None),
        ("Thank you, that is all I needed.", "done"),
    ]


def test_the_same_conversation_gets_the_same_answers():
    messages = ["Could you tell me your first name and last name?", "Do you confirm (yes/no)?", "Done."]
    assert replies(balance_task(), messages) == replies(balance_task(), messages)
    first, _ = roll([cancel_task(), balance_task()], k=2)
    again, _ = roll([cancel_task(), balance_task()], k=2)
    assert [r.trajectory for r in first] == [r.trajectory for r in again]


def test_a_transfer_notice_ends_the_conversation_with_transfer():
    turns = replies(cancel_task(), ["YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."])
    assert turns[-1].stop == "transfer" and turns[-1].text == ""


def test_first_person_openings():
    assert first_person("You contact retail customer support because you want to return your lamp.") == (
        "Hi! I want to return my lamp."
    )
    assert first_person("I need help with my order") == "Hi! I need help with my order."


def test_leakage_is_every_known_value_in_one_unprompted_turn():
    scenario = cancel_task().task.user_scenario
    dump = "I'm vera.kim2362@inbox.test, cancel #R5683800, I ordered by mistake"
    assert leaks_everything(dump, scenario) is True
    assert leaks_everything(dump, scenario, question="Your email, order id and cancel reason, please?") is False
    assert leaks_everything("My email is vera.kim2362@inbox.test.", scenario) is False
    assert leaks_everything(dump, {"reason": "x", "known_info": {"email": "vera.kim2362@inbox.test"}}) is False


def test_scenario_shape_problems_are_named():
    assert scenario_problem(cancel_task().task.user_scenario) is None
    assert scenario_problem("cancel my order") == "user_scenario is str, expected an object"
    assert (
        scenario_problem({"reason": "x", "known_info": []})
        == "user_scenario.known_info must be an object of slot: value"
    )
    assert scenario_problem({"reason": "x", "known_info": {}, "instructions": "be nice"}) == (
        "user_scenario.instructions must be a list of strings"
    )
    assert scenario_problem({"reason": "x", "known_info": {}, "traits": ["formal"]}) == (
        "user_scenario.traits must be an object of trait: value"
    )
    assert scenario_problem({"reason": "x", "known_info": {}, "behaviours": ["insist_once"]}) == (
        "user_scenario.behaviours must be a list of objects with a kind"
    )


def with_scenario(task, **changes):
    return task.model_copy(
        update={"task": task.task.model_copy(update={"user_scenario": {**task.task.user_scenario, **changes}})}
    )


def user_side(record) -> list[tuple[str, str]]:
    """(text, recorded decision) of each user turn; the agent's messages and calls as (text or name, "")."""
    said = []
    for step in record.trajectory:
        if isinstance(step, MessageAction):
            said.append((step.content, ""))
        elif isinstance(step, ApiAction):
            said.append((step.function, ""))
        elif step.source == "user":
            said.append((step.content, step.decision["kind"]))
    return said


def test_a_formal_terse_hurried_user_talks_so_and_keeps_every_value_verbatim():
    task = with_scenario(cancel_task(), traits={"register": "formal", "verbosity": "terse", "patience": "hurried"})
    (record,), _ = roll([task], k=1)
    assert record.verifier.result.passed and record.details["end_reason"] == "done"
    assert [text for text, decision in user_side(record) if decision] == [
        "Good morning. I ordered something by mistake and want it cancelled.",
        "Email: vera.kim2362@inbox.test. Quickly, please.",
        "Order id: #R5683800. Quickly, please.",
        "Cancel reason: ordered by mistake. Quickly, please.",
        "Yes, proceed.",
        "Thank you.",
    ]


def test_a_user_who_gives_one_detail_at_a_time_is_asked_again_for_the_rest():
    traits = {"details": "one_at_a_time", "register": "casual", "verbosity": "chatty", "tech": "novice"}
    (record,), _ = roll([with_scenario(balance_task(), traits=traits)], k=1)
    assert record.verifier.result.passed and record.details["end_reason"] == "done"
    assert user_side(record)[:7] == [
        (
            "Hey there! I want to know the balance of my gift card. I am not very used to doing this online. "
            "I hope your day is going well.",
            "none",
        ),
        ("Could you please tell me your first name, last name, zip?", ""),
        ("Oh, my first name is Ivo. I keep all of this written down in a notebook.", "none"),
        ("Could you please tell me your last name, zip?", ""),
        ("Oh, my last name is Dvorak. It is a lovely day here, by the way.", "none"),
        ("Could you please tell me your zip?", ""),
        ("Oh, my zip is 31412. My nephew set up this account for me.", "none"),
    ]


def test_what_every_voice_says_decides_by_its_words_what_it_records():
    """Answers, thanks and openings decide nothing, a yes consents, a change of mind refuses, a push back on a
    refusal decides nothing: for all 243 trait combinations."""
    from verifiers.decisions import DECIDING, decide

    for values in itertools.product(*TRAITS.values()):
        voice = Voice({"traits": dict(zip(TRAITS, values))})
        assert decide(voice.opening("I want to cancel the order with the lamp.")) not in DECIDING
        assert decide(voice.answer([("email", "ada@x.test"), ("zip", "31412")])) not in DECIDING
        assert "ada@x.test" in voice.answer([("email", "ada@x.test")])
        assert decide(voice.thanks()) == decide(voice.accept()) == decide(voice.nothing_more()) == "none"
        assert decide(voice.yes()) == "consent"
        assert decide(voice.insist()) not in DECIDING
        assert decide(voice.change("I want to cancel order #R5683800.", declines=False)) == "refusal"
        assert decide(voice.change("I want to cancel order #R5683800.", declines=True)) == "refusal"


CHANGE = {
    "kind": "change_mind",
    "goal": 0,
    "first_request": "you want to cancel the order with the lamp",
    "request": "you want to cancel order #R5683800, because you ordered it by mistake",
}


def test_a_user_who_changes_their_mind_asks_first_for_the_other_request_and_declines_its_confirmation():
    task = with_scenario(
        cancel_task(),
        reason="You contact retail customer support because you want to cancel order #R5683800, because you "
        "ordered it by mistake.",  # requests are clauses in the second person (generators/synthesis/phrasings.py)
        behaviours=[CHANGE],
    )
    turns = replies(
        task,
        [
            "I will cancel pending order (order id #R1111111, reason no longer needed). Do you confirm (yes/no)?",
            "I will cancel pending order (order id #R5683800, reason ordered by mistake). Do you confirm (yes/no)?",
        ],
    )
    assert [(t.text, t.decision) for t in turns] == [
        ("Hi! I want to cancel the order with the lamp.", "none"),
        (
            "No, please don't do that. Sorry, I changed my mind. Instead, I want to cancel order #R5683800, "
            "because I ordered it by mistake.",
            "change_request",
        ),
        ("Yes, please go ahead.", "consent"),
    ]
    asked = replies(task, ["Could you tell me your email?"])[1]
    assert asked.text == (
        "Sorry, I changed my mind. Instead, I want to cancel order #R5683800, because I ordered it by mistake. "
        "My email is vera.kim2362@inbox.test."
    )


def test_a_user_who_insists_once_pushes_back_on_the_first_refusal_and_accepts_the_second():
    task = with_scenario(cancel_task(), behaviours=[{"kind": "insist_once"}])
    refusal = "Order #R5683800 is delivered; only pending orders can be cancelled, so I cannot cancel it."
    turns = replies(task, ["What is your email?", refusal, f"I have checked again, and I am sorry: {refusal}"])
    assert [(t.text, t.decision, t.stop) for t in turns[1:]] == [
        ("My email is vera.kim2362@inbox.test.", "none", None),
        ("Are you sure? It matters a lot to me. Could you please check again?", "insist", None),
        ("I see. Thank you for checking.", "none", "done"),
    ]
