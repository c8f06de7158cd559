"""Converters for raw trajectory formats, registered by name (see base.py)."""

from __future__ import annotations

import importlib
import pkgutil

from data_catalog.sources.base import REGISTRY, Converter, ConvertOptions


def _load_all() -> None:
    # Importing each module runs its @register; new formats need no edit here.
    for module in pkgutil.iter_modules(__path__):
        if module.name not in ("base", "reader") and not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


def formats() -> dict[str, type[Converter]]:
    _load_all()
    return dict(sorted(REGISTRY.items()))


def get_converter(name: str, options: ConvertOptions | None = None) -> Converter:
    known = formats()
    if name not in known:
        raise KeyError(f"unknown format {name!r}; known formats: {', '.join(known)}")
    return known[name](options)
