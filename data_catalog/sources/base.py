"""The converter contract and registry for raw trajectory formats.

A format is one module in this package with a ``Converter`` subclass whose
``name`` is a stable snake_case name, declared in ``FORMATS`` (__init__.py);
a plug-in package declares its own in the ``aceforge.formats`` entry points.
Most formats convert one raw record into one AgentRecord and implement only ``convert``;
formats whose records span several raw items (one row per web step, say)
override ``convert_stream``. Either way a record that cannot be converted
becomes a ``Quarantined`` item with its reason, and the run goes on; a
converted one is a ``Converted`` item that says where it came from.

Record ids come from ``Converter.record_id``: (format, dataset, original id)
plus a digest of the raw content, so the same input always gets the same id
and different content never shares one, whatever its original id says.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from schemas.record import AgentRecord, record_id, stable_id


class ConversionError(ValueError):
    """A raw record does not have the shape its format promises."""


Detected = tuple[int, str]  # (specificity 1-3, the layout's name): what Converter.sniff says


class RawItem(NamedTuple):
    """One raw record read from an input, or the error that stopped reading it. A named tuple, made once per
    record read: a frozen dataclass's __init__ (an object.__setattr__ per field) cost 2.5 times as much."""

    source: str  # the input path (or "-" for stdin)
    index: int  # position within that input
    value: Any = None
    error: str | None = None  # set when the item could not even be parsed
    raw_text: str | bytes | None = None  # the unparsed text, for the quarantine excerpt


@dataclass(frozen=True)
class Quarantined:
    source: str
    index: int  # the position of the (first) raw item in its input
    error: str
    raw: Any
    raw_items: int = 1  # how many raw items it stands for (a grouping format's failed group: all of them)


@dataclass(frozen=True)
class Converted:
    """A converted record and where it came from (a later duplicate is quarantined with this position)."""

    record: AgentRecord
    source: str
    index: int
    raw: Any
    raw_items: int = 1


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
    # The raw layouts this format reads, one line each (shown by `aceforge formats`).
    layouts: ClassVar[tuple[str, ...]] = ()
    # Formats whose records span several raw items (they override convert_stream) set this, and
    # count the records they form, as they form them, in ``units_formed``.
    groups_items: ClassVar[bool] = False
    units_formed: int | None = None
    # Formats that read text inputs (a markdown chat log) set this: a whole input that is not JSON comes to
    # ``items`` as a reader.TextDocument (and to ``sniff``, under auto); to other formats it is an error.
    reads_text: ClassVar[bool] = False

    def __init__(self, options: ConvertOptions | None = None):
        self.opts = options or ConvertOptions()
        unknown = set(self.opts.extra) - set(self.options)
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise ValueError(f"format {self.name!r} has no option(s) {sorted(unknown)}; known: {known}")

    @property
    def dataset(self) -> str:
        return self.opts.dataset or self.name

    def record_id(self, original_id: Any, raw: Any) -> str:
        """The id of the record converted from ``raw``: keyed by the original id *and* the raw content,
        so two inputs that reuse an original id for different content get different ids."""
        original = None if original_id in (None, "") else str(original_id)
        return record_id(self.dataset, self.name, [original, stable_id(raw)])

    def items(self, document: Any, source: str = "-") -> Iterable[Any]:
        """Split a whole parsed JSON document (read from ``source``) into raw records (a list by default)."""
        if isinstance(document, list):
            return document
        return [document]

    @staticmethod
    def sniff(value: Any) -> Detected | None:
        """Whether one parsed raw value (a JSONL line, a JSON document, or an element of a JSON array)
        has a layout of this format: (how specific the match is, the layout's name), else None.
        3: fields only this format has; 2: its usual shape; 1: a shape it also reads. `--format auto`
        picks the format that matches the first records best (data_catalog/formats.py)."""
        return None

    @classmethod
    def folder_inputs(cls, folder: Path) -> list[Path]:
        """The input files a folder given as an input stands for (a τ² results directory: its
        results.json); none by default, and a folder that stands for none is refused."""
        return []

    def convert(self, raw: Any) -> AgentRecord:
        """One raw record to one AgentRecord; raise ConversionError for bad input."""
        raise NotImplementedError

    def convert_row(self, raw: Any) -> tuple[str, dict[str, Any]]:
        """One raw record as (record id, Arrow row), for bulk conversion. Through ``convert`` by default;
        a format that builds plain data (the chat formats) writes the row from it (record_rows.py)."""
        from schemas.arrow_schema import record_to_row

        record = self.convert(raw)
        require_content(record.trajectory)
        return record.id, record_to_row(record)

    def convert_stream(self, items: Iterable[RawItem]) -> Iterator[Converted | Quarantined]:
        for item in items:
            if item.error is not None:
                yield Quarantined(item.source, item.index, item.error, item.raw_text)
                continue
            try:
                record = self.convert(item.value)
                require_content(record.trajectory)
                yield Converted(record, item.source, item.index, item.value)
            except Exception as exc:  # one bad record must never stop the run
                yield Quarantined(item.source, item.index, describe_error(exc), item.value)


_TEXT_FIELDS = ("content", "reasoning", "html", "axtree", "url")


def require_content(steps: list[Any]) -> None:
    """Refuse a trajectory in which no step says anything (no text, call or code): its content was in
    fields the converter did not read, and passing it as converted would lose the record silently.
    A record with no steps at all is a task without a trajectory (tau2_tasks), not an empty one.
    Steps are models or the plain dicts of step_dicts.py."""
    for step in steps:
        fields = step if isinstance(step, dict) else step.__dict__
        if fields.get("class_") == "api_action" or any(
            isinstance(fields.get(key), str) and fields[key].strip() for key in _TEXT_FIELDS
        ):
            return
    if steps:
        raise ConversionError(
            f"every step is empty ({len(steps)} steps, no text, call or code): "
            "the content is in fields this format does not read"
        )


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
