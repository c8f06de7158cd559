"""score, dedup, select and report on an empty input: one error line and exit 1, unless --allow-empty."""

from __future__ import annotations

import pytest

from schemas.io import write_records
from tests.pipelines.cli_helpers import invoke


@pytest.mark.parametrize(
    "command",
    [
        ["score", "{empty}", "-o", "{out}/s.parquet"],
        ["dedup", "{empty}", "-o", "{out}/d.parquet"],
        ["select", "{empty}", "--out-dir", "{out}/sets", "--budget", "4"],
        ["report", "{empty}", "-o", "{out}/report"],
    ],
)
def test_empty_input_is_an_error_unless_allowed(data_home, tmp_path, command):
    empty = tmp_path / "empty.parquet"
    write_records([], empty)
    args = [part.format(empty=empty, out=tmp_path) for part in command]
    result = invoke(*args)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.strip() == f"error: {empty} holds no records (--allow-empty accepts that)"
    assert not (tmp_path / "s.parquet").exists() and not (tmp_path / "report").exists()
    allowed = invoke(*args, "--allow-empty")
    assert allowed.exit_code == 0, allowed.output


def test_report_on_an_empty_input_says_so_in_its_summary(data_home, tmp_path):
    empty = tmp_path / "empty.parquet"
    write_records([], empty)
    assert invoke("report", empty, "-o", tmp_path / "report", "--allow-empty").exit_code == 0
    assert (tmp_path / "report" / "summary.md").read_text() == f"## ACE summary\n\nNo records in `{empty}`.\n"
