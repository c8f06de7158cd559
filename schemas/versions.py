"""Record schema versions: what each one added, and which versions this aceforge reads.

Every change to the record (schemas/record.py, schemas/steps.py, the Arrow schema of schemas/arrow_schema.py)
gets a new version. Files of every earlier version keep reading: a field a file lacks takes its default (a
missing Arrow column or struct field reads as null, a missing JSON key as the model's default), and nothing a
file holds is dropped. A file of a newer version, or one with a field this aceforge does not know, is refused
with one line ("written by a newer aceforge (schema 1.2); upgrade aceforge"), never read with that field left
out. ``aceforge migrate DIR`` rewrites older files as the current version.

Reading goes by structure, not only by the version string: files written between the additions of
``verifier.result.origin`` and ``scores.learner`` and this module say "1.0" in three shapes (the frozen examples
in tests/schemas/versions/ are one of each), and all three read.

Adding a field (say a ``decision`` on TextObservation):

1. Give it a default in its model (``decision: dict[str, Any] | None = None``). A field with an Arrow column of its
   own (a step field is a STEP_TYPE field, a score a SCORES_TYPE field) gets that column too; a field inside a JSON
   text column (environment, task, verifier, lineage, details, a step's kwargs or extra) needs nothing more.
2. Add one line to HISTORY: ``Version("1.2", "TextObservation.decision: ...", arrow=("trajectory.decision",))``,
   naming in ``arrow`` the Arrow fields it added (dotted, a step field under ``trajectory``), which older files lack.
3. Freeze examples of the new version: tests/schemas/versions/README.md says how (one script run).

That is all: SCHEMA_VERSION is the last line's, and tests/schemas/test_versions.py reads every frozen example of
every version. Moving a value (renaming, retyping) is not an addition: old files would lose it or fail to read,
so its version also names a conversion (``upgrade``, in schemas/upgrades.py) from the previous version's record
to its own, which ``upgraded`` applies to every record of an earlier version as it is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from schemas.upgrades import move_agent_identity


class Version(NamedTuple):
    number: str
    added: str
    """What this version added, in words (and the commits that made it)."""
    arrow: tuple[str, ...] = ()
    """The Arrow fields it added (dotted paths): files of earlier versions lack them, and read them as null."""
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """How a record of the previous version becomes one of this version, when a value moved."""


HISTORY = (
    Version("1.0", "the record: E, q, τ, v, source, lineage, scores, details (54f3ec3, 2026-11-29)"),
    Version(
        "1.1",
        "verifier.result.origin, who decided a verdict (JSON; a838f06), and scores.learner, the declared learner's "
        "id (4c13459), both added on 2026-12-01 under the name 1.0; 1.1 names the shape that has both",
        arrow=("scores.learner",),
    ),
    Version(
        "1.2",
        "TextObservation.decision: what a simulated user decided in a turn (consent, refusal, ...), as JSON",
        arrow=("trajectory.decision",),
    ),
    Version(
        "1.3",
        "source.agent: the agent of an imported trajectory as its file says (framework, model, version, "
        "other_models), which the readers wrote in lineage.generator before",
        arrow=("source.agent",),
        upgrade=move_agent_identity,
    ),
)
SCHEMA_VERSION = HISTORY[-1].number
KNOWN = frozenset(v.number for v in HISTORY)
_POSITION = {v.number: i for i, v in enumerate(HISTORY)}
ADDED_ARROW_FIELDS = frozenset(field for v in HISTORY for field in v.arrow)
"""Fields a record file may lack: those added after the first version."""


def upgraded(data: dict[str, Any], version: str) -> dict[str, Any]:
    """A record of ``version`` (a known one) with the conversions of every later version applied: as the current
    version stores it, but for its schema_version."""
    for later in HISTORY[_POSITION[version] + 1 :]:
        if later.upgrade is not None:
            data = later.upgrade(data)
    return data


def moved_since(version: str) -> bool:
    """Whether a later version than ``version`` (a known one) moved a value: its records need ``upgraded``."""
    return any(later.upgrade is not None for later in HISTORY[_POSITION[version] + 1 :])


class SchemaError(ValueError):
    """Data of no record schema this aceforge reads (one line, meant for the user)."""


class NewerSchemaError(SchemaError):
    """Data written by a newer aceforge than this one."""


def _number(version: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in version.split("."))
    except (AttributeError, ValueError):
        return None


def is_newer(version: str) -> bool:
    """Whether ``version`` is a version number above this aceforge's SCHEMA_VERSION."""
    number = _number(version)
    return number is not None and number > _number(SCHEMA_VERSION)


def newer_message(version: str) -> str:
    return f"written by a newer aceforge (schema {version}); upgrade aceforge"


def check_version(version: object) -> None:
    """Raise a SchemaError unless ``version`` is one this aceforge reads."""
    if version in KNOWN:
        return
    if isinstance(version, str) and is_newer(version):
        raise NewerSchemaError(newer_message(version))
    raise SchemaError(f"unknown schema_version {version!r} (this aceforge reads {', '.join(sorted(KNOWN))})")


def unknown_fields_message(fields: list[str], versions: list[str]) -> str:
    """The line for data with fields no version of this aceforge has, given the versions the data says it is."""
    newer = [v for v in versions if is_newer(v)]
    if newer:
        return newer_message(max(newer, key=_number))
    shown = ", ".join(fields[:4]) + (f" and {len(fields) - 4} more" if len(fields) > 4 else "")
    return (
        f"field {shown} is in no record schema up to {SCHEMA_VERSION} (the data says schema "
        f"{', '.join(versions) or '?'}): written by a newer aceforge? upgrade aceforge"
    )
