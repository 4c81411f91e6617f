"""The engine state: incremental updates equal a from-scratch rebuild; undo restores it all."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from plies.gomoku import Board, rules
from plies.gomoku.engine import combos, params
from plies.gomoku.engine import state as ST

SIZES = [(15, 15), (9, 9), (20, 12)]


def _assert_same(st: ST.State, tb: ST.Tables) -> None:
    ref = ST.State(*[a.copy() for a in st])
    ST.rebuild(ref, tb)
    for name, got, want in zip(st._fields, st, ref, strict=True):
        if name in ("moves", "hashes", "utop", "ucells", "ucounts"):
            continue
        assert np.array_equal(got, want), name
    ply = st.info[ST.I_PLY]
    assert st.hashes[ply] == ref.hashes[ply], "hash"


@pytest.mark.parametrize("rule", range(5))
@settings(max_examples=8, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1), size_index=hs.integers(0, len(SIZES) - 1))
def test_incremental_equals_rebuild(rule: int, seed: int, size_index: int) -> None:
    _walk(rule, seed, size_index, None)


@pytest.mark.parametrize("rule", [0, 2])
@settings(max_examples=6, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1), size_index=hs.integers(0, len(SIZES) - 1))
def test_incremental_equals_rebuild_with_a_learned_table(
    rule: int, seed: int, size_index: int
) -> None:
    # evaluation values that differ from the ordering values, so that a mix-up of the two sums
    # (or of their undo) shows
    table = np.random.default_rng(seed).integers(-500, 500, size=(2, combos.N_COMBOS))
    tb = ST.make_tables(rule, {"COMBO_VALUE": table})
    assert not np.array_equal(tb.p4ev, tb.p4cv >> 8)
    _walk(rule, seed, size_index, tb)


@pytest.mark.parametrize("rule", [0, 2])
@settings(max_examples=6, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1), size_index=hs.integers(0, len(SIZES) - 1))
def test_incremental_equals_rebuild_with_a_pattern_net(
    rule: int, seed: int, size_index: int
) -> None:
    from .test_pattern_net import random_net

    tb = ST.make_tables(rule, {"NET": random_net(seed % 1000, tables=2)})
    assert tb.weights[ST.W_NET] == 1
    _walk(rule, seed, size_index, tb)


def _walk(rule: int, seed: int, size_index: int, tables: ST.Tables | None) -> None:
    width, height = SIZES[size_index]
    rng = np.random.default_rng(seed)
    st, tb = ST.state_from_board(Board(width=width, height=height, rule=rule), tables)
    start = [a.copy() for a in st]
    made = []
    for i in range(int(rng.integers(10, 70))):
        empties = np.flatnonzero(st.cells == rules.EMPTY)
        # keep stones clustered so lines form: pick near the centre most of the time
        if made and rng.random() < 0.8:
            around = made[int(rng.integers(len(made)))]
            near = [
                p
                for p in empties
                if abs(int(p) - around) % st.info[ST.I_STRIDE] <= 2
                and abs(int(p) - around) <= 2 * st.info[ST.I_STRIDE] + 2
            ]
            pos = int(rng.choice(near)) if near else int(rng.choice(empties))
        else:
            pos = int(rng.choice(empties))
        ST.make(st, tb, pos)
        made.append(pos)
        if i % 5 == 0:
            _assert_same(st, tb)
    _assert_same(st, tb)
    for pos in reversed(made):
        assert ST.undo(st, tb) == pos
    for name, got, want in zip(st._fields, st, start, strict=True):
        if name in ("moves", "hashes", "utop", "ucells", "ucounts"):
            continue
        assert np.array_equal(got, want), name


def test_state_from_board_matches_board_cells() -> None:
    board = Board.from_moves(["h8", "h9", "i8", "g7", "j9"], 15, "renju")
    st, _ = ST.state_from_board(board)
    assert np.array_equal(st.cells, board.cells)
    assert st.info[ST.I_SIDE] == board.to_move
    assert st.info[ST.I_PLY] == 5


def test_threat_classes_of_a_known_position() -> None:
    # black h8 i8 j8 (open three on row 8): g8 and k8 make an open four for black
    board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "a5"], 15, "freestyle")
    st, _ = ST.state_from_board(board)
    stride = st.info[ST.I_STRIDE]
    g8 = int(rules.to_pos(6, 7, stride))
    k8 = int(rules.to_pos(10, 7, stride))
    f8 = int(rules.to_pos(5, 7, stride))
    assert st.cls[0, g8] & 7 == ST.C_FLEX4
    assert st.cls[0, k8] & 7 == ST.C_FLEX4
    assert st.cls[0, f8] & 7 == ST.C_FOUR
    assert st.counts[0, ST.C_FLEX4] == 2


def test_renju_forbidden_cells_are_classified() -> None:
    # black g8 h8 / i9 i10: i8 makes a double three (forbidden), verified by the rules kernel
    board = Board.from_moves(["g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"], 15, "renju")
    st, _ = ST.state_from_board(board)
    i8 = int(rules.to_pos(8, 7, st.info[ST.I_STRIDE]))
    assert st.cls[0, i8] & ST.CHECK_FLAG
    assert rules.is_forbidden(st.cells, st.info[ST.I_STRIDE], i8)


@settings(max_examples=6, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1), size_index=hs.integers(0, len(SIZES) - 1))
def test_incremental_equals_rebuild_with_black_double_threes_forbidden(
    seed: int, size_index: int
) -> None:
    tb = ST.make_tables(rules.RENJU, {"RENJU_33_FORBIDDEN": 1})
    assert tb.weights[ST.W_BLACK_33] == 1
    _walk(rules.RENJU, seed, size_index, tb)


def test_black_double_three_cells_as_forbidden() -> None:
    """RENJU_33_FORBIDDEN: black's double-three cell adds no value and no double threat to
    black's threat mask; white's cells, other rules and the move classes stay as they were."""
    from plies.gomoku.engine import threat_eval as TE

    moves = ["g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"]
    board = Board.from_moves(moves, 15, "renju")
    plain = ST.make_tables(rules.RENJU, {"NET": "off", "RENJU_33_FORBIDDEN": 0})
    as_forbidden = ST.make_tables(rules.RENJU, {"NET": "off", "RENJU_33_FORBIDDEN": 1})
    st, _ = ST.state_from_board(board, plain)
    st2, _ = ST.state_from_board(board, as_forbidden)
    i8 = int(rules.to_pos(8, 7, st.info[ST.I_STRIDE]))
    idx = int(st.p4[i8]) & 0xFFFF
    assert plain.p4ev[0, idx] > 0 and as_forbidden.p4ev[0, idx] == 0
    assert np.array_equal(plain.p4ev[1], as_forbidden.p4ev[1])
    assert np.array_equal(plain.p4cv, as_forbidden.p4cv)  # the search's classes are the same
    assert st.info[ST.I_EVALSUM] - st2.info[ST.I_EVALSUM] == plain.p4ev[0, idx]
    assert st.info[ST.I_EVALSUM + 1] == st2.info[ST.I_EVALSUM + 1]
    assert st2.counts[0, ST.C_THREE2] == st.counts[0, ST.C_THREE2] > 0
    _, double, _, _ = TE.decode_side(TE.side_mask(st.counts, 0))
    _, double2, _, _ = TE.decode_side(TE.side_mask(st.counts, 0, 1))
    assert double > 0 and double2 == 0
    white = np.array([[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0, 0, 0]], dtype=np.int32)
    assert TE.side_mask(white, 1, 1) == TE.side_mask(white, 1, 0)
    # only Renju reads it
    free = ST.make_tables(rules.FREESTYLE, {"RENJU_33_FORBIDDEN": 1})
    assert free.weights[ST.W_BLACK_33] == 0
    with pytest.raises(ValueError, match="RENJU_33_FORBIDDEN"):
        ST.make_tables(rules.RENJU, {"RENJU_33_FORBIDDEN": 2})
    with pytest.raises(ValueError, match="RENJU_33_FORBIDDEN must be 0 or 1"):
        params.parse_number("RENJU_33_FORBIDDEN", "2")  # pbrain INFO param, arena specs
    with pytest.raises(ValueError, match="TT_EVAL must be 0 or 1"):
        params.parse_number("TT_EVAL", "2")
    assert params.parse_number("TT_EVAL", "0") == 0
