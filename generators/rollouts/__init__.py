"""Rollouts: agent policy x user simulator x environment, k per task, each verified.

- conversation.py: one rollout in progress (τ, turns, budgets, end reason codes);
- actors.py: the agent-policy and user-simulator registries; oracle.py, perturbed.py,
  llm_agent.py (agents); scripted_user.py, llm_user.py (users); scenario.py (q's scenario);
- scheduler.py: asynchronous multi-turn batching (one backend call per step for every
  waiting conversation), or one conversation at a time;
- records.py: a finished conversation as a verified AgentRecord; runner.py: the whole run;
"""
