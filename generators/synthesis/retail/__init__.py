"""The retail world's goals: reads, writes, order changes, item swaps and refusals, sampled from its database."""
