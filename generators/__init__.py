"""LLM backends behind one batch interface, task synthesizers and agent rollouts."""
