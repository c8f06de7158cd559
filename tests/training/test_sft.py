"""The SFT stage on SmolLM2 (CPU): a 3-step run through the CLI, resume, LoRA, and the saved folder in vLLM."""

from __future__ import annotations

import json
import re

import pytest

from schemas.io import write_records
from schemas.steps import ApiAction
from tests.pipelines.cli_helpers import invoke, last_json
from tests.training.helpers import literal_record, short_chat
from training.run_files import read_log

# Short chats (about 40 tokens) keep each step well under a second on a CPU.
FAST = ["--max-length", "64", "--batch-size", "2", "--logging-steps", "1", "--learning-rate", "1e-4"]


@pytest.fixture(scope="module")
def sft_set(tmp_path_factory):
    """Five short chats and one record that calls a tool E does not declare."""
    bad = literal_record("bad")
    bad.trajectory[1] = ApiAction(function="refund", tool_call_id="c1")
    path = tmp_path_factory.mktemp("sft") / "sft.parquet"
    write_records([short_chat(f"r{i}") for i in range(5)] + [bad], path)
    return path


@pytest.fixture(scope="module")
def sft_result(sft_set, smol_path):
    """``aceforge train sft`` for 3 steps with a held-out record, into ``model`` beside the set."""
    out = sft_set.parent / "model"
    result = invoke(
        "train", "sft", "--data", sft_set, "--output-dir", out, "--max-steps", "3", "--eval-fraction", "0.2", *FAST
    )
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def sft_run(sft_set, sft_result):
    """(output folder, summary) of ``sft_result``."""
    return sft_set.parent / "model", last_json(sft_result)


@pytest.mark.slow
def test_sft_off_a_terminal_says_each_step_with_loss_tokens_per_second_and_time_left(sft_result):
    lines = sft_result.stderr.splitlines()
    assert "step 0/3: training started" in lines
    steps = [line for line in lines if re.fullmatch(r"step [123]/3, loss [\d.e-]+, [\d,]+ tokens/s, .+ left", line)]
    assert [line.split(",")[0] for line in steps] == ["step 1/3", "step 2/3", "step 3/3"]
    assert steps[-1].endswith(", 0 s left")
    assert "{'loss'" not in sft_result.output  # transformers' printed log dicts are gone


@pytest.mark.slow
def test_sft_summary_counts_and_logged_loss(sft_run):
    out, summary = sft_run
    assert summary["records"] == 6 and summary["skipped"] == {"tool_without_spec": 1}
    assert (summary["rendered"], summary["train"], summary["eval"], summary["steps"]) == (5, 4, 1, 3)
    log = read_log(out)
    losses = {entry["step"]: entry["loss"] for entry in log if "loss" in entry}
    assert sorted(losses) == [1, 2, 3] and all(loss > 0 for loss in losses.values())
    assert summary["eval_loss"] is not None and summary["eval_loss"] > 0
    assert json.loads((out / "summary.json").read_text())["steps"] == 3
    assert "max_steps: 3" in (out / "config.yaml").read_text()


@pytest.mark.slow
def test_sft_changes_every_parameter_and_saves_a_loadable_folder(sft_run, smol_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from generators.llm.model_store import tool_chat_template

    out, _ = sft_run
    base = AutoModelForCausalLM.from_pretrained(smol_path, dtype=torch.float32).state_dict()
    trained = AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32).state_dict()
    assert trained.keys() == base.keys()
    unchanged = [name for name, tensor in trained.items() if torch.equal(tensor, base[name])]
    assert unchanged == []
    assert AutoTokenizer.from_pretrained(out).chat_template == tool_chat_template()


@pytest.mark.slow
def test_sft_resumes_from_its_last_checkpoint(sft_run, sft_set):
    out, _ = sft_run
    result = invoke("train", "sft", "--data", sft_set, "--output-dir", out, "--max-steps", "4", "--resume", *FAST)
    assert result.exit_code == 0, result.output
    summary = last_json(result)
    assert summary["steps"] == 4 and summary["resumed_from"].endswith("checkpoint-3")
    assert [e["step"] for e in read_log(out) if "loss" in e][-1] == 4


@pytest.mark.slow
def test_sft_output_folder_serves_with_the_vllm_backend(sft_run):
    from generators.llm.interface import ChatRequest, SamplingParams
    from generators.llm.vllm_backend import VllmBackend

    out, _ = sft_run
    backend = VllmBackend(str(out), max_model_len=512)
    try:
        [result] = backend.generate(
            [ChatRequest(messages=[{"role": "user", "content": "Hi"}])], SamplingParams(max_tokens=4)
        )
    finally:
        backend.close()
    assert result.error is None and result.tokens_out >= 1


@pytest.mark.slow
def test_lora_changes_only_adapter_weights_and_saves_them_merged(sft_set, smol_path, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM

    from training.model_io import load_tokenizer, save_model_folder
    from training.sft import build_trainer, prepare_data
    from training.sft_config import SftConfig

    cfg = SftConfig.load(
        None, data=sft_set, output_dir=tmp_path, max_steps=2, max_length=64, learning_rate=1e-3, lora={"enabled": True}
    )
    tokenizer, template = load_tokenizer(smol_path)
    data = prepare_data([short_chat(f"r{i}") for i in range(4)], tokenizer, template, cfg)
    trainer = build_trainer(cfg, smol_path, tokenizer, data)
    before = {name: p.detach().clone() for name, p in trainer.model.named_parameters()}
    trainer.train()
    after = dict(trainer.model.named_parameters())
    adapters = [name for name in before if "lora_" in name]
    assert adapters and all(not torch.equal(before[name], after[name]) for name in adapters)
    others = [name for name in before if "lora_" not in name]
    assert others and all(torch.equal(before[name], after[name]) for name in others)
    assert {name for name, p in trainer.model.named_parameters() if p.requires_grad} == set(adapters)

    save_model_folder(trainer, tokenizer, tmp_path, smol_path, lora=True)
    assert (tmp_path / "adapter" / "adapter_config.json").is_file()
    base = AutoModelForCausalLM.from_pretrained(smol_path, dtype=torch.float32).state_dict()
    merged = AutoModelForCausalLM.from_pretrained(tmp_path, dtype=torch.float32).state_dict()
    changed = {name for name, tensor in merged.items() if not torch.equal(tensor, base[name])}
    # all-linear: every projection of every layer got an adapter; norms and embeddings did not.
    assert changed == {name for name in base if name.endswith("proj.weight")}


def test_unknown_config_keys_fail_before_any_model_loads(sft_set, tmp_path):
    config = tmp_path / "sft.yaml"
    config.write_text(f"data: {sft_set}\noutput_dir: {tmp_path / 'out'}\nlerning_rate: 0.1\n")
    result = invoke("train", "sft", "--config", config)
    assert result.exit_code == 2
    assert "unknown key 'lerning_rate' (did you mean 'learning_rate'?)" in result.output
    config.write_text(f"data: {sft_set}\noutput_dir: {tmp_path / 'out'}\ntrainer_args: {{weight_decai: 0.1}}\n")
    result = invoke("train", "sft", "--config", config)
    assert result.exit_code == 2 and "weight_decai" in result.output
    assert not (tmp_path / "out").exists()


def test_max_length_left_open_holds_95_percent_of_the_records_up_to_the_cap():
    from training.sft import choose_max_length

    lengths = [100] * 19 + [5000]  # 19 of 20 records (95%) fit in 100 tokens: the long one does not set it
    assert choose_max_length(lengths, cap=4096) == 128
    assert choose_max_length([3142, 3431, 3650, 4089, 4391], cap=4096) == 4096
    assert choose_max_length([300, 700], cap=4096) == 704


def test_the_max_length_line_says_the_cap_and_the_share_actually_kept_whole():
    from training.sft import SftData

    # The newcomer's set: 12 of 23 records fit in 4096 tokens, 95% of them would need 8128; the cap won.
    lengths = [3000] * 12 + [4500] * 9 + [8100] * 2
    capped = SftData(max_length=4096, max_length_chosen=True, lengths=lengths, truncated=11)
    capped.stats.records = 23
    assert capped.notes()[:2] == [
        "max_length 4096: the cap (--max-length-cap) holds 12 of 23 records whole (52%); 95% of them would need "
        "8128 tokens (--max-length-cap raises the cap, --max-length sets the length)",
        "cut 11 of 23 records at 4096 tokens: their later turns are not trained on (--max-length raises the limit)",
    ]
    # Below the cap the length chosen holds at least 95%: the line says how many it holds.
    fits = SftData(max_length=128, max_length_chosen=True, lengths=[100] * 19 + [5000])
    assert fits.notes() == [
        "max_length 128: chosen from the data, holds 19 of 20 records whole (95%) (the aim: 95%; at most "
        "--max-length-cap; --max-length sets it)"
    ]
    # A max_length given with --max-length is not described as chosen.
    assert SftData(max_length=128, lengths=[100, 5000]).notes() == []


def test_sft_data_says_what_it_chose_cut_and_skipped_in_words(smol_tokenizer, training_template, tmp_path):
    from schemas.steps import MessageAction
    from training.sft import covering_length, prepare_data
    from training.sft_config import SftConfig

    bad = literal_record("bad")
    bad.trajectory[1] = ApiAction(function="refund", tool_call_id="c1")
    long = short_chat("long")
    long.trajectory[1] = MessageAction(content="one " * 200)  # about 240 tokens, its answer starts near 30
    records = [short_chat(f"r{i}") for i in range(3)] + [long, bad]
    cfg = SftConfig(data=tmp_path / "x.parquet", output_dir=tmp_path, max_length_cap=64)
    data = prepare_data(records, smol_tokenizer, training_template, cfg)
    assert (data.max_length, data.truncated, len(data.train)) == (64, 1, 4)
    assert data.counts()["skipped"] == {"tool_without_spec": 1}
    assert data.notes() == [
        f"max_length 64: the cap (--max-length-cap) holds 3 of 4 records whole (75%); 95% of them would need "
        f"{covering_length(data.lengths)} tokens (--max-length-cap raises the cap, --max-length sets the length)",
        "cut 1 of 5 records at 64 tokens: their later turns are not trained on (--max-length raises the limit)",
        "skipped 1 of 5 records that call a tool their environment does not declare",
    ]
    tight = prepare_data(records, smol_tokenizer, training_template, cfg.model_copy(update={"max_length": 16}))
    assert tight.counts()["skipped"] == {"too_long": 4, "tool_without_spec": 1} and not tight.train
    assert tight.notes()[0] == (
        "skipped 4 of 5 records that have no assistant token within max_length (raise --max-length)"
    )


def test_gradient_checkpointing_is_on_by_default_for_both_stages(tmp_path):
    from training.rl_config import RlConfig
    from training.sft_config import SftConfig

    sft = SftConfig(data=tmp_path / "x.parquet", output_dir=tmp_path).trl_config(tmp_path, False, max_length=64)
    assert sft.gradient_checkpointing is True and sft.gradient_checkpointing_kwargs == {"use_reentrant": False}
    assert sft.max_length == 64
    rl = RlConfig(data=tmp_path / "x.parquet", output_dir=tmp_path).trl_config(tmp_path)
    assert rl.gradient_checkpointing is True
    plain = SftConfig(data=tmp_path / "x.parquet", output_dir=tmp_path, gradient_checkpointing=False)
    assert plain.trl_config(tmp_path, False, max_length=64).gradient_checkpointing is False
