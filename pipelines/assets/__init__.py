"""The Dagster assets, one module per stage (with its checks), their resources and the IO manager."""
