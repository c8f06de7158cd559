"""Raw sources, catalog entries, the DuckDB catalog of materialized datasets, the Hub layout (shards, card)."""
