"""The operator's sandbox configuration: the only source of the code sandbox's limits.

A YAML file named by ``$ACEFORGE_SANDBOX_CONFIG`` (read once per file
version), else the defaults below. An environment variable rather than a
command flag so that every process that runs code (``verify``, ``synth
code``, rollouts, the main job's spawned workers) reads the same walls.

A record never raises a limit: ``SandboxLimits.narrowed`` takes what a
record's ``v.spec["limits"]`` asks for only where it is *lower* than the
operator's value; anything else in it (``network``, unknown keys, bad values)
is ignored. The sandbox has no network at all, so there is no setting for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import Field

from schemas.stage_config import StageConfig

CONFIG_ENV = "ACEFORGE_SANDBOX_CONFIG"


class SandboxLimits(StageConfig):
    """The walls of one sandbox run."""

    wall_s: float = Field(5.0, gt=0)
    """Wall-clock seconds for one run (solution and tests together); then every process of the run is killed."""
    cpu_s: int = Field(3, ge=1)
    """CPU seconds for each process of the run (RLIMIT_CPU)."""
    memory_mb: int = Field(512, ge=32)
    """Address space of each process, MiB (RLIMIT_AS)."""
    max_processes: int = Field(1, ge=1)
    """Processes the solution may have at once, itself included (1: no child processes)."""
    file_size_mb: int = Field(16, ge=1)
    """Largest file the code may write, its stdout and stderr included, MiB (RLIMIT_FSIZE)."""
    disk_mb: int = Field(64, ge=1)
    """Size of the task folder, the only writable place (a size-limited tmpfs), MiB."""
    open_files: int = Field(64, ge=16)
    """Open file descriptors per process (RLIMIT_NOFILE)."""

    def narrowed(self, requested: Any) -> SandboxLimits:
        """These limits, lowered where ``requested`` (a record's wish) asks for less; never raised."""
        if not isinstance(requested, Mapping):
            return self
        lower = {}
        for name, value in requested.items():
            current = getattr(self, name, None) if name in type(self).model_fields else None
            if current is None or isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if value < current:
                lower[name] = value
        try:
            return type(self).model_validate({**self.model_dump(), **lower})
        except ValueError:  # a wish below a field's floor: the operator's limits stand
            return self


class SandboxConfig(StageConfig):
    """The code sandbox, as the operator sets it (YAML at ``$ACEFORGE_SANDBOX_CONFIG``)."""

    limits: SandboxLimits = SandboxLimits()
    """The walls of every run; a record may ask for lower ones, never higher."""
    record_budget_s: float = Field(15.0, gt=0)
    """Sandbox seconds one episode may spend in ``run_python`` calls (replay included); later calls are refused."""
    allow_unisolated: bool = False
    """Run code without bubblewrap (resource limits and the audit hook only) when bubblewrap is missing or
    cannot start. Off: such a sandbox refuses to run code and says why."""


def sandbox_config() -> SandboxConfig:
    """The operator's configuration: the YAML named by ``$ACEFORGE_SANDBOX_CONFIG``, else the defaults."""
    path = os.environ.get(CONFIG_ENV)
    if not path:
        return _load(None, (0, 0))
    try:
        found = os.stat(path)
        version = (found.st_mtime_ns, found.st_size)
    except OSError:
        version = (0, 0)  # unreadable: load() names the file in its error
    return _load(path, version)


@lru_cache(maxsize=4)
def _load(path: str | None, version: tuple[int, int]) -> SandboxConfig:
    return SandboxConfig.load(path)
