"""Deterministic checks that fill v.result: structure, replay, constraints, unit tests, answer match.

``verify_record(record)`` runs a record's chain (verifiers/runner.py);
``apply_verification(record)`` returns the record with v.result filled.
"""

from verifiers.runner import apply_verification, is_verifiable, plan, verify_record

__all__ = ["apply_verification", "is_verifiable", "plan", "verify_record"]
