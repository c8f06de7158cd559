"""llm/: model backends behind one batch interface; synthesis/: verified tasks per environment; rollouts/: agents x
user simulators x environments, verified."""
