"""What a catalog's own user does to a registered version's files: run as a separate process (as root, and as
uid 65534 where the tests run as root), it prints one JSON object of what each step gave.

``python -m tests.pipelines.catalog_owner FOLDER SAMPLE``: in FOLDER (the user's), convert SAMPLE (an ADP file
of five trajectories) to ``same.parquet``, registered as ``same``; write a one-record Parquet file over
``same.parquet`` in place; try to write the version's copy; change it all the same (its owner can make it
writable); ask ``catalog sql`` each time.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path


def main(folder: Path, sample: Path) -> dict:
    os.environ["ACEFORGE_HOME"] = str(folder / "data")
    from typer.testing import CliRunner

    from pipelines.cli.main import app

    runner = CliRunner()

    def run(*args: object):
        return runner.invoke(app, [str(a) for a in args])

    def count(view: str) -> object:
        result = run("catalog", "sql", f"SELECT count(*) AS n FROM {view}", "--json")
        return json.loads(result.stdout)[0]["n"] if result.exit_code == 0 else result.stderr.strip()

    same, one = folder / "same.parquet", folder / "one.parquet"
    (folder / "one.json").write_text(json.dumps(json.loads(sample.read_text())[:1]))
    assert run("convert", "-f", "adp", sample, "-o", same).exit_code == 0
    assert run("convert", "-f", "adp", folder / "one.json", "-o", one, "--no-catalog").exit_code == 0
    found = {"uid": os.getuid(), "before": count("same__v1")}

    with open(same, "r+b") as f:  # in place: the same inode, as a writer that truncates and rewrites does
        f.write(one.read_bytes())
        f.truncate()
    found["after_writing_the_output_in_place"] = count("same__v1")
    found["latest_after_writing_the_output_in_place"] = count("same")

    listed = json.loads(run("catalog", "list", "--all", "--json").stdout)
    copy = Path(next(d["snapshot"] for d in listed if d["name"] == "same"))
    found["copy_is_the_output"] = copy.stat().st_ino == same.stat().st_ino
    found["modes"] = [oct(stat.S_IMODE(p.stat().st_mode)) for p in (copy, copy.parent)]
    try:
        with open(copy, "r+b") as f:
            f.seek(-1, os.SEEK_END)
            f.write(b"!")
        found["writing_the_copy"] = "written"
    except OSError as exc:
        found["writing_the_copy"] = type(exc).__name__
        copy.chmod(0o644)  # its owner can always: the content hash is what tells
        with open(copy, "r+b") as f:
            f.seek(-1, os.SEEK_END)
            f.write(b"!")
    changed = run("catalog", "sql", "SELECT count(*) AS n FROM same__v1", "--json")
    found["after_changing_the_copy"] = [changed.exit_code, changed.stdout, changed.stderr]
    found["a_query_naming_no_version"] = json.loads(
        run("catalog", "sql", "SELECT count(*) AS n FROM datasets", "--json").stdout
    )
    return found


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]))))
