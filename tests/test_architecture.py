"""The README's Architecture section is the tree: every package it lists imports, every package is listed; the
packages stand on floors (a module imports only its own floor or a lower one), no module reaches for another's
private names, and no two modules import each other."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tests.conftest import ROOT

# Bottom up: a module imports only packages of its own floor or of a lower one. Derived from the imports:
# runtime's executor reads schemas' stage configs; the catalog and the environments stand on the record; the
# verifiers replay environments; the generators verify what they make; curation scores with rollouts; training
# and the exporters read curated sets (the exporters render chats as training does); pipelines wire them all.
FLOORS = (
    ("runtime", "schemas"),
    ("data_catalog", "environments"),
    ("verifiers",),
    ("generators",),
    ("curation",),
    ("training", "exporters"),
    ("pipelines",),
)
TOP_LEVEL = tuple(package for floor in FLOORS for package in floor)
FLOOR_OF = {package: number for number, floor in enumerate(FLOORS) for package in floor}


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


@cache
def modules() -> dict[str, Path]:
    """Every library module by dotted name (a package by its own name)."""
    found = {}
    for top in TOP_LEVEL:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(tree: ast.AST, top_level_only: bool = False) -> Iterator[tuple[str, list[str]]]:
    """(module, names imported from it) for each import statement; ``top_level_only``: those that run when the
    module is imported (not inside functions, not under ``if TYPE_CHECKING``)."""
    nodes = ast.walk(tree) if not top_level_only else _top_level(tree.body)
    for node in nodes:
        if isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, [alias.name for alias in node.names]


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.If | ast.Try):
            yield from _top_level(node.body + node.orelse + getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                yield from _top_level(handler.body)
        else:
            yield node


def imported_modules(module: str, names: list[str]) -> list[str]:
    """The library modules an import statement loads: ``from pkg import mod`` loads ``pkg.mod``."""
    submodules = [f"{module}.{name}" for name in names if f"{module}.{name}" in modules()]
    return submodules or ([module] if module in modules() else [])


def test_every_listed_package_imports_and_every_package_is_listed():
    listed = listed_packages()
    assert len(listed) == len(set(listed)) > 10
    for name in listed:
        importlib.import_module(name)
    assert set(listed) == packages_on_disk()


def test_every_package_is_on_a_floor():
    tops = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}
    assert tops | {"generators"} == set(TOP_LEVEL)  # generators/ is a namespace package: no __init__.py


def test_a_module_imports_only_its_own_floor_or_lower():
    offenders = []
    for name, path in modules().items():
        floor = FLOOR_OF[name.split(".")[0]]
        for module, _ in imports(ast.parse(path.read_text())):
            top = module.split(".")[0]
            if top in FLOOR_OF and FLOOR_OF[top] > floor:
                offenders.append(f"{path.relative_to(ROOT)}: {module}")
    assert offenders == []


def test_no_module_imports_another_modules_private_names():
    offenders = []
    for name, path in modules().items():
        for module, names in imports(ast.parse(path.read_text())):
            private = [
                n for n in names if n.startswith("_") and not n.startswith("__") and f"{module}.{n}" not in modules()
            ]
            if private and module != name and module.split(".")[0] in FLOOR_OF:
                offenders.append(f"{path.relative_to(ROOT)}: from {module} import {', '.join(private)}")
    assert offenders == []


def test_no_import_cycle_between_modules():
    graph = {
        name: {
            target
            for module, names in imports(ast.parse(path.read_text()), top_level_only=True)
            for target in imported_modules(module, names)
            if target != name
        }
        for name, path in modules().items()
    }
    cycles = [sorted(component) for component in _strongly_connected(graph) if len(component) > 1]
    assert cycles == []


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (the graph is a few hundred modules deep at most)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return components


def test_library_rooms_never_import_the_pipelines():
    offenders = []
    for top in TOP_LEVEL[:-1]:
        for path in (ROOT / top).rglob("*.py"):
            for module, _ in imports(ast.parse(path.read_text())):
                if module.split(".")[0] == "pipelines":
                    offenders.append(f"{path.relative_to(ROOT)}: {module}")
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


def starts_processes_or_talks_to_ray(tree: ast.AST) -> bool:
    """Imports Ray, multiprocessing or concurrent.futures' process pool (its thread pool is fine)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or "", *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Attribute) and node.attr == "ProcessPoolExecutor":
            return True
        else:
            continue
        for name in names:
            if name.split(".")[0] in ("ray", "multiprocessing") or name.startswith("concurrent.futures.Process"):
                return True
    return False


def test_only_the_executor_starts_processes_or_talks_to_ray():
    """Where work runs is the executor's choice (runtime/executor.py; runtime/engine.py sets up its Ray cluster):
    no other library module imports Ray or a process pool."""
    found = {name for name, path in modules().items() if starts_processes_or_talks_to_ray(ast.parse(path.read_text()))}
    assert found == {"runtime.executor", "runtime.engine"}


STAGE_ENTRY_POINTS = {  # each stage's entry point -> the module of pipelines/stages/ that defines the stage
    ("curation.score_stage", "run_score"): "pipelines/stages/curation.py",
    ("curation.dedup_stage", "run_dedup"): "pipelines/stages/curation.py",
    ("curation.select_stage", "run_select"): "pipelines/stages/curation.py",
    ("curation.report", "ace_report"): "pipelines/stages/curation.py",
    ("verifiers.batch", "reverify"): "pipelines/stages/verify.py",
    ("generators.synthesis.stages", "run_tasks"): "pipelines/stages/synth.py",
    ("generators.rollouts.runner", "run_rollouts"): "pipelines/stages/synth.py",
    ("generators.rollouts.runner", "run_with_own_model"): None,  # the rollout stages load a run's model themselves
    ("data_catalog.convert", "convert_files"): "pipelines/stages/ingest.py",
}


def test_only_the_stage_modules_wire_the_stages():
    """Each stage is defined once (pipelines/stages/) and its command and asset are made from that: no other module
    of pipelines/ imports a stage's entry point (library code, e.g. training/improve.py, may call them)."""
    importers = set()
    for path in (ROOT / "pipelines").rglob("*.py"):
        for module, names in imports(ast.parse(path.read_text())):
            importers.update((module, name, str(path.relative_to(ROOT))) for name in names)
    assert {(module, name, path) for module, name, path in importers if (module, name) in STAGE_ENTRY_POINTS} == {
        (*entry, path) for entry, path in STAGE_ENTRY_POINTS.items() if path
    }


def test_the_pipeline_exports_only_through_the_exporters_registry():
    """The publish assets and the ``aceforge export`` commands run the same exporters, the registry's entries
    (exporters/registry.py): no module of pipelines/ imports an exporter's entry or the folder builder itself."""
    from exporters.registry import EXPORTERS
    from runtime.plugins import path_of

    entries = {tuple(path_of(EXPORTERS.get(name)).split(":")) for name in EXPORTERS.names()}
    entries |= {("exporters.hub_folder", "build_hub_folder"), ("exporters.verl", "export_verl")}
    found = {
        (module, name, str(path.relative_to(ROOT)))
        for path in (ROOT / "pipelines").rglob("*.py")
        for module, names in imports(ast.parse(path.read_text()))
        for name in names
        if (module, name) in entries
    }
    assert ("exporters.hub", "export") in entries and found == set()
