"""Referees: one per game, each holding a game's position and judging its moves."""

from __future__ import annotations

from plies.arena.game import GameSetup, Opening, Referee
from plies.errors import InvalidOption


def make_referee(setup: GameSetup, opening: Opening) -> Referee:
    """A referee for ``setup`` with ``opening`` already played (InvalidOption if it cannot be)."""
    if setup.game == "gomoku":
        from plies.arena.referees.gomoku import GomokuReferee

        return GomokuReferee(setup, opening)
    if setup.game == "chess":
        from plies.arena.referees.chess import ChessReferee

        return ChessReferee(setup, opening)
    if setup.game == "dots":
        from plies.arena.referees.dots import DotsReferee

        return DotsReferee(setup, opening)
    raise InvalidOption(f"unknown game {setup.game!r}: expected gomoku, chess or dots")
