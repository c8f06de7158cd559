"""bench/labelled: the frame of every case module (a domain's first set and its later sets, e.g. retail_fresh.py),
the retail set's size and balance, and the fresh sets' size, balance and independence.

A domain whose first case module is not written yet (the sets land on separate branches) is skipped. Nothing here
imports verifiers/: the labels must not come from the chain they measure.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from labelled.cases import DOMAINS, KINDS, cases, frozen_tasks, modules, record_of

from schemas.steps import ApiAction, TextObservation
from tests.conftest import ROOT

MAX_RATIONALE = 200
# The fresh sets are a held-out measure: their tasks come from synthesis seeds the earlier sets do not use.
FRESH_SYNTHESIS_SEEDS = set(range(4, 10))
FRESH_DB_SEEDS = {"retail": {0}, "airline": {0, 2}}
FRESH_SIZE = 40


def written(module: str) -> bool:
    return importlib.util.find_spec(f"labelled.{module}") is not None


# Every case module on this branch: each domain's first set (retail) and its later sets (retail_fresh).
MODULES = [(domain, module) for domain in DOMAINS for module in modules(domain) if written(module)]


def module_cases(module: str) -> list:
    return importlib.import_module(f"labelled.{module}").CASES


@pytest.fixture(params=DOMAINS)
def domain(request) -> str:
    if not written(request.param):
        pytest.skip(f"bench/labelled/{request.param}.py is not on this branch")
    return request.param


@pytest.fixture(params=MODULES, ids=[module for _, module in MODULES])
def module(request) -> tuple[str, str]:
    """(domain, case module)."""
    return request.param


def test_the_fresh_sets_are_among_the_case_modules():
    assert {(domain, f"{domain}_fresh") for domain in DOMAINS} <= set(MODULES)


def test_case_names_are_unique(domain):
    names = [case.name for case in cases(domain)]
    assert sorted(name for name, count in Counter(names).items() if count > 1) == []


def test_case_names_are_unique_within_a_module(module):
    names = [case.name for case in module_cases(module[1])]
    assert sorted(name for name, count in Counter(names).items() if count > 1) == []


def test_kinds_and_labels_are_known(module):
    found = module_cases(module[1])
    assert {case.kind for case in found} <= set(KINDS)
    assert {case.label for case in found} <= {"right", "wrong"}


def test_every_rationale_is_one_short_line(module):
    found = module_cases(module[1])
    bad = [case.name for case in found if not 0 < len(case.rationale) <= MAX_RATIONALE]
    bad += [case.name for case in found if "\n" in case.rationale]
    assert bad == []


def test_every_task_a_case_uses_is_frozen(module):
    domain, name = module
    assert sorted({case.task for case in module_cases(name)} - set(frozen_tasks(domain))) == []


def test_every_case_builds_into_a_record_with_real_tool_results(module):
    domain, name = module
    frozen = frozen_tasks(domain)
    ids = set()
    for case in module_cases(name):
        record = record_of(domain, case)
        ids.add(record.id)
        assert record.source.original_id == case.name
        assert record.task.instruction == frozen[case.task]["task"]["instruction"]
        calls = [step for step in record.trajectory if isinstance(step, ApiAction)]
        results = {
            step.tool_call_id: step.content
            for step in record.trajectory
            if isinstance(step, TextObservation) and step.source == "tool"
        }
        # A misspelt tool name would leave an 'unknown tool' error where the case meant a real result.
        assert [c.function for c in calls if results[c.tool_call_id].startswith("Error: unknown tool")] == [], case.name
    assert len(ids) == len(module_cases(name))


def test_the_retail_set_is_large_balanced_and_covers_every_kind_both_ways():
    if not written("retail"):
        pytest.skip("bench/labelled/retail.py is not on this branch")
    found = cases("retail")
    labels = Counter(case.label for case in found)
    assert len(found) >= 95
    assert labels["right"] * 2 >= len(found)
    both = {kind for kind in KINDS if {c.label for c in found if c.kind == kind} == {"right", "wrong"}}
    assert sorted(set(KINDS) - both) == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_fresh_set_is_its_size_half_right_and_covers_every_kind_both_ways(domain):
    found = module_cases(f"{domain}_fresh")
    assert len(found) == FRESH_SIZE
    assert Counter(case.label for case in found)["right"] * 2 >= len(found)
    both = {kind for kind in KINDS if {c.label for c in found if c.kind == kind} == {"right", "wrong"}}
    assert sorted(set(KINDS) - both) == []
    assert len({case.task for case in found}) >= 12


@pytest.mark.parametrize("domain", DOMAINS)
def test_fresh_tasks_are_new_and_drawn_from_seeds_no_earlier_set_uses(domain):
    frozen = frozen_tasks(domain)
    fresh = {case.task for case in module_cases(f"{domain}_fresh")}
    assert sorted(name for name in fresh if not name.startswith("fresh_")) == []
    assert {json.dumps(frozen[name]["env_params"]) for name in fresh} == {json.dumps({"users": 500})}
    assert {frozen[name]["seed"] for name in fresh} <= FRESH_DB_SEEDS[domain]
    assert {frozen[name]["task"]["metadata"]["seed"] for name in fresh} <= FRESH_SYNTHESIS_SEEDS
    earlier = {
        case.task
        for of, module in MODULES
        if of == domain and module != f"{domain}_fresh"
        for case in module_cases(module)
    }
    assert sorted(earlier & fresh) == []
    assert {frozen[name]["task"]["metadata"]["seed"] for name in earlier} & FRESH_SYNTHESIS_SEEDS == set()


def test_building_the_set_loads_no_verifier_module():
    domains = [domain for domain in DOMAINS if written(domain)]
    if not domains:
        pytest.skip("no case module is on this branch")
    code = (
        "import sys\n"
        "from labelled.cases import records\n"
        f"records({tuple(domains)!r})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'verifiers'))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "bench"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
