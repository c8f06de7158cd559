"""A record that uses every part of the schema and every step kind, for the IO tests."""

from __future__ import annotations

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
