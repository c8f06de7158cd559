"""A free TCP port on the loopback interface, for the servers aceforge starts (vLLM, a Ray dashboard)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the server that takes it binds a moment later)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
