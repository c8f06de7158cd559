"""SFT and RL stages (TRL), chat rendering with tools, evaluation (pass^k), verl's reward for exported tasks."""
