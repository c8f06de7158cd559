"""SFT and RL stages and trainer exports (later issues)."""
