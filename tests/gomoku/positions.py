"""Test helpers: build a Board from an ASCII diagram, and compare a Board with the oracle.

A diagram is a block of rows, its top-left corner on cell (0, 0) of a 15x15 board (so a stone
in the first column or row touches the edge). ``X`` is black, ``O`` white, ``.`` empty, and a
lowercase letter names an empty cell the test refers to. Spaces between cells are optional.

The stones are put on the board by really playing them (black first, alternating), so the
position is reached through the public API. When one colour has fewer stones than the
alternation needs, the missing moves are "fillers": isolated stones in the far bottom-right
corner, at least three cells from anything in the diagram and never two in a row, so they take
part in no line that matters.
"""

from __future__ import annotations

import textwrap

from plies.gomoku import Board, Move

from . import oracle

BLACK, WHITE = oracle.BLACK, oracle.WHITE

FILLERS = [
    (14, 14), (11, 14), (8, 14), (5, 14), (2, 14),
    (14, 11), (14, 8), (14, 5), (14, 2), (12, 12), (8, 12), (12, 8),
]  # fmt: skip


def parse_diagram(diagram: str) -> tuple[list[Move], list[Move], dict[str, Move]]:
    """Black stones, white stones (both in reading order) and labelled cells of a diagram."""
    rows = ["".join(line.split()) for line in textwrap.dedent(diagram).strip().splitlines()]
    black: list[Move] = []
    white: list[Move] = []
    labels: dict[str, Move] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "X":
                black.append(Move(x, y))
            elif ch == "O":
                white.append(Move(x, y))
            elif ch.islower():
                assert ch not in labels, f"label {ch!r} used twice"
                labels[ch] = Move(x, y)
            else:
                assert ch == ".", f"unexpected {ch!r} in diagram"
    return black, white, labels


def setup(
    diagram: str,
    rule: str,
    *,
    to_move: int = BLACK,
    forbidden: str = "illegal",
) -> tuple[Board, dict[str, Move]]:
    """A 15x15 board showing ``diagram`` with ``to_move`` to play, and its labelled cells."""
    black, white, labels = parse_diagram(diagram)
    used = black + white + list(labels.values())
    free = [
        Move(*f) for f in FILLERS if all(max(abs(f[0] - m.x), abs(f[1] - m.y)) >= 3 for m in used)
    ]
    n_black = max(len(black), len(white) + (1 if to_move == WHITE else 0))
    n_white = n_black - (1 if to_move == WHITE else 0)
    black_fill = n_black - len(black)
    white_fill = n_white - len(white)
    assert black_fill + white_fill <= len(free), "diagram too big for the fillers"
    black = black + free[:black_fill]
    white = white + free[black_fill : black_fill + white_fill]
    moves = [m for pair in zip(black, white, strict=False) for m in pair]
    if len(black) > len(white):
        moves.append(black[-1])
    board = Board(15, rule, forbidden=forbidden)
    board.play_moves(moves)
    assert board.winner == 0, "the diagram already holds a win"
    assert board.to_move == to_move
    return board, labels


def cellset(moves) -> set[tuple[int, int]]:
    return {(m.x, m.y) for m in moves}


def oracle_game(board: Board) -> oracle.Game:
    """The oracle's replay of the board's history under the same rule and options."""
    return oracle.Game.from_moves(
        [(m.x, m.y) for m in board.history],
        board.width,
        board.height,
        board.rule,
        board.forbidden_mode,
    )


def assert_oracle_agrees(board: Board, *, legal_moves: bool = True) -> oracle.Game:
    """The Board and the oracle agree on winner, winning line, forbidden points, legal moves."""
    game = oracle_game(board)
    assert board.winner == game.winner
    assert board.lost_by_forbidden == game.lost_by_forbidden
    assert board.is_over == game.is_over
    if board.winning_line is None:
        assert game.lost_by_forbidden or not game.lines
    else:
        assert cellset(board.winning_line) in [set(line) for line in game.lines]
    if board.rule == "renju":
        assert cellset(board.forbidden_points()) == oracle.forbidden_points(game.pos)
    if legal_moves:
        assert cellset(board.moves()) == game.legal_moves()
    return game
