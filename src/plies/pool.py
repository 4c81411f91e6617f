"""What every worker process of a pool does first: leave Ctrl-C to the parent, which stops the
work, keeps what is finished and shuts the pool down (a worker that took the interrupt itself
would die mid-task with a traceback, or break the pipe its result was travelling on)."""

from __future__ import annotations

import signal


def ignore_interrupt() -> None:
    """Ignore SIGINT in this (worker) process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
