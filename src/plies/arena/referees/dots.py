"""The Dots and Boxes referee: a plies.dots Board judges lines, extra turns and the score.

Moves travel as ``h<row>,<col>`` / ``v<row>,<col>`` (dot coordinates, see docs/dots.md).
The game ends when every line is drawn; the side with more boxes wins (equal: a draw).
"""

from __future__ import annotations

from plies.arena.game import GameSetup, Opening, Outcome
from plies.arena.referees.base import BoardReferee
from plies.dots.rules import Board


class DotsReferee(BoardReferee[Board]):
    """``setup.height`` x ``setup.width`` boxes; colour 0 (``A``) moves first."""

    COLOURS = ("A", "B")

    def _new_board(self, setup: GameSetup, opening: Opening) -> Board:
        return Board(setup.height, setup.width)

    def to_move(self) -> int:
        return self._board.to_move

    def legal_moves(self) -> list[str]:
        return [self._board.move_text(line) for line in self._board.moves()]

    def play(self, text: str) -> str:
        line = self._board.to_line(text.strip())
        self._board.play(line)
        canonical = self._board.move_text(line)
        self.moves.append(canonical)
        return canonical

    def outcome(self) -> Outcome | None:
        b = self._board
        if not b.is_over:
            return None
        a, c = b.scores
        winner = 0 if a > c else (1 if c > a else None)
        return Outcome(winner, f"boxes {a}-{c}")


def dots_record_text(result, event: str) -> str:
    """A finished game in the plies Dots record format (docs/dots.md): ``Key: value`` header
    lines, a blank line, then one line per move (``h0,1``), the mover's letter, and a ``#``
    comment with the move's time; opening moves are marked ``book``."""
    setup = result.job.setup
    first, second = result.names
    lines = [
        "Game: dots",
        f"Size: {setup.height}x{setup.width}",
        f"Event: {event}",
        f"A: {first}",
        f"B: {second}",
        f"Result: {result.outcome.result_text()}",
        f"Termination: {result.outcome.reason}",
    ]
    if result.failure is not None:
        lines.append(f"Failure: {' '.join(result.failure.message.split())}")
    lines.append("")
    board = Board(setup.height, setup.width)
    for i, move in enumerate(result.moves):
        mover = "AB"[board.to_move]
        board.play(move)
        if i < result.opening_length:
            note = "book"
        else:
            k = i - result.opening_length
            note = f"{result.times_ms[k]} ms" if k < len(result.times_ms) else ""
        lines.append(f"{mover} {move}" + (f"  # {note}" if note else ""))
    return "\n".join(lines) + "\n"


def load_dots_record(text: str) -> tuple[tuple[int, int], list[str]]:
    """The size (rows, cols) and moves of a record written by :func:`dots_record_text` (or any
    text whose non-header lines hold moves, optionally after the mover's letter)."""
    from plies.dots.rules import parse_size

    size = (3, 3)
    moves: list[str] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if colon:
            if key.strip().lower() == "size":
                size = parse_size(value)
            continue
        parts = line.split()
        if parts[0] in ("A", "B"):
            parts = parts[1:]
        moves.extend(parts)
    return size, moves
