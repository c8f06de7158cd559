"""Verifier stages by name: a chain, a config or a plug-in names a stage instead of importing its class.

``VERIFIERS`` is the verifier registry (runtime/plugins.py). A stage is a
``RecordVerifier`` subclass whose ``name`` is its registry name and which
takes no constructor arguments: what it needs (environment, model) it declares
and reads from the CheckContext (verifiers/base.py). Built-ins are imported on
first use; an installed package adds stages through the ``aceforge.verifiers``
entry points.
"""

from __future__ import annotations

from runtime.plugins import Registry, named_subclass
from verifiers.base import RecordVerifier

VERIFIERS: Registry[type[RecordVerifier]] = Registry(
    "verifiers",
    "verifier",
    {
        "structure": "verifiers.structure:StructureVerifier",
        "replay": "verifiers.replay:ReplayVerifier",
        "final_state": "verifiers.final_state:FinalStateVerifier",
        "constraints": "verifiers.constraints:ConstraintsVerifier",
        "grounding": "verifiers.grounding:GroundingVerifier",
        "statements": "verifiers.statements:StatementsVerifier",
        "policy": "verifiers.policy:PolicyVerifier",
        "unit_tests": "verifiers.unit_tests:UnitTestVerifier",
        "answer_match": "verifiers.answer_match:AnswerMatchVerifier",
        "llm_judge": "verifiers.llm_judge:LLMJudge",
    },
    check=named_subclass(RecordVerifier),
)


def make_verifier(name: str) -> RecordVerifier:
    """A fresh stage by name; UnknownPluginError (a KeyError) lists the known ones."""
    return VERIFIERS.get(name)()
