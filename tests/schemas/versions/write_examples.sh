#!/usr/bin/env bash
# Write the frozen example record files of the aceforge checkout in the current directory into OUT_DIR:
# records.parquet and records.jsonl, the same four records in both, made by that checkout's own commands:
#   a converted real record (tau-bench airline sample), a synthesized retail task, an oracle rollout of it
#   with its verifier result, and that rollout again after `score` (ACE scores filled).
# Usage: (cd CHECKOUT && bash write_examples.sh OUT_DIR FIXTURES_DIR)   (python: $PY, default the shared venv)
# Run it in a worktree of the commit whose record shape you freeze (see tests/schemas/versions/README.md).
set -euo pipefail
out=$(realpath -m "$1")
fixtures=$(realpath "$2")
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=$PWD ACEFORGE_HOME=$(mktemp -d) HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
work=$ACEFORGE_HOME
# The CLI moved from pipelines/cli.py to the package pipelines/cli/ (main.py).
if [ -f pipelines/cli/main.py ]; then cli=pipelines.cli.main; else cli=pipelines.cli; fi
run() { "$PY" -m "$cli" "$@" --no-catalog >/dev/null; }
run convert --format tau_bench "$fixtures/tau/tau-bench/historical_trajectories/gpt-4o-airline.excerpt.json" -o "$work/converted.parquet"
run synth tasks --env retail --n 1 --seed 0 -o "$work/tasks.parquet"
run synth rollouts "$work/tasks.parquet" --k 1 --agent oracle --user scripted -o "$work/rollouts.parquet"
pick() { "$PY" -c "$1" "$work" "$out"; }
# The task and its rollout in one file, scored together: the task gets the pass rate, both get ACE scores.
pick '
import sys; from pathlib import Path; from schemas.io import read_records, write_records
work = Path(sys.argv[1])
write_records([*read_records(work / "tasks.parquet"), *read_records(work / "rollouts.parquet")], work / "pool.parquet")'
run score "$work/pool.parquet" --rollouts "$work/rollouts.parquet" -o "$work/scored.parquet"
mkdir -p "$out"
pick '
import sys; from pathlib import Path; from schemas.io import read_records, write_jsonl, write_records
work, out = Path(sys.argv[1]), Path(sys.argv[2])
shortest = min(read_records(work / "converted.parquet"), key=lambda r: len(r.trajectory))
records = [shortest, *read_records(work / "scored.parquet")]
print(len(records), "records:", *(r.id for r in records))
write_records(records, out / "records.parquet")
write_jsonl(records, out / "records.jsonl")'

rm -rf "$work"
