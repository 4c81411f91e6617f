"""Opening rules (pro, long-pro): hand-made legality for every rule and several sizes, a
property test against a plain reference, records, and the one-line errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from plies.errors import InvalidMove, InvalidOption, InvalidRecord
from plies.gomoku import opening_rule
from plies.gomoku.board import Board
from plies.gomoku.notation import Move
from plies.gomoku.records import GameRecord, read_record, write_record
from plies.gomoku.rules import RULE_NAMES

SIZES = [(7, 7), (9, 9), (15, 15), (19, 19), (20, 15), (12, 9)]


def reference_allows(opening: str, width: int, height: int, stones: int, m: Move) -> bool:
    """The rule as docs/rules.md states it, written out plainly."""
    need = {"free": 0, "pro": 3, "long-pro": 4}[opening]
    if need == 0:
        return True
    cx, cy = width // 2, height // 2
    if stones == 0:
        return (m.x, m.y) == (cx, cy)
    if stones == 2:
        return max(abs(m.x - cx), abs(m.y - cy)) >= need
    return True


def test_defaults_and_names():
    assert opening_rule.default_opening("caro") == "pro"
    assert opening_rule.default_opening("caro5") == "pro"
    for rule in ("freestyle", "standard", "renju"):
        assert opening_rule.default_opening(rule) == "free"
    assert opening_rule.opening_name(None, "caro") == "pro"
    assert opening_rule.opening_name("Long_Pro") == "long-pro"
    assert opening_rule.opening_name("LONG-PRO") == "long-pro"
    with pytest.raises(InvalidOption, match="unknown opening rule 'swap'"):
        opening_rule.opening_name("swap")


@pytest.mark.parametrize("rule", RULE_NAMES)
@pytest.mark.parametrize("width,height", SIZES)
def test_pro_by_hand(rule, width, height):
    cx, cy = width // 2, height // 2
    board = Board(width=width, height=height, rule=rule, opening="pro")
    assert board.moves() == [Move(cx, cy)]
    with pytest.raises(InvalidMove, match="first stone \\(move 1\\) goes on the centre"):
        board.play((cx + 1, cy))
    board.play((cx, cy))
    # white is free: right next to the centre stone
    assert len(board.moves()) == width * height - 1
    board.play((cx + 1, cy + 1))
    for bad in [(cx + 2, cy), (cx - 2, cy + 2), (cx, cy - 1), (cx + 2, cy - 2)]:
        assert not board.is_legal(bad)
        with pytest.raises(InvalidMove, match="at least 3 cells from the centre"):
            board.play(bad)
    for good in [(cx + 3, cy), (cx, cy - 3), (cx - 3, cy + 3)]:
        assert board.is_legal(good)
    banned = {Move(cx + dx, cy + dy) for dx in range(-2, 3) for dy in range(-2, 3)}
    legal = set(board.moves())
    assert legal == {
        Move(x, y) for x in range(width) for y in range(height) if Move(x, y) not in banned
    }
    board.play((cx + 3, cy))
    board.play((cx - 1, cy))
    assert board.is_legal((cx + 1, cy))  # move 5: free again


@pytest.mark.parametrize("rule", RULE_NAMES)
@pytest.mark.parametrize("width,height", [(9, 9), (15, 15), (19, 19), (20, 15), (22, 9)])
def test_long_pro_by_hand(rule, width, height):
    cx, cy = width // 2, height // 2
    board = Board.from_moves([(cx, cy), (cx, cy + 1)], width=width, height=height, rule=rule,
                             opening="long-pro")  # fmt: skip
    for bad in [(cx + 3, cy), (cx - 3, cy - 3), (cx, cy + 2)]:
        with pytest.raises(InvalidMove, match="long-pro opening rule.*at least 4 cells"):
            board.play(bad)
    board.play((cx + 4, cy - 1))
    assert len(board) == 3


@pytest.mark.parametrize(
    "opening,width,height",
    [("pro", 5, 5), ("long-pro", 7, 7), ("long-pro", 7, 5)],
)
def test_boards_too_small_for_the_opening(opening, width, height):
    with pytest.raises(InvalidOption, match=f"{opening} opening rule needs a board side"):
        Board(width=width, height=height, opening=opening)


def test_smallest_boards_for_the_opening():
    assert Board(6, opening="pro").play_moves(["3,3", "0,0", "0,3"]) is None
    assert Board(8, opening="long-pro").play_moves(["4,4", "0,0", "0,4"]) is None


def test_free_is_the_board_default_even_for_caro():
    board = Board(15, "caro")
    assert board.opening == "free"
    board.play_moves(["a1", "b2", "c3"])


def test_undo_and_copy_keep_the_rule():
    board = Board.from_moves(["h8", "h9"], 15, "caro", opening="pro")
    copy = board.copy()
    assert copy.opening == "pro" and not copy.is_legal("i9")
    board.play("k8")
    board.undo()
    assert not board.is_legal("i9")


@settings(max_examples=60, deadline=None)
@given(
    opening=hs.sampled_from(opening_rule.OPENING_NAMES),
    rule=hs.sampled_from(RULE_NAMES),
    size=hs.sampled_from(SIZES[1:]),
    cells=hs.lists(hs.tuples(hs.integers(0, 21), hs.integers(0, 21)), min_size=1, max_size=6),
)
def test_board_agrees_with_the_reference(opening, rule, size, cells):
    width, height = size
    board = Board(width=width, height=height, rule=rule, opening=opening)
    for x, y in cells:
        m = Move(x % width, y % height)
        if board.is_over or board[m] != 0:
            continue
        expected = reference_allows(opening, width, height, len(board), m)
        assert board.is_legal(m) == expected
        assert (m in board.moves()) == expected
        if expected:
            board.play(m)


def test_records_carry_the_opening():
    record = read_record("# rule: caro\n# opening: long-pro\n# size: 19\nj10 j11 n10\n")
    assert record.opening == "long-pro"
    board = record.to_board()
    assert board.opening == "long-pro" and len(board) == 3
    text = write_record(GameRecord.from_board(board), "text")
    assert "# opening: long-pro" in text
    assert read_record(text).opening == "long-pro"
    with pytest.raises(InvalidRecord, match="line 2: unknown opening rule 'swap9'"):
        read_record("# rule: caro\n# opening: swap9\nj10\n")


def test_a_record_breaking_the_opening_is_a_one_line_error():
    record = read_record("# rule: caro\n# size: 19\nj10 k10 k11\n")
    assert len(record.to_board()) == 3  # no opening named: replayed as played
    with pytest.raises(InvalidRecord) as info:
        record.to_board(opening="pro")
    message = str(info.value)
    assert "\n" not in message
    assert "move 3: 10,8 (k11) breaks the pro opening rule" in message
