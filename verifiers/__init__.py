"""Checks that fill v.result: structure, replay, constraints, unit tests, answer match, and an optional LLM judge.

``verify_record(record, env_factory, model)`` runs a record's chain (verifiers/runner.py);
``apply_verification(record, ...)`` returns the record with v.result filled.
"""

from verifiers.runner import apply_verification, is_verifiable, plan, verify_record

__all__ = ["apply_verification", "is_verifiable", "plan", "verify_record"]
