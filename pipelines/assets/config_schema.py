"""Dagster run config from a stage's config model, so the launchpad shows the same fields, defaults and help.

An asset declares ``config_schema=config_schema(IngestConfig)`` and reads
``IngestConfig.from_mapping(context.op_config)``: the model stays the one
place where a field is typed, defaulted and documented, and pydantic (not
Dagster) has the last word on what is valid.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

import dagster as dg
from pydantic import TypeAdapter
from pydantic_core import PydanticUndefined

from schemas.stage_config import StageConfig

_SCALARS = {int: int, float: float, str: str, bool: bool}


def config_schema(model: type[StageConfig], defaults: StageConfig | None = None) -> dict[str, dg.Field]:
    """The fields of ``model``; defaults are the model's own, or those of the instance ``defaults``.

    A section's own fields default to the section's default value, not its class's: Dagster fills the keys a
    run config leaves out of a section from these, so a section given in part (``learner: {k: 8}``) keeps its
    embedded defaults (the learner's llm agent), as StageConfig.load does."""
    given = defaults.model_dump(mode="json") if defaults is not None else _defaults(model)
    fields = {}
    for name, field in model.model_fields.items():
        required = name not in given
        section = getattr(defaults, name) if defaults is not None else _field_default(field)
        fields[name] = dg.Field(
            _dagster_type(field.annotation, section),
            is_required=required,
            description=" ".join((field.description or "").split()),
            **({} if required else {"default_value": given[name]}),
        )
    return fields


def _defaults(model: type[StageConfig]) -> dict[str, Any]:
    """Every field's default in JSON form (what Dagster's config system can hold)."""
    return {
        name: TypeAdapter(field.annotation).dump_python(field.get_default(call_default_factory=True), mode="json")
        for name, field in model.model_fields.items()
        if field.default is not PydanticUndefined or field.default_factory is not None
    }


def _field_default(field: Any) -> Any:
    return None if field.is_required() else field.get_default(call_default_factory=True)


def _dagster_type(annotation: Any, section: Any = None) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        inner = _dagster_type(args[0], section) if len(args) == 1 else dg.Any
        return dg.Noneable(inner) if type(None) in typing.get_args(annotation) else inner
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    if origin is Literal:
        return str  # pydantic checks the choice
    if origin is list:
        return [_dagster_type(typing.get_args(annotation)[0])]
    if isinstance(annotation, type) and issubclass(annotation, StageConfig):
        return config_schema(annotation, section if isinstance(section, annotation) else None)
    return dg.Any
