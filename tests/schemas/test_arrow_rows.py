"""record_to_row writes free-form values exactly as pydantic's JSON-mode dump would, odd values included."""

from __future__ import annotations

import datetime
import enum
import uuid

import orjson
import pytest
from pydantic import BaseModel, field_serializer

from schemas.arrow_schema import record_to_row
from tests.schemas.records import full_record


class Colour(enum.Enum):
    RED = "red"


class Name(str):
    pass


class Shouting(BaseModel):
    """A model that is not the schema's: its own serializer decides its dump."""

    word: str

    @field_serializer("word")
    def _upper(self, word: str) -> str:
        return word.upper()


ODD_VALUES = {
    "datetime": datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.UTC),
    "non_string_keys": {1: "x", None: "y", 2.5: 1},
    "str_subclass": Name("n"),
    "enum": Colour.RED,
    "tuple_and_set": [(1, 2), {3}],
    "bytes": b"hi",
    "uuid": uuid.UUID(int=5),
    "nan": float("nan"),
    "schema_model_inside": full_record().source,
    "other_model_inside": Shouting(word="hi"),
}


def _pydantic_text(value) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


@pytest.mark.parametrize("name", ODD_VALUES)
def test_json_columns_match_the_pydantic_dump(name):
    record = full_record()
    record.details = {name: ODD_VALUES[name]}
    record.task.metadata = {"when": ODD_VALUES[name]}
    row = record_to_row(record)
    dumped = record.model_dump(mode="json")
    for column in ("environment", "task", "verifier", "lineage", "details"):
        assert row[column] == _pydantic_text(dumped[column]), column
    assert row["scores"]["extra"] == _pydantic_text(dumped["scores"]["extra"])


def test_plain_record_json_columns_match_the_pydantic_dump():
    record = full_record()
    row = record_to_row(record)
    dumped = record.model_dump(mode="json")
    assert row["details"] == '{"patch":"diff --git","nested":{"a":[1,2,{"b":null}]},"n":3}'
    for column in ("environment", "task", "verifier", "lineage"):
        assert row[column] == _pydantic_text(dumped[column]), column
    api = next(s for s in row["trajectory"] if s["class_"] == "api_action")
    assert api["kwargs"] == '{"id":"7","filters":{"status":["open",null]},"limit":1.5}'
