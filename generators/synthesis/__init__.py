"""Synthesis of verified tasks in the tool worlds (retail, airline).

- constraint-first tasks (synthesizer.py): goals sampled from real DB rows
  (retail/tasks.py, airline/tasks.py), identifiers fuzzified into what a user
  knows and checked to resolve uniquely (fuzzify.py), a user scenario
  (scenarios.py), and a programmatic gold solution that must pass the
  verifier chain (gold_solver.py);
- backward construction (backward.py): random exploration, constraints from
  the state diff, kept only when replaying τ passes them;
- complexity evolution (evolve.py): verified tasks composed into harder ones.

Every output is an AgentRecord; records.py builds the task shape that
rollouts, curation and training consume.
"""
