"""Asynchronous multi-turn batching: each step serves every waiting conversation in one backend call.

The model is a scripted stand-in that counts calls (a unit check of the
scheduling; the real engine runs in test_smollm2_vllm.py and bench/rollouts.py).
Conversations have different lengths (the seed decides how often the agent
asks again), so they are at different turns when they share a batch.
"""

import json

from tests.generators.rollouts.helpers import ScriptedGenerator, balance_task, is_agent, roll

LOOKUP = {"name": "find_user_id_by_name_zip", "arguments": {"first_name": "Ivo", "last_name": "Dvorak", "zip": "31412"}}
SCHEMA_AGENT = {"agent": "llm", "tool_calls": "schema", "backend": "vllm"}


def model(request):
    if not is_agent(request):  # the llm user: opens, answers questions, stops after a statement
        if len(request.messages) == 2:
            return "Hi, what is my gift card balance? I am Ivo Dvorak."
        return "My zip is 31412." if "?" in request.messages[-1]["content"] else "Thanks ###STOP###"
    asked = sum("zip" in m["content"] for m in request.messages if m["role"] == "assistant")
    results = [m["content"] for m in request.messages if m["role"] == "tool"]
    if asked < request.sampling.seed % 3:
        return json.dumps({"message": "Could you tell me your zip?"})
    if not results:
        return json.dumps(LOOKUP)
    if len(results) == 1:
        return json.dumps({"name": "get_user_details", "arguments": {"user_id": results[0]}})
    return json.dumps({"message": "Your gift card balance is $54.00."})


def tasks(n: int) -> list:
    """n copies of the balance task under distinct ids (so their rollouts get distinct seeds)."""
    return [balance_task().model_copy(update={"id": f"task-balance-{i}"}) for i in range(n)]


class CallLog(ScriptedGenerator):
    """Also remembers which rollouts (by seed) and which actors each call served."""

    def __init__(self):
        super().__init__(model)
        self.calls: list[list[tuple[int, str]]] = []

    def generate(self, requests, params, on_result=None):
        self.calls.append([(r.sampling.seed, "agent" if is_agent(r) else "user") for r in requests])
        return super().generate(requests, params, on_result)


def check_every_live_conversation_is_served_each_step(calls: list, capacity: int, conversations: int) -> None:
    first, last = {}, {}
    for t, call in enumerate(calls):
        assert len({seed for seed, _ in call}) == len(call)  # one request per conversation per call
        for seed, _ in call:
            first.setdefault(seed, t)
            last[seed] = t
    assert len(first) == conversations
    for t, call in enumerate(calls):
        live = {seed for seed in first if first[seed] <= t <= last[seed]}
        assert {seed for seed, _ in call} == live  # nobody waiting was left out of this call
        if any(first[seed] > t for seed in first):  # more to join: the batch is full
            assert len(call) == capacity


def test_every_waiting_conversation_is_served_in_one_call_and_the_batch_stays_full():
    log = CallLog()
    records, summary = roll(tasks(3), log, k=4, capacity=5, **SCHEMA_AGENT)
    check_every_live_conversation_is_served_each_step(log.calls, capacity=5, conversations=12)
    # the first conversations leave while later ones join: batches of different ages
    assert len(log.calls) < summary.scheduler.requests == sum(len(c) for c in log.calls)
    assert summary.scheduler.backend_calls == len(log.calls) and summary.scheduler.largest_batch == 5
    # The scripted agent looks the user up by a zip it was never told: verified, and failed for that (grounding).
    assert summary.rollouts == 12 and all(r.verifier.result.origin == "computed" for r in records)


def test_agent_and_user_turns_share_a_call():
    log = CallLog()
    roll(tasks(2), log, k=3, capacity=6, user="llm", **SCHEMA_AGENT)
    check_every_live_conversation_is_served_each_step(log.calls, capacity=6, conversations=6)
    assert any({actor for _, actor in call} == {"agent", "user"} for call in log.calls)


def test_one_at_a_time_gives_the_same_records_with_one_request_per_call():
    batched, _ = roll(tasks(2), CallLog(), k=3, capacity=6, user="llm", **SCHEMA_AGENT)
    log = CallLog()
    alone, summary = roll(tasks(2), log, k=3, capacity=1, user="llm", **SCHEMA_AGENT)
    assert all(len(call) == 1 for call in log.calls)
    assert [r.model_dump() for r in alone] == [r.model_dump() for r in batched]
    # records come out in input order (task, then k) whatever order they finished in
    assert [r.details["rollout_index"] for r in alone] == [0, 1, 2, 0, 1, 2]
