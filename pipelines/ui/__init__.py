"""Dagster's webserver behind aceforge's request guard (``aceforge ui``)."""
