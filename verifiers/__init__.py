"""Deterministic checks that fill v.result: structure, replay, constraints, unit tests, answer match."""
