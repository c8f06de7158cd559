"""``select``: write the SFT set, the RL set and the table of records left out, with a manifest.

Outputs in ``--out-dir DIR``:

- ``sft.parquet``, ``rl.parquet``: records, as they are in the input; the SFT set in
  the input's order, the RL set in its learnability order (curation/selection.py);
- ``left_out.parquet``: ``id``, ``reason``, ``detail``, ``duplicate_of``,
  ``kind``, ``similarity``: every input record in neither set, plus every
  record the input's dedup audit (``<input stem>.dedup.parquet``) removed;
- ``selection.json``: the counts, the configuration and the files read
  (``aceforge report DIR`` follows it back to the records and the audit); when
  the RL set is empty, ``rl_empty`` says why in one line.

A caller that keeps each output elsewhere (the pipeline: the SFT and RL sets are two assets, each in its own
folder) names the four paths itself (``SelectOutputs``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import polars as pl

from curation.config import SelectConfig
from curation.dedup_stage import DEDUP
from curation.facts import iter_records, read_facts
from curation.selection import LeftOut, Selection, rl_empty_line, select
from curation.signatures import SIGNATURES, embeddings_for, sidecar
from schemas.io import RecordWriter, atomic_output

MANIFEST = "selection.json"
LEFT_OUT_SCHEMA = {
    "id": pl.String,
    "reason": pl.String,
    "detail": pl.String,
    "duplicate_of": pl.String,
    "kind": pl.String,
    "similarity": pl.Float64,
}


@dataclass(frozen=True)
class SelectOutputs:
    """Where selection writes: the SFT set, the RL set, the left-out table and the manifest."""

    sft: Path
    rl: Path
    left_out: Path
    manifest: Path

    @classmethod
    def in_folder(cls, folder: Path) -> SelectOutputs:
        """The layout of ``--out-dir``: sft.parquet, rl.parquet, left_out.parquet and selection.json."""
        return cls(folder / "sft.parquet", folder / "rl.parquet", folder / "left_out.parquet", folder / MANIFEST)


@dataclass
class SelectResult:
    out_dir: Path
    records: int  # input records plus the duplicates named by its audit
    sft: int
    rl: int
    left_out: Counter
    verdicts: Counter  # input records by who decided their verdict: computed, imported, undecided, none
    rl_empty: str | None = None  # why the RL set is empty, in one line; None when it is not

    def summary(self) -> dict:
        return {
            "records": self.records,
            "sft": self.sft,
            "rl": self.rl,
            **({"rl_empty": self.rl_empty} if self.rl_empty else {}),
            "verdicts": dict(self.verdicts.most_common()),
            "left_out": sum(self.left_out.values()),
            "left_out_by_reason": dict(self.left_out.most_common()),
            "out_dir": str(self.out_dir),
        }


def audit_duplicates(audit: Path) -> list[LeftOut]:
    if not audit.is_file():
        return []
    rows = pl.read_parquet(audit).iter_rows(named=True)
    return [
        LeftOut(
            row["removed_id"],
            "duplicate",
            f"{row['kind']} duplicate of {row['kept_id']} (similarity {row['similarity']:.3f})",
            row["kept_id"],
            row["kind"],
            row["similarity"],
        )
        for row in rows
    ]


def write_sets(input: Path, out: SelectOutputs, selection: Selection) -> None:
    """One pass over the input: the SFT set in the input's order, the RL set in the selection's (its tasks are
    held until the pass ends: task records carry no trajectory)."""
    sft, rl = set(selection.sft), set(selection.rl)
    tasks = {}
    with RecordWriter(out.sft) as sft_out, RecordWriter(out.rl) as rl_out:
        for i, record in enumerate(iter_records(input)):
            if i in sft:
                sft_out.write_record(record)
            elif i in rl:
                tasks[i] = record
        for i in selection.rl:
            rl_out.write_record(tasks[i])


def run_select(input: Path, out: Path | SelectOutputs, cfg: SelectConfig, progress: bool = False) -> SelectResult:
    """Select from ``input`` into ``out``: a folder (``SelectOutputs.in_folder``) or the four paths."""
    out = SelectOutputs.in_folder(out) if isinstance(out, Path) else out
    facts = read_facts(input, progress)
    signatures = embeddings_for(facts, sidecar(input, SIGNATURES), progress)
    selection = select(facts, signatures, cfg)
    audit = sidecar(input, DEDUP)
    selection.left_out = audit_duplicates(audit) + selection.left_out
    for path in (out.sft, out.rl, out.left_out, out.manifest):
        path.parent.mkdir(parents=True, exist_ok=True)
    write_sets(input, out, selection)
    with atomic_output(out.left_out) as tmp:
        pl.DataFrame([asdict(row) for row in selection.left_out], schema=LEFT_OUT_SCHEMA).write_parquet(tmp)
    reasons = Counter(row.reason for row in selection.left_out)
    result = SelectResult(
        out.sft.parent,
        len(facts) + reasons["duplicate"],
        len(selection.sft),
        len(selection.rl),
        reasons,
        Counter(f.verdict_origin or "none" for f in facts),
        None if selection.rl else rl_empty_line(sum(f.is_task for f in facts), reasons),
    )
    manifest = {
        **result.summary(),
        "input": str(input.resolve()),
        "audit": str(audit.resolve()) if audit.is_file() else None,
        "config": cfg.model_dump(mode="json"),
    }
    out.manifest.write_text(json.dumps(manifest, indent=2) + "\n")
    return result
