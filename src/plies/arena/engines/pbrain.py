"""The pbrain (Gomocup / Piskvork protocol) adapter for Gomoku-family brains.

Per game: ``START N`` (``RECTSTART W,H`` for rectangular boards) the first time and
``RESTART`` afterwards, each answered by ``OK``; ``INFO`` lines for the time control, memory,
game type and rule; then ``BEGIN`` on an empty board, ``BOARD``...``DONE`` to set up an opening
(field 1 = the brain's stones, 2 = the opponent's) and ``TURN x,y`` for each opponent move. The
brain answers a move as ``x,y``; ``MESSAGE``, ``DEBUG`` and ``SUGGEST`` lines are allowed
before it, ``UNKNOWN`` and ``ERROR`` lines and anything else are protocol failures.

One exception, for fairness to brains with a known quirk: a brain may drop a command that
arrives while its search thread is still winding down after it answered (Rapfi replies
``ERROR Unknown command: x,y`` to a ``TURN`` sent within a millisecond of its move). The first
``ERROR`` in answer to a move request is therefore taken as "not received": the request is sent
once more (counted in :attr:`PbrainPlayer.replays`); a second ``ERROR`` is a protocol failure.
"""

from __future__ import annotations

import re
import time

from plies.arena.engines.base import EngineFailure, Limits, Reply
from plies.arena.engines.external import ExternalPlayer
from plies.arena.game import GameSetup, Referee
from plies.arena.timecontrol import TimeControl
from plies.gomoku.opening_rule import default_opening

# pbrain INFO rule codes: bit 0 exactly five, bit 2 Renju, bit 3 Caro
RULE_CODES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8, "caro5": 9}
_MOVE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_CHATTER = ("MESSAGE", "DEBUG", "SUGGEST")


class PbrainPlayer(ExternalPlayer):
    """A pbrain brain run as a process. ``options`` become ``INFO key value`` lines sent before
    every game (``option.max_node=100000`` sends ``INFO max_node 100000``)."""

    games = frozenset({"gomoku"})
    QUIT = "END"

    def __init__(
        self,
        argv: list[str],
        name: str,
        cwd: str | None = None,
        options: dict[str, str] | None = None,
        max_memory: int = 0,
        start_timeout: float = 30.0,
    ) -> None:
        super().__init__(argv, name, cwd, options, start_timeout)
        self.max_memory = max_memory
        self._size: tuple[int, int] | None = None
        self._synced: list[str] = []
        self._tc = TimeControl()
        self.replays = 0  # move requests sent twice because the brain answered ERROR

    def _expect_ok(self, command: str) -> None:
        proc = self._running()
        proc.send(command)
        deadline = time.monotonic() + self.start_timeout
        while True:
            line = proc.readline(deadline)
            word = line.strip().split(" ", 1)[0].upper()
            if word == "OK":
                return
            if word in _CHATTER:
                continue
            raise EngineFailure(
                "protocol",
                f"{self.name} answered {line.strip()!r} to {command}",
                self.last_output(),
            )

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        size = (setup.width, setup.height)
        if self._stopped or self._size != size:
            self._restart()
            w, h = size
            self._expect_ok(f"START {w}" if w == h else f"RECTSTART {w},{h}")
            self._size = size
        else:
            self._expect_ok("RESTART")
        self._tc = tc
        proc = self._running()
        turn = tc.movetime if tc.movetime is not None else (tc.base or 0.0) + tc.increment
        proc.send(f"INFO timeout_turn {int(turn * 1000)}")
        proc.send(f"INFO timeout_match {int((tc.base or 0.0) * 1000)}")
        proc.send(f"INFO max_memory {self.max_memory}")
        proc.send("INFO game_type 1")
        proc.send(f"INFO rule {RULE_CODES[setup.rule]}")
        if setup.opening != default_opening(setup.rule):
            proc.send(f"INFO opening {setup.opening}")  # plies' brain; others ignore it
        for key, value in self.options.items():
            proc.send(f"INFO {key} {value}")
        self._synced = []

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        proc = self._running()
        if limits.time_left is not None:
            proc.send(f"INFO time_left {max(0, int(limits.time_left * 1000))}")
            if self._tc.movetime is None:
                proc.send(f"INFO timeout_turn {max(1, int(limits.time_left * 1000))}")
        moves = referee.moves
        request = self._request(moves)
        for line in request:
            proc.send(line)
        replayed = False
        while True:
            line = proc.readline(deadline)
            m = _MOVE.match(line)
            if m:
                self._synced = [*moves, f"{int(m.group(1))},{int(m.group(2))}"]
                return Reply(f"{int(m.group(1))},{int(m.group(2))}")
            word = line.strip().split(" ", 1)[0].upper()
            if word in _CHATTER or not line.strip():
                continue
            if word == "ERROR" and not replayed:
                replayed = True
                self.replays += 1
                for again in request:
                    proc.send(again)
                continue
            raise EngineFailure(
                "protocol",
                f"{self.name} sent {line.strip()[:80]!r} instead of a move",
                self.last_output(),
            )

    def _request(self, moves: list[str]) -> list[str]:
        """The lines that ask for a move after ``moves``: ``BEGIN``, one ``TURN`` when the
        brain knows all but the last move, else the whole position in a ``BOARD`` block."""
        known = len(self._synced)
        if not moves:
            return ["BEGIN"]
        if known and known == len(moves) - 1 and moves[:known] == self._synced:
            return [f"TURN {moves[-1]}"]
        me = len(moves) % 2  # parity of the side to move
        block = [f"{move},{1 if i % 2 == me else 2}" for i, move in enumerate(moves)]
        return ["BOARD", *block, "DONE"]
