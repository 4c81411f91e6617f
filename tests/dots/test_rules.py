import xml.dom.minidom

import pytest

from plies.dots.display import ascii_board, svg_board
from plies.dots.rules import Board, geometry, parse_size
from plies.errors import GameOver, InvalidMove, InvalidOption, InvalidRecord


def test_line_indexing_is_compact_and_round_trips():
    geo = geometry(2, 3)
    assert geo.n_lines == 3 * 3 + 2 * 4 == 17
    assert [geo.coords(i) for i in range(3)] == [("h", 0, 0), ("h", 0, 1), ("h", 0, 2)]
    assert geo.coords(9) == ("v", 0, 0) and geo.coords(16) == ("v", 1, 3)
    for i in range(geo.n_lines):
        assert geo.line(*geo.coords(i)) == i
        assert geo.parse(geo.text(i)) == i
    # box (1, 2): top h(1,2), bottom h(2,2), left v(1,2), right v(1,3)
    assert list(geo.box_lines[1 * 3 + 2]) == [5, 8, 9 + 4 + 2, 9 + 4 + 3]


def test_sizes_in_boxes_and_dots():
    assert parse_size("3x4") == (3, 4)
    assert parse_size("4x5d") == (3, 4)
    assert parse_size("4x5 dots") == (3, 4)
    assert Board.from_dots(4, 5).rows == 3
    assert Board(3, 4).dot_size == (4, 5)
    with pytest.raises(InvalidOption):
        parse_size("3by3")
    with pytest.raises(InvalidOption):
        Board(0, 3)


def test_extra_turn_and_box_owner():
    b = Board(1, 2)
    for m in ("h0,0", "h1,0", "v0,0"):  # players alternate: A, B, A
        assert b.play(m) == 0
    assert b.to_move == 1
    assert b.play("v0,1") == 1  # B completes box (0, 0) and moves again
    assert b.to_move == 1 and b.scores == [0, 1]
    assert b.owner[0] == -1
    b.play("h0,1")
    assert b.to_move == 0
    assert b.play("v0,2") == 0  # A gives box (0, 1) its third side
    assert not b.is_over and b.to_move == 1
    assert b.play("h1,1") == 1  # B takes it with the last line
    assert b.is_over and b.scores == [0, 2] and b.returns() == (-2, 2)
    with pytest.raises(GameOver):
        b.play("h0,0")
    b.undo()
    assert b.to_move == 1 and b.scores == [0, 1] and not b.is_over


def test_double_box_completion():
    b = Board(1, 2)
    for m in ("h0,0", "h1,0", "v0,0", "h0,1", "h1,1", "v0,2"):
        b.play(m)
    mover = b.to_move
    assert b.play("v0,1") == 2  # the middle line completes both boxes
    assert b.scores[mover] == 2 and b.is_over
    assert b.to_move == mover


def test_illegal_moves():
    b = Board(2, 2)
    b.play("v1,2")
    with pytest.raises(InvalidMove):
        b.play("v1,2")
    with pytest.raises(InvalidMove):
        b.play("h3,0")
    with pytest.raises(InvalidMove):
        b.play("x1,1")
    with pytest.raises(InvalidMove):
        Board(2, 2).undo()


def test_dictionary_format_exactly():
    b = Board(2, 2)
    for m in ("h0,0", "v0,0", "v0,1", "h1,0"):
        b.play(m)
    d = b.to_dict()
    assert d == {
        "size": (3, 3),
        "lines": {("h", 0, 0): True, ("h", 1, 0): True, ("v", 0, 0): True, ("v", 0, 1): True},
        "boxes": {(0, 0): -1},  # B (the second player, -1) drew the fourth side
    }
    c = Board.from_dict(d, to_move=b.to_move)
    assert c.to_dict() == d and c.scores == b.scores and list(c.counts) == list(b.counts)
    assert Board.from_dict({"size": (2, 2), "lines": {("h", 0, 0): False}, "boxes": {}}).mask == 0


def test_dictionary_errors():
    with pytest.raises(InvalidRecord):
        Board.from_dict({"size": (3, 3), "lines": {("h", 5, 0): True}, "boxes": {}})
    with pytest.raises(InvalidRecord):  # owner of an incomplete box
        Board.from_dict({"size": (2, 2), "lines": {}, "boxes": {(0, 0): 1}})
    full = {("h", 0, 0): True, ("h", 1, 0): True, ("v", 0, 0): True, ("v", 0, 1): True}
    with pytest.raises(InvalidRecord):  # complete box without owner
        Board.from_dict({"size": (2, 2), "lines": full, "boxes": {}})


def test_ascii_and_svg():
    b = Board(1, 2)
    for m in ("h0,0", "h1,0", "v0,0", "v0,1"):
        b.play(m)
    assert ascii_board(b) == "+---+   +\n| B |\n+---+   +"
    assert str(b) == ascii_board(b)
    assert ascii_board(b, labels=True).splitlines()[0] == "   0   1   2"
    svg = svg_board(b)
    doc = xml.dom.minidom.parseString(svg)
    assert len(doc.getElementsByTagName("line")) == 4
    assert len(doc.getElementsByTagName("circle")) == 6


def test_game_protocol_members():
    b = Board(2, 2)
    assert b.current_player() == 0 and len(b.legal_moves()) == 12
    assert sorted(b.ordered_moves()) == b.legal_moves()
    c = b.copy()
    c.play(0)
    assert b.mask == 0 and c.mask == 1
    assert b.hash_key() != c.hash_key()
    b.play("h0,0")
    b.play("v0,0")
    b.play("v0,1")  # box (0, 0) has three sides: capture first
    assert b.ordered_moves()[0] == b.geo.line("h", 1, 0)
