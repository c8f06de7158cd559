"""One definition per stage, from which both of its faces are made: the ``aceforge`` command (pipelines/cli/) and
the Dagster asset (pipelines/assets/curate.py: ``stage_asset``; ingest's is a few lines in pipelines/assets/ingest.py,
since its output is a conversion that the record store registers under the source's name, not records in the asset's
folder). One module per family of stages: curation.py (score, dedup, select, report), verify.py (verify), synth.py
(tasks, rollouts, the learner's rollouts), ingest.py (convert).

A ``Stage`` names its config model, its inputs (each by the asset that gives it in the pipeline), its outputs (their
catalog kind and the asset that keeps them) and a ``run`` that calls the library's entry point and returns the
stage's summary, the lines a person reads and the files it wrote. A face only says where the inputs are and where
the outputs go: a command from its arguments, an asset from its upstream assets and its folders
(``Stage.from_assets``). The modules of this package are the ones in pipelines/ that call the stages' entry points.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runtime.executor import Executor
from schemas.stage_config import StageConfig

RECORDS_FILE = "records.parquet"  # an asset's records in its folder (pipelines/assets/record_store.py)
ENVIRONMENT = "environment"  # what a partitioned stage's from_assets gets besides its upstream: its partition's key


class StageError(Exception):
    """What a stage was given cannot be used (a model that does not load): one line, for the face to show."""


@dataclass(frozen=True)
class Out:  # an output: ``records`` or a side table's name, its catalog kind, the asset that keeps it (None: a side file)
    name: str
    kind: str = "records"
    asset: str | None = None
    description: str | None = None


@dataclass
class Product:  # a file a stage wrote for its output ``name``, its rows and the counts its asset shows
    name: str
    path: Path
    rows: int
    counts: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ran:  # what a stage's run gives both faces
    summary: dict[str, Any]  # what ``--json`` prints
    lines: list[str]  # what a person reads
    products: list[Product]


Paths = dict[str, Path]
Upstream = dict[str, Any]  # input name -> the upstream asset's RecordSet (its ``paths`` and ``rows()``), or what
# else the pipeline gives the stage (its partition's environment, a resource)
# A stage run's progress, for a stage whose steps the face counts (``Stage.steps``): (what a step does, its unit, its
# total) -> a context within which the step calls on_progress(done, total).
Progress = Callable[[str, str, int], AbstractContextManager[Callable[[int, int], None]]]


@dataclass(frozen=True)
class Stage:
    name: str  # its PipelineConfig section and its command (``aceforge <name>``; synthesis: ``aceforge synth ...``;
    # ingest: ``aceforge convert``, whose section is ``ingest``)
    op: str  # the Dagster op, the asset key of a stage with one asset
    config: type[StageConfig]
    inputs: dict[str, str]  # input name -> the asset that gives it in the pipeline
    outputs: tuple[Out, ...]
    run: Callable[[dict[str, Any], Paths, Any, Executor | None, bool | Progress], Ran]
    from_assets: Callable[[Upstream, Paths], tuple[dict[str, Any], Paths]]  # (upstream, asset folders) -> run's
    scales_out: bool = True  # runs on the executor (ExecutorConfig)
    configured: bool = True  # the asset takes its PipelineConfig section as run config (else the config's defaults)
    partitioned: bool = False  # one asset partition per environment: its key reaches from_assets as ENVIRONMENT
    # and sets the config's ``env`` where it has one
    steps: bool = False  # run's progress is a ``Progress`` the face shows (else: whether the library shows its own bar)

    def kind(self, output: str) -> str:
        return next(out.kind for out in self.outputs if out.name == output)


def single(records: Any) -> Path:
    (path,) = records.paths
    return path


def counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{key} {value}" for key, value in counts.items())
