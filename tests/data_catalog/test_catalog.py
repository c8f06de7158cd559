"""The DuckDB catalog: registration, versions, views, SQL, names, and a second process holding the lock."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from data_catalog.catalog import Catalog, VersionChanged, check_name, safe_name
from data_catalog.convert import convert_files
from runtime.settings import catalog_path
from schemas.record import SCHEMA_VERSION
from tests.conftest import ADP_FIXTURES


@pytest.fixture
def converted(tmp_path):
    """The agenttuning_os ADP sample (5 trajectories) converted to Parquet."""
    out = tmp_path / "os.parquet"
    stats = convert_files("adp", [str(ADP_FIXTURES / "agenttuning_os" / "sample_std.json")], out)
    assert stats.converted == 5
    return out, stats


def test_register_creates_catalog_under_data_home_and_view_answers_sql(data_home, converted):
    out, stats = converted
    entry = Catalog().register_dataset(
        "agenttuning_os", out, stats.converted, config_hash="h1", details={"format": "adp"}
    )
    assert catalog_path() == data_home / "catalog.duckdb" and catalog_path().exists()
    assert (entry.name, entry.version, entry.kind, entry.rows) == ("agenttuning_os", 1, "records", 5)
    result = Catalog().sql(
        "SELECT count(*) AS n, count(DISTINCT id) AS ids, min(num_steps) > 0 AS nonempty FROM agenttuning_os"
    )
    assert result.columns == ["n", "ids", "nonempty"]
    assert result.rows == [(5, 5, True)]
    # Nested columns are queryable: every trajectory starts with the user's task.
    first = Catalog().sql("SELECT DISTINCT trajectory[1].class_, trajectory[1].source FROM agenttuning_os").rows
    assert first == [("text_observation", "user")]


def test_versions_are_addressable_and_identical_reregistration_keeps_the_version(data_home, converted, tmp_path):
    out, stats = converted
    catalog = Catalog()
    v1 = catalog.register_dataset("os", out, 5, config_hash="a")
    assert catalog.register_dataset("os", out, 5, config_hash="a").version == 1
    half = tmp_path / "half.parquet"
    convert_files("adp", [str(ADP_FIXTURES / "agenttuning_alfworld" / "sample_std.json")], half)
    v2 = catalog.register_dataset("os", half, 5, config_hash="b", parents=["os@1"])
    assert (v1.version, v2.version) == (1, 2)
    assert catalog.sql("SELECT count(*) FROM os__v1").rows == [(5,)]
    # The plain name follows the latest version; v1 still reads the first file.
    latest_ids = {r[0] for r in catalog.sql("SELECT id FROM os").rows}
    v1_ids = {r[0] for r in catalog.sql("SELECT id FROM os__v1").rows}
    assert latest_ids.isdisjoint(v1_ids)
    assert [e.version for e in catalog.list_datasets()] == [2]
    assert [e.version for e in catalog.list_datasets(all_versions=True)] == [1, 2]
    assert catalog.get("os").parents == ["os@1"]
    assert catalog.get("os", 1).config_hash == "a"


def test_datasets_table_holds_the_registered_fields(data_home, converted):
    out, _ = converted
    Catalog().register_dataset("os", out, 5, config_hash="abc", parents=["raw@1"], details={"license": "MIT"})
    row = (
        Catalog()
        .sql("SELECT name, version, kind, path, rows, schema_version, config_hash, parents, details FROM datasets")
        .as_dicts()[0]
    )
    assert row["path"] == str(out) and row["rows"] == 5 and row["schema_version"] == SCHEMA_VERSION
    assert row["parents"] == ["raw@1"] and row["details"] == '{"license": "MIT"}'
    assert Catalog().sql("SELECT typeof(created_at) FROM datasets").rows == [("TIMESTAMP",)]


def test_sql_is_read_only(data_home, converted):
    out, _ = converted
    Catalog().register_dataset("os", out, 5)
    with pytest.raises(Exception, match="read-only"):
        Catalog().sql("DELETE FROM datasets")
    assert len(Catalog().list_datasets()) == 1


@pytest.mark.parametrize("bad", ["1abc", "has-dash", "x__v3", "datasets", ""])
def test_invalid_names_are_refused(bad):
    with pytest.raises(ValueError, match="invalid dataset name"):
        check_name(bad)


def test_safe_name_makes_valid_names():
    for text in ["nebius_SWE-agent-trajectories", "2024 runs", "x__v3", "---"]:
        check_name(safe_name(text))
    assert safe_name("nebius_SWE-agent-trajectories") == "nebius_SWE_agent_trajectories"


def test_register_waits_for_another_process_holding_the_write_lock(data_home, converted):
    out, _ = converted
    Catalog().register_dataset("first", out, 5)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import duckdb, sys, time\n"
                f"con = duckdb.connect({str(catalog_path())!r})\n"
                "print('locked', flush=True)\n"
                "time.sleep(1.5)\n"
                "con.close()\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        second = Catalog().register_dataset("second", out, 5)  # retried until the holder closes
    finally:
        holder.wait(timeout=30)
    assert second.version == 1
    assert [e.name for e in Catalog().list_datasets()] == ["first", "second"]


def test_a_catalog_from_before_copies_gets_a_copy_and_hash_of_each_version(data_home, converted, tmp_path):
    """A catalog whose versions are hard links to the output (no content hash): opening it copies each version,
    hashes the copy and points its views at it, so an in-place write to the output no longer reaches it."""
    out, _ = converted
    link = data_home / "catalog-versions" / "os" / "v1" / out.name
    link.parent.mkdir(parents=True)
    os.link(out, link)
    gone = tmp_path / "gone.parquet"
    with duckdb.connect(str(catalog_path())) as con:
        con.execute(
            "CREATE TABLE datasets (name VARCHAR NOT NULL, version INTEGER NOT NULL, kind VARCHAR NOT NULL, "
            "path VARCHAR NOT NULL, rows BIGINT NOT NULL, schema_version VARCHAR, config_hash VARCHAR, "
            "parents VARCHAR[], details VARCHAR, created_at TIMESTAMP NOT NULL, snapshot VARCHAR, "
            "PRIMARY KEY (name, version))"
        )
        insert = "INSERT INTO datasets VALUES (?, 1, 'records', ?, 5, '1.0', NULL, [], '{}', now(), ?)"
        con.execute(insert, ["os", str(out), str(link)])
        con.execute(insert, ["gone", str(gone), None])
        con.execute(insert, ["relinked", str(out), str(tmp_path / "lost-link.parquet")])  # its path is still there
        con.execute(f"CREATE VIEW os__v1 AS SELECT * FROM read_parquet('{link}')")
        con.execute(f"CREATE VIEW os AS SELECT * FROM read_parquet('{link}')")
    assert Catalog().sql("SELECT count(*) FROM os__v1").rows == [(5,)]
    migrated = Catalog().get("os", 1)
    copy = Path(migrated.snapshot)
    assert copy == link and not copy.samefile(out) and len(migrated.content_hash) == 64
    out.write_bytes(b"rewritten in place")  # the same inode as the old link
    assert Catalog().sql("SELECT count(*) FROM os").rows == [(5,)]
    assert Catalog().get("gone", 1).content_hash == ""  # nothing left to copy: said when it is named
    relinked = Catalog().get("relinked", 1)
    assert relinked.snapshot == str(data_home / "catalog-versions" / "relinked" / "v1" / out.name)
    with pytest.raises(VersionChanged, match=r"^catalog version gone__v1 has no files: .*gone.parquet was gone"):
        Catalog().sql("SELECT count(*) FROM gone__v1")


def test_reading_a_version_hashes_only_what_the_query_names(data_home, converted, tmp_path):
    """Each query checks the versions it names against their content hash, and no other: a query of the datasets
    table reads no version, a changed version fails by name, its neighbours still answer."""
    out, _ = converted
    catalog = Catalog()
    catalog.register_dataset("os", out, 5)
    catalog.register_dataset("other", out, 5)
    copy = catalog.version_root("os", 1) / out.name
    copy.chmod(0o644)
    copy.write_bytes(copy.read_bytes().replace(b"PAR1", b"PAR2", 1))
    assert catalog.sql("SELECT count(*) FROM datasets").rows == [(2,)]
    assert catalog.sql("SELECT count(*) FROM other").rows == [(5,)]
    for query in ("SELECT count(*) FROM os", "SELECT * FROM query_table('os__v1')", "SELECT 1 FROM other, OS"):
        with pytest.raises(VersionChanged, match=r"^catalog version os__v1 changed after it was registered: "):
            catalog.sql(query)
    # A name built at run time is no name: without the check there is no view and no readable file.
    with pytest.raises(duckdb.CatalogException, match="os__v1 does not exist"):
        catalog.sql("SELECT * FROM query('SELECT count(*) FROM o' || 's__v1')")


def test_registering_a_path_that_names_no_file_is_refused(data_home, tmp_path):
    with pytest.raises(FileNotFoundError, match=r"names no file: nothing to register as dataset 'none'"):
        Catalog().register_dataset("none", tmp_path / "missing" / "*.parquet", 0)


def test_a_copy_lets_no_one_read_what_the_output_did_not(data_home, converted):
    out, _ = converted
    out.chmod(0o600)
    Catalog().register_dataset("private", out, 5)
    copy = Catalog().version_root("private", 1) / out.name
    assert oct(copy.stat().st_mode & 0o777) == "0o400" and not copy.samefile(out)
