"""The airline world's goals: facts, reads, writes and refusals, sampled from its database."""
