"""The converter contract and registry for raw trajectory formats.

A format is one module in this package with a ``Converter`` subclass whose
``name`` is a stable snake_case name, declared in ``FORMATS`` (__init__.py);
a plug-in package declares its own in the ``aceforge.formats`` entry points.
Most formats convert one raw record into one AgentRecord and implement only ``convert``;
formats whose records span several raw items (one row per web step, say)
override ``convert_stream``. Either way a record that cannot be converted
becomes a ``Quarantined`` item with its reason, and the run goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from schemas.record import AgentRecord


class ConversionError(ValueError):
    """A raw record does not have the shape its format promises."""


@dataclass(frozen=True)
class RawItem:
    """One raw record read from an input, or the error that stopped reading it."""

    source: str  # the input path (or "-" for stdin)
    index: int  # position within that input
    value: Any = None
    error: str | None = None  # set when the item could not even be parsed
    raw_text: str | bytes | None = None  # the unparsed text, for the quarantine excerpt


@dataclass(frozen=True)
class Quarantined:
    source: str
    index: int
    error: str
    raw: Any


@dataclass
class ConvertOptions:
    """Options common to every format, plus format-specific ones (``--option key=value``)."""

    dataset: str | None = None
    license: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


class Converter:
    name: ClassVar[str]
    description: ClassVar[str]
    # Option names this format accepts in ConvertOptions.extra, with their help text.
    options: ClassVar[dict[str, str]] = {}

    def __init__(self, options: ConvertOptions | None = None):
        self.opts = options or ConvertOptions()
        unknown = set(self.opts.extra) - set(self.options)
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise ValueError(f"format {self.name!r} has no option(s) {sorted(unknown)}; known: {known}")

    @property
    def dataset(self) -> str:
        return self.opts.dataset or self.name

    def items(self, document: Any) -> Iterable[Any]:
        """Split a whole parsed JSON document into raw records (a list by default)."""
        if isinstance(document, list):
            return document
        return [document]

    def convert(self, raw: Any) -> AgentRecord:
        """One raw record to one AgentRecord; raise ConversionError for bad input."""
        raise NotImplementedError

    def convert_stream(self, items: Iterable[RawItem]) -> Iterator[AgentRecord | Quarantined]:
        for item in items:
            if item.error is not None:
                yield Quarantined(item.source, item.index, item.error, item.raw_text)
                continue
            try:
                yield self.convert(item.value)
            except Exception as exc:  # one bad record must never stop the run
                yield Quarantined(item.source, item.index, describe_error(exc), item.value)


def describe_error(exc: BaseException) -> str:
    if isinstance(exc, ConversionError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return f"{type(exc).__name__}: {exc}"


def register(cls: type[Converter]) -> type[Converter]:
    """Register a converter class from code under its ``name`` (see ``FORMATS`` in this package's __init__)."""
    from data_catalog.sources import FORMATS

    FORMATS.register(cls.name, cls)
    return cls


def require(raw: Any, key: str, kind: type | tuple[type, ...]) -> Any:
    """``raw[key]``, checked to be of ``kind``; a ConversionError that names the field otherwise."""
    if not isinstance(raw, dict):
        raise ConversionError(f"record is {type(raw).__name__}, expected an object")
    if key not in raw:
        raise ConversionError(f"missing field {key!r}")
    value = raw[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ConversionError(f"field {key!r} is {type(value).__name__}, expected {names}")
    return value


def each_object(values: list[Any], field: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, value)`` for each element of the list ``field``; a ConversionError at the first non-object."""
    for i, value in enumerate(values):
        where = f"{field}[{i}]"
        if not isinstance(value, dict):
            raise ConversionError(f"{where} is {type(value).__name__}, expected an object")
        yield where, value
