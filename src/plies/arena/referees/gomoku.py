"""The Gomoku-family referee: a plies Board that judges wins, full boards and Renju fouls."""

from __future__ import annotations

from plies.arena.game import GameSetup, Opening, Outcome
from plies.errors import InvalidMove, InvalidOption
from plies.gomoku.board import Board


class GomokuReferee:
    """Plays moves given as ``x,y`` (or ``h8``) on a :class:`Board`; black's forbidden moves
    under Renju lose the game (they are played, then judged)."""

    start_fen = None

    def __init__(self, setup: GameSetup, opening: Opening) -> None:
        self.setup = setup
        self._board = Board(
            width=setup.width, height=setup.height, rule=setup.rule, forbidden="loses"
        )
        self.moves: list[str] = []
        for text in opening.moves:
            try:
                self.play(text)
            except InvalidMove as exc:
                raise InvalidOption(f"opening {opening.name}: {exc}") from None
        if self._board.is_over:
            raise InvalidOption(f"opening {opening.name} already ends the game")
        self.opening_length = len(self.moves)

    @property
    def board(self) -> Board:
        return self._board

    def to_move(self) -> int:
        return self._board.to_move - 1

    def legal_moves(self) -> list[str]:
        return [m.pbrain() for m in self._board.moves()]

    def play(self, text: str) -> str:
        move = self._board.play(text.strip())
        self.moves.append(move.pbrain())
        return move.pbrain()

    def outcome(self) -> Outcome | None:
        b = self._board
        if b.lost_by_forbidden:
            last = b.last_move
            where = f" {last.pbrain()}" if last else ""
            return Outcome(1, f"forbidden move{where} by black")
        if b.winner:
            line = b.winning_line or []
            return Outcome(b.winner - 1, "five in a row" if len(line) == 5 else "line of five")
        if b.is_full:
            return Outcome(None, "board full")
        if b.black_is_stuck:
            return Outcome(None, "board full (only forbidden points left for black)")
        return None

    def colour_name(self, index: int) -> str:
        return ("black", "white")[index]
