"""The compact rendering with SmolLM2's own tokenizer: the same prompt in rollouts, SFT, RL episodes and exports,
and its size against the full rendering (printed with -s)."""

from __future__ import annotations

import json

import pytest

from environments.registry import get_environment
from environments.to_record import to_record_environment
from exporters.openai import export_openai
from exporters.sharegpt import export_sharegpt
from generators.llm.prompting import PromptRenderer
from generators.rollouts.agent_prompt import agent_prompt
from generators.rollouts.config import RolloutBudget
from tests.generators.rollouts.helpers import ScriptedGenerator, balance_task, native_balance_agent, roll
from tests.training.helpers import oracle_rollout, retail_cancel_task
from training.episodes import EpisodeRunner, EpisodeSettings
from training.render import prompt_ids, record_to_chat
from training.rl import episode_runner
from training.rl_config import RlConfig
from training.sft import prepare_data
from training.sft_config import SftConfig

COMPACT_MAX_TOKENS = 600


@pytest.fixture(scope="module")
def compact_rollout():
    model = ScriptedGenerator(native_balance_agent)
    records, _ = roll([balance_task()], model, k=1, agent="llm", rendering="compact", backend="vllm")
    assert records[0].verifier.result.passed is True
    return records[0], model.requests


def test_every_rollout_prompt_is_the_sft_rendering_of_the_same_conversation(
    compact_rollout, smol_tokenizer, training_template
):
    record, requests = compact_rollout
    chat = record_to_chat(record, "compact")
    assert chat.tools is None
    assert chat.messages[0]["content"] == agent_prompt(record.environment, "compact").system
    backend = PromptRenderer(smol_tokenizer, 8192)  # how vLLM and transformers backends render a request
    turns = [i for i, message in enumerate(chat.messages) if message["role"] == "assistant"]
    assert len(requests) == len(turns) == 4
    for request, turn in zip(requests, turns):
        sft = smol_tokenizer.apply_chat_template(
            chat.messages[:turn],
            tools=chat.tools,
            chat_template=training_template,
            tokenize=False,
            add_generation_prompt=True,
        )
        assert backend.render(request.messages, request.tools) == sft
        assert "<tools>" not in sft and sft.count("\nget_user_details(user_id)\n") == 1


def test_rl_episodes_and_exports_open_with_the_same_compact_prompt(
    compact_rollout, smol_tokenizer, training_template, tmp_path
):
    record, _ = compact_rollout
    chat = record_to_chat(record, "compact")
    settings = EpisodeSettings(64, 4096, 1.0, 1.0, RolloutBudget(max_turns=4), rendering="compact")
    episode = EpisodeRunner(smol_tokenizer, training_template, settings).start(balance_task(), 0)
    assert episode.messages == chat.messages[:2] and episode.tools is None
    assert episode.prompt_ids == prompt_ids(smol_tokenizer, chat.messages[:2], chat.tools, training_template)

    export_openai([record], tmp_path / "chat.jsonl", rendering="compact")
    row = json.loads((tmp_path / "chat.jsonl").read_text())
    assert row["messages"][0] == chat.messages[0] and row["tools"] == []
    export_sharegpt([record], tmp_path / "sharegpt.jsonl", rendering="compact")
    row = json.loads((tmp_path / "sharegpt.jsonl").read_text())
    assert row["system"] == chat.messages[0]["content"] and row["tools"] == "[]"


def test_the_sft_and_rl_stages_read_the_rendering_from_their_config(smol_tokenizer, training_template, tmp_path):
    task = retail_cancel_task()
    compact_system = agent_prompt(task.environment, "compact").system
    prompts, firsts = {}, {}
    for rendering in ("full", "compact"):
        rl = RlConfig(data=tmp_path / "t.parquet", output_dir=tmp_path, rendering=rendering)
        prompts[rendering] = episode_runner(rl, smol_tokenizer, training_template).prompt_length(task)
        sft = SftConfig(data=tmp_path / "s.parquet", output_dir=tmp_path, rendering=rendering)
        row = prepare_data([oracle_rollout(task)], smol_tokenizer, training_template, sft).train[0]
        firsts[rendering] = smol_tokenizer.decode(row["input_ids"])
    assert prompts["compact"] < COMPACT_MAX_TOKENS < 2500 < prompts["full"]
    assert firsts["compact"].startswith(f"<|im_start|>system\n{compact_system}<|im_end|>\n<|im_start|>user\n")
    assert firsts["full"].startswith(f"<|im_start|>system\n{task.environment.policy}\n\n# Tools\n")


@pytest.mark.parametrize("domain", ["retail", "airline"])
def test_the_compact_prompt_is_at_most_600_smollm2_tokens(domain, smol_tokenizer, training_template):
    environment = to_record_environment(get_environment(domain))
    sizes = {}
    for rendering in ("full", "compact"):
        prompt = agent_prompt(environment, rendering)
        system = [{"role": "system", "content": prompt.system}]
        sizes[rendering] = len(prompt_ids(smol_tokenizer, system, prompt.tools, training_template))
    print(f"{domain}: system prompt + tools, SmolLM2 tokens: full {sizes['full']}, compact {sizes['compact']}")
    assert sizes["compact"] <= COMPACT_MAX_TOKENS < 2500 < sizes["full"]
