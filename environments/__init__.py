"""Executable environments (E): stateful tool worlds and a code sandbox, one protocol (base.py); a record's E to a
live environment (from_record.py) and back (to_record.py)."""
