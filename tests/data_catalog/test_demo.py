"""The generated demo sources: deterministic bytes, and each converts with its planted bad records quarantined."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from data_catalog.convert import convert_files
from data_catalog.demo import write_demo_sources
from data_catalog.entries import PACKAGE_DIR, load_entries


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    first = write_demo_sources(tmp_path / "a", seed=3)
    again = write_demo_sources(tmp_path / "b", seed=3)
    other = write_demo_sources(tmp_path / "c", seed=4)
    assert sorted(first) == [
        "bookstore_adp.jsonl",
        "bookstore_chat.jsonl",
        "bookstore_qa.jsonl.gz",
        "bookstore_react.json",
        "bookstore_runs.json",
    ]
    assert all(first[n].read_bytes() == again[n].read_bytes() for n in first)
    assert all(first[n].read_bytes() != other[n].read_bytes() for n in first)
    assert first["bookstore_qa.jsonl.gz"].read_bytes()[:2] == b"\x1f\x8b"


# source -> (read, converted, quarantined, a reason every run must show)
EXPECTED = {
    "demo_bookstore_adp": (12, 10, 2, "field 'content' is dict, expected list"),
    "demo_bookstore_chat": (28, 24, 4, "unknown role 'narrator'"),
    "demo_bookstore_qa": (17, 16, 1, "expected a list of turns"),
    "demo_bookstore_react": (11, 10, 1, "'conversations' (or 'messages') is missing"),
    "demo_bookstore_runs": (13, 12, 1, "'traj'"),
}


@pytest.mark.parametrize("entry", load_entries(PACKAGE_DIR), ids=lambda e: e.name)
def test_each_demo_source_converts_with_its_bad_records_quarantined(entry, data_home, tmp_path):
    write_demo_sources()
    out = tmp_path / "out.parquet"
    stats = convert_files(entry.format, entry.resolve_paths(), out, options=entry.convert_options())
    read, converted, quarantined, reason = EXPECTED[entry.name]
    assert (stats.read, stats.converted, stats.quarantined) == (read, converted, quarantined)
    errors = pq.read_table(stats.quarantine).column("error").to_pylist()
    assert len(errors) == quarantined and any(reason in e for e in errors)


def test_chat_demo_has_tool_calls_linked_to_results(data_home, tmp_path):
    from schemas.io import read_records

    paths = write_demo_sources()
    stats = convert_files("openai_chat", [str(paths["bookstore_chat.jsonl"])], tmp_path / "c.parquet")
    records = list(read_records(stats.output))
    calls = [s for r in records for s in r.trajectory if s.class_ == "api_action"]
    results = [s for r in records for s in r.trajectory if s.class_ == "text_observation" and s.source == "tool"]
    assert calls and len(calls) == len(results)
    assert {c.tool_call_id for c in calls} == {r.tool_call_id for r in results}
    assert {t.name for t in records[0].environment.tools} == {
        "find_customer",
        "get_order",
        "search_books",
        "cancel_order",
    }
    errors = pq.read_table(stats.quarantine).column("error").to_pylist()
    assert any("answers no earlier call" in e for e in errors)
    assert any("missing field 'messages'" in e for e in errors)
    assert any(e.startswith("invalid JSON line") for e in errors)
