"""Small helpers shared by the stand-in's tests."""

from __future__ import annotations

import re
import socket


def exactly(text: str) -> re.Pattern[str]:
    """Match a PTB error message exactly but case-insensitively.

    PTB strips "Bad Request: " and capitalises the rest, so only the case may differ.
    """
    return re.compile("^" + re.escape(text) + "$", re.IGNORECASE)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
