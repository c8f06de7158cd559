"""``aceforge generate`` (chat requests in, results out) and ``aceforge model prepare``.

Results are cached by content under the data directory, so rerunning a killed
``generate`` picks up where it stopped. The run summary (calls, cache hits,
tokens, time) goes to stderr as one JSON line, and to ``--summary`` if given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import orjson
import typer

from generators.llm.config import GenerateConfig
from pipelines.cli.app import app
from pipelines.cli.common import FAILED, fail, say
from pipelines.cli.config import with_config

model_app = typer.Typer(help="Local model folders (the default SmolLM2 converted from its GGUF).", no_args_is_help=True)
app.add_typer(model_app, name="model")


@model_app.command("prepare")
def prepare(
    model: Annotated[str, typer.Argument(help="'default', a .gguf file or a model folder.")] = "default",
) -> None:
    """Convert a model into a Hugging Face folder under the models directory (once) and print its path."""
    from generators.llm.model_store import describe, resolve_model

    path = resolve_model(model)
    say(describe(path))
    typer.echo(path)


@app.command("generate")
@with_config(GenerateConfig)
def generate(
    cfg: GenerateConfig,
    prompts: Annotated[Path, typer.Argument(help="JSONL of requests: {id?, messages|prompt, tools?, json_schema?}.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write one JSON result per request.")],
    summary: Annotated[Path | None, typer.Option(help="Also write the run summary JSON here.")] = None,
) -> None:
    """Generate for every request in PROMPTS; resumable: cached results are not generated again."""
    from generators.llm.interface import GenerationError
    from generators.llm.requests_io import RequestFileError, read_requests, result_row
    from schemas.io import write_jsonl_rows

    if not prompts.is_file():
        fail(f"input not found: {prompts}")
    try:
        pairs = read_requests(prompts)
        generator = cfg.make_generator()
    except (RequestFileError, ValueError) as exc:
        fail(str(exc))
    try:
        results = generator.generate([request for _, request in pairs], cfg.sampling())
    except ValueError as exc:  # a request this backend cannot serve (tools, schema)
        fail(str(exc))
    except GenerationError as exc:  # the server stayed down through every retry
        fail(str(exc), FAILED)
    finally:
        generator.close()
    write_jsonl_rows((result_row(rid, result) for (rid, _), result in zip(pairs, results)), output)
    report = {
        "backend": cfg.backend_name(),
        "model": generator.model_id,
        "requests": len(pairs),
        **generator.ledger.summary.as_dict(),
    }
    line = orjson.dumps(report).decode()
    say(line)
    if summary:
        summary.write_text(line + "\n")
    if pairs and all(r.error for r in results):
        raise typer.Exit(FAILED)
