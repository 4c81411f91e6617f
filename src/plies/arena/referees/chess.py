"""The chess referee: python-chess's board judges moves, mates and the draw rules."""

from __future__ import annotations

import chess

from plies.arena.game import GameSetup, Opening, Outcome
from plies.arena.referees.base import BoardReferee
from plies.errors import InvalidMove, InvalidOption

_TERMINATIONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "50-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}


class ChessReferee(BoardReferee[chess.Board]):
    """Plays UCI moves (``e2e4``, ``e7e8q``) from the opening's FEN (or the start position).
    Draws by the 50-move rule and threefold repetition are adjudicated at once, as
    cutechess does."""

    COLOURS = ("white", "black")

    def _new_board(self, setup: GameSetup, opening: Opening) -> chess.Board:
        try:
            board = chess.Board(opening.fen) if opening.fen else chess.Board()
        except ValueError as exc:
            raise InvalidOption(f"opening {opening.name}: bad FEN: {exc}") from None
        if not board.is_valid():
            raise InvalidOption(f"opening {opening.name}: the FEN is not a legal position")
        self.start_fen = board.fen() if opening.fen else None
        return board

    def to_move(self) -> int:
        return 0 if self._board.turn == chess.WHITE else 1

    def legal_moves(self) -> list[str]:
        return [m.uci() for m in self._board.legal_moves]

    def play(self, text: str) -> str:
        text = text.strip()
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            try:
                move = self._board.parse_san(text)
            except ValueError:
                raise InvalidMove(f"cannot read move {text!r}") from None
        if move not in self._board.legal_moves:
            raise InvalidMove(f"move {text} is illegal in {self._board.fen()}")
        self._board.push(move)
        self.moves.append(move.uci())
        return move.uci()

    def outcome(self) -> Outcome | None:
        result = self._board.outcome(claim_draw=True)
        if result is None:
            return None
        winner = None if result.winner is None else (0 if result.winner == chess.WHITE else 1)
        return Outcome(winner, _TERMINATIONS.get(result.termination, result.termination.name))
