"""The job store: review jobs and their results in one SQLite file, with the review's position
cache (:class:`plies.analysis.cache.ReviewCache`, table ``positions``) in the same file.

The database runs in WAL mode: readers (the HTTP handlers, each thread with its own
connection) never wait for the writer. Every write, the job table's and the position cache's,
happens under one lock (:attr:`JobStore.write_lock`): one writer at a time, so no write ever
meets SQLITE_BUSY. A job's state moves ``queued -> running -> done | failed``; a job left
``running`` by a server that died is queued again when the next one opens the store
(:meth:`JobStore.recover`), and its finished positions come back from the cache.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from plies.analysis.cache import ReviewCache

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    kind TEXT NOT NULL,
    request TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    review TEXT,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, created);
CREATE TABLE IF NOT EXISTS job_matches (
    match_id TEXT NOT NULL,
    job_id TEXT NOT NULL,
    PRIMARY KEY (match_id, job_id)
);
"""
ACTIVE = ("queued", "running")


class QueueFull(Exception):
    """The queue holds its maximum of unfinished jobs (HTTP 429)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the review queue is full; retry in {retry_after} s")
        self.retry_after = retry_after


class LockedCache:
    """The review cache behind the store's write lock (``get``/``put`` as
    :class:`ReviewCache`), counting hits and misses. Build it in the thread that uses it."""

    def __init__(self, path: Path, lock: threading.RLock) -> None:
        self._cache = ReviewCache(path)
        self._lock = lock

    @property
    def hits(self) -> int:
        return self._cache.hits

    @property
    def misses(self) -> int:
        return self._cache.misses

    def get(self, key: str) -> dict[str, Any] | None:
        return self._cache.get(key)

    def put(self, key: str, value: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            return self._cache.put(key, value)

    def close(self) -> None:
        self._cache.close()


class JobStore:
    """Jobs in SQLite (``path``; created with its folder if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.write_lock = threading.RLock()
        self._local = threading.local()
        self._writer = self._connect()
        with self.write_lock:
            self._writer.execute("PRAGMA journal_mode=WAL")
            self._writer.executescript(SCHEMA)
            self._writer.commit()
        ReviewCache(self.path).close()  # the positions table, created now

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _reader(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._connect()
        return db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self.write_lock:
            try:
                yield self._writer
                self._writer.commit()
            except BaseException:
                self._writer.rollback()
                raise

    def cache(self) -> LockedCache:
        """A position cache on this file, sharing the write lock (one per thread)."""
        return LockedCache(self.path, self.write_lock)

    # --- writes ------------------------------------------------------------------------------
    def submit(
        self,
        job_id: str,
        kind: str,
        request: dict[str, Any],
        total: int,
        match_id: str | None = None,
        max_active: int | None = None,
        retry_after: int = 5,
    ) -> tuple[dict[str, Any], bool]:
        """Queue a job unless the same one exists (then return it: ``(job, False)``); a
        failed job is queued again. Raises :class:`QueueFull` when ``max_active`` jobs are
        queued or running."""
        with self._write() as db:
            row = db.execute("SELECT status FROM jobs WHERE id = ?", (job_id,)).fetchone()
            created = row is None or row["status"] == "failed"
            if created:
                if max_active is not None:
                    active = db.execute(
                        "SELECT COUNT(*) FROM jobs WHERE status IN (?, ?)", ACTIVE
                    ).fetchone()[0]
                    if active >= max_active:
                        raise QueueFull(retry_after)
                db.execute(
                    "INSERT OR REPLACE INTO jobs (id, status, kind, request, done, total, "
                    "created) VALUES (?, 'queued', ?, ?, 0, ?, ?)",
                    (job_id, kind, json.dumps(request), total, time.time()),
                )
            if match_id:
                db.execute(
                    "INSERT OR IGNORE INTO job_matches (match_id, job_id) VALUES (?, ?)",
                    (match_id, job_id),
                )
        job = self.get(job_id)
        assert job is not None
        return job, created

    def claim(self) -> dict[str, Any] | None:
        """The oldest queued job, now marked running (None if none is queued)."""
        with self._write() as db:
            row = db.execute(
                "SELECT id FROM jobs WHERE status = 'queued' ORDER BY created, id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE jobs SET status = 'running', started = ?, attempts = attempts + 1 "
                "WHERE id = ?",
                (time.time(), row["id"]),
            )
        return self.get(row["id"], with_request=True)

    def progress(self, job_id: str, done: int, total: int) -> None:
        with self._write() as db:
            db.execute("UPDATE jobs SET done = ?, total = ? WHERE id = ?", (done, total, job_id))

    def finish(self, job_id: str, review: dict[str, Any]) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE jobs SET status = 'done', review = ?, finished = ?, done = total, "
                "error = NULL WHERE id = ?",
                (json.dumps(review, ensure_ascii=False), time.time(), job_id),
            )

    def fail(self, job_id: str, message: str) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE jobs SET status = 'failed', error = ?, finished = ? WHERE id = ?",
                (message, time.time(), job_id),
            )

    def recover(self) -> int:
        """Queue again the jobs a stopped server left running; how many."""
        with self._write() as db:
            return db.execute("UPDATE jobs SET status = 'queued' WHERE status = 'running'").rowcount

    # --- reads -------------------------------------------------------------------------------
    def get(self, job_id: str, *, with_request: bool = False) -> dict[str, Any] | None:
        """The job as the API shows it (the review parsed), or None."""
        row = self._reader().execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None else _job(row, with_request)

    def status(self, job_id: str) -> tuple[str, int, int, str | None] | None:
        """``(status, done, total, error)`` without the review (for progress streams)."""
        row = (
            self._reader()
            .execute("SELECT status, done, total, error FROM jobs WHERE id = ?", (job_id,))
            .fetchone()
        )
        return None if row is None else (row[0], row[1], row[2], row[3])

    def review(self, job_id: str) -> dict[str, Any] | None:
        row = self._reader().execute("SELECT review FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return None if row is None or row[0] is None else json.loads(row[0])

    def by_match(self, match_id: str) -> list[dict[str, Any]]:
        rows = (
            self._reader()
            .execute(
                "SELECT j.* FROM jobs j JOIN job_matches m ON m.job_id = j.id "
                "WHERE m.match_id = ? ORDER BY j.created",
                (match_id,),
            )
            .fetchall()
        )
        return [_job(r, False, summary_only=True) for r in rows]

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = (
            self._reader()
            .execute("SELECT * FROM jobs ORDER BY created DESC LIMIT ?", (limit,))
            .fetchall()
        )
        return [_job(r, False, summary_only=True) for r in rows]

    def counts(self) -> dict[str, int]:
        rows = self._reader().execute("SELECT status, COUNT(*) FROM jobs GROUP BY status")
        counts = dict.fromkeys(("queued", "running", "done", "failed"), 0)
        counts.update({status: n for status, n in rows})
        return counts

    def close(self) -> None:
        self._writer.close()


def _job(row: sqlite3.Row, with_request: bool, summary_only: bool = False) -> dict[str, Any]:
    job: dict[str, Any] = {
        "id": row["id"],
        "status": row["status"],
        "kind": row["kind"],
        "progress": {"done": row["done"], "total": row["total"]},
        "created": row["created"],
        "started": row["started"],
        "finished": row["finished"],
        "attempts": row["attempts"],
    }
    if row["error"]:
        job["error"] = row["error"]
    if row["review"] is not None:
        review = json.loads(row["review"])
        job["summary"] = review.get("summary")
        if not summary_only:
            job["review"] = review
    if with_request:
        job["request"] = json.loads(row["request"])
    return job
