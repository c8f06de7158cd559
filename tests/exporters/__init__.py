"""Tests of exporters/."""
