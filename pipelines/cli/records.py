"""Commands over converted record files: ``validate``, ``show``, ``export-adp``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import FAILED, USAGE, fail, one_line, out, plain_text, say

MAX_LISTED = 20


def check_file(path: Path, code: int = USAGE, chats: bool = False, every_difference: bool = False) -> None:
    """The way every command takes a record file (schemas/record_files.py ``check_record_file``): anything else
    ends the command with one line that names the file, says what it is and what to do, exit ``code`` (a
    missing path, a folder or another suffix: always USAGE). ``chats`` accepts chat conversations too
    (training reads them); ``every_difference`` lists every way a Parquet schema differs from the record
    schema, not the first four. JSON lines of raw trajectories are named by the format `aceforge convert
    --format auto` reads them as."""
    from schemas.record_files import RECORD_SUFFIXES, NotARecordFile, RawTrajectories, check_record_file

    try:
        check_record_file(path, chats=chats)
    except RawTrajectories as exc:
        fail(convert_first(path, exc.shape), code)
    except NotARecordFile as exc:
        line = str(exc)
        if every_difference and exc.problems:
            line = f"{path}: schema does not match the record schema: {'; '.join(exc.problems)}"
        fail(line, code if path.is_file() and path.suffix in RECORD_SUFFIXES else USAGE)


def convert_first(path: Path, shape: str) -> str:
    """What to do with JSON lines of ``shape`` that are not records: the `convert` command that reads them."""
    from data_catalog.formats import detect
    from schemas.record_files import WHAT_TO_DO

    try:
        fmt = detect(str(path)).fmt
    except (ValueError, OSError):  # no format fits, or several do equally
        return (
            f"{path} holds JSON lines of another shape ({shape}), not records, and `aceforge convert --format auto` "
            f"cannot tell their format (`aceforge formats` lists those it reads); {WHAT_TO_DO}"
        )
    return (
        f"{path} holds raw {fmt} trajectories (as `aceforge convert --format auto` reads it), not records; "
        f"convert it first: aceforge convert --format {fmt} {path} -o {path.with_suffix('.parquet')}"
    )


def _raw_rows(path: Path) -> Iterator[bytes | dict]:
    """The rows of a record file as stored (a Parquet file's as rows of the current Arrow schema)."""
    from schemas.io import iter_record_rows

    if path.suffix == ".jsonl":
        with path.open("rb") as f:
            yield from (line for line in f if line.strip())
    else:
        yield from iter_record_rows(path)


def _row_id(row: bytes | dict) -> object:
    import orjson

    if isinstance(row, bytes):
        try:
            row = orjson.loads(row)
        except orjson.JSONDecodeError:
            return None
    return row.get("id") if isinstance(row, dict) else None


def row_errors(path: Path) -> Iterator[tuple[int, str, str]]:
    """(row index, id, error) for every row that does not parse into an AgentRecord, or repeats an id."""
    from pydantic import ValidationError

    from schemas.arrow_schema import row_to_record
    from schemas.io import record_from_json

    seen: set[str] = set()
    parse = record_from_json if path.suffix == ".jsonl" else row_to_record
    for index, row in enumerate(_raw_rows(path)):
        try:
            record = parse(row)
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            yield index, str(_row_id(row)), one_line(exc, 300)
            continue
        if record.id in seen:
            yield index, record.id, "duplicate record id"
        seen.add(record.id)


@app.command()
def validate(file: Annotated[Path, typer.Argument(help="A Parquet (or JSONL) file of AgentRecords.")]) -> None:
    """Check that every row parses into an AgentRecord and the Parquet schema is the record schema (of this
    version or an earlier one: `aceforge migrate` rewrites those as this one).

    Exit 0 when the file is valid; 1 with the bad rows listed otherwise.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from schemas.io import read_records
    from schemas.versions import SchemaError

    try:
        check_file(file, FAILED, every_difference=True)  # a file that is no record file is not valid: exit 1
        bad, count = [], 0
        for count, error in enumerate(row_errors(file), start=1):
            if count <= MAX_LISTED:
                bad.append(error)
    except SchemaError as exc:
        fail(str(exc), FAILED)
    except (pa.ArrowException, OSError) as exc:
        fail(f"{file}: cannot read: {exc}", FAILED)
    if count:
        for index, row_id, error in bad:
            out.print(plain_text(f"row {index} (id {row_id}): {error}"), highlight=False, soft_wrap=True)
        more = f" (first {MAX_LISTED} listed)" if count > MAX_LISTED else ""
        fail(f"{file}: {count} bad row(s){more}", FAILED)
    rows = pq.ParquetFile(file).metadata.num_rows if file.suffix == ".parquet" else sum(1 for _ in read_records(file))
    say(f"{file}: {rows} records, all valid")


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="A Parquet (or JSONL) file of AgentRecords.")],
    record_id: Annotated[
        str | None, typer.Option("--id", help="Record id (or the source's original id); default: the first record.")
    ] = None,
    width: Annotated[
        int, typer.Option("--max-chars", help="Clip long texts to this many characters (0: no clipping).")
    ] = 400,
) -> None:
    """Show one record readably: source, E (tools, policy), q, every τ step, v."""
    from pipelines.cli.record_view import render_record
    from schemas.io import read_records

    check_file(file)
    if record_id is None:
        record = next(iter(read_records(file)), None)
        if record is None:
            fail(f"{file} holds no records", FAILED)
        out.print(render_record(record, width))
        return
    exact = None
    by_original = []  # several records may share an original id (two sources, two runs): never pick one silently
    for record in read_records(file):
        if record.id == record_id:
            exact = record
            break
        if record.source.original_id == record_id:
            by_original.append(record)
    if exact is None and len(by_original) > 1:
        listed = "\n".join(f"  {r.id}  ({r.source.dataset} / {r.source.format})" for r in by_original)
        fail(f"{len(by_original)} records have original id {record_id!r}; give one of their ids:\n{listed}", FAILED)
    chosen = exact or (by_original[0] if by_original else None)
    if chosen is None:
        fail(f"no record with id {record_id!r} in {file}", FAILED)
    out.print(render_record(chosen, width))


@app.command("export-adp")
def export_adp(
    file: Annotated[Path, typer.Argument(help="A Parquet (or JSONL) file of AgentRecords.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output ADP v1 JSONL file.")],
) -> None:
    """Export records as ADP v1 JSONL (ADP's own schema: class_ fields, details as strings).

    What ADP v1 has no field for (E, q, v with its reward and verdict, lineage, tool_call_ids, tool sources,
    system prompts) goes to ADP's details as JSON text under aceforge.* keys: `convert --format adp` restores it.
    """
    run_per_record_export("adp", file, output, "ADP records")


def run_per_record_export(name: str, file: Path, output: Path, what: str) -> None:
    """Exporter ``name`` (a record a line: ADP, ATIF) from ``file`` to ``output``, its errors as one line."""
    from exporters.per_record import RecordNotExported
    from exporters.registry import EXPORTERS
    from schemas.versions import SchemaError

    check_file(file)
    try:
        summary = EXPORTERS.get(name)(file, output)
    except SchemaError as exc:  # a newer version's file, or not a record file: about the file, not one record
        fail(str(exc), FAILED)
    except RecordNotExported as exc:
        fail(f"{file}: record {exc.index} cannot be exported: {one_line(exc.cause, 300)}", FAILED)
    say(f"wrote {summary['written']} {what} to {output}")
