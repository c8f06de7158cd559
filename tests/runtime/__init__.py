"""Tests of runtime/."""
