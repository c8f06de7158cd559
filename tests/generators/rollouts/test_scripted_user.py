"""The scripted user simulator: deterministic answers from the scenario, slot by slot; leakage detection."""

from generators.rollouts.conversation import Budget, Conversation, TaskContext, UserTurn
from generators.rollouts.scenario import leaks_everything, scenario_problem
from generators.rollouts.scripted_user import ScriptedUser, first_person
from schemas.generation import SamplingParams
from schemas.steps import MessageAction
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
