"""Executable environments (E): stateful tool worlds and a code sandbox, one protocol (base.py)."""
