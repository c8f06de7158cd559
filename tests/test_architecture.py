"""The README's Architecture section is the tree: every package it lists imports, every package is listed, and
the library rooms never import the wiring in pipelines/."""

from __future__ import annotations

import ast
import importlib
import re

from tests.conftest import ROOT

TOP_LEVEL = ("schemas", "data_catalog", "environments", "verifiers", "generators", "curation", "training", "pipelines")


def listed_packages() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Architecture\n", 1)[1].split("\n## ", 1)[0]
    rooms = section.split("```\n", 2)[1]  # the first drawing: one room a line
    return [m.group(1).rstrip("/").replace("/", ".") for m in re.finditer(r"^([a-z_]+(?:/[a-z_]+)*/)\s", rooms, re.M)]


def packages_on_disk() -> set[str]:
    return {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in TOP_LEVEL
        for init in (ROOT / top).rglob("__init__.py")
        if init.parent != ROOT / "generators"  # a namespace of three rooms, listed by its rooms
    }


def test_every_listed_package_imports_and_every_package_is_listed():
    listed = listed_packages()
    assert len(listed) == len(set(listed)) > 10
    for name in listed:
        importlib.import_module(name)
    assert set(listed) == packages_on_disk()


def test_library_rooms_never_import_the_pipelines():
    offenders = []
    for top in TOP_LEVEL[:-1]:
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] == "pipelines"]
    assert offenders == []


def test_the_pipeline_registers_datasets_in_one_place():
    """Only the registrar puts a stage's output in the catalog, by one rule for the CLI's commands and the pipeline's
    IO manager; no command, asset or library module calls the catalog's register_dataset itself."""
    callers = set()
    for top in TOP_LEVEL:
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "register_dataset":
                    callers.add(str(path.relative_to(ROOT)))
    assert callers == {"pipelines/registrar.py"}
