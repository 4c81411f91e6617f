"""The Gomoku-family referee: a plies Board that judges wins, full boards and Renju fouls."""

from __future__ import annotations

from plies.arena.game import GameSetup, Opening, Outcome
from plies.arena.referees.base import BoardReferee
from plies.gomoku.board import Board


class GomokuReferee(BoardReferee[Board]):
    """Plays moves given as ``x,y`` (or ``h8``) on a :class:`Board`; black's forbidden moves
    under Renju lose the game (they are played, then judged); a move that breaks the opening
    rule is illegal (it loses as any illegal move does)."""

    COLOURS = ("black", "white")

    def _new_board(self, setup: GameSetup, opening: Opening) -> Board:
        return Board(
            width=setup.width,
            height=setup.height,
            rule=setup.rule,
            forbidden="loses",
            opening=setup.opening,
        )

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
