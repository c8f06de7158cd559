"""`aceforge generate` and `aceforge model prepare`: request files, exit codes, outputs, summary."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import ROOT, SPENT
from tests.pipelines.cli_helpers import invoke


@pytest.fixture(autouse=True)
def shared_models(monkeypatch):
    # The converted default model is kept once per checkout (see tests/generators/conftest.py).
    monkeypatch.setenv("ACEFORGE_MODELS", str(ROOT / "aceforge-data" / "models"))


def _write(path, lines):
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def test_help_everywhere():
    for args in (["generate", "--help"], ["model", "--help"], ["model", "prepare", "--help"]):
        result = invoke(*args)
        assert result.exit_code == 0 and "Usage" in result.stdout
    assert "--overflow" in invoke("generate", "--help").stdout


def test_bad_request_lines_are_all_reported_before_any_generation(data_home, tmp_path):
    prompts = _write(
        tmp_path / "p.jsonl",
        [
            {"prompt": "fine"},
            "{not json",
            {"messages": []},
            {"prompt": "x", "json_schema": {"type": "objekt"}},
            {"prompt": "x", "messages": [{"role": "user", "content": "y"}]},
        ],
    )
    result = invoke("generate", prompts, "-o", tmp_path / "out.jsonl", "--backend", "transformers")
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "4 bad request line(s)" in message
    assert "line 2: unexpected character" in message
    assert "line 3: messages: Value error, a chat request needs at least one message" in message
    assert "line 4: json_schema: Value error, invalid JSON schema" in message
    assert "line 5: give either 'prompt' or 'messages', not both" in message
    assert not (tmp_path / "out.jsonl").exists()
    assert not (data_home / "cache").exists()


def test_usage_errors(tmp_path):
    prompts = _write(tmp_path / "p.jsonl", [{"prompt": "hi"}])
    assert "unknown backend 'nope'" in invoke("generate", prompts, "-o", tmp_path / "o", "--backend", "nope").stderr
    assert "needs --base-url" in " ".join(
        invoke("generate", prompts, "-o", tmp_path / "o", "--backend", "openai").stderr.split()
    )
    assert "input not found" in invoke("generate", tmp_path / "missing.jsonl", "-o", tmp_path / "o").stderr
    assert invoke("generate", prompts, "-o", tmp_path / "o", "--overflow", "wrap").exit_code == 2


@pytest.mark.slow  # loads SmolLM2
def test_generate_writes_results_in_order_and_a_summary(data_home, tmp_path):
    prompts = _write(
        tmp_path / "p.jsonl",
        [
            {"id": "a", "prompt": "Name a planet."},
            {"id": "b", "messages": [{"role": "user", "content": "word " * 3000}]},
        ],
    )
    output, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    args = ["generate", prompts, "-o", output, "--backend", "transformers", "--max-tokens", "6", "--summary", summary]
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]
    assert rows[0]["texts"][0] and rows[0]["error"] is None and rows[0]["tokens_out"] <= 6
    assert rows[1]["texts"] == [] and rows[1]["error"].startswith("prompt too long")
    report = json.loads(summary.read_text())
    assert report["calls"] == 2 and report["errors"] == 1 and report["cache_hits"] == 0
    assert report["model"]["model"].endswith("SmolLM2-135M-Instruct")
    again = invoke(*args)
    assert json.loads(summary.read_text())["cache_hits"] == 1  # the error was not cached; "a" was
    assert json.loads(output.read_text().splitlines()[0])["cached"] is True
    assert again.exit_code == 0


@pytest.mark.slow  # converts the GGUF model on first use
def test_model_prepare_prints_the_folder():
    result = invoke("model", "prepare")
    assert result.exit_code == 0
    assert result.stdout.strip() == str(ROOT / "aceforge-data" / "models" / "SmolLM2-135M-Instruct")
    assert "LlamaForCausalLM" in result.stderr


@pytest.mark.slow  # converts the GGUF model into a fresh folder
def test_model_prepare_says_it_converts_and_how_long_it_took(tmp_path, monkeypatch):
    monkeypatch.setenv("ACEFORGE_MODELS", str(tmp_path))
    result = invoke("model", "prepare")
    assert result.exit_code == 0, result.output
    doing = f"converting SmolLM2-135M-Instruct.Q4_1.gguf into a model folder at {tmp_path / 'SmolLM2-135M-Instruct'}"
    lines = result.stderr.splitlines()
    assert lines[0] == f"{doing} ..."
    assert re.fullmatch(re.escape(f"{doing} ... done in ") + SPENT, lines[1])
    assert "converting" not in invoke("model", "prepare").stderr  # once converted, nothing to wait for
