"""`aceforge catalog list` and `aceforge catalog sql` over what `aceforge convert` wrote."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.pipelines.cli_helpers import OS_STD, TAU_RUNS, invoke, last_json
from tests.unprivileged import AS_ROOT, NOBODY, unprivileged_python

OWNER = "tests.pipelines.catalog_owner"
ADP_ALFWORLD = OS_STD.parents[1] / "agenttuning_alfworld" / "sample_std.json"


@pytest.fixture
def converted(data_home, tmp_path):
    """The tau-bench excerpt and the ADP agenttuning_os sample, converted and registered."""
    assert invoke("convert", "-f", "tau_bench", TAU_RUNS, "-o", tmp_path / "airline_runs.parquet").exit_code == 0
    assert invoke("convert", "-f", "adp", OS_STD, "-o", tmp_path / "os.parquet").exit_code == 0
    return tmp_path


def sql_json(query):
    result = invoke("catalog", "sql", query, "--json")
    assert result.exit_code == 0, result.output
    return last_json(result)


def test_list_shows_every_dataset_and_its_quarantine(converted):
    listed = json.loads(invoke("catalog", "list", "--json").stdout)
    assert [(d["name"], d["kind"], d["rows"], d["version"]) for d in listed] == [
        ("airline_runs", "records", 8, 1),
        ("airline_runs_quarantine", "quarantine", 0, 1),
        ("os", "records", 5, 1),
        ("os_quarantine", "quarantine", 0, 1),
    ]
    table = invoke("catalog", "list")
    assert table.exit_code == 0 and "airline_runs" in table.stdout and "records" in table.stdout


def test_sql_counts_match_the_raw_files(converted):
    raw = json.loads(TAU_RUNS.read_text())
    tool_calls = sum(len(m.get("tool_calls") or []) for r in raw for m in r["traj"])
    passed = sum(1 for r in raw if r["reward"] == 1.0)
    rows = sql_json(
        "SELECT count(*) AS records, sum(CASE WHEN verifier_passed THEN 1 ELSE 0 END) AS passed, "
        "(SELECT count(*) FROM (SELECT unnest(trajectory) AS s FROM airline_runs) WHERE s.class_ = 'api_action') AS calls "
        "FROM airline_runs"
    )
    assert rows == [{"records": len(raw), "passed": passed, "calls": tool_calls}]
    os_raw = json.loads(OS_STD.read_text())
    assert sql_json("SELECT sum(num_steps) AS steps FROM os") == [{"steps": sum(len(r["content"]) for r in os_raw)}]


def test_sql_over_the_datasets_table_and_table_output(converted):
    rows = sql_json("SELECT name, details->>'format' AS format FROM datasets WHERE kind = 'records' ORDER BY name")
    assert rows == [{"name": "airline_runs", "format": "tau_bench"}, {"name": "os", "format": "adp"}]
    table = invoke("catalog", "sql", "SELECT name, rows FROM datasets ORDER BY name LIMIT 1")
    assert table.exit_code == 0 and "airline_runs" in table.stdout and "8" in table.stdout


def test_bad_sql_exits_1_with_duckdb_message(converted):
    result = invoke("catalog", "sql", "SELECT * FROM no_such_dataset")
    assert result.exit_code == 1
    assert "no_such_dataset" in result.stderr and "does not exist" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("query", "refusal"),
    [
        ("COPY (SELECT 'pwned' AS x) TO '{victim}'", "COPY refused"),
        ("COPY (SELECT * FROM os) TO '{data}/copy.parquet'", "COPY refused"),  # even beside the datasets
        ("ATTACH '{data}/new.duckdb' AS w (READ_WRITE)", "ATTACH refused"),
        ("EXPORT DATABASE '{data}/exported'", "EXPORT refused"),
        ("INSTALL httpfs", "LOAD refused"),  # DuckDB names INSTALL and LOAD one statement type
        ("LOAD httpfs", "LOAD refused"),
        ("SET enable_external_access = true", "SET refused"),
        ("SELECT 1; COPY (SELECT 1) TO '{victim}'", "COPY refused"),
        ("SELECT * FROM read_text('/etc/shadow')", 'Cannot access file "/etc/shadow"'),
        ("SELECT * FROM read_text('{victim}')", "file system operations are disabled"),
        ("SELECT * FROM read_blob('{data}/os.parquet/../../../../etc/passwd')", "file system operations are disabled"),
        ("SELECT * FROM read_csv('https://example.com/x.csv')", "file system operations are disabled"),
        ("SELECT * FROM glob('/etc/*')", "file system operations are disabled"),
    ],
)
def test_sql_reads_the_datasets_and_nothing_else(converted, query, refusal):
    """The attack: COPY TO overwrote a file, ATTACH/EXPORT wrote files, read_text read /etc/shadow,
    INSTALL httpfs tried the network."""
    victim = converted / "victim.txt"
    victim.write_text("untouched\n")
    before = sorted(p.name for p in converted.iterdir())
    result = invoke("catalog", "sql", query.format(victim=victim, data=converted))
    assert result.exit_code == 1
    assert refusal in result.stderr and "Traceback" not in result.output
    assert result.stderr.strip().count("\n") == 0  # one line
    assert victim.read_text() == "untouched\n"
    assert sorted(p.name for p in converted.iterdir()) == before
    # The catalog still answers, and still refuses: the query could not unlock anything for the next one.
    assert sql_json("SELECT count(*) AS n FROM os") == [{"n": 5}]
    assert invoke("catalog", "sql", f"SELECT * FROM read_text('{victim}')").exit_code == 1


def test_sql_reads_every_version_and_describe_and_explain_work(converted):
    assert invoke("convert", "-f", "adp", OS_STD, "-o", converted / "os2.parquet", "--dataset", "os").exit_code == 0
    assert sql_json("SELECT (SELECT count(*) FROM os__v1) + (SELECT count(*) FROM os__v2) AS n") == [{"n": 10}]
    assert "column_name" in sql_json("DESCRIBE os")[0]
    assert invoke("catalog", "sql", "EXPLAIN SELECT count(*) FROM os").exit_code == 0
    # A registration after a locked query: the lock lived with that query's connection only.
    assert invoke("convert", "-f", "adp", OS_STD, "-o", converted / "os3.parquet", "--dataset", "os").exit_code == 0
    assert sql_json("SELECT count(*) AS n FROM os__v3") == [{"n": 5}]


def test_a_version_keeps_its_rows_when_its_path_is_written_again(data_home, tmp_path):
    """The fault: two converts to the same -o made same__v1 return the second run's rows."""
    from tests.conftest import ADP_FIXTURES

    same = tmp_path / "same.parquet"
    assert invoke("convert", "-f", "adp", OS_STD, "-o", same).exit_code == 0
    first = sql_json("SELECT id FROM same ORDER BY id")
    alfworld = ADP_FIXTURES / "agenttuning_alfworld" / "sample_std.json"
    assert invoke("convert", "-f", "adp", alfworld, "-o", same).exit_code == 0
    second = sql_json("SELECT id FROM same ORDER BY id")
    assert first != second
    assert sql_json("SELECT id FROM same__v1 ORDER BY id") == first
    assert sql_json("SELECT id FROM same__v2 ORDER BY id") == second
    versions = json.loads(invoke("catalog", "list", "--all", "--json").stdout)
    paths = {(d["name"], d["version"]): (d["path"], d["snapshot"]) for d in versions}
    assert paths[("same", 1)][0] == paths[("same", 2)][0] == str(same)  # where it was written, both times
    assert paths[("same", 1)][1] != paths[("same", 2)][1]  # each version's own files
    # Deleting the written file loses no version; converting the same input again adds none.
    same.unlink()
    assert sql_json("SELECT count(*) AS n FROM same__v2") == [{"n": 5}]
    assert invoke("convert", "-f", "adp", alfworld, "-o", same).exit_code == 0
    assert [d["version"] for d in versions if d["name"] == "same"] == [1, 2]
    again = json.loads(invoke("catalog", "list", "--all", "--json").stdout)
    assert [d["version"] for d in again if d["name"] == "same"] == [1, 2]


def test_empty_catalog(data_home):
    result = invoke("catalog", "list")
    assert result.exit_code == 0 and "the catalog is empty" in result.stderr


@pytest.fixture(params=["this user", "uid 65534"])
def owner(request):
    """(what the catalog_owner steps gave, the uid they ran as): as this user (root, when the tests run as root)
    and as uid 65534, for whom a read-only file is read-only."""
    folder = Path(tempfile.mkdtemp(prefix="aceforge-owner-"))
    try:
        if request.param == "this user":
            command = [sys.executable, "-m", OWNER]
        else:
            command = unprivileged_python(OWNER) if AS_ROOT else None
            if command is None:
                pytest.skip("uid 65534 needs root to start it, a Python of this version and readable folders")
            os.chown(folder, NOBODY, NOBODY)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "HF_HUB_OFFLINE": "1"}
        done = subprocess.run([*command, str(folder), str(OS_STD)], capture_output=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr.decode()[-3000:]
        yield (
            json.loads(done.stdout.decode().strip().splitlines()[-1]),
            os.getuid() if command[0] != "setpriv" else NOBODY,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_version_is_a_read_only_copy_that_no_write_to_the_output_reaches(owner):
    """The fault: versions were hard links to the output, so writing the output file in place rewrote version 1
    (its count went from 5 to 1)."""
    found, uid = owner
    assert found["uid"] == uid
    assert found["before"] == 5
    assert found["after_writing_the_output_in_place"] == 5
    assert found["latest_after_writing_the_output_in_place"] == 5  # the latest version is a copy too
    assert found["copy_is_the_output"] is False
    assert found["modes"] == ["0o444", "0o555"]
    # Root ignores file modes; any other user cannot write the copy without first changing its mode.
    assert found["writing_the_copy"] == ("written" if uid == 0 else "PermissionError")
    # However it changed, the version's content hash says so: one line naming it, no rows.
    code, stdout, stderr = found["after_changing_the_copy"]
    assert (code, stdout) == (1, "")
    assert stderr.startswith("error: catalog version same__v1 changed after it was registered")
    assert "its rows are not read" in stderr and stderr.strip().count("\n") == 0
    assert found["a_query_naming_no_version"] == [{"n": 2}]  # same and same_quarantine: nothing to check


def test_glob_characters_in_an_output_path_name_that_file_only(data_home):
    """The attack: an output at .../[x]/out.parquet was registered as a glob, so `catalog sql` could read every
    file of its parent folder (a secret beside it, the catalog's own .duckdb file), and the view read x/."""
    (data_home / "x").mkdir(parents=True)
    (data_home / "secret.txt").write_text("secret\n")
    decoy = data_home / "x" / "out.parquet"  # what the glob [x] matches
    assert invoke("convert", "-f", "adp", ADP_ALFWORLD, "-o", decoy, "--no-catalog").exit_code == 0
    assert invoke("convert", "-f", "adp", OS_STD, "-o", data_home / "[x]" / "out.parquet").exit_code == 0
    written = pq.read_table(data_home / "[x]" / "out.parquet").column("id").to_pylist()
    assert [row["id"] for row in sql_json("SELECT id FROM out ORDER BY id")] == sorted(written)
    for query in (
        f"SELECT * FROM read_text('{data_home}/secret.txt')",
        f"SELECT * FROM read_blob('{data_home}/catalog.duckdb')",
        f"SELECT count(*) FROM read_parquet('{decoy}')",
        f"SELECT count(*) FROM read_parquet('{data_home}/[x]/out.parquet')",  # the glob, once more
        f"SELECT count(*) FROM read_parquet('{data_home}/[[]x]/out.parquet')",  # the output: its copy is read
        f"SELECT * FROM read_blob('{data_home}/catalog-versions/out/v1/*')",
    ):
        result = invoke("catalog", "sql", query)
        assert result.exit_code == 1 and "file system operations are disabled" in result.stderr, query
        assert "secret" not in result.stdout


def test_sql_prints_at_most_limit_rows_and_says_when_it_cut(data_home):
    """The fault: `SELECT * FROM range(100000000)` grew to 3.2 GB, then a MemoryError traceback."""
    result = invoke("catalog", "sql", "SELECT * FROM range(1000000) r(n)", "--json")
    assert result.exit_code == 0
    rows = last_json(result)
    assert len(rows) == 10_000 and rows[-1] == {"n": 9_999}
    assert "the first 10,000 rows only: the query returns more (--limit N prints up to N)" in result.stderr
    result = invoke("catalog", "sql", "SELECT * FROM range(50) r(n)", "--limit", 3)
    assert result.exit_code == 0 and "the first 3 rows only" in result.stderr
    assert [line.split()[1] for line in result.stdout.splitlines() if line.startswith("│")] == ["0", "1", "2"]
    exact = invoke("catalog", "sql", "SELECT * FROM range(3) r(n)", "--limit", 3, "--json")
    assert len(last_json(exact)) == 3 and "rows only" not in exact.stderr
    assert invoke("catalog", "sql", "SELECT 1", "--limit", 0).exit_code == 2
