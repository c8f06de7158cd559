"""The runtime: the Ray engine, the plug-in registry, settings (data home), ports, disk space, elapsed time."""
