"""Code tasks proposed by a model, kept only when the sandbox agrees."""
