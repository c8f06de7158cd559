"""bench/next_call.py: which tokens are a gold call, which logit predicts each, and the paired bootstrap."""

from __future__ import annotations

import copy
import json

import pytest
from next_call import GoldTurn, HeldOutTurns, assistant_spans, common_prefix, gold_turns, paired_difference, score_turns


def test_assistant_spans_are_the_runs_of_ones():
    assert assistant_spans([0, 1, 1, 0, 0, 1, 0, 1]) == [(1, 3), (5, 6), (7, 8)]
    assert assistant_spans([0, 0]) == []


def test_common_prefix():
    assert common_prefix([[1, 2, 3, 4], [1, 2, 5], [1, 2, 3]]) == 2
    assert common_prefix([[7, 8]]) == 2


class CopyLM:
    """A fake causal LM whose next-token guess is the current token (hidden state = the token id, head = identity),
    with a KV cache that only counts what it has seen: enough to pin down which logit scores which token."""

    base_model_prefix = "model"

    def __init__(self):
        import torch

        class Output:
            def __init__(self, hidden, cache):
                self.last_hidden_state, self.past_key_values = hidden, cache

        class Decoder:
            def __call__(self, input_ids, past_key_values=None, use_cache=True):
                cache = past_key_values if past_key_values is not None else {"seen": []}
                cache["seen"] += input_ids[0].tolist()
                return Output(torch.nn.functional.one_hot(input_ids, 16).float(), cache)

        self.model = Decoder()
        self.head = torch.nn.Identity()

    def get_output_embeddings(self):
        return self.head


def test_each_gold_token_is_scored_by_the_logit_before_it():
    # tokens:  0  1  2  3  4  5  6  7
    ids = [9, 9, 1, 3, 3, 3, 4, 4]
    held = HeldOutTurns(conversations=[ids, [9, 9, 5, 5]], prefix=2)
    held.turns = [
        GoldTurn(0, 4, 6, "t", ("f",), False),  # 3, 3 after a 3: the copy guess is right twice
        GoldTurn(0, 6, 8, "t", ("f",), False),  # 4 after 3 (wrong), then 4 after 4 (right)
        GoldTurn(1, 3, 4, "u", ("g",), True),  # 5 after 5, right; the cache restarts at the shared prefix
    ]
    assert score_turns(CopyLM(), held) == [(True, 2, 2), (False, 1, 2), (True, 1, 1)]


@pytest.fixture(scope="module")
def oracle_rollouts():
    from training_pool import roll_out, synth_tasks

    return roll_out(synth_tasks(3, seed=0, users=50), "oracle", 1)


def test_gold_turns_are_the_rendered_tool_calls(oracle_rollouts, smol_path):
    from schemas.steps import ApiAction
    from training.model_io import load_tokenizer

    tokenizer, template = load_tokenizer(smol_path)
    kinds = set(oracle_rollouts[0].task.metadata["goal_kinds"])
    held = gold_turns(oracle_rollouts, tokenizer, template, unseen_kinds=kinds)
    calls = [step for record in oracle_rollouts for step in record.trajectory if isinstance(step, ApiAction)]
    assert [name for turn in held.turns for name in turn.tools] == [call.function for call in calls]
    first = held.turns[0]
    text = tokenizer.decode(held.conversations[0][first.start : first.end])
    # the template's generation block without the newlines around it: what a generating model produces
    call = json.dumps({"name": calls[0].function, "arguments": calls[0].kwargs})
    assert text == f"<tool_call>\n{call}\n</tool_call><|im_end|>"
    # every conversation opens with the system prompt (policy + tools), the same tokens: run once per model
    assert held.prefix > 1000 and all(
        c[: held.prefix] == held.conversations[0][: held.prefix] for c in held.conversations
    )
    assert tokenizer.decode(held.conversations[-1][-1:]) == "<|im_end|>"  # cut after the last call
    goal_kinds = [set(record.task.metadata["goal_kinds"]) for record in oracle_rollouts]
    assert held.turns[0].unseen_kind
    assert all(turn.unseen_kind == bool(goal_kinds[turn.conversation] & kinds) for turn in held.turns)


def test_paired_difference_over_turns_and_seeds():
    same = [[True, False, True, False]] * 3
    assert paired_difference(same, copy.deepcopy(same)) == {
        "difference": 0.0,
        "ci_turns": [0.0, 0.0],
        "ci_seeds": [0.0, 0.0],
    }
    better = [[True] * 20 for _ in range(3)]
    worse = [[t % 4 == 0 for t in range(20)] for _ in range(3)]
    diff = paired_difference(better, worse)
    assert diff["difference"] == 0.75
    assert 0.5 < diff["ci_turns"][0] <= 0.75 <= diff["ci_turns"][1] <= 1.0
    assert diff["ci_seeds"] == [0.75, 0.75]  # every seed differs by the same amount
