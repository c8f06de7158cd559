"""What train and the trainer exports read: records, plain chat JSONL/Parquet, and one-line errors for the rest."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from schemas.io import write_records
from tests.training.helpers import CHAT, literal_record
from tests.training.helpers import CHAT_TOOLS as TOOLS
from training.inputs import EmptyInput, InputError, read_training_input


def test_chat_jsonl_goes_through_the_openai_chat_converter(tmp_path):
    path = tmp_path / "chats.jsonl"
    path.write_text(json.dumps(CHAT) + "\n\n" + json.dumps({**CHAT, "tools": []}) + "\n")
    first, second = read_training_input(path)
    assert first.source.format == "openai_chat" and first.source.dataset == "chats"
    assert [tool.name for tool in first.environment.tools] == ["get_order"]
    assert [step.class_ for step in first.trajectory] == [
        "text_observation",
        "api_action",
        "text_observation",
        "message_action",
    ]
    assert first.trajectory[1].kwargs == {"order_id": "12"} and second.environment.tools == []


def test_chat_parquet_written_by_arrow_is_read_too(tmp_path):
    path = tmp_path / "chats.parquet"
    table = pa.Table.from_pylist([{"messages": CHAT["messages"], "tools": json.dumps(TOOLS)}])
    pq.write_table(table, path)
    [record] = read_training_input(path)
    assert record.trajectory[1].function == "get_order" and record.trajectory[-1].content == "It has shipped."


def test_record_files_are_read_as_they_are(tmp_path):
    write_records([literal_record("a"), literal_record("b")], tmp_path / "r.parquet")
    assert [r.id for r in read_training_input(tmp_path / "r.parquet")] == ["a", "b"]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("summary.md", "# ACE summary\n", "summary.md: expected a .parquet or .jsonl file of AgentRecords"),
        ("bad.jsonl", "{not json\n", "bad.jsonl line 1 is not JSON"),
        (
            "other.jsonl",
            '{"id": "x", "text": "hello"}\n',
            "other.jsonl holds JSON lines of another shape (keys id, text), not records: convert it first",
        ),
        ("broken.jsonl", json.dumps({"messages": []}) + "\n", "broken.jsonl row 1 is not a chat conversation: field"),
        ("fake.parquet", "not parquet", "fake.parquet is not a Parquet file"),
    ],
)
def test_anything_else_is_one_line_naming_the_file(tmp_path, name, content, message):
    (tmp_path / name).write_text(content)
    with pytest.raises(InputError) as caught:
        read_training_input(tmp_path / name)
    assert str(caught.value).startswith(str(tmp_path / message)) and "\n" not in str(caught.value)


def test_a_chat_file_with_bad_rows_points_to_convert_which_sets_them_aside(tmp_path, monkeypatch):
    """Training refuses the file whole; the error names the command that quarantines the bad rows, and that
    command, as written there, gives a file training reads."""
    from data_catalog.demo import chat_lines, make_cases
    from tests.pipelines.cli_helpers import invoke

    (tmp_path / "chats.jsonl").write_text("\n".join(chat_lines(make_cases(6, seed=1))) + "\n")  # 4 bad lines
    with pytest.raises(InputError) as caught:
        read_training_input(tmp_path / "chats.jsonl")
    command = str(caught.value).split("`")[1]
    assert command == f"aceforge convert --format openai_chat {tmp_path / 'chats.jsonl'} -o chats.parquet"
    monkeypatch.chdir(tmp_path)
    result = invoke(*command.split()[1:])
    assert result.exit_code == 0, result.output
    assert len(read_training_input(tmp_path / "chats.parquet")) == 6


def test_parquet_of_other_columns_names_what_is_missing(tmp_path):
    pq.write_table(pa.table({"id": ["a"], "scores": ["{}"]}), tmp_path / "scores.parquet")
    message = "is a Parquet file of other columns .id, scores., not records nor chat conversations .a messages column."
    with pytest.raises(InputError, match=message):
        read_training_input(tmp_path / "scores.parquet")


def test_empty_input_is_an_error_unless_allowed(tmp_path):
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(EmptyInput, match="holds no records .--allow-empty accepts that."):
        read_training_input(tmp_path / "empty.jsonl")
    assert read_training_input(tmp_path / "empty.jsonl", allow_empty=True) == []
    write_records([], tmp_path / "empty.parquet")
    with pytest.raises(EmptyInput):
        read_training_input(tmp_path / "empty.parquet")
