"""Preference pairs from verified rollouts (exporters/dpo.py): TRL's conversational preference format with
tool calls, a chosen side that passes the verifier and a rejected side that fails it, `aceforge export dpo`, the
Hub's `preference` config, and one real DPOTrainer step on SmolLM2."""

from __future__ import annotations

import json

import pytest

from data_catalog.sources import FORMATS
from data_catalog.sources.base import ConvertOptions
from environments.registry import get_environment
from exporters.dpo import PreferenceStats, preference_rows, shared_prompt_length
from schemas.io import write_records
from schemas.record import Lineage, Verifier, VerifierResult
from schemas.steps import ApiAction, MessageAction, TextObservation
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import RETAIL_CANCEL, literal_record, oracle_rollout, small_retail_task
from verifiers.runner import apply_verification, verify_record


def as_rollout(task, record, index: int):
    """``record`` as generators/rollouts writes a rollout of ``task``, with the verifier chain's own verdict."""
    rollout = record.model_copy(
        update={"id": f"{task.id}-r{index}", "details": {"rollout_index": index}, "lineage": Lineage(parents=[task.id])}
    )
    return apply_verification(rollout)


def hasty_cancel(task, index: int):
    """Looks the user up, then cancels without asking the user to confirm: a policy violation."""
    env = get_environment("retail", users=20)
    _, email, order_id = RETAIL_CANCEL
    steps: list = [TextObservation(content=task.task.instruction, source="user")]
    for n, (name, args) in enumerate(
        (
            ("find_user_id_by_email", {"email": email}),
            ("cancel_pending_order", {"order_id": order_id, "reason": "no longer needed"}),
        )
    ):
        steps.append(ApiAction(function=name, kwargs=args, tool_call_id=f"call_{n}"))
        steps.append(TextObservation(content=env.call(name, args).as_text(), source="tool", tool_call_id=f"call_{n}"))
    steps.append(MessageAction(content="Your order is cancelled and the refund is on its way."))
    return as_rollout(task, task.model_copy(update={"trajectory": steps}), index)


@pytest.fixture(scope="module")
def rollouts():
    """One task's rollouts: two verified successes (the oracle's) and two failures (writes without a yes); and a
    second task the learner always solves (no pair)."""
    task, other = small_retail_task("task-pairs"), small_retail_task("task-solved")
    records = [as_rollout(task, oracle_rollout(task), 0), hasty_cancel(task, 1), hasty_cancel(task, 2)]
    records += [as_rollout(task, oracle_rollout(task), 3), as_rollout(other, oracle_rollout(other), 0)]
    assert [r.verifier.result.passed for r in records] == [True, False, False, True, True]
    assert records[1].verifier.result.reasons == ["write_without_confirmation"]
    return task, records


def conversation_record(task, messages, tools):
    """The chat read back into τ by the openai_chat converter, with the task's E, q and v: what the verifier sees."""
    converted = FORMATS.get("openai_chat")(ConvertOptions(dataset="pairs")).convert(
        {"messages": [m for m in messages if m["role"] != "system"], "tools": tools}
    )
    return task.model_copy(update={"trajectory": converted.trajectory})


def test_pairs_share_the_prompt_and_carry_the_tool_calls_in_trls_format(rollouts):
    task, records = rollouts
    stats = PreferenceStats()
    rows = list(preference_rows(records, stats))
    assert stats.as_dict() == {
        "records": 5, "rollouts": 5, "pairs": 2, "tasks_paired": 1, "skipped": {},
        "tasks_without_pair": {"no_failure": 1},
    }  # fmt: skip
    assert [(r["chosen_id"], r["rejected_id"]) for r in rows] == [
        ("task-pairs-r0", "task-pairs-r1"),
        ("task-pairs-r3", "task-pairs-r2"),  # successes taken in turn: each failure once
    ]
    row = rows[0]
    # system (the policy), the user's ask, the lookup and its result; then the two agents part ways.
    assert [m["role"] for m in row["prompt"]] == ["system", "user", "assistant", "tool"]
    assert row["prompt"][2]["tool_calls"][0]["function"]["name"] == "find_user_id_by_email"
    assert row["chosen"][0] == {"role": "assistant", "content": row["chosen"][0]["content"]}  # asks first
    assert "cancel" in row["chosen"][0]["content"].lower()
    assert row["rejected"][0]["tool_calls"][0]["function"]["name"] == "cancel_pending_order"  # writes at once
    assert {t["function"]["name"] for t in row["tools"]} == {
        "find_user_id_by_email", "get_order_details", "cancel_pending_order",
    }  # fmt: skip
    assert (row["chosen_reward"], row["rejected_reward"]) == (1.0, 0.0)
    json.dumps(rows)  # plain JSON: what the JSONL export and the Hub config hold


def test_the_chosen_side_passes_the_verifier_and_the_rejected_side_fails(rollouts):
    task, records = rollouts
    for row in preference_rows(records):
        chosen = verify_record(conversation_record(task, row["prompt"] + row["chosen"], row["tools"]))
        rejected = verify_record(conversation_record(task, row["prompt"] + row["rejected"], row["tools"]))
        assert chosen.passed is True, chosen.reasons
        assert rejected.passed is False and "write_without_confirmation" in rejected.reasons


def test_the_prompt_is_cut_back_to_where_both_sides_continue_with_an_assistant_turn():
    system, ask = {"role": "system", "content": "p"}, {"role": "user", "content": "cancel it"}
    call = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1"}]}
    a, b = {"role": "tool", "content": "ok"}, {"role": "tool", "content": "error"}
    assert shared_prompt_length([system, ask, call, a], [system, ask, {"role": "assistant", "content": "no"}]) == 2
    # Shared up to the tool result, which differs: the pair starts at the call, the last assistant turn shared.
    assert shared_prompt_length([system, ask, call, a], [system, ask, call, b]) == 2
    assert shared_prompt_length([system, call], [system, {"role": "assistant", "content": "x"}]) == 0  # no user


def test_export_dpo_writes_the_pairs_and_fails_in_one_line_without_any(data_home, rollouts, tmp_path):
    _, records = rollouts
    write_records(records, tmp_path / "rollouts.parquet")
    result = invoke("export", "dpo", tmp_path / "rollouts.parquet", "-o", tmp_path / "pairs.jsonl")
    assert result.exit_code == 0, result.output
    assert last_json(result)["written"] == 2
    lines = (tmp_path / "pairs.jsonl").read_text().splitlines()
    assert [json.loads(line)["rejected_id"] for line in lines] == ["task-pairs-r1", "task-pairs-r2"]
    write_records([records[0], records[4]], tmp_path / "solved.parquet")
    result = invoke("export", "dpo", tmp_path / "solved.parquet", "-o", tmp_path / "none.jsonl")
    assert result.exit_code == 1
    assert "no preference pair: no task has both a verified success and a verified failure (no_failure 2)" in (
        result.stderr
    )


def shop_rollouts() -> list:
    """Literal rollouts of one task in a two-tool shop, with the verdicts aceforge's chain would give: the agent
    that asks before cancelling passes, the one that cancels at once fails (short chats: a DPO step in seconds)."""
    task = literal_record("shop-task").model_copy(update={"trajectory": []})
    ask = TextObservation(content="Please cancel order 13.", source="user")
    look = [
        ApiAction(function="get_order", kwargs={"order_id": "13"}, tool_call_id="call_1"),
        TextObservation(content='{"status": "pending"}', source="tool", tool_call_id="call_1"),
    ]
    cancel = [
        ApiAction(function="cancel_order", kwargs={"order_id": "13"}, tool_call_id="call_3"),
        TextObservation(content='{"cancelled": true}', source="tool", tool_call_id="call_3"),
    ]
    careful = [ask, *look, MessageAction(content="Order 13 is pending. Cancel it?"), U("Yes."), *cancel, A("Done.")]
    hasty = [ask, *look, *cancel, MessageAction(content="Done.")]
    return [
        task.model_copy(
            update={
                "id": f"shop-task-r{index}",
                "trajectory": steps,
                "details": {"rollout_index": index},
                "lineage": Lineage(parents=["shop-task"]),
                "verifier": Verifier(kind="constraints", result=VerifierResult(passed=passed, origin="computed")),
            }
        )
        for index, (steps, passed) in enumerate(((careful, True), (hasty, False)))
    ]


def U(text: str) -> TextObservation:
    return TextObservation(content=text, source="user")


def A(text: str) -> MessageAction:
    return MessageAction(content=text)


@pytest.mark.slow
def test_the_hubs_preference_config_feeds_one_dpo_step_on_smollm2(data_home, tmp_path, smol_path):
    """Pairs built from literal rollouts, exported as the Hub's `preference` config, loaded with datasets and given
    to TRL's DPOTrainer as they are: one optimizer step, its loss logged, the weights moved."""
    import torch
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import DPOConfig, DPOTrainer

    from exporters.hub_config import HubExportConfig
    from exporters.hub_folder import ExportSource, build_hub_folder, check_hub_folder
    from generators.llm.model_store import tool_chat_template

    write_records(shop_rollouts(), tmp_path / "records.parquet")
    source = ExportSource("records.parquet", [tmp_path / "records.parquet"])
    folder = build_hub_folder(source, tmp_path / "hub", "acme/pairs", HubExportConfig(), to_pairs=preference_rows)
    assert check_hub_folder(folder)[("preference", "train")] == 1
    card = (tmp_path / "hub" / "README.md").read_text()
    assert "config_name: preference" in card and 'load_dataset("acme/pairs", "preference", split="train")' in card
    pairs = load_dataset(str(tmp_path / "hub"), "preference", split="train", cache_dir=str(tmp_path / "cache"))
    assert [m["role"] for m in pairs[0]["prompt"]] == ["system", "user", "assistant", "tool"]
    assert pairs[0]["rejected"][0]["tool_calls"][0]["function"]["arguments"] == {"order_id": "13"}

    tokenizer = AutoTokenizer.from_pretrained(smol_path)
    tokenizer.chat_template = tool_chat_template()
    model = AutoModelForCausalLM.from_pretrained(smol_path, dtype=torch.float32)
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    args = DPOConfig(
        output_dir=str(tmp_path / "run"), max_steps=1, per_device_train_batch_size=1, max_length=512,
        learning_rate=1e-5, logging_steps=1, use_cpu=True, bf16=False, report_to="none", save_strategy="no",
    )  # fmt: skip
    trainer = DPOTrainer(model=model, args=args, train_dataset=pairs, processing_class=tokenizer)
    assert trainer.train().global_step == 1
    [logged] = [entry for entry in trainer.state.log_history if "loss" in entry]
    assert logged["loss"] > 0 and "rewards/chosen" in logged
    moved = [name for name, p in model.named_parameters() if not torch.equal(p.detach(), before[name])]
    assert len(moved) == len(before)
