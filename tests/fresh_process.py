"""Fresh Python processes for the tests: a script run twice in a row (the second loads numba's
cache), and the ``plies`` command as a user runs it.

A cached kernel that calls a recursive cached kernel crashed only when loaded from the cache
(DESIGN.md), so every engine keeps a test that runs its search twice this way.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


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


def run_plies(
    args: list[str], stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess:
    """``python -m plies.cli *args`` in a new interpreter with this checkout's ``src`` first on
    the path, ``stdin`` as its input; the finished process (text output captured)."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "plies.cli", *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, env=env,
    )  # fmt: skip
