"""Catalog names of the pipeline are its own: an ad-hoc CLI output never takes one.

The pipeline registers each asset as a catalog dataset (``scored``,
``rollouts__retail``, ...) and each catalog source it ingests under the
source's name (``demo_bookstore_chat`` and its ``_quarantine``). A CLI command
names its output after the file (``score x.parquet -o scored.parquet`` gives
``scored``): such a name would become the next version of the pipeline's
dataset, and ``SELECT ... FROM scored`` would read the ad-hoc file. So a CLI
output whose name is the pipeline's is registered as ``cli_<name>`` instead.
"""

from __future__ import annotations

# The pipeline's assets by the job of definitions.py that materializes them (the main job runs the jobs in this
# order); their catalog names are these, or these + "__<partition>". Dagster-free, so the CLI imports it cheaply.
SYNTHESIZE = ("synth_tasks", "rollouts", "learner_rollouts")
CURATE = ("verified", "scored", "deduplicated", "sft_set", "rl_set", "ace_report")
PUBLISH = ("hub_folder", "verl_export")
JOB_ASSETS = {"ingest": ("converted",), "synthesize": SYNTHESIZE, "curate": CURATE, "publish": PUBLISH}
PIPELINE_ASSETS = frozenset(key for keys in JOB_ASSETS.values() for key in keys)
ADHOC_PREFIX = "cli_"


def is_pipeline_name(name: str) -> bool:
    """A pipeline asset's catalog name, or a catalog source's (or its quarantine's) in the active entries."""
    if name in PIPELINE_ASSETS or name.split("__", 1)[0] in PIPELINE_ASSETS:
        return True
    return name.removesuffix("_quarantine") in _source_names()


def adhoc_name(name: str) -> str:
    """The catalog name for a CLI output meant to be called ``name``: ``cli_<name>`` when the pipeline owns it."""
    if not is_pipeline_name(name):
        return name
    from pipelines.cli.common import say

    say(
        f"note: {name!r} is a pipeline dataset's name in the catalog: this output is registered as {ADHOC_PREFIX}{name}"
    )
    return f"{ADHOC_PREFIX}{name}"


def _source_names() -> set[str]:
    from data_catalog.entries import EntryError, load_entries

    try:
        return {entry.name for entry in load_entries()}
    except EntryError:  # unreadable entries are `run`'s error to report, not a reason to refuse a name
        return set()
