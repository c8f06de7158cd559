"""`aceforge migrate DIR`: record files of earlier schema versions rewritten in place as the current version,
safely (temporary file, fsync, rename, the original's mode); everything else left as it was and reported."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import read_records, write_jsonl, write_records
from schemas.record_files import parquet_versions
from schemas.versions import SCHEMA_VERSION
from tests.pipelines.cli_helpers import invoke
from tests.schemas.frozen_versions import OLD_SHAPES, VERSIONS
from tests.unprivileged import unprivileged_python


@pytest.fixture
def corpus(tmp_path):
    """A folder as a user has it: record files of each earlier shape (one of them 0640), of this version, and
    files migrate must leave alone."""
    root = tmp_path / "corpus"
    for shape in OLD_SHAPES:
        shutil.copytree(VERSIONS / shape, root / shape, ignore=shutil.ignore_patterns("*.md"))
    records = list(read_records(VERSIONS / "1.0-initial" / "records.parquet"))
    write_records(records, root / "now" / "records.parquet")
    write_jsonl(records, root / "now" / "records.jsonl")
    os.chmod(root / "1.0-initial" / "records.parquet", 0o640)
    pq.write_table(pa.table({"source": ["x"], "index": [0]}), root / "quarantine.parquet")  # not records
    (root / "chats.jsonl").write_bytes(b'{"messages": [{"role": "user", "content": "hi"}]}\n')  # not records
    (root / "broken.parquet").write_bytes(b"PAR1 not really parquet")
    bad = pq.read_table(VERSIONS / "1.0-initial" / "records.parquet").to_pylist()
    bad[1]["trajectory"] = [{"class_": "bogus_step"}]  # the second of three rows does not read
    pq.write_table(
        pa.Table.from_pylist(bad, schema=pq.read_schema(VERSIONS / "1.0-initial" / "records.parquet")),
        root / "bad_row.parquet",
    )
    (root / ".records.parquet.123.tmp").write_bytes(b"a writer's temporary")  # hidden: never touched
    (root / "link.parquet").symlink_to(root / "1.0-origin" / "records.parquet")  # a rename would replace the link
    shutil.copytree(VERSIONS / "1.0-origin", root / "catalog-versions" / "d" / "v1")  # a catalog snapshot
    return root


def _contents(root):
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def test_migrate_dry_run_says_what_it_would_do_and_writes_nothing(corpus):
    before = _contents(corpus)
    result = invoke("migrate", corpus, "--dry-run")
    assert _contents(corpus) == before
    lines = result.stdout.strip().splitlines()
    assert f"would migrate: {corpus}/1.0-initial/records.parquet (1.0 -> {SCHEMA_VERSION}, 3 records)" in lines
    assert f"current: {corpus}/now/records.jsonl (already {SCHEMA_VERSION}, 3 records)" in lines
    assert (
        result.exit_code == 1
        and f"would migrate {2 * len(OLD_SHAPES)}" in result.stderr
        and "failed 2" in result.stderr
    )


def test_migrate_rewrites_every_older_record_file_in_place_and_leaves_the_rest(corpus):
    expected = {p: list(read_records(p)) for p in corpus.glob("*/records.*")}
    before = _contents(corpus)
    result = invoke("migrate", corpus, "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output
    outcomes = {o["path"]: o for o in map(orjson.loads, result.stdout.splitlines())}
    assert {p.split(str(corpus) + "/")[1]: o["action"] for p, o in outcomes.items()} == {
        **{f"{shape}/records.{s}": "migrated" for shape in OLD_SHAPES for s in ("parquet", "jsonl")},
        "now/records.parquet": "current",
        "now/records.jsonl": "current",
        "quarantine.parquet": "not records",
        "chats.jsonl": "not records",
        "broken.parquet": "failed",
        "bad_row.parquet": "failed",
        "link.parquet": "not records",
    }
    assert "bogus_step" in outcomes[f"{corpus}/bad_row.parquet"]["detail"]
    assert outcomes[f"{corpus}/1.0-origin/records.parquet"]["versions"] == ["1.0"]
    after = _contents(corpus)
    for path, records in expected.items():  # the same records, now in the current version's shape
        assert list(read_records(path)) == records
        if path.suffix == ".parquet":
            assert pq.read_schema(path).equals(RECORD_SCHEMA) and parquet_versions(pq.ParquetFile(path)) == [
                SCHEMA_VERSION
            ]
        else:
            assert {orjson.loads(line)["schema_version"] for line in path.read_bytes().splitlines()} == {SCHEMA_VERSION}
        assert (after[path] == before[path]) == (path.parent.name == "now")
    assert {p: after[p] for p in before if p not in expected} == {p: b for p, b in before.items() if p not in expected}
    assert [p.name for p in corpus.rglob(".*")] == [".records.parquet.123.tmp"]  # no temporary left behind
    assert (corpus / "link.parquet").is_symlink()
    assert oct((corpus / "1.0-initial" / "records.parquet").stat().st_mode & 0o777) == "0o640"
    assert (
        f"migrated {2 * len(OLD_SHAPES)}" in result.stderr
        and "current 2" in result.stderr
        and "failed 2" in result.stderr
    )

    inodes = {p: p.stat().st_ino for p in expected}
    result = invoke("migrate", corpus / "1.0-initial")  # again: everything current, nothing rewritten
    assert result.exit_code == 0 and result.stderr.strip().endswith("current 2")
    assert {p: p.stat().st_ino for p in expected} == inodes


@pytest.fixture
def public_folder():
    """A folder others can enter and read (pytest's tmp_path is root's alone), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="aceforge-migrate-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def test_migrate_as_a_user_who_cannot_write_the_folder_or_read_a_file_leaves_them_as_they_were(public_folder):
    command = unprivileged_python("pipelines.cli.main")
    if command is None:
        pytest.skip("needs root, setpriv and a Python others can run")
    for name, mode in (("readable.parquet", 0o644), ("secret.jsonl", 0o600)):
        shutil.copy(VERSIONS / "1.0-initial" / f"records{Path(name).suffix}", public_folder / name)
        (public_folder / name).chmod(mode)
    (public_folder / "closed").mkdir(mode=0o700)  # a folder it cannot list
    before = _contents(public_folder)
    done = subprocess.run([*command, "migrate", str(public_folder)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(
        f"failed: {public_folder}/readable.parquet (1.0 -> {SCHEMA_VERSION}: "
    )  # its temporary file
    assert "Permission denied" in lines[0]
    assert lines[1].startswith(f"failed: {public_folder}/secret.jsonl (cannot read: [Errno 13] Permission denied")
    assert lines[2] == f"failed: {public_folder}/closed (cannot list: Permission denied)"
    assert _contents(public_folder) == before and sorted(os.listdir(public_folder)) == [
        "closed",
        "readable.parquet",
        "secret.jsonl",
    ]
