"""The UCI adapter for chess engines.

Our own small client rather than ``chess.engine``: the arena needs, identically for pbrain and
UCI, its own clock (the time from ``go`` to ``bestmove``), a deadline after which a hung engine
is killed, and the raw last lines of I/O in the record of a failed game. ``chess.engine`` runs
an asyncio loop per engine and turns such failures into exceptions without the transcript.
python-chess still checks every move (see the chess referee).
"""

from __future__ import annotations

import contextlib
import time

from plies.arena.engines.base import EngineFailure, Limits, Reply, mate_score
from plies.arena.engines.external import ExternalPlayer
from plies.arena.game import GameSetup, Referee
from plies.arena.timecontrol import TimeControl


def parse_info_score(tokens: list[str]) -> tuple[int | None, int | None]:
    """``(score, depth)`` from the tokens of an ``info`` line (score in centipawns, a mate in
    N moves as +-(MATE_SCORE - plies)); None where absent or a bound."""
    score = depth = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok == "depth" and i + 1 < len(tokens):
            with contextlib.suppress(ValueError):
                depth = int(tokens[i + 1])
            i += 2
            continue
        if tok == "score" and i + 2 < len(tokens):
            kind, value = tokens[i + 1], tokens[i + 2]
            bound = i + 3 < len(tokens) and tokens[i + 3] in ("lowerbound", "upperbound")
            try:
                n = int(value)
            except ValueError:
                n = None
            if n is not None and not bound:
                if kind == "cp":
                    score = n
                elif kind == "mate":
                    score = mate_score(n)
            i += 3
            continue
        i += 1
    return score, depth


class UciPlayer(ExternalPlayer):
    """A UCI engine run as a process; ``options`` are sent as ``setoption`` at start-up."""

    games = frozenset({"chess"})
    engine_name: str | None = None  # from the engine's ``id name`` line

    def _wait_for(self, word: str) -> None:
        proc = self._running()
        deadline = time.monotonic() + self.start_timeout
        while True:
            line = proc.readline(deadline).strip()
            if line == word:
                return
            if line.startswith("id name "):
                self.engine_name = line[8:].strip()

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        if self._stopped:
            proc = self._restart()
            proc.send("uci")
            self._wait_for("uciok")
            for key, value in self.options.items():
                proc.send(f"setoption name {key} value {value}")
        proc = self._running()
        proc.send("ucinewgame")
        proc.send("isready")
        self._wait_for("readyok")

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        proc = self._running()
        start = f"fen {referee.start_fen}" if referee.start_fen else "startpos"
        moves = " ".join(referee.moves)
        proc.send(f"position {start}" + (f" moves {moves}" if moves else ""))
        proc.send("go " + _go_arguments(referee.to_move(), limits))
        score = depth = None
        while True:
            line = proc.readline(deadline)
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "info":
                s, d = parse_info_score(tokens[1:])
                if s is not None:
                    score, depth = s, d if d is not None else depth
                elif d is not None and score is None:
                    depth = d
            elif tokens[0] == "bestmove":
                if len(tokens) < 2:
                    raise EngineFailure(
                        "protocol", f"{self.name} sent bestmove without a move", self.last_output()
                    )
                return Reply(tokens[1], score, depth)


def _go_arguments(side: int, limits: Limits) -> str:
    """The ``go`` arguments: clocks (``wtime btime winc binc movestogo``) and limits."""
    parts: list[str] = []
    if limits.time_left is not None:
        mine, theirs = limits.time_left, limits.opponent_time or limits.time_left
        white, black = (mine, theirs) if side == 0 else (theirs, mine)
        winc, binc = (
            (limits.increment, limits.opponent_increment)
            if side == 0
            else (limits.opponent_increment, limits.increment)
        )
        parts += [f"wtime {int(white * 1000)}", f"btime {int(black * 1000)}"]
        if winc or binc:
            parts += [f"winc {int(winc * 1000)}", f"binc {int(binc * 1000)}"]
        if limits.moves_to_go:
            parts.append(f"movestogo {limits.moves_to_go}")
    if limits.movetime is not None:
        parts.append(f"movetime {max(1, int(limits.movetime * 1000))}")
    if limits.nodes is not None:
        parts.append(f"nodes {limits.nodes}")
    if limits.depth is not None:
        parts.append(f"depth {limits.depth}")
    return " ".join(parts) or "infinite"
