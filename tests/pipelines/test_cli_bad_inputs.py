"""Every command that takes a record file, on each kind of file that is not one: one line on stderr that names the
file and says what it is, the CLI's exit code (2, usage; `validate`'s verdict on a file, 1), never a traceback.

Before, `show`, `score`, `dedup`, `select`, `report` and `export hub` printed pyarrow's ArrowInvalid traceback
for a 0-byte or non-Parquet .parquet, an existing folder was "file not found", and `validate` on raw chat JSONL
listed pydantic errors instead of saying to convert it.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from data_catalog.convert import convert_files
from data_catalog.demo import chat_lines, make_cases
from pipelines.cli.common import FAILED, USAGE
from tests.pipelines.cli_helpers import TAU_RUNS, invoke

# Each command with the arguments around its record file f (out: a folder for outputs; good: a record file).
COMMANDS = {
    "validate": lambda f, out, good: ["validate", f],
    "show": lambda f, out, good: ["show", f],
    "export-adp": lambda f, out, good: ["export-adp", f, "-o", out / "adp.jsonl"],
    "export-atif": lambda f, out, good: ["export-atif", f, "-o", out / "atif.jsonl"],
    "verify": lambda f, out, good: ["verify", f, "-o", out / "verified.parquet"],
    "score": lambda f, out, good: ["score", f, "-o", out / "scored.parquet"],
    "score --rollouts": lambda f, out, good: ["score", good, "-o", out / "scored.parquet", "--rollouts", f],
    "dedup": lambda f, out, good: ["dedup", f, "-o", out / "deduped.parquet"],
    "select": lambda f, out, good: ["select", f, "--budget", "5", "--out-dir", out / "selected"],
    "report": lambda f, out, good: ["report", f, "-o", out / "report"],
    "synth evolve": lambda f, out, good: ["synth", "evolve", f, "-o", out / "evolved.parquet"],
    "synth rollouts": lambda f, out, good: ["synth", "rollouts", f, "-o", out / "rollouts.parquet"],
    "eval": lambda f, out, good: ["eval", "--tasks", f],
    "train sft": lambda f, out, good: ["train", "sft", "--data", f, "--output-dir", out / "sft"],
    "train rl": lambda f, out, good: ["train", "rl", "--data", f, "--output-dir", out / "rl"],
    "export verl": lambda f, out, good: ["export", "verl", f, "-o", out / "verl"],
    "export sharegpt": lambda f, out, good: ["export", "sharegpt", f, "-o", out / "sharegpt.jsonl"],
    "export openai": lambda f, out, good: ["export", "openai", f, "-o", out / "openai.jsonl"],
    "export dpo": lambda f, out, good: ["export", "dpo", f, "-o", out / "dpo.jsonl"],
    "export hub": lambda f, out, good: ["export", "hub", f, "--repo-id", "org/name", "--dry-run", "--out", out / "hub"],
}
# Chat conversations are what these read besides records (training/inputs.py): raw chat JSONL is no bad input.
TAKE_CHATS = {"train sft", "train rl", "export verl", "export sharegpt", "export openai", "export dpo"}


def bad_input(kind: str, folder):
    """A file of ``kind`` and what the one line must say of it."""
    if kind == "0-byte":
        path = folder / "empty.parquet"
        path.write_bytes(b"")
        return path, "is not a Parquet file (0 bytes)"
    if kind == "text":
        path = folder / "notes.parquet"
        path.write_text("order 1042 cancelled on request\n")
        return path, "is not a Parquet file (text, 32 bytes, starting 'order 1042 cancelled on request')"
    if kind == "other columns":
        path = folder / "prices.parquet"
        pq.write_table(pa.table({"sku": ["b-1", "b-2"], "price": [12.5, 8.0]}), path)
        return path, "is a Parquet file of other columns (sku, price), not records"
    if kind == "folder":
        path = folder / "runs"
        path.mkdir()
        (path / "sft.parquet").write_bytes(b"")
        return path, "is a folder"
    path = folder / "chats.jsonl"  # the demo's support chats, as `aceforge demo` writes them for convert
    path.write_text("\n".join(chat_lines(make_cases(3, seed=1))) + "\n")
    return path, (
        "holds raw openai_chat trajectories (as `aceforge convert --format auto` reads it), not records; "
        f"convert it first: aceforge convert --format openai_chat {path} -o {path.with_suffix('.parquet')}"
    )


CASES = [
    (command, kind)
    for command in COMMANDS
    for kind in ("0-byte", "text", "other columns", "folder", "raw chat JSONL")
    if not (kind == "raw chat JSONL" and command in TAKE_CHATS)
]


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """Records, for `score --rollouts` (its input is good, its --rollouts file the bad one)."""
    path = tmp_path_factory.mktemp("records") / "tau.parquet"
    assert convert_files("tau_bench", [str(TAU_RUNS)], path).converted == 8
    return path


@pytest.mark.parametrize(("command", "kind"), CASES, ids=[f"{c}-{k}" for c, k in CASES])
def test_a_file_that_is_not_records_is_one_line_naming_it(command, kind, good, tmp_path, data_home):
    path, said = bad_input(kind, tmp_path)
    out = tmp_path / "out"
    result = invoke(*COMMANDS[command](path, out, good))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {path}")
    if command == "report" and kind == "folder":  # a `select` output folder is an input of report's own
        said = "is a folder without selection.json"
    assert said in lines[0]
    expected = FAILED if command == "validate" and kind != "folder" else USAGE
    assert result.exit_code == expected
    assert not out.exists() or not any(out.rglob("*.parquet"))
