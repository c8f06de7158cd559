"""What a dataset card says about its records, counted by DuckDB over the record Parquet files.

One query per table of the card: record kinds, sources with their licences, the
agents of imported trajectories (``source.agent``), environments, verifier outcomes, and the lineage that rebuilds the data
(generator backends or task synthesizers, models and their seeds, pipeline
versions, config hashes). Only the columns a query needs are read, so this
stays cheap next to writing the shards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

MAX_SEEDS_LISTED = 20


@dataclass(frozen=True)
class SourceRow:
    dataset: str
    format: str
    license: str | None
    uri: str | None
    rows: int


@dataclass(frozen=True)
class AgentRow:
    framework: str | None
    model: str | None
    version: str | None
    rows: int


@dataclass(frozen=True)
class VerifierRow:
    kind: str
    rows: int
    passed: int
    failed: int
    undecided: int = 0  # the verifier ran and could not decide

    @property
    def unverified(self) -> int:
        return self.rows - self.passed - self.failed - self.undecided


@dataclass(frozen=True)
class GeneratorRow:
    name: str | None  # backend (rollouts) or synthesizer (tasks)
    model: str | None
    rows: int
    seeds: list[int]  # distinct, sorted, at most MAX_SEEDS_LISTED
    distinct_seeds: int


@dataclass
class DatasetStats:
    rows: int
    tasks: int  # rows without trajectory steps
    sources: list[SourceRow] = field(default_factory=list)
    agents: list[AgentRow] = field(default_factory=list)  # of imported trajectories, as their files say
    environments: list[tuple[str, str | None, int]] = field(default_factory=list)  # (kind, name, rows)
    verifiers: list[VerifierRow] = field(default_factory=list)
    generators: list[GeneratorRow] = field(default_factory=list)
    pipeline_versions: list[str] = field(default_factory=list)
    config_hashes: list[str] = field(default_factory=list)

    @property
    def trajectories(self) -> int:
        return self.rows - self.tasks

    @property
    def licenses(self) -> list[str | None]:
        return sorted({s.license for s in self.sources}, key=lambda x: (x is None, x or ""))


def dataset_stats(files: list[str | Path]) -> DatasetStats:
    con = duckdb.connect()
    try:
        # union_by_name: files of different schema versions give every column and struct field any of them has
        con.read_parquet([str(f) for f in files], union_by_name=True).create_view("r")
        # Files written before schema 1.3 have no source.agent (their agents are in lineage: `aceforge migrate`).
        has_agent = "agent" in dict(con.sql("SELECT source FROM r").types[0].children)
        rows, tasks = con.execute(
            "SELECT count(*), count(*) FILTER (WHERE coalesce(num_steps, 0) = 0) FROM r"
        ).fetchone()
        return DatasetStats(
            rows=rows,
            tasks=tasks,
            sources=[SourceRow(*row) for row in _all(con, _SOURCES)],
            agents=[AgentRow(*row) for row in _all(con, _AGENTS)] if has_agent else [],
            environments=_all(con, _ENVIRONMENTS),
            verifiers=[VerifierRow(*row) for row in _all(con, _VERIFIERS)],
            generators=[
                GeneratorRow(b, m, n, _ints(seeds), d) for b, m, n, seeds, d in _all(con, _generators(has_agent))
            ],
            pipeline_versions=_distinct(con, "json_extract_string(lineage, '$.pipeline_version')"),
            config_hashes=_distinct(con, "json_extract_string(lineage, '$.config_hash')"),
        )
    finally:
        con.close()


_SOURCES = """
SELECT source.dataset, source.format, source.license, source.uri, count(*) AS n
FROM r GROUP BY ALL ORDER BY n DESC, 1, 2
"""
_AGENTS = """
SELECT source.agent.framework, source.agent.model, source.agent.version, count(*) AS n
FROM r WHERE source.agent IS NOT NULL GROUP BY ALL ORDER BY n DESC, 1, 2, 3
"""
_ENVIRONMENTS = """
SELECT env_kind, json_extract_string(environment, '$.name') AS name, count(*) AS n
FROM r GROUP BY ALL ORDER BY n DESC, 1, 2
"""
_VERIFIERS = """
SELECT verifier_kind, count(*) AS n,
       count(*) FILTER (WHERE verifier_passed), count(*) FILTER (WHERE NOT verifier_passed),
       count(*) FILTER (WHERE verifier_passed IS NULL AND json_extract_string(verifier, '$.result.origin') = 'undecided')
FROM r GROUP BY ALL ORDER BY n DESC, 1
"""
_SEED = "TRY_CAST(json_extract_string(lineage, '$.generator.seed') AS BIGINT)"
# A rollout's generator is {agent: {name}, backend: {backend, model, ...}?, seed}; a task's {synthesizer, seed}.
_BACKEND = "json_extract_string(lineage, '$.generator.backend.backend')"
_AGENT = "json_extract_string(lineage, '$.generator.agent.name')"
_MODEL = """coalesce(json_extract_string(lineage, '$.generator.backend.model'),
                  json_extract_string(lineage, '$.generator.model'))"""
_GENERATORS = f"""
SELECT coalesce(CASE WHEN {_AGENT} IS NOT NULL AND {_BACKEND} IS NOT NULL THEN {_AGENT} || ' agent on ' || {_BACKEND} END,
                CASE WHEN {_AGENT} IS NOT NULL THEN {_AGENT} || ' agent' END,
                CASE WHEN json_type(lineage, '$.generator.backend') = 'VARCHAR'
                     THEN json_extract_string(lineage, '$.generator.backend') END,
                json_extract_string(lineage, '$.generator.synthesizer')) AS name,
       -- a local model path names only its file or folder: the rest is the exporting machine's own
       CASE WHEN starts_with({_MODEL}, '/') THEN regexp_extract({_MODEL}, '[^/]+$') ELSE {_MODEL} END AS model,
       count(*) AS n,
       list_sort(list_distinct(list({_SEED})))[1:{MAX_SEEDS_LISTED}],
       count(DISTINCT {_SEED})
FROM r WHERE json_extract(lineage, '$.generator') IS NOT NULL AND json_extract(lineage, '$.generator') != 'null'
"""
_GENERATORS_ORDER = " GROUP BY ALL ORDER BY n DESC, 1, 2"


def _generators(has_agent: bool) -> str:
    """The generators query; an imported trajectory's generator (its agent's settings) is no generator of ours."""
    return _GENERATORS + (" AND source.agent IS NULL" if has_agent else "") + _GENERATORS_ORDER


def _all(con: duckdb.DuckDBPyConnection, query: str) -> list[tuple[Any, ...]]:
    return con.execute(query).fetchall()


def _distinct(con: duckdb.DuckDBPyConnection, expression: str) -> list[str]:
    rows = con.execute(f"SELECT DISTINCT {expression} AS v FROM r WHERE v IS NOT NULL ORDER BY v").fetchall()
    return [row[0] for row in rows]


def _ints(values: list[Any] | None) -> list[int]:
    return [int(v) for v in values or [] if v is not None]
