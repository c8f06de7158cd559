"""One configuration pattern for every stage (convert, verify, generate, synth, score, train, run, ...).

A stage's knobs are one pydantic model deriving from ``StageConfig``:

- each field is documented once, by the docstring under it (pydantic reads it
  as the field's description); the CLI's ``--help`` and Dagster's launchpad
  show that text and the model's default, never a second copy;
- ``StageConfig.load(yaml_path, **overrides)`` reads YAML defaults, lets
  explicit overrides (CLI flags) win, and validates the result;
- an unknown key is an error that names the key (with the nearest known one),
  and so is a bad value; both raise ``ConfigError`` before any work starts.

Choices are typed (``Literal`` or an Enum), so the CLI offers them and pydantic
checks them. Nested stage models are sections (``sft: SftConfig``); their
fields are YAML keys ``sft: {lr: ...}`` and flags ``--sft-lr``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Self, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.fields import FieldInfo


class ConfigError(ValueError):
    """A configuration that cannot be used: unreadable YAML, an unknown key, a bad value. One line per problem."""


class StageConfig(BaseModel):
    """Base of every stage's configuration model."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True, validate_default=True)

    # The --help heading of a field or section, by name, for a config of several stages (a pipeline's: ingest,
    # synthesize, curate, publish); the fields it leaves out are shown under "Stage options".
    help_groups: ClassVar[dict[str, str]] = {}

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides: Any) -> Self:
        """YAML at ``path`` (if any) overlaid with ``overrides``; a ``None`` override means "not given"."""
        data = read_yaml(path) if path is not None else {}
        merge_into(data, {key: value for key, value in overrides.items() if value is not None})
        return cls.from_mapping(data, origin=str(path) if path is not None else "options")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], origin: str = "config") -> Self:
        try:
            return cls.model_validate(with_section_defaults(cls, data))
        except ValidationError as exc:
            raise ConfigError(describe_errors(cls, exc, origin)) from None

    def to_yaml(self) -> str:
        """The full configuration, every default spelled out: what a run used, ready to be run again."""
        import yaml  # here, not at the top: a command's flags need no YAML until --config is given

        return yaml.safe_dump(self.model_dump(mode="json"), sort_keys=False)


MAX_YAML_VALUES = 100_000  # values a config may expand to, aliases counted at each use: far above any real one


def read_yaml(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        data = load_yaml(path.read_text(), f"config {path}") or {}
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config {path} must be a mapping of keys to values, got {type(data).__name__}")
    return data


def load_yaml(text: str, what: str) -> Any:
    """YAML ``text`` parsed safely, refused (ConfigError) when invalid or when its aliases expand it past
    MAX_YAML_VALUES values: the parser shares an alias's value, but everything after it (merging, validation,
    dumping) walks each use, so ten lines of nested aliases would take gigabytes (a "billion laughs")."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{what} is not valid YAML: {' '.join(str(exc).split())}") from None
    stack, seen = [data], 0
    while stack:
        value = stack.pop()
        seen += 1
        if seen > MAX_YAML_VALUES:
            raise ConfigError(
                f"{what} expands to more than {MAX_YAML_VALUES:,} values (aliases nested in aliases?): refused"
            )
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return data


def with_section_defaults(model: type[BaseModel], data: Mapping[str, Any], default: BaseModel | None = None) -> dict:
    """Keys given for a section overlay that section's *default value*, not its class's defaults, at any depth.

    A pipeline's ``tasks`` section defaults to ``SynthTasksConfig(n=24, catalog=False)``: YAML
    ``tasks: {seed: 3}`` must keep n=24 and catalog=False, not fall back to the class's n=100; a
    rollout's ``sampling: {max_tokens: 64}`` keeps the rollout's temperature of 0.7, also in an item of
    the pipeline's list of rollout runs. ``default`` is the value ``data`` overlays (None: ``model``'s own
    defaults). Only loading does this; ``Model(section={...})`` in Python takes the section as given.
    """
    out = dict(data)
    for name, field in model.model_fields.items():
        value = out.get(name)
        if isinstance(value, Mapping):
            own = getattr(default, name) if default is not None else _field_default(field)
            if isinstance(own, BaseModel):
                merged = own.model_dump(exclude_unset=True)
                merge_into(merged, value)
                out[name] = with_section_defaults(type(own), merged, own)
        elif isinstance(value, list) and (item := _list_item_model(field.annotation)) is not None:
            out[name] = [with_section_defaults(item, v) if isinstance(v, Mapping) else v for v in value]
    return out


def _field_default(field: FieldInfo) -> Any:
    return None if field.is_required() else field.get_default(call_default_factory=True)


def _list_item_model(annotation: Any) -> type[BaseModel] | None:
    """``Model`` for a ``list[Model]`` field: each item given in a list overlays the class's defaults."""
    if get_origin(annotation) is not list:
        return None
    (item,) = get_args(annotation)
    return item if isinstance(item, type) and issubclass(item, BaseModel) else None


def merge_into(base: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    """Overlay ``overrides`` on ``base`` in place; mappings merge key by key (a section flag keeps the YAML section)."""
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), Mapping):
            merged = dict(base[key])
            merge_into(merged, value)
            base[key] = merged
        else:
            base[key] = value


def describe_errors(model: type[BaseModel], exc: ValidationError, origin: str) -> str:
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"])
        if error["type"] == "extra_forbidden":
            problems.append(f"unknown key {where!r}{_suggestion(model, error['loc'])}")
        elif error["type"] == "missing":
            problems.append(f"missing required key {where!r}")
        elif error["type"] == "value_error":  # a validator's own message, which names what was wrong
            problems.append(f"{where}: {error['ctx']['error']}" if where else str(error["ctx"]["error"]))
        else:
            problems.append(f"{where}: {error['msg']} (got {error.get('input')!r})")
    return f"{origin}: " + "; ".join(problems)


def _suggestion(model: type[BaseModel], loc: tuple) -> str:
    """Walk the nested models along ``loc`` and name the nearest known key."""
    for part in loc[:-1]:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return ""
        model = annotation
    known = list(model.model_fields)
    close = difflib.get_close_matches(str(loc[-1]), known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known keys: {', '.join(known)})"
