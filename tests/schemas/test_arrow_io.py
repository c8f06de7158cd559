"""Parquet and JSONL IO: a record with every step kind round-trips exactly; ids are stable across runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pyarrow.parquet as pq

from schemas.arrow_schema import RECORD_SCHEMA
from schemas.io import read_records, write_records
from schemas.record import (
    AgentRecord,
    Environment,
    Lineage,
    Scores,
    Source,
    StateRef,
    Task,
    Tool,
    Verifier,
    VerifierResult,
    record_id,
    stable_id,
)
from schemas.steps import (
    ApiAction,
    BoundingBox,
    CodeAction,
    ImageAnnotation,
    ImageObservation,
    MessageAction,
    TextObservation,
    WebObservation,
)
from tests.conftest import ROOT


def full_record(n: int = 0) -> AgentRecord:
    image = ImageObservation(
        content="data:image/png;base64,iVBORw0KGgo=",
        annotations=[
            ImageAnnotation(
                text="Buy", element_type="button", bounding_box=BoundingBox(x=1.5, y=2, width=30, height=12)
            )
        ],
    )
    return AgentRecord(
        id=record_id("demo", "test", f"rec-{n}"),
        environment=Environment(
            kind="tool_world",
            name="retail",
            tools=[
                Tool(
                    name="find_order",
                    description="Find an order.",
                    parameters={"type": "object", "properties": {"id": {"type": "string"}}},
                    access="read",
                )
            ],
            policy="Never refund twice.",
            initial_state=StateRef(snapshot_id="retail-v1", content_hash="ab12"),
            sandbox={"timeout_s": 5, "network": False},
        ),
        task=Task(
            instruction="Find order #7 ✓",
            user_scenario={"persona": "calm"},
            constraints=[{"kind": "no_write"}],
            expected_outputs={"answer": 7},
            metadata={"split": "train"},
        ),
        trajectory=[
            TextObservation(content="system rules", source="system"),
            TextObservation(content="Where is my order?", source="user", name="alice"),
            MessageAction(content="Let me look.", reasoning="need the id"),
            ApiAction(
                function="find_order",
                kwargs={"id": "7", "filters": {"status": ["open", None]}, "limit": 1.5},
                tool_call_id="call_1",
                reasoning="look it up",
            ),
            TextObservation(content='{"id": "7"}', source="tool", name="find_order", tool_call_id="call_1"),
            CodeAction(language="python", content="print(1)\n", tool_call_id="call_2"),
            TextObservation(content="1\n", source="environment"),
            image,
            WebObservation(
                html="<b>hi</b>",
                axtree="[1] button 'Buy'",
                url="https://example.com/",
                image_observation=image,
                viewport_size=(1280, 720),
            ),
            TextObservation(content="", source="agent"),
        ],
        verifier=Verifier(
            kind="constraints",
            spec={"checks": ["no_write"]},
            version="1",
            result=VerifierResult(
                passed=True, score=1.0, reasons=["ok"], evidence={"db_hash": "ff"}, verifier="constraints", version="1"
            ),
        ),
        source=Source(dataset="demo", format="test", original_id=f"rec-{n}", license="MIT", uri="file:///demo.json"),
        lineage=Lineage(
            generator={"backend": "vllm", "seed": 3},
            parents=["p1"],
            pipeline_version="0.1",
            config_hash="cafe",
            usage={"tokens_in": 10},
        ),
        scores=Scores(accuracy=1.0, complexity=0.25, diversity=None, extra={"len": 10.0}),
        details={"patch": "diff --git", "nested": {"a": [1, 2, {"b": None}]}, "n": 3},
    )


def test_every_step_kind_round_trips_through_parquet(tmp_path):
    records = [full_record(i) for i in range(3)]
    out = tmp_path / "r.parquet"
    assert write_records(records, out) == 3
    assert pq.read_schema(out).remove_metadata() == RECORD_SCHEMA
    back = list(read_records(out, batch_size=2))
    assert back == records
    assert {type(s).__name__ for s in back[0].trajectory} == {
        "TextObservation",
        "MessageAction",
        "ApiAction",
        "CodeAction",
        "ImageObservation",
        "WebObservation",
    }
    assert back[0].trajectory[8].viewport_size == (1280, 720)


def test_every_step_kind_round_trips_through_jsonl(tmp_path):
    records = [full_record(i) for i in range(3)]
    out = tmp_path / "r.jsonl"
    assert write_records(records, out) == 3
    assert list(read_records(out)) == records


def test_parquet_write_is_atomic_and_leaves_no_temp_files(tmp_path):
    write_records([full_record()], tmp_path / "a.parquet")
    assert [p.name for p in tmp_path.iterdir()] == ["a.parquet"]


def test_ids_are_stable_across_runs():
    """The same input gives the same id in a fresh interpreter with another hash seed."""
    here = [
        record_id("demo", "sharegpt", 13461),
        record_id("demo", "sharegpt", None, fallback={"b": [1, 2], "a": "x"}),
        stable_id("a", 1, None),
    ]
    code = (
        "from schemas.record import record_id, stable_id;"
        "print(record_id('demo', 'sharegpt', 13461));"
        "print(record_id('demo', 'sharegpt', None, fallback={'a': 'x', 'b': [1, 2]}));"
        "print(stable_id('a', 1, None))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    ).stdout.split()
    assert there == here
    assert here[0] != record_id("demo", "sharegpt", 13462) and here[0] != record_id("other", "sharegpt", 13461)
