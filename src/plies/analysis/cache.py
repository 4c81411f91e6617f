"""The review cache: finished position analyses in an embedded SQLite database.

Keys are strings the game adapter builds from the position (hash including the side to
move), the rule, the board size, the budget and the analysis version; values are JSON. The
database lives in ``$PLIES_CACHE_DIR`` (else ``$XDG_CACHE_HOME/plies``, else
``~/.cache/plies``) as ``review-cache.sqlite``.

A key names a budget, not a result: with a time budget the same position may come back
deeper or shallower. :meth:`ReviewCache.put` therefore never replaces a stored analysis by a
shallower one: a new value replaces the old only when it is proven (``terminal``, or
``facts["proven"]``) and the old is not, or when it searched deeper (``depth``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

CACHE_FILE = "review-cache.sqlite"


def cache_dir() -> Path:
    """The user cache directory of plies."""
    custom = os.environ.get("PLIES_CACHE_DIR")
    if custom:
        return Path(custom)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "plies"


def rank(value: dict[str, Any]) -> tuple[int, int]:
    """How good a stored analysis is: (proven, depth)."""
    facts = value.get("facts") or {}
    proven = value.get("terminal") is not None or bool(facts.get("proven"))
    return int(proven), int(value.get("depth") or 0)


class ReviewCache:
    """``get(key) -> dict | None`` and ``put(key, value)`` over SQLite (safe to share between
    processes; each write is its own transaction)."""

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = Path(path) if path is not None else cache_dir() / CACHE_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS positions "
            "(key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)"
        )
        self._db.commit()
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT value FROM positions WHERE key = ?", (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(row[0])

    def put(self, key: str, value: dict[str, Any]) -> dict[str, Any]:
        """Store ``value`` under ``key`` unless the stored value is better (proven, or deeper:
        :func:`rank`); returns the value the cache holds afterwards."""
        row = self._db.execute("SELECT value FROM positions WHERE key = ?", (key,)).fetchone()
        if row is not None:
            old = json.loads(row[0])
            if rank(old) >= rank(value):
                return old
        self._db.execute(
            "INSERT OR REPLACE INTO positions (key, value, created) VALUES (?, ?, ?)",
            (key, json.dumps(value, separators=(",", ":")), time.time()),
        )
        self._db.commit()
        return value

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM positions").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ReviewCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
