"""`aceforge convert` without --format (auto), a folder input, and the full reason in the run summary."""

from __future__ import annotations

import json

import orjson
import yaml

from schemas.io import read_records
from tests.conftest import ADP_FIXTURES, TAU_FIXTURES
from tests.pipelines.cli_helpers import invoke, last_json

TAU2_RUN = TAU_FIXTURES / "tau2-bench/feature-gym/results/gpt-4.1_airline_default_gpt-4.1_1trials.json"


def test_auto_is_the_default_and_says_what_it_picked(data_home, tmp_path):
    raw = ADP_FIXTURES / "nebius_SWE-agent-trajectories" / "sample_raw.json"
    result = invoke("convert", raw, "-o", tmp_path / "n.parquet", "--json", "--no-catalog")
    assert result.exit_code == 0, result.output
    assert "format auto: swe_agent (nebius SWE-agent-trajectories row), from the first 5 record(s)" in result.stderr
    assert last_json(result)["converted"] == 5


def test_auto_refuses_when_two_formats_fit_equally(data_home, tmp_path):
    """Calls written as text suit openai_chat, plain turns sharegpt: a file of both is not guessed."""
    written = {
        "messages": [
            {"role": "user", "content": "Fix it."},
            {"role": "assistant", "content": "<function=bash>\n<parameter=command>ls</parameter>\n</function>"},
        ]
    }
    plain = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(written) + "\n" + json.dumps(plain) + "\n")
    result = invoke("convert", path, "-o", tmp_path / "m.parquet", "--no-catalog")
    assert result.exit_code == 2
    assert "fits several formats equally: openai_chat" in result.stderr and "sharegpt" in result.stderr
    assert "give --format" in result.stderr


def test_auto_refuses_a_file_no_format_reads(data_home, tmp_path):
    db = TAU_FIXTURES / "tau2-bench/v1.0.1/domains/mock/db.json"
    result = invoke("convert", db, "-o", tmp_path / "db.parquet", "--no-catalog")
    assert result.exit_code == 2
    assert "no registered format reads" in result.stderr and "keys tasks, users" in result.stderr


def test_a_tau2_results_directory_is_an_input(data_home, tmp_path):
    document = json.loads(TAU2_RUN.read_text())
    run = tmp_path / "run"
    (run / "simulations").mkdir(parents=True)
    # Written without simulation_index: τ²'s own loader needs only the simulations/ folder.
    (run / "results.json").write_bytes(orjson.dumps({k: v for k, v in document.items() if k != "simulations"}))
    for sim in document["simulations"][:2]:
        (run / "simulations" / f"{sim['id']}.json").write_bytes(orjson.dumps(sim))
    result = invoke("convert", run, "-o", tmp_path / "t.parquet", "--json", "--no-catalog")
    assert result.exit_code == 0, result.output
    assert "format auto: tau2_results" in result.stderr
    assert last_json(result)["converted"] == 2
    explicit = invoke("convert", "-f", "tau2_results", run, "-o", tmp_path / "t2.parquet", "--no-catalog")
    assert explicit.exit_code == 0, explicit.output


def test_a_folder_no_format_reads_is_refused(data_home, tmp_path):
    result = invoke("convert", "-f", "openai_chat", tmp_path, "-o", tmp_path / "x.parquet", "--no-catalog")
    assert result.exit_code == 2 and "is a folder that no format reads as a whole" in result.stderr


def test_the_summary_keeps_the_full_reason_of_a_single_failure(data_home, tmp_path):
    good = {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}
    path = tmp_path / "dup.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    result = invoke("convert", "-f", "openai_chat", path, "-o", tmp_path / "d.parquet", "--no-catalog")
    assert result.exit_code == 0
    assert "the same content as item 0" in result.stderr and "'…'" not in result.stderr


def test_auto_quarantines_the_demo_bad_lines_as_the_explicit_format_does(data_home, tmp_path):
    """The fault: auto stopped at the demo's bad lines (a cut line among the first records, a record with no
    conversation) instead of quarantining them. Now it converts every demo source as its catalog entry's format
    does: the same counts, records and quarantine rows."""
    from data_catalog.demo import write_demo_sources
    from data_catalog.entries import PACKAGE_DIR
    from schemas.io import iter_parquet_rows

    said = {
        "bookstore_adp.jsonl": "; left to the conversion, as with --format adp: 1 line(s) that are not JSON, "
        "1 record(s) of no layout of adp",
        "bookstore_react.json": "; left to the conversion, as with --format sharegpt: 1 record(s) of no layout of sharegpt",
    }
    for name, raw in write_demo_sources(tmp_path / "raw").items():
        entry = yaml.safe_load((PACKAGE_DIR / f"demo_{name.split('.')[0]}.yaml").read_text())
        runs = {}
        for how, args in (("auto", []), ("explicit", ["-f", entry["format"]])):
            out = tmp_path / how / f"{raw.name.split('.')[0]}.parquet"
            result = invoke("convert", *args, raw, "-o", out, "--json", "--no-catalog")
            assert result.exit_code == 0, result.output
            quarantined = list(iter_parquet_rows(out.with_name(out.stem + ".quarantine.parquet")))
            runs[how] = ({**last_json(result), "output": None}, [r.id for r in read_records(out)], quarantined)
            if how == "auto":
                assert f"format auto: {entry['format']} (" in result.stderr
                assert result.stderr.splitlines()[0].endswith(said.get(name, f"record(s) of {raw}")), name
        assert runs["auto"] == runs["explicit"], name
        assert runs["auto"][0]["quarantined"] == len(runs["auto"][2]) >= 1, name
