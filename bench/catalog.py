"""What a catalog version's copy and content hash cost, on a Parquet file of about 100 MB.

Run: python bench/catalog.py [--mb 100] [--repeat 3]

Prints (best of --repeat): registering the file (copy + hash), checking the version's hash alone,
`catalog sql` of count(*) over the version (the check included) and of a column's sum (the check plus a
full scan), the same two queries in plain DuckDB on the file (no check), and a query of the `datasets`
table (names no version: nothing hashed).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from data_catalog.catalog import Catalog


def best(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = args.mb * (1 << 20) // 16  # two incompressible 8-byte columns
        rng = np.random.default_rng(0)
        table = pa.table({"a": rng.integers(0, 2**62, rows), "b": rng.random(rows)})
        path = folder / "big.parquet"
        pq.write_table(table, path, compression="none")
        size = path.stat().st_size / 1e6
        catalog = Catalog(folder / "data" / "catalog.duckdb")
        version = 0

        def register() -> None:
            nonlocal version
            version += 1
            catalog.register_dataset("big", path, rows, config_hash=str(version))  # a new version each time

        print(f"file: {size:.1f} MB, {rows:,} rows; {os.cpu_count()} CPUs")
        print(f"register (copy + hash):            {best(args.repeat, register):.3f} s")
        entry = catalog.get("big")
        print(f"hash check alone:                  {best(args.repeat, lambda: catalog.files(entry)):.3f} s")
        for label, query in (("count(*)", "SELECT count(*) FROM {}"), ("sum(b)", "SELECT sum(b) FROM {}")):
            checked = best(args.repeat, lambda q=query: catalog.sql(q.format("big")))
            plain = best(args.repeat, lambda q=query: duckdb.sql(q.format(f"read_parquet('{path}')")).fetchall())
            print(f"catalog sql {label:9}              {checked:.3f} s   plain DuckDB on the file: {plain:.3f} s")
        nothing = best(args.repeat, lambda: catalog.sql("SELECT count(*) FROM datasets"))
        print(f"catalog sql of the datasets table: {nothing:.3f} s")


if __name__ == "__main__":
    main()
