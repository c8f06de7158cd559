"""CLI flags from a stage's config model: ``@with_config(GenerateConfig)`` on a Typer command.

The decorated function takes the validated config as its first parameter,
``cfg``, followed by its own arguments (inputs, outputs, presentation flags).
The decorator adds ``--config FILE`` (YAML defaults) and one flag per config
field: its help text is the field's docstring and its shown default the
model's, so nothing is typed twice. Flags default to "not given", so only
flags on the command line override the YAML; an unknown key in the YAML or a
bad value exits with code 2 and a line naming the key.

Field types map to flags: bool -> ``--x/--no-x``; Literal -> a choice;
list[...] -> a repeatable flag; dict[str, str] -> repeatable ``key=value``;
a nested StageConfig section -> ``--section-field`` flags. Other types
(free-form mappings, lists of models) are YAML-only.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from pipelines.cli.common import USAGE, fail
from schemas.stage_config import ConfigError, StageConfig

CONFIG_PARAM = "config_file"
HELP_ALL_PARAM = "help_all"
SEPARATOR = "__"  # parameter name of a section's flag: sft__lr for --sft-lr
# A command with more flags than this lists its sections' flags only under --help-all (`aceforge run` has
# about 190); its --help names the sections instead, so the short view fits a screen or two.
SHORT_HELP_FLAGS = 60
STAGE_PANEL = "Stage options (also --config YAML)"


def with_config(config_cls: type[StageConfig]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    groups = config_cls.help_groups
    flags = list(_flags(config_cls, groups, hide_sections=len(list(_flags(config_cls, groups))) > SHORT_HELP_FLAGS))
    hidden = list(dict.fromkeys(name.split(SEPARATOR)[0] for name, annotation in flags if _is_hidden(annotation)))
    pair_flags = {name for name, _ in flags if _is_pairs(_field_at(config_cls, name.split(SEPARATOR)).annotation)}

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        own = list(inspect.signature(command, eval_str=True).parameters.values())[1:]  # drop cfg

        @functools.wraps(command)
        def wrapper(**kwargs: Any) -> Any:
            kwargs.pop(HELP_ALL_PARAM, None)
            config_file = kwargs.pop(CONFIG_PARAM)
            overrides: dict[str, Any] = {}
            for name, _ in flags:
                value = kwargs.pop(name)
                if value is None or value == []:  # not on the command line: the YAML or the model decides
                    continue
                if name in pair_flags:
                    value = _key_values(_flag_name(name.split(SEPARATOR)), value)
                _set_path(overrides, name.split(SEPARATOR), value)
            try:
                cfg = config_cls.load(config_file, **overrides)
            except ConfigError as exc:
                fail(str(exc), USAGE)
            return command(cfg, **kwargs)

        config_param = inspect.Parameter(
            CONFIG_PARAM,
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[
                Path | None,
                typer.Option("--config", help="YAML file of defaults for the options below; flags override it."),
            ],
        )
        help_all = inspect.Parameter(
            HELP_ALL_PARAM,
            inspect.Parameter.KEYWORD_ONLY,
            default=False,
            annotation=Annotated[
                bool,
                typer.Option(
                    "--help-all",
                    help="Show this message with every section's flags and exit.",
                    is_eager=True,
                    callback=_show_all_help,
                ),
            ],
        )
        if hidden:
            wrapper.__doc__ = (
                f"{inspect.cleandoc(command.__doc__ or '')}\n\nSections with more flags (--help-all lists them; "
                f"each is also a key of the --config YAML): {_by_group(hidden, groups)}."
            )
        params = (
            own
            + [config_param, *([help_all] if hidden else [])]
            + [
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation)
                for name, annotation in flags
            ]
        )
        wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        return wrapper

    return decorate


def _set_path(target: dict[str, Any], path: list[str], value: Any) -> None:
    for part in path[:-1]:
        target = target.setdefault(part, {})
    target[path[-1]] = value


def _show_all_help(ctx: typer.Context, value: bool) -> None:
    """--help-all: the command's help with every flag shown, sections' flags included."""
    if not value or ctx.resilient_parsing:
        return
    for param in ctx.command.params:
        param.hidden = False
    typer.echo(ctx.get_help())
    raise typer.Exit()


def _is_hidden(annotation: Any) -> bool:
    return any(getattr(meta, "hidden", False) for meta in typing.get_args(annotation)[1:])


def _by_group(sections: list[str], groups: dict[str, str]) -> str:
    """``a, b`` or, where the config groups its sections by stage, ``stage: a, b; other: c``."""
    if not groups:
        return ", ".join(sections)
    order = list(dict.fromkeys(groups.values()))
    by_group = {group: [s for s in sections if groups.get(s) == group] for group in order}
    return "; ".join(f"{group}: {', '.join(names)}" for group, names in by_group.items() if names)


def _flags(
    model: type[BaseModel],
    groups: dict[str, str],
    prefix: tuple[str, ...] = (),
    section: BaseModel | None = None,
    hide_sections: bool = False,
) -> typing.Iterator[tuple[str, Any]]:
    """(parameter name, Annotated type with its typer.Option) for each field that can be a flag.

    ``section`` is the default value of the enclosing section, when it differs from its class's defaults
    (a pipeline's small N): --help shows that value. A section's flags are grouped under its name (and its
    stage, from the root config's ``groups``), and hidden from the short --help with ``hide_sections``.
    """
    for name, field in model.model_fields.items():
        path = (*prefix, name)
        annotation = _strip_optional(field.annotation)
        if isinstance(annotation, type) and issubclass(annotation, StageConfig):
            default = getattr(section, name) if section is not None else field.get_default(call_default_factory=True)
            yield from _flags(annotation, groups, path, default, hide_sections)
            continue
        shown = _shown_default(field) if section is None else _shown_value(getattr(section, name))
        option = _option(path, field, annotation, shown, _panel(path, groups), hide_sections and len(path) > 1)
        if option is not None:
            yield SEPARATOR.join(path), option


def _panel(path: tuple[str, ...], groups: dict[str, str]) -> str:
    """The --help heading of a flag: its stage's (``Curate: section score``) where the config names one."""
    group = groups.get(path[0], "")
    if len(path) == 1:
        return f"{group.capitalize()} options (also --config YAML)" if group else STAGE_PANEL
    section = f"{group.capitalize()}: section {path[0]}" if group else f"Section {path[0]}"
    return f"{section} (also --config YAML)"


def _option(
    path: tuple[str, ...], field: FieldInfo, annotation: Any, shown: str | bool, panel: str, hidden: bool
) -> Any:
    flag = _flag_name(path)
    help_text = " ".join((field.description or "").split())
    common = {"help": help_text, "show_default": shown, "rich_help_panel": panel, "hidden": hidden}
    origin = typing.get_origin(annotation)
    if annotation is bool:
        return Annotated[bool | None, typer.Option(f"{flag}/--no-{flag[2:]}", **common)]
    if origin is Literal or annotation in (int, float, str, Path) or _is_enum(annotation):
        return Annotated[annotation | None, typer.Option(flag, **common)]
    if origin is list and typing.get_args(annotation)[0] in (int, float, str, Path):
        return Annotated[annotation | None, typer.Option(flag, **common)]
    if _is_pairs(annotation):
        return Annotated[list[str] | None, typer.Option(flag, metavar="KEY=VALUE", **common)]
    return None  # YAML-only


def _field_at(model: type[BaseModel], path: list[str]) -> FieldInfo:
    for part in path[:-1]:
        model = _strip_optional(model.model_fields[part].annotation)
    return model.model_fields[path[-1]]


def _is_pairs(annotation: Any) -> bool:
    """dict[str, str]: given on the command line as repeatable key=value."""
    return typing.get_origin(annotation) is dict and typing.get_args(annotation) == (str, str)


def _is_enum(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, Enum)


def _flag_name(path: tuple[str, ...] | list[str]) -> str:
    return "--" + "-".join(path).replace("_", "-")


def _key_values(flag: str, values: list[str]) -> dict[str, str]:
    pairs = {}
    for pair in values:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(f"{flag} expects key=value, got {pair!r}")
        pairs[key.strip()] = value
    return pairs


def _strip_optional(annotation: Any) -> Any:
    """``X | None`` -> ``X``; anything else unchanged."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _shown_value(value: Any) -> str | bool:
    if value is None or value == [] or value == {}:
        return False
    return str(value.value if isinstance(value, Enum) else value)


def _shown_default(field: FieldInfo) -> str | bool:
    """What --help shows as the default (the flag's own default is None: "not given")."""
    if field.default_factory is not None or field.default is None:
        return False
    if field.default is PydanticUndefined:
        return "required"
    return str(field.default.value if isinstance(field.default, Enum) else field.default)
