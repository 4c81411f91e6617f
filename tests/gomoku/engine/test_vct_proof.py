"""Every proof the VCT solver claims is checked in full by a slow referee that knows only the
rules kernels: the proof tree is walked from the solver's table (the attacker's proven move,
every defender move), and at each defender node *every* legal defender move must either be
one of the solver's children (proved in turn) or lose to a VCF of at most four fours found by
a plain recursion over every cell. Attacker leaves are VCF wins replayed move by move."""

from __future__ import annotations

import numpy as np
import pytest

from plies.gomoku import Board, Move, rules
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine import vct as VT

from .helpers import all_fives, reference_vcf, verify_vcf

SIZE = 9
# a defender move outside the solver's defences leaves a threat of at most 3 fours (4 for the
# narrowing threats) intact
REFEREE_DEPTH = 4


def _entry(ctx, st) -> np.ndarray | None:
    slot = VT.tt_find(ctx, np.uint64(st.hashes[st.info[ST.I_PLY]]))
    return None if slot < 0 else ctx.tt_val[slot]


def _children(st, tb, ctx, kind: int) -> int | list[int]:
    n = VT.expand_node(st, tb, ctx, kind)
    return n if n < 0 else [int(ctx.ch[0, i]) for i in range(n)]


def _check_attacker(st, tb, ctx, rule: int, att: int, stats: dict) -> None:
    """The attacker (to move) wins: by a VCF it can replay, or by its proven move."""
    stats["attacker"] += 1
    kids = _children(st, tb, ctx, 0)
    if kids == VT.EXP_WIN:
        keys, depth = V.new_vcf_tt()
        seq = np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64)
        zero = np.zeros(1, dtype=np.int64)
        n = V.vcf(st, tb, V.MAX_VCF_DEPTH, 10_000_000, keys, depth, seq, zero, zero.copy())
        assert n > 0, "an attacker leaf without a VCF"
        verify_vcf(st.cells, SIZE, SIZE, rule, att, [int(p) for p in seq[:n]])
        return
    assert isinstance(kids, list), "a proven attacker node that the solver calls lost"
    best = None
    for p in kids:
        ST.make(st, tb, p)
        e = _entry(ctx, st)
        ST.undo(st, tb)
        if e is not None and e[VT.T_PN] == 0 and (best is None or e[VT.T_LEN] < best[1]):
            best = (p, e[VT.T_LEN])
    assert best is not None, "a proven attacker node without a proven child"
    ST.make(st, tb, best[0])
    _check_defender(st, tb, ctx, rule, att, stats)
    ST.undo(st, tb)


def _check_defender(st, tb, ctx, rule: int, att: int, stats: dict) -> None:
    """Whatever the defender (to move) plays, the attacker wins."""
    stats["defender"] += 1
    dfn = 3 - att
    kids = _children(st, tb, ctx, 1)
    if kids == VT.EXP_WIN:
        kids = []
    assert isinstance(kids, list), "a proven defender node that the solver calls lost"
    cells = st.cells
    stride = int(st.info[ST.I_STRIDE])
    for p in range(cells.shape[0]):
        if cells[p] != rules.EMPTY:
            continue
        if rule == rules.RENJU and dfn == rules.BLACK and rules.is_forbidden(cells, stride, p):
            continue
        assert not rules.makes_five(cells, stride, p, dfn, rule), "the defender can make five"
        ST.make(st, tb, p)
        if p in kids:
            e = _entry(ctx, st)
            assert e is not None and e[VT.T_PN] == 0, "a defence the solver did not prove"
            _check_attacker(st, tb, ctx, rule, att, stats)
        else:
            stats["refereed"] += 1
            dfives = all_fives(st.cells, stride, dfn, rule)
            assert reference_vcf(st.cells.copy(), stride, rule, att, REFEREE_DEPTH, dfives), (
                f"defender move {p} outside the solver's defences escapes"
            )
        ST.undo(st, tb)


def _position(rng: np.random.Generator, rule: str) -> Board | None:
    board = Board(SIZE, rule)
    for _ in range(int(rng.integers(10, 22))):
        m = Move(int(rng.integers(1, 8)), int(rng.integers(1, 8)))
        if board.is_over or board[m] != rules.EMPTY or m not in board.moves():
            continue
        board.play(m)
    return None if board.is_over else board


@pytest.mark.parametrize("rule", ["freestyle", "renju", "caro"])
def test_every_claimed_vct_survives_every_defence(rule: str) -> None:
    rng = np.random.default_rng({"freestyle": 11, "renju": 12, "caro": 13}[rule])
    stats = {"proofs": 0, "attacker": 0, "defender": 0, "refereed": 0}
    tries = 0
    while stats["proofs"] < 6 and tries < 400:
        tries += 1
        board = _position(rng, rule)
        if board is None:
            continue
        st, tb = ST.state_from_board(board)
        ctx = VT.new_context(st.cells.shape[0], board.rule_code)
        ctx.ctl[VT.K_VCF_BUDGET] = 10_000_000
        ctx.ctl[VT.K_PLY_LIMIT] = int(st.info[ST.I_PLY]) + 2 * 3
        if VT.dfpn(st, tb, ctx, 0) != 1:
            continue
        if VT.expand_node(st, tb, ctx, 0) == VT.EXP_WIN:
            continue  # a plain VCF: the VCF tests cover it
        stats["proofs"] += 1
        _check_attacker(st, tb, ctx, board.rule_code, board.to_move, stats)
    assert stats["proofs"] == 6, stats
    assert stats["refereed"] > 50, stats  # the referee really judged moves outside the tree
