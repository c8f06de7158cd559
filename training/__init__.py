"""SFT and RL stages (TRL), chat rendering with tools, evaluation (pass^k) and exports for other trainers."""
