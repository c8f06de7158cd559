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

from pipelines.cli_app import app
from pipelines.cli_common import FAILED, fail, say

model_app = typer.Typer(help="Local model folders (the default SmolLM2 converted from its GGUF).", no_args_is_help=True)
app.add_typer(model_app, name="model")


@model_app.command("prepare")
def prepare(
    model: Annotated[str, typer.Argument(help="'default', a .gguf file or a model folder.")] = "default",
) -> None:
    """Convert a model into a Hugging Face folder under the models directory (once) and print its path."""
    from generators.model_store import describe, resolve_model

    path = resolve_model(model)
    say(describe(path))
    typer.echo(path)


def _backend_options(backend: str, base_url: str | None, batch_size: int, max_concurrency: int) -> dict:
    if backend == "openai":
        if not base_url:
            fail("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
        return {"base_url": base_url, "max_concurrency": max_concurrency}
    return {"batch_size": batch_size}


@app.command("generate")
def generate(
    prompts: Annotated[Path, typer.Argument(help="JSONL of requests: {id?, messages|prompt, tools?, json_schema?}.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write one JSON result per request.")],
    backend: Annotated[
        str | None, typer.Option(help="transformers, vllm or openai (default: vllm with a GPU, else transformers).")
    ] = None,
    model: Annotated[
        str, typer.Option(help="'default' (SmolLM2), a model folder, a .gguf, or a served model name.")
    ] = "default",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible server URL (openai backend).")] = None,
    n: Annotated[int, typer.Option(help="Samples per request.")] = 1,
    temperature: Annotated[float, typer.Option(help="0 means greedy.")] = 0.0,
    top_p: Annotated[float, typer.Option(help="Nucleus sampling mass.")] = 1.0,
    max_tokens: Annotated[int, typer.Option(help="Most tokens to generate per sample.")] = 256,
    stop: Annotated[list[str] | None, typer.Option(help="Stop string (repeatable).")] = None,
    seed: Annotated[int, typer.Option(help="Sampling seed (part of the cache key).")] = 0,
    max_model_len: Annotated[int, typer.Option(help="Context length: prompt + max_tokens must fit.")] = 2048,
    overflow: Annotated[
        str, typer.Option(help="Over-long prompts: 'reject' or 'truncate' (drop oldest turns).")
    ] = "reject",
    batch_size: Annotated[
        int, typer.Option(help="Requests per engine call (throughput only; not in the cache key).")
    ] = 32,
    max_concurrency: Annotated[int, typer.Option(help="Most requests in flight (openai; throughput only).")] = 32,
    cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="Use the result cache of the data directory.")
    ] = True,
    summary: Annotated[Path | None, typer.Option(help="Also write the run summary JSON here.")] = None,
) -> None:
    """Generate for every request in PROMPTS; resumable: cached results are not generated again."""
    from generators.backends import BACKENDS, default_backend, make_generator
    from generators.interface import GenerationError, SamplingParams
    from generators.requests_io import RequestFileError, read_requests, result_row
    from schemas.io import write_jsonl_rows

    backend = backend or default_backend()
    if backend not in BACKENDS:
        fail(f"unknown backend {backend!r}; choose one of {', '.join(sorted(BACKENDS))}")
    if overflow not in ("reject", "truncate"):
        fail("--overflow must be 'reject' or 'truncate'")
    if not prompts.is_file():
        fail(f"input not found: {prompts}")
    try:
        pairs = read_requests(prompts)
        params = SamplingParams(
            n=n, temperature=temperature, top_p=top_p, max_tokens=max_tokens, stop=stop or [], seed=seed
        )
    except (RequestFileError, ValueError) as exc:
        fail(str(exc))
    options = _backend_options(backend, base_url, batch_size, max_concurrency)
    generator = make_generator(
        backend, model, cache, chunk_size=batch_size, max_model_len=max_model_len, overflow=overflow, **options
    )
    try:
        results = generator.generate([request for _, request in pairs], params)
    except ValueError as exc:  # a request this backend cannot serve (tools, schema)
        fail(str(exc))
    except GenerationError as exc:  # the server stayed down through every retry
        fail(str(exc), FAILED)
    finally:
        generator.close()
    write_jsonl_rows((result_row(rid, result) for (rid, _), result in zip(pairs, results)), output)
    report = {
        "backend": backend,
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
