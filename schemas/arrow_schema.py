"""The one fixed Arrow schema of an AgentRecord, and row <-> record conversion.

Steps are a list of one flat struct (every step field, null where a step kind
lacks it), so DuckDB can query trajectories directly. Free-form values
(tool kwargs, DB states, tool schemas, details) are JSON strings: nested
structs inferred per shard differ between shards and break casts.

Files of earlier schema versions lack the fields added since (schemas/versions.py):
``schema_differences`` tells an older file from a foreign or newer one, and
``conform_record_batch`` reads an older file's rows as this schema's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import orjson
import pyarrow as pa
from pydantic_core import to_jsonable_python

from schemas.record import (
    AgentIdentity,
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
    load_record,
)
from schemas.steps import (
    ApiAction,
    BoundingBox,
    CodeAction,
    ImageAnnotation,
    ImageObservation,
    MessageAction,
    Step,
    TextObservation,
    WebObservation,
)
from schemas.versions import ADDED_ARROW_FIELDS, SCHEMA_VERSION, check_version, moved_since

STEP_TYPE = pa.struct(
    [
        ("class_", pa.string()),
        ("content", pa.string()),
        ("source", pa.string()),
        ("name", pa.string()),
        ("tool_call_id", pa.string()),
        ("reasoning", pa.string()),
        ("function", pa.string()),
        ("kwargs", pa.string()),  # JSON object
        ("language", pa.string()),
        ("html", pa.string()),
        ("axtree", pa.string()),
        ("url", pa.string()),
        ("extra", pa.string()),  # JSON: image_observation, viewport_size, annotations
        ("decision", pa.string()),  # JSON: a simulated user's decision (schema 1.2)
    ]
)

AGENT_TYPE = pa.struct(
    [
        ("framework", pa.string()),
        ("model", pa.string()),
        ("version", pa.string()),
        ("other_models", pa.list_(pa.string())),
    ]
)

SOURCE_TYPE = pa.struct(
    [
        ("dataset", pa.string()),
        ("format", pa.string()),
        ("original_id", pa.string()),
        ("license", pa.string()),
        ("uri", pa.string()),
        ("agent", AGENT_TYPE),  # schema 1.3
    ]
)

SCORES_TYPE = pa.struct(
    [
        ("accuracy", pa.float64()),
        ("complexity", pa.float64()),
        ("diversity", pa.float64()),
        ("extra", pa.string()),  # JSON object
        ("learner", pa.string()),
    ]
)

RECORD_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("schema_version", pa.string()),
        ("env_kind", pa.string()),
        ("environment", pa.string()),  # JSON of Environment
        ("instruction", pa.string()),
        ("task", pa.string()),  # JSON of Task
        ("trajectory", pa.list_(STEP_TYPE)),
        ("num_steps", pa.int32()),
        ("verifier_kind", pa.string()),
        ("verifier_passed", pa.bool_()),
        ("verifier_score", pa.float64()),
        ("verifier", pa.string()),  # JSON of Verifier
        ("source", SOURCE_TYPE),
        ("lineage", pa.string()),  # JSON of Lineage
        ("scores", SCORES_TYPE),
        ("details", pa.string()),  # JSON object
    ]
)


class SchemaDifferences(NamedTuple):
    """How a Parquet file's Arrow schema differs from RECORD_SCHEMA, by dotted field path."""

    missing: list[str]
    unknown: list[str]
    mistyped: list[str]  # "column 'x' is T, expected U"

    def problems(self) -> list[str]:
        """Why the file is no record file of any version (empty when it is one, or one of a newer version)."""
        problems = [f"missing column {p!r}" for p in self.missing if p not in ADDED_ARROW_FIELDS] + self.mistyped
        return problems + [f"unexpected column {p!r}" for p in self.unknown] if problems else []


def schema_differences(schema: pa.Schema) -> SchemaDifferences:
    differences = SchemaDifferences([], [], [])
    _compare_fields(list(schema), list(RECORD_SCHEMA), "", differences)
    return differences


def _compare_fields(found: list[pa.Field], wanted: list[pa.Field], prefix: str, out: SchemaDifferences) -> None:
    types = {f.name: f.type for f in found}
    known = {f.name for f in wanted}
    out.unknown.extend(prefix + f.name for f in found if f.name not in known)
    for field in wanted:
        if field.name not in types:
            out.missing.append(prefix + field.name)
        elif types[field.name] != field.type:
            _compare_types(types[field.name], field.type, prefix + field.name, out)


def _compare_types(found: pa.DataType, wanted: pa.DataType, path: str, out: SchemaDifferences) -> None:
    if pa.types.is_struct(found) and pa.types.is_struct(wanted):
        _compare_fields(list(found), list(wanted), path + ".", out)
    elif pa.types.is_list(found) and pa.types.is_list(wanted):  # a step field's path is under its list's name
        if found.value_type != wanted.value_type:
            _compare_types(found.value_type, wanted.value_type, path, out)
    else:
        out.mistyped.append(f"column {path!r} is {found}, expected {wanted}")


def conform_record_batch(batch: pa.RecordBatch) -> pa.RecordBatch:
    """Rows of a record file of an earlier version (``schema_differences`` found no problem and no unknown
    field) as RECORD_SCHEMA rows: the fields added since are null, the rest as they were, in this schema's order.
    The schema_version column is left as written: ``row_to_record`` reads each row's own."""
    if batch.schema.equals(RECORD_SCHEMA):
        return batch
    names = set(batch.schema.names)
    columns = [
        _conform(batch.column(f.name), f.type) if f.name in names else pa.nulls(batch.num_rows, f.type)
        for f in RECORD_SCHEMA
    ]
    return pa.RecordBatch.from_arrays(columns, schema=RECORD_SCHEMA)


def _conform(array: pa.Array, wanted: pa.DataType) -> pa.Array:
    if array.type == wanted:
        return array
    if pa.types.is_struct(wanted):
        children = dict(zip(array.type.names, array.flatten()))  # flatten: the parent's slice and nulls applied
        fields = [
            _conform(children[f.name], f.type) if f.name in children else pa.nulls(len(array), f.type) for f in wanted
        ]
        return pa.StructArray.from_arrays(fields, fields=list(wanted), mask=array.is_null())
    # A list (of steps): its values conformed; offsets rebased, as Arrow builds no list with a mask over a slice.
    import pyarrow.compute as pc  # here: converting never needs the kernels, and importing them slowed its start-up

    offsets = array.offsets
    start, end = offsets[0].as_py(), offsets[-1].as_py()
    values = _conform(array.values.slice(start, end - start), wanted.value_type)
    return pa.ListArray.from_arrays(pc.subtract(offsets, start), values, type=wanted, mask=array.is_null())


def upgrade_record_batch(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``conform_record_batch``, and every row's schema_version checked and made the current one: rows of the
    current version, for writers that copy rows without reading them into records (Hub shards)."""
    batch = conform_record_batch(batch)
    versions = batch.column("schema_version").unique().to_pylist()
    for version in versions:
        check_version(version)
    if any(moved_since(version) for version in versions):  # a value moved: each row read as a record, written again
        rows = [record_to_row(row_to_record(row)) for row in batch.to_pylist()]
        return pa.RecordBatch.from_pylist(rows, schema=RECORD_SCHEMA)
    index = RECORD_SCHEMA.get_field_index("schema_version")
    return batch.set_column(index, "schema_version", pa.repeat(SCHEMA_VERSION, batch.num_rows))


# Min/max statistics only for short scalar columns: on the JSON and text columns they copy whole values
# into the metadata (a third of a small shard's bytes), cost a quarter of the writing time, and nobody
# filters on them.
STATISTICS_COLUMNS = [
    *("id", "schema_version", "env_kind", "num_steps", "verifier_kind", "verifier_passed", "verifier_score"),
    *("source.dataset", "source.format", "source.license", "scores.accuracy", "scores.complexity", "scores.diversity"),
]

QUARANTINE_SCHEMA = pa.schema(
    [
        ("source", pa.string()),  # input file (or stage) the row came from
        ("index", pa.int64()),  # position in that input
        ("error", pa.string()),
        ("raw_excerpt", pa.string()),
    ]
)

# The plain string columns of a step, read back as they are (class_ and the JSON columns are read apart).
_STEP_COLUMNS = tuple(f.name for f in STEP_TYPE if f.name not in ("class_", "kwargs", "extra", "decision"))
_STEP_EXTRA = ("image_observation", "viewport_size", "annotations")


def json_text(value: Any) -> str:
    """``value`` as compact JSON text (non-string keys written as strings)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# orjson raises on these (and on non-string keys and ints over 64 bits) instead of
# writing them its own way, which is not always pydantic's (datetimes, str subclasses).
_PLAIN_JSON_ONLY = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS


# The schema's own models have plain fields (no aliases, computed fields, custom serializers
# or extra fields), so their field values are what pydantic dumps. Other models go through pydantic.
_SCHEMA_MODELS = frozenset(
    {AgentRecord, Environment, Task, Verifier, VerifierResult, Source, AgentIdentity, Lineage, Scores, Tool, StateRef}
    | {
        MessageAction,
        ApiAction,
        CodeAction,
        TextObservation,
        ImageObservation,
        WebObservation,
        ImageAnnotation,
        BoundingBox,
    }
)


def _model_fields(value: Any) -> dict[str, Any]:
    if type(value) in _SCHEMA_MODELS:
        return value.__dict__
    raise TypeError(f"{type(value).__name__} is not plain JSON")


def _to_json(value: Any) -> str:
    """``value`` (a model, or a free-form dict) as the JSON text of its ``model_dump(mode="json")``.

    orjson writes models from their field values directly, several times faster
    than dumping them through pydantic first; values that are not plain JSON
    make it raise, and then they do go through pydantic, so the text is the same.
    """
    try:
        return orjson.dumps(value, default=_model_fields, option=_PLAIN_JSON_ONLY).decode()
    except TypeError:
        return json_text(to_jsonable_python(value))


_EXTRA_KINDS = frozenset({"web_observation", "image_observation"})  # fields not in STEP_TYPE go to "extra"


def _step_to_row(step: Step) -> dict[str, Any]:
    """One step as a STEP_TYPE row: its field values, with the JSON columns added.

    Arrow reads a row's fields by name, fills the ones a step kind lacks with
    null and ignores keys it has no column for (the nested values left in the
    row), so a row only needs its JSON columns built; dumping every step through
    pydantic first cost more than the rest of the row.
    """
    row = step.__dict__.copy()  # a copy: the row must not change if the record does before it is written
    if step.class_ == "api_action":
        row["kwargs"] = _to_json(step.kwargs)
    elif step.class_ in _EXTRA_KINDS:
        extra = {k: row[k] for k in _STEP_EXTRA if row.get(k) is not None}
        row["extra"] = _to_json(extra) if extra else None
    elif step.class_ == "text_observation" and step.decision is not None:
        row["decision"] = _to_json(step.decision)
    return row


def record_to_row(record: AgentRecord) -> dict[str, Any]:
    verifier, scores = record.verifier, record.scores
    return {
        "id": record.id,
        "schema_version": record.schema_version,
        "env_kind": record.environment.kind,
        "environment": _to_json(record.environment),
        "instruction": record.task.instruction,
        "task": _to_json(record.task),
        "trajectory": [_step_to_row(s) for s in record.trajectory],
        "num_steps": len(record.trajectory),
        "verifier_kind": verifier.kind,
        "verifier_passed": verifier.result.passed if verifier.result else None,
        "verifier_score": verifier.result.score if verifier.result else None,
        "verifier": _to_json(verifier),
        "source": _source_row(record.source),
        "lineage": _to_json(record.lineage),
        "scores": {**scores.__dict__, "extra": _to_json(scores.extra)},
        "details": _to_json(record.details),
    }


def _source_row(source: Source) -> dict[str, Any]:
    row = source.__dict__.copy()
    if source.agent is not None:
        row["agent"] = source.agent.__dict__
    return row


def _step_from_row(row: dict[str, Any]) -> dict[str, Any]:
    step: dict[str, Any] = {"class_": row["class_"]}
    for key in _STEP_COLUMNS:
        if row.get(key) is not None:
            step[key] = row[key]
    if row.get("kwargs") is not None:
        step["kwargs"] = orjson.loads(row["kwargs"])
    if row.get("extra"):
        step.update(orjson.loads(row["extra"]))
    if row.get("decision"):
        step["decision"] = orjson.loads(row["decision"])
    return step


def row_to_record(row: dict[str, Any]) -> AgentRecord:
    """A record from a row of RECORD_SCHEMA (``conform_record_batch`` makes one of an older file's): a row of any
    version this aceforge reads, as the current version. A null score or source field takes its default."""
    scores = {k: v for k, v in (row["scores"] or {}).items() if v is not None}
    scores["extra"] = orjson.loads(scores["extra"]) if scores.get("extra") else {}
    return load_record(
        {
            "id": row["id"],
            "schema_version": row["schema_version"],
            "environment": orjson.loads(row["environment"]),
            "task": orjson.loads(row["task"]),
            "trajectory": [_step_from_row(s) for s in row["trajectory"] or []],
            "verifier": orjson.loads(row["verifier"]),
            "source": _source_from_row(row["source"]),
            "lineage": orjson.loads(row["lineage"]),
            "scores": scores,
            "details": orjson.loads(row["details"]),
        }
    )


def _source_from_row(source: dict[str, Any]) -> dict[str, Any]:
    """The source of a row, a null field taking its default (an agent's null other_models too)."""
    source = {k: v for k, v in source.items() if v is not None}
    if "agent" in source:
        source["agent"] = {k: v for k, v in source["agent"].items() if v is not None}
    return source
