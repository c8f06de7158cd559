"""RL episodes' token bookkeeping, with a scripted policy standing in for the model's sampling (no forward pass).

The policy "generates" an oracle's turns as token ids; everything else is real:
the tokenizer and template, the retail world, the scripted user, the verifier.
"""

from __future__ import annotations

import json

from generators.rollouts.config import RolloutBudget
from tests.training.helpers import RETAIL_CANCEL, small_retail_task
from training.episodes import EpisodeRunner, EpisodeSettings


class ScriptedPolicy:
    """model.generate's shape: each row continues with the next scripted turn (its tokens, then padding)."""

    training = False
    device = "cpu"

    def __init__(self, tokenizer, turns: list[str]):
        self.turns = [tokenizer.encode(text, add_special_tokens=False) + [tokenizer.eos_token_id] for text in turns]
        self.pad = tokenizer.pad_token_id
        self.calls = 0

    def eval(self):
        return self

    def train(self, mode: bool = True):
        return self

    def generate(self, input_ids, max_new_tokens, **kwargs):
        import torch

        turn = self.turns[self.calls][:max_new_tokens]
        self.calls += 1
        rows = [row.tolist() + turn for row in input_ids]
        return torch.tensor(rows)


def _call(name: str, arguments: dict) -> str:
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def _runner(tokenizer, template, max_turn_tokens=64):
    settings = EpisodeSettings(max_turn_tokens, 4096, 1.0, 1.0, RolloutBudget(max_turns=4))
    return EpisodeRunner(tokenizer, template, settings)


def test_an_oracle_episode_is_trained_on_its_turns_only_and_rewarded_by_the_verifier(smol_tokenizer, training_template):
    _, email, order_id = RETAIL_CANCEL
    turns = [
        _call("find_user_id_by_email", {"email": email}),
        # The policy's confirmation: the order and the money the cancellation refunds (the order's total).
        f"I will cancel order {order_id} (no longer needed) and refund $395.57. Shall I proceed?",
        _call("cancel_pending_order", {"order_id": order_id, "reason": "no longer needed"}),
        "Your order is cancelled.",
    ]
    runner = _runner(smol_tokenizer, training_template)
    [episode] = runner.run(ScriptedPolicy(smol_tokenizer, turns), [small_retail_task()])
    assert episode.conv.end_reason == "done" and runner.reward(episode) == 1.0
    ids, mask = episode.completion_ids, episode.env_mask
    assert len(ids) == len(mask)
    trained, returned, current, bit = [], [], [], mask[0]
    for token, m in zip(ids, mask):
        if m != bit:
            (trained if bit else returned).append(smol_tokenizer.decode(current))
            current, bit = [], m
        current.append(token)
    (trained if bit else returned).append(smol_tokenizer.decode(current))
    assert trained == [text + "<|im_end|>" for text in turns]
    assert (
        returned[0]
        == "\n<|im_start|>user\n<tool_response>\numar_xu_3769\n</tool_response><|im_end|>\n<|im_start|>assistant\n"
    )
    assert returned[1] == "\n<|im_start|>user\nYes, please go ahead.<|im_end|>\n<|im_start|>assistant\n"
    assert returned[2].startswith("\n<|im_start|>user\n<tool_response>\n{") and '"status":"cancelled"' in returned[2]
    # The policy saw, before each turn, exactly the chat template's rendering of the conversation so far.
    prompt_text = smol_tokenizer.decode(episode.prompt_ids)
    assert prompt_text.endswith("Hi! I want to cancel my pending order #R2119897.<|im_end|>\n<|im_start|>assistant\n")


def test_a_turn_cut_at_max_turn_tokens_is_read_as_it_stands_and_closed_without_loss(smol_tokenizer, training_template):
    turns = ["Could you tell me your email address, please? " * 8, "Thanks."]
    runner = _runner(smol_tokenizer, training_template, max_turn_tokens=16)
    [episode] = runner.run(ScriptedPolicy(smol_tokenizer, turns), [small_retail_task()])
    cut = smol_tokenizer.encode(turns[0], add_special_tokens=False)[:16]
    assert episode.completion_ids[:16] == cut and episode.env_mask[:17] == [1] * 16 + [0]
    assert episode.completion_ids[16] == smol_tokenizer.eos_token_id  # the end token closes the cut turn, untrained
    user_reply = smol_tokenizer.decode(episode.completion_ids[17:][: episode.env_mask[17:].index(1)])
    assert "My email is umar.xu3769@mail.test." in user_reply  # the scripted user answered the (cut) question
    assert episode.conv.end_reason == "done"
