"""What the arena knows about a game, independent of the game: setup, openings, outcomes, and
the referee protocol that the Gomoku and chess referees implement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

GAMES = ("gomoku", "chess", "dots")


@dataclass(frozen=True)
class GameSetup:
    """The game every match game is played in: ``gomoku`` (with rule, board size and opening
    rule: ``free``, ``pro``, ``long-pro``), ``chess``, or ``dots`` (``height`` x ``width``
    boxes)."""

    game: str = "gomoku"
    rule: str = "freestyle"
    width: int = 15
    height: int = 15
    opening: str = "free"

    def describe(self) -> str:
        if self.game == "gomoku":
            size = f"{self.width}" if self.width == self.height else f"{self.width}x{self.height}"
            rule = self.rule if self.opening == "free" else f"{self.rule} ({self.opening} opening)"
            return f"gomoku {rule} {size}"
        if self.game == "dots":
            return f"dots {self.height}x{self.width}"
        return self.game


@dataclass(frozen=True)
class Opening:
    """A start position: moves in the game's protocol notation (Gomoku ``x,y``, chess UCI)
    played from the initial position or from ``fen`` (chess); ``name`` says where it came
    from (``renju26:5``, ``openings.txt:12``)."""

    moves: tuple[str, ...] = ()
    fen: str | None = None
    name: str = "start"


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is the colour index (0 = the side that moves first in the
    game: Gomoku black, chess white; 1 = the other) or None for a draw; ``reason`` is a short
    text such as ``five in a row``, ``checkmate``, ``time forfeit``, ``illegal move 7,7``."""

    winner: int | None
    reason: str

    def result_text(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` from the first colour's view (PGN style)."""
        return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[self.winner]


class Referee(Protocol):
    """Holds the position of one game, checks and plays moves and says when the game is over.

    Moves travel as protocol text: Gomoku ``x,y`` (pbrain, 0-based, row from the top) and chess
    UCI (``e2e4``). ``board`` is the game library's own position object (a plies
    :class:`~plies.gomoku.Board` or a :class:`chess.Board`) for in-process engines.
    """

    setup: GameSetup
    start_fen: str | None
    moves: list[str]
    opening_length: int

    @property
    def board(self) -> Any: ...

    def to_move(self) -> int:
        """The colour index to move: 0 (Gomoku black, chess white) or 1."""
        ...

    def legal_moves(self) -> list[str]: ...

    def play(self, text: str) -> str:
        """Play a move given as text; return it in canonical form. Raises InvalidMove."""
        ...

    def outcome(self) -> Outcome | None:
        """The outcome once the game is over by the rules, else None."""
        ...

    def colour_name(self, index: int) -> str: ...
