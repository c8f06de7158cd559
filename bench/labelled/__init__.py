"""Trajectories labelled by hand, to measure the verifier chain by (bench/verifier_quality.py, part g).

Each case is a task (frozen here: the instruction, gold actions, goals and constraints as synthesis made them),
a script of a conversation (user turns, agent messages, tool calls whose results the live world answers), the
label a person gave it by reading the instruction and the policy (``right``: a careful grader passes it;
``wrong``: it fails), the kind of case, and a one-line rationale. Nothing here imports verifiers/: the labels
do not come from the chain's rules.
"""
