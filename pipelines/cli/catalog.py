"""``aceforge catalog list`` and ``aceforge catalog sql``: the DuckDB catalog of the data directory."""

from __future__ import annotations

from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import FAILED, clip, fail, one_line, out, plain_text, print_json, say

DEFAULT_LIMIT = 10_000

catalog_app = typer.Typer(
    help="The DuckDB catalog (<ACEFORGE_HOME>/catalog.duckdb): every dataset written, each a view over its Parquet files.",
    no_args_is_help=True,
)
app.add_typer(catalog_app, name="catalog")


@catalog_app.command("list")
def list_cmd(
    all_versions: Annotated[
        bool, typer.Option("--all", help="Every version, not only the latest of each dataset.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list instead of a table.")] = False,
) -> None:
    """List the registered datasets: name, version, kind, rows, created_at, path."""
    from rich.table import Table

    from data_catalog.catalog import Catalog

    catalog = Catalog()
    entries = catalog.list_datasets(all_versions)
    if as_json:
        print_json([{**e.__dict__, "view": e.view} for e in entries])
        return
    table = Table("name", "version", "kind", "rows", "created (UTC)", title=plain_text(catalog.path))
    table.add_column("path", overflow="fold")
    for e in entries:
        created = e.created_at.strftime("%Y-%m-%d %H:%M:%S")
        table.add_row(
            plain_text(e.name), str(e.version), plain_text(e.kind), f"{e.rows:,}", created, plain_text(e.path)
        )
    out.print(table)
    if not entries:
        say("the catalog is empty: `aceforge run` or `aceforge convert` registers datasets")


@catalog_app.command("sql")
def sql_cmd(
    query: Annotated[
        str,
        typer.Argument(
            help="A read-only SQL query; each dataset is a view named after it (<name>__v<N> for a version)."
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON list of row objects instead of a table.")
    ] = False,
    max_chars: Annotated[
        int, typer.Option("--max-chars", help="Clip table cells to this many characters (0: no clipping).")
    ] = 80,
    limit: Annotated[
        int, typer.Option("--limit", min=1, help="Print at most this many rows (a note on stderr says when more).")
    ] = DEFAULT_LIMIT,
) -> None:
    """Run SQL over the catalog: its `datasets` table and one view per dataset.

    Read-only: SELECT statements over the catalog's datasets; no other file, no network, no extensions.
    Each version the query names is checked against the content hash taken when it was registered.
    Exit 1 (with DuckDB's message) when the query fails or is refused, or a version it names has changed.
    """
    import duckdb
    from rich.table import Table

    from data_catalog.catalog import Catalog, QueryRefused, VersionChanged

    try:
        result = Catalog().sql(query, limit=limit)
    except (QueryRefused, VersionChanged) as exc:
        fail(str(exc), FAILED)
    except MemoryError:
        fail(f"out of memory reading the rows: lower --limit (now {limit:,}) or aggregate in the query", FAILED)
    except duckdb.PermissionException as exc:
        fail(f"{one_line(exc)} (catalog sql reads the catalog's datasets only)", FAILED)
    except duckdb.Error as exc:
        fail(one_line(exc), FAILED)
    if result.cut:
        say(f"the first {limit:,} rows only: the query returns more (--limit N prints up to N)")
    if as_json:
        print_json(result.as_dicts())
        return
    table = Table()
    for column in result.columns:
        table.add_column(plain_text(column))
    for row in result.rows:
        table.add_row(*(plain_text(clip("NULL" if v is None else str(v), max_chars)) for v in row))
    out.print(table)
