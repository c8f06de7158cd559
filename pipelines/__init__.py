"""Dagster definitions and the `aceforge` CLI: thin wiring over the library packages."""
