"""A tiny pbrain manager for the tests: runs ``pbrain-plies`` as a subprocess, as Piskvork or
c-gomoku-cli would (``python -m plies.gomoku.pbrain`` with this checkout's ``src`` first on
PYTHONPATH, so the tests run from a worktree or an installed package alike)."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import plies

SRC = str(Path(plies.__file__).resolve().parents[1])
CHATTER = ("MESSAGE", "DEBUG", "SUGGEST")


def brain_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


class BrainProcess:
    """One brain process with a reader thread: ``send`` lines, ``reply`` reads the next
    non-chatter line (keeping the chatter in ``chatter``) with a timeout."""

    def __init__(self, argv: list[str] | None = None, **env: str) -> None:
        self.proc = subprocess.Popen(
            argv or [sys.executable, "-m", "plies.gomoku.pbrain"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=brain_env(**env),
            bufsize=0,
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.chatter: list[str] = []
        self.transcript: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, *lines: str) -> float:
        """Send lines (CR LF, as Piskvork does); return the time the last one was written."""
        assert self.proc.stdin is not None
        data = "".join(line + "\r\n" for line in lines).encode()
        self.transcript.extend("> " + line for line in lines)
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        return time.perf_counter()

    def reply(self, timeout: float = 30.0) -> tuple[float, str]:
        """The next line that is not MESSAGE/DEBUG/SUGGEST, with its arrival time."""
        end = time.perf_counter() + timeout
        while True:
            left = end - time.perf_counter()
            try:
                when, line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                raise AssertionError(
                    f"no reply within {timeout:.1f}s; transcript:\n{self.tail()}"
                ) from None
            if line is None:
                raise AssertionError("the brain exited; transcript:\n" + self.tail())
            self.transcript.append("< " + line)
            if line.split(" ", 1)[0].upper() in CHATTER:
                self.chatter.append(line)
                continue
            return when, line

    def ask(self, *lines: str, timeout: float = 30.0) -> str:
        self.send(*lines)
        return self.reply(timeout)[1]

    def move(self, *lines: str, timeout: float = 30.0) -> tuple[int, int]:
        line = self.ask(*lines, timeout=timeout)
        parts = line.split(",")
        ok = len(parts) == 2 and not line.startswith(("ERROR", "UNKNOWN"))
        assert ok, f"expected a move, got {line!r}\n{self.tail()}"
        return int(parts[0]), int(parts[1])

    def silent(self, wait: float = 0.2) -> list[str]:
        """Lines (other than chatter) that arrive within ``wait`` seconds."""
        time.sleep(wait)
        out = []
        while not self.lines.empty():
            _, line = self.lines.get()
            if line is not None and line.split(" ", 1)[0].upper() not in CHATTER:
                out.append(line)
        return out

    def tail(self, n: int = 40) -> str:
        return "\n".join(self.transcript[-n:])

    def close(self) -> int | None:
        if self.proc.poll() is None:
            try:
                self.send("END")
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def peak_rss(self) -> int:
        """The process's peak resident set size in bytes (Linux)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        raise AssertionError("no VmHWM")
