"""training/next_call.py: which tokens are a gold call (and its tool name), which logit predicts each, in the compact
rendering the SFT stage trains on."""

from __future__ import annotations

import json
import math

import pytest

from training.next_call import (
    GoldTurn,
    HeldOutTurns,
    TurnScore,
    assistant_spans,
    common_prefix,
    gold_turns,
    score_turns,
)


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
        GoldTurn(0, 4, 6, "t", ("f",), False, (4,)),  # 3, 3 after a 3: the copy guess is right twice
        GoldTurn(0, 6, 8, "t", ("f",), False, (6,)),  # 4 after 3 (wrong, the name token), then 4 after 4 (right)
        GoldTurn(1, 3, 4, "u", ("g",), True, (3,)),  # 5 after 5, right; the cache restarts at the shared prefix
    ]
    scores = score_turns(CopyLM(), held)
    assert [(s.exact, s.right, s.tokens, s.name_right) for s in scores] == [
        (True, 2, 2, True),
        (False, 1, 2, False),
        (True, 1, 1, True),
    ]
    # one-hot logits: log-softmax of the gold token is 1 - log(e + 15) when the guess is right, -log(e + 15) if not
    right, wrong = math.log(math.e + 15) - 1, math.log(math.e + 15)
    assert [s.nll for s in scores] == pytest.approx([2 * right, wrong + right, right])
    assert isinstance(scores[0], TurnScore)


@pytest.fixture(scope="module")
def oracle_rollouts():
    from generators.rollouts.config import RolloutConfig
    from generators.rollouts.runner import run_rollouts
    from generators.synthesis.config import SynthTasksConfig
    from generators.synthesis.stages import run_tasks

    tasks, _ = run_tasks(SynthTasksConfig(env="retail", n=3, users=50, seed=0), "next_call_tasks")
    return list(run_rollouts(tasks, RolloutConfig(agent="oracle", user="scripted", cache=False), None, "oracle"))


def test_gold_turns_are_the_rendered_tool_calls(oracle_rollouts, smol_path):
    from schemas.steps import ApiAction
    from training.model_io import load_tokenizer

    tokenizer, template = load_tokenizer(smol_path)
    kinds = set(oracle_rollouts[0].task.metadata["goal_kinds"])
    held = gold_turns(oracle_rollouts, tokenizer, template, "compact", unseen_kinds=kinds)
    calls = [step for record in oracle_rollouts for step in record.trajectory if isinstance(step, ApiAction)]
    assert [name for turn in held.turns for name in turn.tools] == [call.function for call in calls]
    first = held.turns[0]
    text = tokenizer.decode(held.conversations[0][first.start : first.end])
    # the template's generation block without the newlines around it: what a generating model produces
    call = json.dumps({"name": calls[0].function, "arguments": calls[0].kwargs})
    assert text == f"<tool_call>\n{call}\n</tool_call><|im_end|>"
    # the tool-name tokens: together they spell the name, and lie inside the turn
    names = "".join(tokenizer.decode([held.conversations[0][p]]) for p in first.names)
    assert calls[0].function in names and len(names) < len(calls[0].function) + 8
    assert all(first.start < p < first.end for p in first.names)
    # every conversation opens with the compact system prompt (summary + one line per tool): run once per model
    assert "Tools:\nfind_user_id_by_email(" in tokenizer.decode(held.conversations[0][: held.prefix])
    assert 400 < held.prefix < 700 and all(
        c[: held.prefix] == held.conversations[0][: held.prefix] for c in held.conversations
    )
    assert tokenizer.decode(held.conversations[-1][-1:]) == "<|im_end|>"  # cut after the last call
    goal_kinds = [set(record.task.metadata["goal_kinds"]) for record in oracle_rollouts]
    assert held.turns[0].unseen_kind
    assert all(turn.unseen_kind == bool(goal_kinds[turn.conversation] & kinds) for turn in held.turns)


def test_held_out_turn_sees_the_prompt_sft_trains_on(oracle_rollouts, smol_path, tmp_path):
    """Each gold turn's context is the SFT stage's own tokens for that record in the compact rendering, and what a
    generating model is given before that turn (the prompt with its generation prompt)."""
    from training.model_io import load_tokenizer
    from training.render import prompt_ids, record_to_chat
    from training.sft import prepare_data
    from training.sft_config import SftConfig

    tokenizer, template = load_tokenizer(smol_path)
    held = gold_turns(oracle_rollouts, tokenizer, template, "compact")
    cfg = SftConfig(data=tmp_path / "x.jsonl", output_dir=tmp_path, rendering="compact", max_length=8192)
    rows = prepare_data(oracle_rollouts, tokenizer, template, cfg).train
    for index, conversation in enumerate(held.conversations):
        assert rows[index]["input_ids"][: len(conversation)] == conversation
    chat = record_to_chat(oracle_rollouts[0], "compact")
    first_call = next(i for i, m in enumerate(chat.messages) if m.get("tool_calls"))
    generation = prompt_ids(tokenizer, chat.messages[:first_call], chat.tools, template)
    assert held.conversations[0][: held.turns[0].start] == generation


def test_rate_interval_resamples_whole_conversations():
    from training.heldout_calls import rate_interval

    # one conversation of 10 hits and one of 10 misses: resampled as wholes, a draw is 0, 0.5 or 1
    hits, clusters = [True] * 10 + [False] * 10, [0] * 10 + [1] * 10
    assert rate_interval(hits, clusters) == (0.0, 1.0)
    # the same 20 turns in 20 conversations: much narrower, around 0.5
    low, high = rate_interval(hits, list(range(20)))
    assert 0.2 <= low < 0.5 < high <= 0.8
    assert rate_interval([True, True], [0, 1]) == (1.0, 1.0) and rate_interval([], []) == (0.0, 0.0)
