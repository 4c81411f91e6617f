"""The Board API, its errors and the move notations."""

from __future__ import annotations

import numpy as np
import pytest

from plies.errors import ForbiddenMove, GameOver, InvalidMove, InvalidOption, PliesError
from plies.gomoku import Board, Move, parse_move, parse_moves

from .positions import BLACK, WHITE, setup

# --- playing -------------------------------------------------------------------------------


def test_new_board():
    board = Board()
    assert (board.width, board.height, board.size, board.rule) == (15, 15, 15, "freestyle")
    assert board.forbidden_mode == "illegal"
    assert board.history == [] and len(board) == 0 and board.last_move is None
    assert board.to_move == BLACK
    assert board.hash == 0 == board.recompute_hash()
    assert board.winner == 0 and not board.is_over and board.winning_line is None
    assert len(board.moves()) == 225
    assert board.to_array().shape == (15, 15) and not board.to_array().any()


def test_play_history_to_move_and_cells():
    board = Board()
    assert board.play("h8") == Move(7, 7)
    assert board.to_move == WHITE
    assert board.play((7, 6)) == Move(7, 6)
    assert board.play(Move(8, 8)) == Move(8, 8)
    assert board.play("9,9") == Move(9, 9)
    assert board.history == [Move(7, 7), Move(7, 6), Move(8, 8), Move(9, 9)]
    assert board.last_move == Move(9, 9)
    assert board.to_move == BLACK
    assert board["h8"] == BLACK and board[(7, 6)] == WHITE and board[Move(0, 0)] == 0
    grid = board.to_array()
    assert grid[7, 7] == BLACK and grid[6, 7] == WHITE and grid[8, 8] == BLACK  # [y, x]
    assert len(board.moves()) == 225 - 4
    assert Move(7, 7) not in board.moves()
    # the returned history is a copy
    board.history.append(Move(0, 0))
    assert len(board) == 4


def test_undo():
    board = Board.from_moves(["h8", "h9", "i9"], rule="standard")
    cells, h = board.cells.copy(), board.hash
    board.play("j10")
    assert board.undo() == Move(9, 5)
    assert np.array_equal(board.cells, cells)
    assert board.hash == h
    assert board.to_move == WHITE
    for _ in range(3):
        board.undo()
    assert board.hash == 0 and len(board) == 0
    with pytest.raises(InvalidMove, match="no move"):
        board.undo()


def test_undo_after_a_win_reopens_the_game():
    board = Board.from_moves(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"])
    assert board.winner == BLACK and board.is_over
    assert board.winning_line == [Move(x, 14) for x in range(5)]
    assert board.undo() == Move(4, 14)
    assert board.winner == 0 and board.winning_line is None and not board.is_over
    assert board.is_legal("e1")


def test_copy_is_independent():
    board = Board.from_moves(["h8", "h9"], rule="renju")
    other = board.copy()
    other.play("i9")
    assert len(board) == 2 and len(other) == 3
    assert board["i9"] == 0 and other["i9"] == BLACK
    assert board.hash != other.hash
    assert other.rule == "renju"
    board.undo()
    assert other.history[:2] == [Move(7, 7), Move(7, 6)]


def test_from_moves_mixes_notations():
    a = Board.from_moves(["h8", (7, 6), Move(8, 8), "9,9"], 15, "caro")
    b = Board(15, "caro")
    for m in [Move(7, 7), Move(7, 6), Move(8, 8), Move(9, 9)]:
        b.play(m)
    assert a.history == b.history and a.hash == b.hash
    assert np.array_equal(a.cells, b.cells)


def test_is_legal():
    board = Board.from_moves(["h8"])
    assert board.is_legal("h9")
    assert not board.is_legal("h8")  # occupied
    assert not board.is_legal((15, 0))  # off the board
    assert not board.is_legal("nonsense")


def test_moves_after_the_end_is_empty():
    board = Board.from_moves(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"])
    assert board.moves() == []
    assert not board.is_legal("o15")


def test_moves_are_the_empty_cells_row_by_row():
    board = Board.from_moves(["a5", "b5"], 5)
    assert board.moves() == [Move(x, y) for y in range(5) for x in range(5) if y or x > 1]


def test_hash_depends_on_the_position_not_the_order():
    a = Board.from_moves(["h8", "h9", "i9", "i10"])
    b = Board.from_moves(["i9", "i10", "h8", "h9"])
    c = Board.from_moves(["h9", "h8", "i10", "i9"])  # same cells, colours swapped
    assert a.hash == b.hash == a.recompute_hash()
    assert a.hash != c.hash
    assert a.hash != Board.from_moves(["h8", "h9", "i9"]).hash
    # the keys are fixed: the same position hashes the same in every process
    assert Board.from_moves(["h8"]).hash == Board.from_moves(["h8"], rule="renju").hash != 0


def test_to_text():
    board = Board.from_moves(["h8", "h9"])
    text = board.to_text()
    lines = text.splitlines()
    assert len(lines) == 17
    assert lines[0].split() == list("abcdefghijklmno") == lines[-1].split()
    assert lines[1].startswith("15") and lines[1].endswith("15")
    assert lines[15].startswith(" 1") and lines[15].endswith("1")
    row8 = lines[1 + 15 - 8]
    row9 = lines[1 + 15 - 9]
    assert row8.split()[8] == "X" and row9.split()[8] == "[O]"  # last move bracketed
    assert str(board) == text
    plain = board.to_text(labels=False).splitlines()
    assert len(plain) == 15 and "a" not in board.to_text(labels=False)
    assert repr(board) == "Board(width=15, height=15, rule='freestyle', moves=2)"


def test_to_text_marks_forbidden_points():
    board, c = setup(
        """
        . . . . . .
        . . . . . .
        . X X a . .
        . . . X . .
        . . . X . .
        """,
        "renju",
    )
    text = board.to_text(forbidden=True, labels=False).splitlines()
    stars = {
        Move(x, y) for y, line in enumerate(text) for x, ch in enumerate(line.split()) if ch == "*"
    }
    assert c["a"] in stars
    assert stars == set(board.forbidden_points())
    assert "*" not in board.to_text()


def test_rectangular_board():
    board = Board(width=9, height=6, rule="freestyle")
    assert (board.width, board.height) == (9, 6)
    assert board.to_array().shape == (6, 9)
    assert len(board.moves()) == 54
    board.play((8, 5))
    assert board["i1"] == BLACK
    with pytest.raises(InvalidMove):
        board.play((5, 8))
    text = board.to_text().splitlines()
    assert len(text) == 8 and text[0].split() == list("abcdefghi")
    # a vertical five needs the 6 rows: play one in column a
    board = Board.from_moves(
        ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"], width=9, height=6
    )
    assert board.winner == BLACK
    assert board.winning_line == [Move(0, y) for y in range(1, 6)]


# --- errors --------------------------------------------------------------------------------


def one_line(exc: pytest.ExceptionInfo) -> str:
    message = str(exc.value)
    assert message and "\n" not in message
    assert isinstance(exc.value, PliesError)
    return message


def test_occupied_cell():
    board = Board.from_moves(["h8"])
    with pytest.raises(InvalidMove) as exc:
        board.play("h8")
    assert type(exc.value) is InvalidMove
    assert "occupied" in one_line(exc) and "7,7" in one_line(exc)
    assert len(board) == 1


@pytest.mark.parametrize("move", [(15, 0), (0, 15), (-1, 3), "p1", "a16", "16,0", "0,-1"])
def test_off_board(move):
    board = Board()
    with pytest.raises(InvalidMove) as exc:
        board.play(move)
    assert type(exc.value) is InvalidMove
    assert "off the 15x15 board" in one_line(exc)
    assert len(board) == 0


def test_move_after_the_end():
    board = Board.from_moves(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"])
    with pytest.raises(GameOver) as exc:
        board.play("o15")
    assert "ended" in one_line(exc)


@pytest.mark.parametrize("text", ["", "zz", "hello", "8h", "7;7", "h", "1,2,3", "7.5,3"])
def test_unparsable(text):
    with pytest.raises(InvalidMove) as exc:
        Board().play(text)
    assert type(exc.value) is InvalidMove
    assert "cannot read" in one_line(exc)
    with pytest.raises(InvalidMove):
        parse_move(text)


def test_unreadable_move_object():
    with pytest.raises(InvalidMove) as exc:
        Board().play(3.5)
    one_line(exc)


def test_play_moves_names_the_bad_move():
    board = Board()
    with pytest.raises(InvalidMove) as exc:
        board.play_moves(["h8", "h9", "h8"])
    assert type(exc.value) is InvalidMove
    assert one_line(exc).startswith("move 3:")
    with pytest.raises(GameOver) as exc:
        Board.from_moves(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2"])
    assert one_line(exc).startswith("move 10:")


def test_forbidden_move_error():
    board, c = setup(". X X a X X X .", "renju")
    with pytest.raises(ForbiddenMove) as exc:
        board.play(c["a"])
    assert "forbidden" in one_line(exc)
    assert one_line(exc).endswith("is forbidden for black (overline)")
    assert isinstance(exc.value, InvalidMove)


FORBIDDEN_KINDS = [
    (". X X a X X X .", "overline"),
    (". X . X a X . X .", "double four"),  # X.XXX.X: two fours on one line
    (". O X X X a . .\n. . . . . X\n. . . . . X\n. . . . . X", "double four"),
    (". . X X a . . .\n. . . . X\n. . . . X", "double three"),
    (". X X a X X .", None),  # exactly five: allowed
    (". . X X a . . .", None),  # a single three
]


@pytest.mark.parametrize(("diagram", "reason"), FORBIDDEN_KINDS)
def test_forbidden_reason_names_the_rule(diagram, reason):
    diagram = "\n".join(["."] * 4) + "\n" + diagram  # room above the shapes
    board, c = setup(diagram, "renju")
    assert board.forbidden_reason(c["a"]) == reason
    assert board.is_forbidden(c["a"]) == (reason is not None)
    assert board.history == setup(diagram, "renju")[0].history  # the probe leaves no stone
    for rule in ("freestyle", "standard", "caro"):
        assert setup(diagram, rule)[0].forbidden_reason(c["a"]) is None


def test_forbidden_loss_keeps_the_reason():
    board, c = setup(". X X a X X X .", "renju", forbidden="loses")
    assert board.forbidden_loss_reason is None
    board.play(c["a"])
    assert board.lost_by_forbidden and board.forbidden_loss_reason == "overline"
    board.undo()
    assert board.forbidden_loss_reason is None


@pytest.mark.parametrize("rule", ["gomoku", "", "renju2", "Caro6", 5, -1])
def test_unknown_rule(rule):
    with pytest.raises(InvalidOption) as exc:
        Board(15, rule)
    assert "unknown rule" in one_line(exc)


def test_rule_names_and_codes():
    for code, name in enumerate(["freestyle", "standard", "renju", "caro", "caro5"]):
        assert Board(15, name).rule == name == Board(15, code).rule == Board(15, name.upper()).rule


@pytest.mark.parametrize(
    "kwargs",
    [
        {"size": 4},
        {"size": 23},
        {"size": 0},
        {"width": 30, "height": 15},
        {"width": 9, "height": 4},
    ],
)
def test_unsupported_size(kwargs):
    with pytest.raises(InvalidOption) as exc:
        Board(**kwargs)
    assert "unsupported board size" in one_line(exc)


@pytest.mark.parametrize("size", [5, 22])
def test_supported_extremes(size):
    assert len(Board(size).moves()) == size * size


def test_bad_forbidden_option():
    with pytest.raises(InvalidOption) as exc:
        Board(15, "renju", forbidden="maybe")
    one_line(exc)


# --- notation ------------------------------------------------------------------------------


def test_h8_is_7_7_the_centre():
    assert parse_move("h8") == parse_move("7,7") == Move(7, 7)
    assert parse_move("H8") == parse_move(" 7 , 7 ") == parse_move("(7,7)") == Move(7, 7)
    board = Board()
    assert board.parse("h8") == board.parse("7,7") == board.parse((7, 7)) == Move(7, 7)
    assert Move(7, 7).algebraic(15) == "h8" and Move(7, 7).pbrain() == "7,7"
    assert str(Move(7, 7)) == "7,7"


def test_corners():
    assert parse_move("a1") == Move(0, 14)
    assert parse_move("a15") == Move(0, 0)
    assert parse_move("o1") == Move(14, 14)
    assert parse_move("v22", 22) == Move(21, 0)
    assert parse_move("a1", 22) == Move(0, 21)
    with pytest.raises(InvalidMove):
        parse_move("w1", 22)
    with pytest.raises(InvalidMove):
        parse_move("v23", 22)
    assert Board(22).parse("v22") == Move(21, 0)


def test_letter_i_is_a_real_column():
    assert parse_move("i8") == Move(8, 7)
    assert parse_move("j8") == Move(9, 7)
    assert Move(8, 0).algebraic(15) == "i15"
    board = Board.from_moves(["i8"])
    assert board[Move(8, 7)] == BLACK


@pytest.mark.parametrize(("width", "height"), [(15, 15), (22, 22), (9, 6), (6, 9), (5, 5)])
def test_algebraic_round_trip(width, height):
    for y in range(height):
        for x in range(width):
            m = Move(x, y)
            assert parse_move(m.algebraic(height), width, height) == m
            assert parse_move(m.pbrain(), width, height) == m


def test_rectangular_notation():
    # 9 columns (a..i), 6 rows (1..6 from the bottom)
    assert parse_move("i6", 9, 6) == Move(8, 0)
    assert parse_move("a1", 9, 6) == Move(0, 5)
    assert parse_move("8,5", 9, 6) == Move(8, 5)
    for bad in ("j1", "a7", "5,8", "9,0"):
        with pytest.raises(InvalidMove):
            parse_move(bad, 9, 6)
    board = Board(width=6, height=9)
    assert board.parse("f9") == Move(5, 0)
    assert board.parse("a1") == Move(0, 8)
    assert not board.is_legal("g1")


def test_parse_moves():
    expected = [Move(7, 7), Move(7, 6), Move(8, 5)]
    assert parse_moves("h8 h9 i10") == parse_moves("7,7 7,6 8,5") == expected
    assert parse_moves("h8;h9\n i10 ") == parse_moves("h8 h9 i10")
    assert parse_moves("") == []


def _renju_board_with_one_gap() -> Board:
    """A 7x7 Renju board filled by ``put`` except d7, where black would make an overline
    (X X X . X X X); the rest alternates in 2x1 blocks, so nobody has five."""
    b = Board(size=7, rule="renju")
    for y in range(7):
        for x in range(7):
            if y == 0:
                if x != 3:
                    b.put((x, y), 1)
                continue
            b.put((x, y), 1 if ((x + 2 * y) // 2) % 2 == 0 else 2)
    return b


def test_renju_black_with_only_forbidden_cells_is_a_draw():
    b = _renju_board_with_one_gap()
    assert b.is_forbidden((3, 0))
    assert b.black_is_stuck and b.is_over and b.winner == 0
    assert b.moves() == []
    # the same board under freestyle: black simply plays the last cell
    free = Board(size=7, rule="freestyle")
    for y in range(7):
        for x in range(7):
            if b.cells[b._pos(Move(x, y))] in (1, 2):
                free.put((x, y), int(b.cells[b._pos(Move(x, y))]))
    assert not free.black_is_stuck and not free.is_over


def test_renju_black_not_stuck_while_one_cell_is_playable():
    b = Board(size=7, rule="renju")
    for y in range(7):
        for x in range(7):
            if y == 0 or (x, y) == (0, 6):
                if y == 0 and x != 3:
                    b.put((x, y), 1)
                continue
            b.put((x, y), 1 if ((x + 2 * y) // 2) % 2 == 0 else 2)
    assert not b.is_forbidden((0, 6))
    assert not b.black_is_stuck and not b.is_over
    assert b.moves() == [Move(0, 6)]
