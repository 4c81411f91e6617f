"""What the pbrain and UCI adapters share: an engine run as a process, started for a game
when there is none (or it died) and asked to quit when the player closes."""

from __future__ import annotations

from plies.arena.engines.base import EngineFailure, Player
from plies.arena.engines.process import EngineProcess


class ExternalPlayer(Player):
    """A text-protocol engine: ``argv`` run in ``cwd``, protocol ``options``, and
    ``start_timeout`` seconds for start-up answers. ``QUIT`` is the protocol's last line."""

    QUIT = "quit"

    def __init__(
        self,
        argv: list[str],
        name: str,
        cwd: str | None = None,
        options: dict[str, str] | None = None,
        start_timeout: float = 30.0,
    ) -> None:
        self.argv = argv
        self.name = name
        self.cwd = cwd
        self.options = dict(options or {})
        self.start_timeout = start_timeout
        self._proc: EngineProcess | None = None

    @property
    def _stopped(self) -> bool:
        """No process, or it has exited."""
        return self._proc is None or not self._proc.alive

    def _restart(self) -> EngineProcess:
        """Close the process (if any) and start a new one."""
        if self._proc is not None:
            self._proc.close(self.QUIT)
        self._proc = EngineProcess(self.argv, self.cwd, self.name)
        return self._proc

    def _running(self) -> EngineProcess:
        """The process, or ``EngineFailure("start")`` before :meth:`new_game` started it."""
        if self._proc is None:
            raise EngineFailure("start", f"{self.name} was not started")
        return self._proc

    def last_output(self) -> list[str]:
        return self._proc.output() if self._proc is not None else []

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close(self.QUIT)
            self._proc = None
