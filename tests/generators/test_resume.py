"""A batch job killed halfway (SIGKILL) and restarted: same results, no duplicates, no losses, no rework."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from generators.llm.cached import CachedGenerator
from generators.llm.interface import SamplingParams
from generators.llm.requests_io import read_requests, result_row
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

QUESTIONS = [
    f"Give one word that rhymes with '{w}'." for w in ["cat", "tree", "moon", "light", "stone", "rain", "fire", "sea"]
]
OUTPUT_FIELDS = ("id", "texts", "tool_calls", "finish_reasons", "tokens_in", "tokens_out", "error")


def _command(prompts, output, summary, *extra) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pipelines.cli.main",
        "generate",
        str(prompts),
        "-o",
        str(output),
        "--backend",
        "transformers",
        "--max-tokens",
        "8",
        "--temperature",
        "0.7",
        "--seed",
        "3",
        "--batch-size",
        "1",
        "--summary",
        str(summary),
        *extra,
    ]


def _cached_rows(db) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # the table is not created yet
        return 0


def _rows(path) -> list[dict]:
    return [{k: row[k] for k in OUTPUT_FIELDS} for row in map(json.loads, path.read_text().splitlines())]


def test_killed_batch_resumes_without_duplicates_losses_or_rework(data_home, tmp_path, transformers_backend):
    prompts = tmp_path / "prompts.jsonl"
    lines = [{"id": f"q{i}", "prompt": q} for i, q in enumerate(QUESTIONS)]
    lines.append({"id": "q-dup", "prompt": QUESTIONS[0]})  # identical to q0: generated once
    prompts.write_text("".join(json.dumps(line) + "\n" for line in lines))
    env = {**os.environ, "ACEFORGE_HOME": str(data_home), "HF_HUB_OFFLINE": "1"}
    db = data_home / "cache" / "generations.sqlite"

    # The uninterrupted run, in this process and without a cache (sampled requests run one by one
    # after seeding, so the batch size of the shared backend does not matter).
    pairs = read_requests(prompts)
    params = SamplingParams(max_tokens=8, temperature=0.7, seed=3)
    reference = CachedGenerator(transformers_backend, cache=None).generate([r for _, r in pairs], params)
    expected = [{k: result_row(rid, res)[k] for k in OUTPUT_FIELDS} for (rid, _), res in zip(pairs, reference)]

    output, summary = tmp_path / "out.jsonl", tmp_path / "summary.json"
    victim = subprocess.Popen(
        _command(prompts, output, summary), env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 600
    while _cached_rows(db) < 3 and victim.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    assert victim.wait(timeout=60) == -signal.SIGKILL
    done_before_kill = _cached_rows(db)
    assert 3 <= done_before_kill < len(QUESTIONS)
    assert not output.exists()  # the output file is written whole or not at all

    finished = subprocess.run(_command(prompts, output, summary), env=env, cwd=ROOT, timeout=600, capture_output=True)
    assert finished.returncode == 0, finished.stderr.decode()[-2000:]
    report = json.loads(summary.read_text())
    assert report["calls"] == len(QUESTIONS) - done_before_kill  # only what was missing
    # q0 went first, so it was cached before the kill; its duplicate hits the cache too.
    assert report["cache_hits"] == done_before_kill + 1
    assert _cached_rows(db) == len(QUESTIONS)  # one row per distinct request: no duplicates, no losses

    resumed = _rows(output)
    assert [r["id"] for r in resumed] == [line["id"] for line in lines]
    assert resumed == expected
    assert resumed[0]["texts"] == resumed[-1]["texts"]
