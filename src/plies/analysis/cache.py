"""The review cache: finished position analyses in an embedded SQLite database.

Keys are strings the game adapter builds from the position (hash including the side to
move), the rule, the board size, the budget and the analysis version; values are JSON. The
database lives in ``$PLIES_CACHE_DIR`` (else ``$XDG_CACHE_HOME/plies``, else
``~/.cache/plies``) as ``review-cache.sqlite``.
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

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO positions (key, value, created) VALUES (?, ?, ?)",
            (key, json.dumps(value, separators=(",", ":")), time.time()),
        )
        self._db.commit()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM positions").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ReviewCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
