"""bench/labelled: the frame of each domain's hand-labelled set, and the retail set's size and balance.

A domain whose case module is not written yet (the sets land on separate branches) is skipped. Nothing here
imports verifiers/: the labels must not come from the chain they measure.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections import Counter

import pytest
from labelled.cases import DOMAINS, KINDS, cases, frozen_tasks, record_of

from schemas.steps import ApiAction, TextObservation
from tests.conftest import ROOT

MAX_RATIONALE = 200


def written(domain: str) -> bool:
    return importlib.util.find_spec(f"labelled.{domain}") is not None


@pytest.fixture(params=DOMAINS)
def domain(request) -> str:
    if not written(request.param):
        pytest.skip(f"bench/labelled/{request.param}.py is not on this branch")
    return request.param


def test_case_names_are_unique(domain):
    names = [case.name for case in cases(domain)]
    assert sorted(name for name, count in Counter(names).items() if count > 1) == []


def test_kinds_and_labels_are_known(domain):
    assert {case.kind for case in cases(domain)} <= set(KINDS)
    assert {case.label for case in cases(domain)} <= {"right", "wrong"}


def test_every_rationale_is_one_short_line(domain):
    bad = [case.name for case in cases(domain) if not 0 < len(case.rationale) <= MAX_RATIONALE]
    bad += [case.name for case in cases(domain) if "\n" in case.rationale]
    assert bad == []


def test_every_task_a_case_uses_is_frozen(domain):
    frozen = frozen_tasks(domain)
    assert sorted({case.task for case in cases(domain)} - set(frozen)) == []


def test_every_case_builds_into_a_record_with_real_tool_results(domain):
    frozen = frozen_tasks(domain)
    ids = set()
    for case in cases(domain):
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
    assert len(ids) == len(cases(domain))


def test_the_retail_set_is_large_balanced_and_covers_every_kind_both_ways():
    if not written("retail"):
        pytest.skip("bench/labelled/retail.py is not on this branch")
    found = cases("retail")
    labels = Counter(case.label for case in found)
    assert len(found) >= 95
    assert labels["right"] * 2 >= len(found)
    both = {kind for kind in KINDS if {c.label for c in found if c.kind == kind} == {"right", "wrong"}}
    assert sorted(set(KINDS) - both) == []


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
