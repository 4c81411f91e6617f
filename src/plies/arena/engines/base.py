"""The player interface every engine adapter implements, and what a move request carries."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from plies.arena.game import GameSetup, Referee
from plies.arena.timecontrol import TimeControl

MATE_SCORE = 100_000  # a reported win (mate) is +-(MATE_SCORE - plies) in centi-units


def mate_score(moves: int) -> int:
    """A mate in ``moves`` moves (negative: the side to move is mated) as a score:
    +-(MATE_SCORE - plies), the mating side's move last."""
    plies = 2 * moves - 1 if moves > 0 else -2 * moves
    return MATE_SCORE - plies if moves > 0 else -(MATE_SCORE - plies)


@dataclass(frozen=True)
class Limits:
    """What an engine may spend on one move: its clock (``time_left``, ``opponent_time``,
    ``increment``, ``moves_to_go``, seconds), a fixed ``movetime`` and, for engines that
    support them, ``depth`` and ``nodes``."""

    time_left: float | None = None
    opponent_time: float | None = None
    increment: float = 0.0
    opponent_increment: float = 0.0
    moves_to_go: int | None = None
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class Reply:
    """An engine's answer: the move as it printed it, and its score (centi-units, side to
    move's view; wins as +-(MATE_SCORE - plies)) and depth when it reported them."""

    move: str
    score: int | None = None
    depth: int | None = None

    def comment(self) -> str:
        """``+0.35/12`` as cutechess writes it in PGN comments (``+M5`` for a mate)."""
        if self.score is None:
            return ""
        if abs(self.score) >= MATE_SCORE - 1000:
            plies = MATE_SCORE - abs(self.score)
            text = f"{'+' if self.score > 0 else '-'}M{(plies + 1) // 2}"
        else:
            text = f"{self.score / 100:+.2f}"
        return text + (f"/{self.depth}" if self.depth is not None else "")


class EngineFailure(Exception):
    """An engine that could not produce a move: ``kind`` is ``crash``, ``timeout``,
    ``protocol`` (garbage output, refused command) or ``start`` (could not be started).
    ``output`` holds its last lines of I/O for the game record."""

    def __init__(self, kind: str, message: str, output: list[str] | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.output = list(output or [])


class Player(ABC):
    """An engine seat in the arena. One player plays many games in a row; the arena calls
    :meth:`new_game` before each, :meth:`think` for each move, and :meth:`close` at the end.
    After an :class:`EngineFailure` the arena closes the player and starts a fresh one."""

    name: str = "engine"
    games: frozenset[str] = frozenset()

    @abstractmethod
    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        """Get ready for a new game (raises EngineFailure or InvalidOption)."""

    @abstractmethod
    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        """The move for the side to move. ``deadline`` (``time.monotonic()`` seconds) is when
        the arena stops waiting; an adapter that cannot stop the engine raises
        ``EngineFailure("timeout")`` then."""

    def prepare_move(self) -> None:  # noqa: B027 - optional hook
        """Called before the clock of this player's move starts: work that must not count on
        it (a test harness finishing its exchange with the engine between moves)."""

    def last_output(self) -> list[str]:
        """The engine's last lines of I/O (for the record of a failed game)."""
        return []

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the engine (stop its process)."""
