"""A text-protocol engine process: line I/O with deadlines, a transcript, clean shutdown."""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time

from plies.arena.engines.base import EngineFailure

TRANSCRIPT_LINES = 40


class EngineProcess:
    """Runs ``argv`` with pipes; a reader thread queues stdout lines so that reads can wait
    with a deadline. Every line sent (``> ``), received (``< ``) or written on stderr (``! ``)
    is kept in a short transcript for error reports. The process gets its own session, so
    Ctrl-C in the terminal reaches the arena, not the engine."""

    def __init__(self, argv: list[str], cwd: str | None = None, name: str = "engine") -> None:
        self.name = name
        self.transcript: collections.deque[str] = collections.deque(maxlen=TRANSCRIPT_LINES)
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self.proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineFailure("start", f"cannot start {name}: {exc.strerror or exc}") from None
        self._pumps = [
            threading.Thread(target=self._pump_stdout, daemon=True),
            threading.Thread(target=self._pump_stderr, daemon=True),
        ]
        for pump in self._pumps:
            pump.start()

    def _pump_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.transcript.append("! " + line.rstrip("\r\n"))

    def output(self) -> list[str]:
        return list(self.transcript)

    def send(self, line: str) -> None:
        """Write one line; a dead engine is an ``EngineFailure("crash")``."""
        self.transcript.append("> " + line)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crashed() from None

    def readline(self, deadline: float | None) -> str:
        """The next line, waiting until ``deadline`` (monotonic seconds; None: forever)."""
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineFailure(
                "timeout", f"{self.name} did not answer in time", self.output()
            ) from None
        if line is None:
            self._lines.put(None)  # stay at end of file for later reads
            raise self._crashed()
        self.transcript.append("< " + line)
        return line

    def _crashed(self) -> EngineFailure:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        time.sleep(0.05)  # let the stderr pump catch the last words
        how = f"exit code {code}" if code is not None else "closed its output"
        return EngineFailure("crash", f"{self.name} crashed ({how})", self.output())

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, quit_line: str | None = None, grace: float = 1.0) -> None:
        """Ask the engine to quit, then kill its process group if it does not in ``grace`` s."""
        if self.alive and quit_line is not None:
            with contextlib.suppress(EngineFailure):
                self.send(quit_line)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace if quit_line is not None else 0.0)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
            self.proc.wait()
        for pump in self._pumps:
            pump.join(timeout=1.0)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
