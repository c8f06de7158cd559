"""The hash that addresses a conversion's output: every part that changes the output changes it."""

from __future__ import annotations

from data_catalog.ingest import config_hash
from data_catalog.sources.base import ConvertOptions


def test_config_hash_changes_with_every_output_affecting_part(tmp_path):
    raw = tmp_path / "a.json"
    raw.write_text("[]")
    base = config_hash("sharegpt", ConvertOptions(dataset="d", license="MIT"), [str(raw)])
    assert base == config_hash("sharegpt", ConvertOptions(dataset="d", license="MIT"), [str(raw)])
    variants = [
        config_hash("adp", ConvertOptions(dataset="d", license="MIT"), [str(raw)]),
        config_hash("sharegpt", ConvertOptions(dataset="e", license="MIT"), [str(raw)]),
        config_hash("sharegpt", ConvertOptions(dataset="d", license="BSD"), [str(raw)]),
        config_hash("sharegpt", ConvertOptions(dataset="d", license="MIT", extra={"dialect": "react"}), [str(raw)]),
    ]
    raw.write_text("[ ]")
    variants.append(config_hash("sharegpt", ConvertOptions(dataset="d", license="MIT"), [str(raw)]))
    assert len({base, *variants}) == 6
