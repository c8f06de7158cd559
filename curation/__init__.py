"""ACE scoring, dedup and selection (later issues)."""
