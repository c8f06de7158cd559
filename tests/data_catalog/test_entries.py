"""Catalog entries (YAML): validation, path resolution, the project's own demo entries."""

from __future__ import annotations

import pytest

from data_catalog.entries import PACKAGE_DIR, EntryError, load_entries, load_entry
from tests.conftest import ADP_FIXTURES


def write(path, text):
    path.write_text(text)
    return path


def test_entry_with_relative_glob_resolves_next_to_its_file(tmp_path):
    (tmp_path / "raw").mkdir()
    for name in ("b.jsonl", "a.jsonl", "skip.txt"):
        (tmp_path / "raw" / name).write_text("{}\n")
    entry = load_entry(
        write(tmp_path / "e.yaml", "name: src\nformat: adp\npaths: ['raw/*.jsonl']\nlicense: MIT\noptions: {}\n")
    )
    assert entry.resolve_paths() == [str(tmp_path / "raw" / "a.jsonl"), str(tmp_path / "raw" / "b.jsonl")]
    options = entry.convert_options()
    assert (options.dataset, options.license, options.extra) == ("src", "MIT", {})


def test_absolute_paths_and_data_home_placeholder(tmp_path, data_home):
    (data_home / "raw").mkdir(parents=True)
    (data_home / "raw" / "x.json").write_text("[]")
    text = f"name: src\nformat: adp\nlicense: MIT\npaths: ['{{data_home}}/raw/x.json', '{ADP_FIXTURES}/synatra/sample_std.json']\n"
    entry = load_entry(write(tmp_path / "e.yaml", text))
    assert entry.resolve_paths() == [
        str(data_home / "raw" / "x.json"),
        str(ADP_FIXTURES / "synatra" / "sample_std.json"),
    ]


def test_options_become_strings_for_the_converter(tmp_path):
    text = "name: src\nformat: sharegpt\npaths: [x]\nlicense: MIT\noptions: {dialect: react}\ndataset: agenttuning\n"
    options = load_entry(write(tmp_path / "e.yaml", text)).convert_options()
    assert (options.dataset, options.extra) == ("agenttuning", {"dialect": "react"})


@pytest.mark.parametrize(
    "text, message",
    [
        ("name: src\nformat: adp\npaths: [x]\nlicense: MIT\nlicence: MIT\n", "licence: Extra inputs are not permitted"),
        ("name: src\nformat: nope\npaths: [x]\nlicense: MIT\n", "unknown format 'nope'"),
        ("name: src\nformat: adp\npaths: []\nlicense: MIT\n", "paths: List should have at least 1 item"),
        ("name: Bad-Name\nformat: adp\npaths: [x]\nlicense: MIT\n", "name: String should match pattern"),
        ("format: adp\npaths: [x]\nlicense: MIT\n", "name: Field required"),
        ("- just a list\n", "expected a mapping"),
        ("name: [unclosed\n", "cannot read YAML"),
    ],
)
def test_bad_entries_name_the_file_and_the_problem(tmp_path, text, message):
    path = write(tmp_path / "e.yaml", text)
    with pytest.raises(EntryError) as info:
        load_entry(path)
    assert str(path) in str(info.value) and message in str(info.value)


def test_missing_inputs_are_named(tmp_path):
    entry = load_entry(write(tmp_path / "e.yaml", "name: src\nformat: adp\npaths: ['nothing/*.json']\nlicense: MIT\n"))
    with pytest.raises(FileNotFoundError, match=r"source 'src': no input matches .*nothing/\*\.json"):
        entry.resolve_paths()


def test_duplicate_names_in_a_directory_are_refused(tmp_path):
    for file in ("a.yaml", "b.yml"):
        write(tmp_path / file, "name: same\nformat: adp\npaths: [x]\nlicense: MIT\n")
    with pytest.raises(EntryError, match="source name 'same' is used by both"):
        load_entries(tmp_path)


def test_entries_directory_from_environment(tmp_path, monkeypatch):
    write(tmp_path / "one.yaml", "name: one\nformat: adp\npaths: [x]\nlicense: MIT\n")
    monkeypatch.setenv("ACEFORGE_ENTRIES", str(tmp_path))
    assert [e.name for e in load_entries()] == ["one"]


def test_project_demo_entries_cover_five_formats_and_are_generated():
    entries = load_entries(PACKAGE_DIR)
    assert [(e.name, e.format) for e in entries] == [
        ("demo_bookstore_adp", "adp"),
        ("demo_bookstore_chat", "openai_chat"),
        ("demo_bookstore_qa", "sharegpt"),
        ("demo_bookstore_react", "sharegpt"),
        ("demo_bookstore_runs", "tau_bench"),
    ]
    assert all(e.generated_by == "demo" and e.license == "CC0-1.0" for e in entries)
