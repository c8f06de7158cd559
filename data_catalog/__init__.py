"""Raw sources, catalog entries, the DuckDB catalog of materialized datasets, Hub export."""
