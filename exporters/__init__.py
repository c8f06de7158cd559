"""Exporters: record datasets written for other tools (the Hugging Face Hub, trainers, ATIF), one module per target."""
