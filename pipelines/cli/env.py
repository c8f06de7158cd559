"""``aceforge env list | show | make-db``: the executable environments and their databases."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app
from pipelines.cli.common import fail, out, plain_text, print_json, say

env_app = typer.Typer(
    help="Executable environments (tool worlds such as retail and airline): tools, policy, databases.",
    no_args_is_help=True,
)
app.add_typer(env_app, name="env")

NameArg = Annotated[str, typer.Argument(help="Environment name, as `aceforge env list` prints it.")]


def _check_known(name: str) -> None:
    from environments.registry import list_environments

    if name not in list_environments():
        fail(f"unknown environment {name!r}; known: {', '.join(list_environments())}")


@env_app.command("list")
def list_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list instead of a table.")] = False,
) -> None:
    """List the registered environments with their number of tools."""
    from rich.table import Table

    from environments.registry import environment_class, list_environments

    rows = []
    for name in list_environments():
        rows.append(
            {
                "name": name,
                "tools": len(_small_instance(name).tools()),
                "doc": (inspect.getdoc(environment_class(name)) or "").partition("\n")[0],
            }
        )
    if as_json:
        print_json(rows)
        return
    table = Table("name", "tools", "description")
    for row in rows:
        table.add_row(plain_text(row["name"]), str(row["tools"]), plain_text(row["doc"]))
    out.print(table)


@env_app.command("show")
def show_cmd(
    name: NameArg,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print tools (with JSON-schema parameters) and policy as JSON.")
    ] = False,
) -> None:
    """Show an environment's tools (name, access, description) and its policy text."""
    from rich.table import Table

    _check_known(name)
    env = _small_instance(name)
    tools = env.tools()
    if as_json:
        print_json({"name": name, "tools": [t.model_dump() for t in tools], "policy": env.policy})
        return
    table = Table("tool", "access", "parameters", "description", title=plain_text(f"{name}: {len(tools)} tools"))
    for t in tools:
        parameters = ", ".join(t.parameters.get("properties", {}))
        table.add_row(*(plain_text(v, multiline=True) for v in (t.name, t.access or "", parameters, t.description)))
    out.print(table)
    out.print(plain_text(env.policy or "(no policy)", multiline=True), highlight=False)


def _has_user_db(name: str) -> bool:
    from environments.registry import environment_class
    from environments.tool_world import UserDatabaseWorld

    cls = environment_class(name)
    return isinstance(cls, type) and issubclass(cls, UserDatabaseWorld)


def _small_instance(name: str):
    """An instance for listing tools and policy: a one-user database is enough, and instant."""
    from environments.registry import get_environment

    return get_environment(name, **({"users": 1} if _has_user_db(name) else {}))


@env_app.command("make-db")
def make_db_cmd(
    name: NameArg,
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the database (.json, or .json.gz to compress).")
    ],
    users: Annotated[int, typer.Option("--users", min=1, help="How many users to generate.")] = 500,
    seed: Annotated[
        int, typer.Option("--seed", help="Generator seed: the same seed and size give the same database.")
    ] = 0,
) -> None:
    """Generate a seeded database for a tool world and save it as JSON; prints its table sizes and state hash."""
    from environments.db_files import save_db
    from environments.registry import get_environment

    _check_known(name)
    if not _has_user_db(name):
        fail(f"environment {name!r} has no database to generate")
    env = get_environment(name, users=users, seed=seed)
    tables = env.snapshot().tables
    save_db(tables, output)
    sizes = {table: len(rows) for table, rows in tables.items()}
    say(f"wrote {output}: " + ", ".join(f"{n:,} {table}" for table, n in sizes.items()))
    print_json(
        {
            "environment": name,
            "users": users,
            "seed": seed,
            "path": str(output),
            "tables": sizes,
            "state_hash": env.state_hash(),
        }
    )
