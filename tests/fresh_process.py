"""Run a script in two fresh Python processes in a row (the second loads numba's cache).

A cached kernel that calls a recursive cached kernel crashed only when loaded from the cache
(DESIGN.md), so every engine keeps a test that runs its search twice this way.
"""

from __future__ import annotations

import subprocess
import sys


def run_twice(script: str, timeout: float = 600) -> list[str]:
    """The standard output of ``script`` run twice, each time in a new interpreter; fails the
    test with the end of stderr if either run fails."""
    outputs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        outputs.append(proc.stdout)
    return outputs
