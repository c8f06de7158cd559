"""`aceforge formats` and `aceforge convert`: outputs, --json, stdin, gzip, quarantine, exit codes 0/1/2."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import zlib

import pyarrow.parquet as pq
import pytest

from data_catalog.catalog import Catalog
from schemas.io import read_records
from tests.conftest import ADP_FIXTURES
from tests.pipelines.cli_helpers import OS_STD, TAU_RUNS, invoke, last_json


def test_formats_lists_each_format_with_description_layouts_and_options():
    result = invoke("formats")
    assert result.exit_code == 0
    for name in ("adp", "openai_chat", "sharegpt", "tau_bench"):
        assert name in result.stdout
    assert "Agent Data Protocol v1" in result.stdout and "dialect" in result.stdout and "text_calls" in result.stdout
    flat = " ".join(result.stdout.split())
    # Which layouts each format reads: the native files of agent frameworks as well as the datasets.
    for layout in (
        "<instance>.traj",
        "mini-swe-agent's save file",
        "simulations/<id>.json",
        "domains/<domain>/tasks.json",
    ):
        assert layout in flat, layout


def test_convert_json_array_prints_counts_as_last_line_and_registers(data_home, tmp_path):
    out = tmp_path / "os.parquet"
    result = invoke("convert", "--format", "adp", OS_STD, "-o", out, "--json")
    assert result.exit_code == 0, result.output
    assert last_json(result) == {"read": 5, "raw_items": 5, "converted": 5, "quarantined": 0, "output": str(out)}
    assert [r.source.original_id for r in read_records(out)] == [str(x["id"]) for x in json.loads(OS_STD.read_text())]
    entry = Catalog().get("os")
    assert (entry.rows, entry.details["format"], entry.path) == (5, "adp", str(out))
    assert Catalog().get("os_quarantine").rows == 0


def test_convert_reads_stdin(data_home, tmp_path):
    lines = "".join(json.dumps(r) + "\n" for r in json.loads(OS_STD.read_text()))
    result = invoke(
        "convert", "-f", "adp", "-", "-o", tmp_path / "s.parquet", "--json", "--dataset", "from_stdin", input=lines
    )
    assert result.exit_code == 0, result.output
    assert last_json(result)["converted"] == 5
    assert {r.source.dataset for r in read_records(tmp_path / "s.parquet")} == {"from_stdin"}
    assert Catalog().get("from_stdin").rows == 5


def test_convert_gzip_jsonl_and_several_inputs(data_home, tmp_path):
    gz = tmp_path / "runs.jsonl.gz"
    with gzip.open(gz, "wt") as f:
        for record in json.loads(OS_STD.read_text()):
            f.write(json.dumps(record) + "\n")
    alfworld = ADP_FIXTURES / "agenttuning_alfworld" / "sample_std.json"
    result = invoke("convert", "-f", "adp", gz, alfworld, "-o", tmp_path / "both.parquet", "--json", "--no-catalog")
    assert result.exit_code == 0, result.output
    assert last_json(result) == {
        "read": 10,
        "raw_items": 10,
        "converted": 10,
        "quarantined": 0,
        "output": str(tmp_path / "both.parquet"),
    }
    assert not (data_home / "catalog.duckdb").exists()


def broken_gzips(folder):
    """The ADP sample as a .gz cut in half, and as a .gz with a corrupt deflate block."""
    packed = gzip.compress(OS_STD.read_bytes())
    truncated, corrupt = folder / "truncated.json.gz", folder / "corrupt.json.gz"
    truncated.write_bytes(packed[: len(packed) // 2])
    corrupt.write_bytes(packed[:20] + bytes(b ^ 0xFF for b in packed[20:40]) + packed[40:])
    return truncated, corrupt


@pytest.mark.parametrize("workers", [1, 2])
def test_a_broken_gzip_is_one_error_line_quarantined_and_the_good_input_still_converts(data_home, tmp_path, workers):
    """The fault: a truncated .gz gave a bare `Aborted.` and stopped the good file beside it;
    a corrupt deflate block printed a traceback."""
    from schemas.io import iter_parquet_rows

    alfworld = ADP_FIXTURES / "agenttuning_alfworld" / "sample_std.json"
    for broken, why in zip(broken_gzips(tmp_path), ["truncated download?", "corrupt compressed data"]):
        out = tmp_path / f"{broken.stem}.{workers}.parquet"
        result = invoke("convert", "-f", "adp", broken, alfworld, "-o", out, "--workers", workers, "--json")
        assert result.exit_code == 1 and "Traceback" not in result.output and "Aborted" not in result.output
        errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and errors[0].startswith(f"error: {broken}: ") and why in errors[0]
        assert errors[0].endswith("(0 records read before it; the break is quarantined)")
        assert last_json(result)["converted"] == 5  # the good input, all of it
        assert len(list(read_records(out))) == 5
        quarantined = list(iter_parquet_rows(out.with_name(out.stem + ".quarantine.parquet")))
        assert [(row["source"], row["error"].split(":")[0]) for row in quarantined] == [
            (str(broken), "unreadable input")
        ]
        assert invoke("catalog", "sql", f"SELECT count(*) FROM {out.stem.replace('.', '_')}").exit_code == 0


def cut_gzip(path, lines: list[bytes], kept: int) -> None:
    """``lines`` gzipped, the file cut where the first ``kept`` lines end (a download that broke off there)."""
    packer = zlib.compressobj(wbits=31)  # the gzip container
    head = packer.compress(b"".join(lines[:kept])) + packer.flush(zlib.Z_FULL_FLUSH)
    path.write_bytes(head + packer.compress(b"".join(lines[kept:])) + packer.flush())
    path.write_bytes(path.read_bytes()[: len(head)])


@pytest.mark.parametrize("fmt", [[], ["-f", "adp"]], ids=["auto", "adp"])
def test_a_lone_truncated_gz_says_so_and_keeps_what_it_read(data_home, tmp_path, fmt):
    """The fault: a lone .gz that broke off printed only `Aborted.` and wrote a 0-row output: the reader lost
    every record before the break (and auto detection did not catch the error)."""
    from schemas.io import iter_parquet_rows

    records = json.loads(OS_STD.read_text())
    cut = tmp_path / "runs.jsonl.gz"
    cut_gzip(cut, [json.dumps(r).encode() + b"\n" for r in records], kept=3)
    out = tmp_path / "runs.parquet"
    result = invoke("convert", *fmt, cut, "-o", out, "--json")
    assert result.exit_code == 1 and "Aborted" not in result.output and "Traceback" not in result.output
    assert result.stderr.strip().splitlines()[-1] == (
        f"error: {cut}: truncated gzip: the compressed file ends before its end marker (truncated download?) "
        "(3 records read before it; the break is quarantined)"
    )
    assert last_json(result) == {"read": 4, "raw_items": 4, "converted": 3, "quarantined": 1, "output": str(out)}
    assert [r.source.original_id for r in read_records(out)] == [str(r["id"]) for r in records[:3]]
    (row,) = iter_parquet_rows(out.with_name("runs.quarantine.parquet"))
    assert (row["index"], row["error"]) == (
        3,
        "unreadable input: truncated gzip: the compressed file ends before its end marker (truncated download?); "
        f"the rest of {cut} was not read",
    )
    assert Catalog().get("runs").rows == 3  # what it read is registered, as with the other inputs' records


def test_auto_on_a_gz_that_breaks_before_its_first_record_says_so(data_home, tmp_path):
    cut = tmp_path / "runs.json.gz"
    cut_gzip(cut, [OS_STD.read_bytes()], kept=0)
    result = invoke("convert", cut, "-o", tmp_path / "runs.parquet")
    assert result.exit_code == 1 and "Aborted" not in result.output
    assert result.stderr.strip() == (
        f"error: {cut}: unreadable input: truncated gzip: the compressed file ends before its end marker "
        f"(truncated download?); the rest of {cut} was not read"
    )


def test_bad_records_go_to_the_quarantine_file_with_reasons(data_home, tmp_path):
    good = [json.dumps(r) for r in json.loads(OS_STD.read_text())[:2]]
    raw = tmp_path / "mixed.jsonl"
    raw.write_text(
        "\n".join([good[0], '{"id": "cut", "content": [{"cla', json.dumps({"id": "x", "content": "oops"}), good[1]])
        + "\n"
    )
    quarantine = tmp_path / "q" / "bad.parquet"
    result = invoke("convert", "-f", "adp", raw, "-o", tmp_path / "m.parquet", "--quarantine", quarantine, "--json")
    assert result.exit_code == 0
    assert last_json(result) == {
        "read": 4,
        "raw_items": 4,
        "converted": 2,
        "quarantined": 2,
        "output": str(tmp_path / "m.parquet"),
    }
    rows = pq.read_table(quarantine).to_pylist()
    assert [(r["source"], r["index"]) for r in rows] == [(str(raw), 1), (str(raw), 2)]
    assert rows[0]["error"].startswith("invalid JSON line") and rows[0]["raw_excerpt"].startswith('{"id": "cut"')
    assert rows[1]["error"] == "field 'content' is str, expected list" and '"oops"' in rows[1]["raw_excerpt"]
    assert Catalog().sql("SELECT count(*) FROM m_quarantine").rows == [(2,)]


def test_wrong_format_for_the_file_exits_1_with_the_common_errors(data_home, tmp_path):
    result = invoke("convert", "-f", "openai_chat", OS_STD, "-o", tmp_path / "x.parquet", "--json")
    assert result.exit_code == 1
    assert last_json(result) == {
        "read": 5,
        "raw_items": 5,
        "converted": 0,
        "quarantined": 5,
        "output": str(tmp_path / "x.parquet"),
    }
    assert "no record converted of 5 read; most common errors:" in result.stderr
    assert "ADP v1 trajectory: not a layout of openai_chat; try --format adp" in result.stderr
    assert "Traceback" not in result.output
    assert Catalog().get("x") is None  # nothing converted: nothing registered


@pytest.mark.parametrize(
    "args, message",
    [
        (["-f", "no_such_format", str(OS_STD)], "unknown format 'no_such_format'; known formats: adp"),
        (["-f", "adp", "missing.json"], "input not found: missing.json"),
        (["-f", "adp", str(OS_STD), "--option", "novalue"], "--option expects key=value, got 'novalue'"),
        (["-f", "adp", str(OS_STD), "--option", "dialect=react"], "format 'adp' has no option(s) ['dialect']"),
        (["-f", "adp", "-", "-"], "stdin ('-') can be given only once"),
    ],
)
def test_usage_errors_exit_2_with_one_line(data_home, tmp_path, args, message):
    result = invoke("convert", *args, "-o", tmp_path / "o.parquet")
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert not (tmp_path / "o.parquet").exists()


def test_output_must_be_parquet_and_required(tmp_path):
    assert invoke("convert", "-f", "adp", OS_STD, "-o", tmp_path / "o.csv").exit_code == 2
    missing = invoke("convert", "-f", "adp", OS_STD)
    assert missing.exit_code == 2 and "--output" in missing.output


def test_format_option_reaches_the_converter(data_home, tmp_path):
    result = invoke(
        "convert", "-f", "tau_bench", TAU_RUNS, "-o", tmp_path / "t.parquet", "--option", "domain=airline", "--json"
    )
    assert result.exit_code == 0, result.output
    records = list(read_records(tmp_path / "t.parquet"))
    assert len(records) == last_json(result)["converted"] == len(json.loads(TAU_RUNS.read_text()))
    assert {r.verifier.result.score for r in records} == {0.0, 1.0}


def test_console_script_end_to_end_without_traceback(data_home, tmp_path):
    env_cmd = [sys.executable, "-m", "pipelines.cli.main"]
    ok = subprocess.run(
        [*env_cmd, "convert", "-f", "adp", str(OS_STD), "-o", str(tmp_path / "o.parquet"), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout.splitlines()[-1])["converted"] == 5
    bad = subprocess.run(
        [*env_cmd, "convert", "-f", "nope", str(OS_STD), "-o", str(tmp_path / "p.parquet")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        bad.returncode == 2 and bad.stderr.startswith("error: unknown format 'nope'") and "Traceback" not in bad.stderr
    )


def test_dataset_defaults_to_the_output_stem_and_workers_convert_in_parallel(data_home, tmp_path):
    out = tmp_path / "os_runs.parquet"
    result = invoke("convert", "-f", "adp", OS_STD, "-o", out, "--workers", "2", "--json", "--no-register")
    assert result.exit_code == 0, result.output
    assert {r.source.dataset for r in read_records(out)} == {"os_runs"}
    assert "with 2 workers" in result.stderr and not (data_home / "catalog.duckdb").exists()  # the old flag works too
    assert invoke("convert", "-f", "adp", OS_STD, "-o", out, "--workers", "0").exit_code == 2


def test_many_similar_failures_are_summed_by_kind(data_home, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps({"id": f"r{i}", "content": f"step {i}"}) + "\n" for i in range(100)))
    result = invoke("convert", "-f", "adp", bad, "-o", tmp_path / "bad.parquet")
    assert result.exit_code == 1
    assert f"field 'content' is str, expected list (100x, e.g. {bad}:0, {bad}:1, {bad}:2)" in " ".join(
        result.stderr.split()
    )


def test_a_grouping_format_says_it_converted_in_one_process(data_home, tmp_path):
    rows = ADP_FIXTURES / "nnetnav-live" / "sample_raw.json"
    result = invoke("convert", "-f", "web_steps", rows, "-o", tmp_path / "web.parquet", "--workers", "2", "--json")
    assert result.exit_code == 0, result.output
    assert last_json(result)["raw_items"] == 30 and last_json(result)["read"] == 5
    assert "web_steps groups raw items into records across the input, so it converted in one process" in result.stderr
    assert "(30 raw items)" in result.stderr
