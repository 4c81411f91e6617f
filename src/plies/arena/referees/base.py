"""What every referee does the same way: play the opening through its own ``play``, refuse an
opening that cannot be played or already ends the game, and name the colours."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from plies.arena.game import GameSetup, Opening, Outcome
from plies.errors import InvalidMove, InvalidOption

BoardT = TypeVar("BoardT")


class BoardReferee(ABC, Generic[BoardT]):
    """A referee over a game library's position object (``board``). Subclasses build it in
    :meth:`_new_board` and implement ``to_move``, ``legal_moves``, ``play`` and ``outcome``
    (the :class:`~plies.arena.game.Referee` protocol); ``COLOURS`` names colours 0 and 1."""

    COLOURS: tuple[str, str] = ("first", "second")
    start_fen: str | None = None

    def __init__(self, setup: GameSetup, opening: Opening) -> None:
        self.setup = setup
        self._board = self._new_board(setup, opening)
        self.moves: list[str] = []
        for text in opening.moves:
            try:
                self.play(text)
            except InvalidMove as exc:
                raise InvalidOption(f"opening {opening.name}: {exc}") from None
        if self.outcome() is not None:
            raise InvalidOption(f"opening {opening.name} already ends the game")
        self.opening_length = len(self.moves)

    @abstractmethod
    def _new_board(self, setup: GameSetup, opening: Opening) -> BoardT:
        """The start position (InvalidOption if ``opening`` cannot give one)."""

    @property
    def board(self) -> BoardT:
        return self._board

    @abstractmethod
    def to_move(self) -> int:
        """The colour index to move: 0 or 1."""

    @abstractmethod
    def legal_moves(self) -> list[str]:
        """The legal moves as protocol text."""

    @abstractmethod
    def play(self, text: str) -> str:
        """Play a move given as text; return it in canonical form. Raises InvalidMove."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over by the rules, else None."""

    def colour_name(self, index: int) -> str:
        return self.COLOURS[index]
