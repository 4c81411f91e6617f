"""Helpers for the fake engines in tests/arena/engines."""

import sys
from pathlib import Path

ENGINES = Path(__file__).parent / "engines"


def fake_cmd(script: str, mode: str) -> str:
    """An engine spec's cmd= for one of the fake engines."""
    return f"cmd='{sys.executable} {ENGINES / script} {mode}'"


def pbrain(mode: str, name: str | None = None, extra: str = "") -> str:
    """The spec of a fake pbrain brain in ``mode``."""
    spec = f"{fake_cmd('fake_pbrain.py', mode)} proto=pbrain name={name or mode}"
    return spec + (" " + extra if extra else "")
