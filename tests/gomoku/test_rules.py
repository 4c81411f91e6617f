"""Hand-built positions with known answers, for every rule.

Each test builds a position from an ASCII diagram (see positions.py: ``X`` black, ``O`` white,
``.`` empty, lowercase letters name empty cells; the diagram's top-left is cell (0, 0), so a
stone in the first row or column touches the edge), checks the Board API against the answer
worked out by hand, and checks that the oracle agrees with the Board.
"""

from __future__ import annotations

import pytest

from plies.errors import ForbiddenMove, GameOver
from plies.gomoku import Board, Move

from . import oracle
from .positions import BLACK, WHITE, assert_oracle_agrees, cellset, setup

RULES = oracle.RULES


def play_and_check(board: Board, move: Move, winner: int) -> None:
    """Play ``move``; the winner must be ``winner`` and the oracle must agree."""
    mover = board.to_move
    board.play(move)
    assert board.winner == winner
    if winner:
        assert board.is_over
        assert move in board.winning_line
        assert all(board[m] == mover for m in board.winning_line)
    else:
        assert board.winning_line is None
    assert_oracle_agrees(board)


# --- one line, every rule ------------------------------------------------------------------

# Each pattern is drawn for the side to move as X; ``a`` is the move. Expectations per rule,
# in the order freestyle, standard, renju, caro, caro5: W = the mover wins, - = no win,
# F = black may not play it (Renju forbidden; white plays the same shape and wins).
LINES = [
    (".XXaXX.", "WWWWW", "open five"),
    ("XXaXX.", "WWWWW", "five touching the edge"),
    ("OXXaXX.", "WWWWW", "five, one end blocked"),
    ("XXaXXO", "WWWWW", "five between the edge and an opponent stone: the edge does not block"),
    (".OXXaXXO", "WWW--", "five blocked at both ends"),
    ("O.XXaXXO", "WWWWW", "five with a gap before one blocker"),
    (".XXaXXX.", "W-FW-", "overline of six"),
    ("XXXaXXX", "W-FW-", "overline of seven from the edge"),
    (".OXXaXXXO", "W-F--", "overline blocked at both ends"),
    ("OXXaXXX.", "W-FW-", "overline, one end blocked"),
    (".XXa.X.", "-----", "a four is not a win"),
    (".XaXX..", "-----", "an open four is not a win"),
]

# Where a pattern starts and how it runs: every start is on the edge, so the pattern's first
# cell touches the edge.
DIRECTIONS = {
    "horizontal": ((0, 3), (1, 0)),
    "vertical": ((3, 0), (0, 1)),
    "diagonal": ((0, 0), (1, 1)),
    "anti-diagonal": ((9, 0), (-1, 1)),
}


def line_diagram(pattern: str, direction: str, mover: int) -> str:
    """A 10x10 diagram with ``pattern`` laid along ``direction`` (colours swapped for white)."""
    (x0, y0), (dx, dy) = DIRECTIONS[direction]
    grid = [["."] * 10 for _ in range(10)]
    for i, ch in enumerate(pattern):
        if mover == WHITE:
            ch = {"X": "O", "O": "X"}.get(ch, ch)
        grid[y0 + i * dy][x0 + i * dx] = ch
    return "\n".join(" ".join(row) for row in grid)


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@pytest.mark.parametrize(("pattern", "expected", "what"), LINES, ids=[w for _, _, w in LINES])
@pytest.mark.parametrize("mover", [BLACK, WHITE], ids=["black", "white"])
@pytest.mark.parametrize("rule", RULES)
def test_line_outcomes(rule, mover, pattern, expected, what, direction):
    board, cells = setup(line_diagram(pattern, direction, mover), rule, to_move=mover)
    assert_oracle_agrees(board)
    outcome = expected[RULES.index(rule)]
    a = cells["a"]
    if outcome == "F" and mover == BLACK:
        assert board.is_forbidden(a)
        assert a in board.forbidden_points()
        assert not board.is_legal(a)
        with pytest.raises(ForbiddenMove):
            board.play(a)
        return
    if mover == BLACK:
        assert not board.is_forbidden(a)
    assert board.is_legal(a)
    winner = mover if outcome in "WF" else 0
    play_and_check(board, a, winner)
    if winner:
        # the winning line is the whole run of the mover's stones through the move
        (x0, y0), (dx, dy) = DIRECTIONS[direction]
        i = pattern.index("a")
        left = len(pattern[:i]) - len(pattern[:i].rstrip("X"))
        right = len(pattern[i + 1 :]) - len(pattern[i + 1 :].lstrip("X"))
        run = {(x0 + k * dx, y0 + k * dy) for k in range(i - left, i + right + 1)}
        assert cellset(board.winning_line) == run


def test_freestyle_five_and_six_win_with_the_whole_line():
    board, c = setup(
        """
        . . . . . . . . .
        . X X X X a . . .
        . . . . . . . . .
        . X X X b X X . .
        """,
        "freestyle",
    )
    five = board.copy()
    play_and_check(five, c["a"], BLACK)
    assert sorted(five.winning_line) == [Move(x, 1) for x in range(1, 6)]
    play_and_check(board, c["b"], BLACK)
    assert sorted(board.winning_line) == [Move(x, 3) for x in range(1, 7)]


def test_standard_exactly_five_wins_overline_does_not():
    board, c = setup(
        """
        . . . . . . . . .
        . X X X X a . . .
        . . . . . . . . .
        . X X X b X X . .
        """,
        "standard",
    )
    six = board.copy()
    play_and_check(six, c["b"], 0)
    assert not six.is_over
    play_and_check(board, c["a"], BLACK)
    assert sorted(board.winning_line) == [Move(x, 1) for x in range(1, 6)]


def test_standard_overline_and_five_at_once_wins_with_the_five():
    # a: six in the row, exactly five in the column
    board, c = setup(
        """
        . . . . . . . . .
        . . . X . . . . .
        . . . X . . . . .
        . X X a X X X . .
        . . . X . . . . .
        . . . X . . . . .
        """,
        "standard",
    )
    play_and_check(board, c["a"], BLACK)
    assert sorted(board.winning_line) == [Move(3, y) for y in range(1, 6)]


@pytest.mark.parametrize("rule", RULES)
def test_two_fives_at_once_report_the_first_line(rule):
    # a makes five in the anti-diagonal and in the column; the column comes first in the
    # order horizontal, vertical, diagonal, anti-diagonal
    board, c = setup(
        """
        . . . . . . . . .
        . . . . X . . . X
        . . . . X . . X .
        . . . . X . X . .
        . . . . X X . . .
        . . . . a . . . .
        """,
        rule,
    )
    play_and_check(board, c["a"], BLACK)
    assert board.winning_line == [Move(4, y) for y in range(1, 6)]


# --- Renju ---------------------------------------------------------------------------------


def assert_forbidden(board: Board, move: Move) -> None:
    """Black may not play ``move``: the Board says so everywhere, and refuses it."""
    assert board.rule == "renju" and board.to_move == BLACK
    assert board.is_forbidden(move)
    assert move in board.forbidden_points()
    assert move not in board.moves()
    assert not board.is_legal(move)
    before = (board.hash, len(board))
    with pytest.raises(ForbiddenMove):
        board.play(move)
    assert (board.hash, len(board)) == before
    assert_oracle_agrees(board)


def assert_allowed(board: Board, move: Move) -> None:
    assert not board.is_forbidden(move)
    assert move not in board.forbidden_points()
    assert move in board.moves()
    assert board.is_legal(move)
    assert_oracle_agrees(board)


def test_renju_black_exact_five_wins():
    board, c = setup(". X X a X X .", "renju")
    assert_allowed(board, c["a"])
    play_and_check(board, c["a"], BLACK)


def test_renju_black_overline_is_forbidden_white_overline_wins():
    board, c = setup(". X X a X X X .", "renju")
    assert_forbidden(board, c["a"])
    board, c = setup(". O O a O O O .", "renju", to_move=WHITE)
    play_and_check(board, c["a"], WHITE)
    assert len(board.winning_line) == 6


DOUBLE_FOUR_TWO_LINES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . O X X X a . . .
    . . . . . X . . .
    . . . . . X . . .
    . . . . . X . . .
    . . . . . . . . .
"""


def test_renju_double_four_on_two_lines_is_forbidden():
    board, c = setup(DOUBLE_FOUR_TWO_LINES, "renju")
    assert_forbidden(board, c["a"])


# One line, several fours through the move. ``a`` in the middle group of X.XXX.X makes two
# distinct fours (X.XXX and XXX.X); at an outer stone it makes only one.
ONE_LINE_FOURS = [
    (". X . X a X . X .", True),
    (". X . a X X . X .", True),
    (". X X . a X . X X .", True),
    (". X X X . a . X X X .", True),
    (". a . X X X . X .", False),
    (". X . X X X . a .", False),
    (". X X X a . . . .", False),  # .XXXX. is a single (straight) four
]


@pytest.mark.parametrize(("row", "forbidden"), ONE_LINE_FOURS)
def test_renju_double_four_on_one_line(row, forbidden):
    board, c = setup("\n".join(["."] * 4 + [row]), "renju")
    if forbidden:
        assert_forbidden(board, c["a"])
    else:
        assert_allowed(board, c["a"])
        play_and_check(board, c["a"], 0)


DOUBLE_THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X X a . . . .
    . . . . X . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_renju_double_three_is_forbidden():
    board, c = setup(DOUBLE_THREE, "renju")
    assert_forbidden(board, c["a"])


def test_renju_forbidden_points_only_bind_black():
    board, c = setup(DOUBLE_THREE, "renju", to_move=WHITE)
    # the point is forbidden for black, but white may play there
    assert board.is_forbidden(c["a"])
    assert c["a"] in board.moves()
    play_and_check(board, c["a"], 0)


def test_renju_white_may_make_double_four_and_double_three():
    swap = str.maketrans("XO", "OX")
    for diagram in (DOUBLE_FOUR_TWO_LINES, DOUBLE_THREE):
        board, c = setup(diagram.translate(swap), "renju", to_move=WHITE)
        assert c["a"] in board.moves()
        play_and_check(board, c["a"], 0)


@pytest.mark.parametrize("rule", ["freestyle", "standard", "caro", "caro5"])
def test_no_forbidden_points_outside_renju(rule):
    for diagram in (DOUBLE_THREE, DOUBLE_FOUR_TWO_LINES, ". X X a X X X ."):
        board, c = setup(diagram, rule)
        assert not board.is_forbidden(c["a"])
        assert board.forbidden_points() == []
        assert c["a"] in board.moves()


# What makes a three: each row is laid on row 4 and an open vertical three is added through
# ``a`` (stones right below it). The move is a double three exactly when the row holds a
# three too, that is when one more stone can make a straight four .XXXX. (both ends empty,
# both completions exactly five).
THREES = [
    ("..XXa...", True, "open three"),
    (".XXa....", True, "open three with one cell to the edge"),
    ("XXa.....", False, "the edge blocks it"),
    ("OXXa....", False, "a white stone blocks it"),
    ("O.XXa...", True, "a white stone one cell away does not"),
    ("O.aXX...", True, "the only straight four is three cells to the right of the move"),
    ("..XXa.O.", True, "white on the right: the only straight four is 3 cells left"),
    ("..XXaO..", False, "blocked on the right, XXXX on the left would touch nothing open"),
    (".OXXa.O.", False, "white on both sides"),
    ("..X.Xa..", True, "split three X.XX"),
    ("..XX.a..", True, "split three XX.X"),
    ("..X..Xa.", False, "X..XX is not a three"),
    ("X..XXa..", True, "XXX with a far black stone: .XXXX. on the right side is fine"),
    ("XX.XXa..", False, "XX.XXX: filling the gap overlines, so no straight four"),
    (".a..XXX.", False, "a three elsewhere on the line does not contain the move"),
    ("X.XXa...", False, "X.XXX is a four (four-three is allowed)"),
    ("..XXa.X.", False, "XXX.X is a four (four-three is allowed)"),
]


@pytest.mark.parametrize(("row", "double_three", "what"), THREES, ids=[w for *_, w in THREES])
def test_renju_what_makes_a_three(row, double_three, what):
    ax = row.index("a")
    rows = [["."] * 10 for _ in range(9)]
    rows[4][: len(row)] = list(row)
    rows[5][ax] = rows[6][ax] = "X"
    board, c = setup("\n".join("".join(r) for r in rows), "renju")
    if double_three:
        assert_forbidden(board, c["a"])
    else:
        assert_allowed(board, c["a"])
        play_and_check(board, c["a"], 0)


FOUR_THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . O X X X a . . .
    . . . . . X . . .
    . . . . . X . . .
    . . . . . . . . .
"""


def test_renju_four_three_is_allowed():
    board, c = setup(FOUR_THREE, "renju")
    assert_allowed(board, c["a"])
    play_and_check(board, c["a"], 0)


# A false double three: the row X.XX through ``a`` could only become a straight four at q,
# and q is itself forbidden (q would make the straight four XXXX in the row AND the four
# qXXX in its column: a double four). So the row is not a real three, and ``a`` (with its
# real three in the column) is allowed. Without the stone at the bottom of q's column, q is
# a four-three, allowed, the row is a real three, and ``a`` is a double three.
FALSE_THREE_DOUBLE_FOUR = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . X q X a . . .
    . . . . X . X . . .
    . . . . X . X . . .
    . . . . X . . . . .
"""

# The same with an overline: the column X.XX through ``a`` has its only straight-four point
# at q, where black would make six in the row. Take away the last stone of that row and q
# makes exactly five (allowed), so ``a`` becomes a double three.
FALSE_THREE_OVERLINE = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . X . . .
    . . . X X X q X X .
    . . . . . . X . . .
    . . . . . . a X X .
"""


@pytest.mark.parametrize(
    ("diagram", "why", "remove"),
    [
        (FALSE_THREE_DOUBLE_FOUR, "double-four", Move(4, 9)),
        (FALSE_THREE_OVERLINE, "overline", Move(8, 4)),
    ],
    ids=["q-double-four", "q-overline"],
)
def test_renju_false_double_three_is_allowed(diagram, why, remove):
    board, c = setup(diagram, "renju")
    a, q = c["a"], c["q"]
    assert_allowed(board, a)
    after = board.copy()
    after.play(a)
    after.play(Move(0, 14))  # white passes far away; q is now black's to consider
    assert after.is_forbidden(q)
    pos = oracle.Position(15, 15, {(m.x, m.y): after[m] for m in after.history})
    assert oracle.forbidden_reason(pos, (q.x, q.y)) == why
    play_and_check(board, a, 0)

    # the control: one stone fewer and q is allowed, so a is a real double three
    lines = [list(line.split()) for line in diagram.strip().splitlines()]
    assert lines[remove.y][remove.x] == "X"
    lines[remove.y][remove.x] = "."
    board, c = setup("\n".join(" ".join(r) for r in lines), "renju")
    assert_forbidden(board, c["a"])


# Five beats everything: a move that makes exactly five is never forbidden, even if it makes
# an overline, a double four or a double three at the same time. Each diagram comes with the
# same position minus one stone of the five, where the move is forbidden.
FIVE_AND_OVERLINE = """
    . . . . . . . . .
    . . . . X . . . .
    . . . . X . . . .
    . . . . X . . . .
    . X X X a X . . .
    . . . . X . . . .
    . . . . X . . . .
    . . . . . . . . .
"""
FIVE_AND_DOUBLE_FOUR = """
    . . . . . . . . .
    . . . . X . . . .
    . . . . X . . . .
    . . . . X . . . .
    . X X X a X . . .
    . . . X . . . . .
    . . X . . . . . .
    . X . . . . . . .
    . . . . . . . . .
"""
FIVE_AND_DOUBLE_THREE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . X X X a X . . .
    . . . X X . . . .
    . . X . X . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


@pytest.mark.parametrize(
    "diagram",
    [FIVE_AND_OVERLINE, FIVE_AND_DOUBLE_FOUR, FIVE_AND_DOUBLE_THREE],
    ids=["overline", "double-four", "double-three"],
)
@pytest.mark.parametrize("forbidden", ["illegal", "loses"])
def test_renju_five_beats_forbidden(diagram, forbidden):
    board, c = setup(diagram, "renju", forbidden=forbidden)
    a = c["a"]
    assert_allowed(board, a)
    play_and_check(board, a, BLACK)
    assert not board.lost_by_forbidden
    assert sorted(board.winning_line) == [Move(x, 4) for x in range(1, 6)]

    # without the last stone of the five, the same move is forbidden
    control, c = setup(diagram.replace("a X", "a ."), "renju")
    assert_forbidden(control, c["a"])


@pytest.mark.parametrize(
    "diagram",
    [". X X a X X X .", DOUBLE_FOUR_TWO_LINES, ". X . X a X . X .", DOUBLE_THREE],
    ids=["overline", "double-four", "double-four-one-line", "double-three"],
)
def test_renju_forbidden_illegal_vs_loses(diagram):
    board, c = setup(diagram, "renju", forbidden="illegal")
    assert_forbidden(board, c["a"])

    board, c = setup(diagram, "renju", forbidden="loses")
    a = c["a"]
    assert board.is_forbidden(a)  # still forbidden, but playable
    assert a in board.moves()
    assert board.is_legal(a)
    board.play(a)
    assert board.winner == WHITE
    assert board.lost_by_forbidden
    assert board.winning_line is None
    assert board.is_over
    assert board.moves() == []
    assert_oracle_agrees(board)
    with pytest.raises(GameOver):
        board.play(Move(0, 13))
    board.undo()
    assert (board.winner, board.lost_by_forbidden, board.is_over) == (0, False, False)
    assert_oracle_agrees(board)


# --- Caro ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["caro", "caro5"])
def test_caro_blocked_both_ends_mid_board_does_not_win(rule):
    board, c = setup(". O X X X X a O .", rule)
    play_and_check(board, c["a"], 0)
    # the same shape wins under freestyle
    board, c = setup(". O X X X X a O .", "freestyle")
    play_and_check(board, c["a"], BLACK)


@pytest.mark.parametrize("rule", ["caro", "caro5"])
def test_caro_one_end_blocked_wins(rule):
    board, c = setup(". O X X X X a . .", rule)
    play_and_check(board, c["a"], BLACK)


@pytest.mark.parametrize("rule", ["caro", "caro5"])
def test_caro_edge_does_not_block(rule):
    # the five touches the left edge and has a white stone at the other end
    board, c = setup("X X X X a O . .", rule)
    play_and_check(board, c["a"], BLACK)
    assert sorted(board.winning_line) == [Move(x, 0) for x in range(5)]
    # the same along the top edge, for white
    board, c = setup(
        """
        . . O . .
        . . O . .
        . . O . .
        . . O . .
        . . a . .
        . . X . .
        """,
        rule,
        to_move=WHITE,
    )
    play_and_check(board, c["a"], WHITE)


def test_caro_overline_wins_unless_blocked_at_both_ends():
    board, c = setup(". X X a X X X .", "caro")
    play_and_check(board, c["a"], BLACK)
    assert len(board.winning_line) == 6
    board, c = setup(". O X X a X X X .", "caro")
    play_and_check(board, c["a"], BLACK)
    board, c = setup(". O X X a X X X O", "caro")
    play_and_check(board, c["a"], 0)


def test_caro5_overline_does_not_win():
    for diagram in (". X X a X X X .", ". O X X a X X X .", "X X a X X X . ."):
        board, c = setup(diagram, "caro5")
        play_and_check(board, c["a"], 0)


@pytest.mark.parametrize("rule", ["caro", "caro5"])
def test_caro_blocked_line_and_open_line_at_once_wins(rule):
    # a closes a dead five in the row and an open five in the column
    board, c = setup(
        """
        O X X X X a O . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . X . . .
        """,
        rule,
    )
    play_and_check(board, c["a"], BLACK)
    assert sorted(board.winning_line) == [Move(5, y) for y in range(5)]


@pytest.mark.parametrize("rule", ["caro", "caro5"])
def test_caro_diagonal_blocked_both_ends(rule):
    board, c = setup(
        """
        O . . . . . .
        . X . . . . .
        . . X . . . .
        . . . a . . .
        . . . . X . .
        . . . . . X .
        . . . . . . O
        """,
        rule,
    )
    play_and_check(board, c["a"], 0)


# --- draws ---------------------------------------------------------------------------------

# A full 5x5 board without five in a row anywhere (13 black, 12 white).
DRAWN = [
    "XXOOX",
    "OOXXO",
    "XXOOX",
    "OOXXO",
    "XXOOX",
]


@pytest.mark.parametrize("rule", RULES)
def test_draw_on_a_full_small_board(rule):
    black = [Move(x, y) for y, r in enumerate(DRAWN) for x, ch in enumerate(r) if ch == "X"]
    white = [Move(x, y) for y, r in enumerate(DRAWN) for x, ch in enumerate(r) if ch == "O"]
    moves = [m for pair in zip(black, white, strict=False) for m in pair] + [black[-1]]
    board = Board.from_moves(moves, 5, rule)
    assert board.is_full
    assert board.is_over
    assert board.winner == 0
    assert board.winning_line is None
    assert board.moves() == []
    assert_oracle_agrees(board)
    with pytest.raises(GameOver):
        board.play(Move(0, 0))
    board.undo()
    assert not board.is_over
    assert board.moves() == [black[-1]]


@pytest.mark.parametrize("rule", RULES)
def test_five_fills_a_5x5_row(rule):
    board = Board.from_moves(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2"], 5, rule)
    board.play("e1")
    assert board.winner == BLACK
    assert cellset(board.winning_line) == {(x, 4) for x in range(5)}
    assert_oracle_agrees(board)


def test_shipped_zobrist_keys_are_the_seeded_ones():
    # plies/data/gomoku-zobrist.npy spares every process numpy.random (and OpenSSL's
    # libcrypto, which it imports): its keys must be the ones the seed gives
    import numpy as np

    from plies.gomoku import rules

    assert rules.ZOBRIST.dtype == np.uint64
    assert np.array_equal(rules.ZOBRIST, rules.zobrist_keys())
