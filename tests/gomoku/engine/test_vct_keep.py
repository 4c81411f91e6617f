"""The root VCT's tables kept between solver runs (``VCT_KEEP``): a proof too long for one run
finishes over several; only runs of the same attacker share them; disproofs are forgotten;
an expansion cut short by a stop is never cached."""

from __future__ import annotations

import numpy as np
import pytest

from plies.gomoku import Board, rules
from plies.gomoku.engine import params
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vct as VT
from plies.gomoku.engine.api import Engine

from .helpers import quintet_problems
from .test_vct import problem_board, verify_vct


def _problem(name: str):
    return problem_board(next(p for p in quintet_problems() if p["name"] == name))


def _run(engine: Engine, st, tb, nodes: int) -> list[int] | None:
    """One root-VCT solver run as the engine makes it (its context, its depth), ``nodes`` long."""
    ctx = engine._vct_context(st.cells.shape[0], st)
    ctx.ctl[VT.K_NODE_LIMIT] = nodes
    return VT.solve(st, tb, ctx, max_depth=engine._search_params["ROOT_VCT_DEPTH"])


@pytest.mark.parametrize("keep", [0, 1])
def test_kept_tables_finish_a_proof_over_several_short_runs(keep: int) -> None:
    # the proof takes about 1,000 nodes in one run; runs of 300 never get there alone
    board = _problem("test_vct_white")
    engine = Engine("renju", 15, hash_mb=2, params={"VCT_KEEP": keep})
    st, tb = ST.state_from_board(board, engine.tables)
    line = None
    for _ in range(10):
        line = _run(engine, st, tb, 300)
        if line is not None:
            break
    if keep:
        assert line is not None
        verify_vct(board.cells, 15, 15, rules.RENJU, board.to_move, line)
    else:
        assert line is None


def _filled(ctx) -> tuple[int, int, int]:
    """Entries in the table: all, proved, disproved."""
    used = ctx.tt_keys != 0
    pn, dn = ctx.tt_val[:, VT.T_PN], ctx.tt_val[:, VT.T_DN]
    return int(used.sum()), int((used & (pn == 0)).sum()), int((used & (dn == 0)).sum())


def test_only_a_later_run_of_the_same_attacker_keeps_the_tables() -> None:
    board = _problem("test_vct_dual_forbiddens")
    engine = Engine("renju", 15, hash_mb=2, params={"VCT_KEEP": 1})
    st, tb = ST.state_from_board(board, engine.tables)
    cells = st.cells.shape[0]
    _run(engine, st, tb, 1500)  # unfinished: proofs and disproofs in the table
    used, proved, disproved = _filled(engine._vct_ctx)
    assert proved > 0 and disproved > 0 and used > proved + disproved
    # the same attacker again: proofs and the unfinished work stay, disproofs go
    assert _filled(engine._vct_context(cells, st)) == (used - disproved, proved, 0)
    # the other side attacking (the position after a move): a fresh table
    after = board.copy()
    after.play(next(iter(after.moves())))
    other, _ = ST.state_from_board(after, engine.tables)
    assert _filled(engine._vct_context(cells, other)) == (0, 0, 0)
    # an earlier position than the last run's (a new game): a fresh table
    _run(engine, st, tb, 1500)
    before = Board.from_moves(board.history[:-2], 15, "renju")
    assert before.to_move == board.to_move
    earlier, _ = ST.state_from_board(before, engine.tables)
    assert _filled(engine._vct_context(cells, earlier)) == (0, 0, 0)
    # new_game forgets the last run
    _run(engine, st, tb, 1500)
    engine.new_game()
    assert _filled(engine._vct_context(cells, st)) == (0, 0, 0)


def test_without_keep_every_run_starts_empty() -> None:
    board = _problem("test_vct_dual_forbiddens")
    engine = Engine("renju", 15, hash_mb=2)
    st, tb = ST.state_from_board(board, engine.tables)
    _run(engine, st, tb, 1500)
    assert _filled(engine._vct_ctx)[0] > 0
    assert _filled(engine._vct_context(st.cells.shape[0], st)) == (0, 0, 0)


def test_an_expansion_cut_short_by_a_stop_is_not_cached() -> None:
    # the VCF probes of an expansion return at once when the stop is up, so its children may
    # be wrong: the expansion cache must not keep them (a later run would trust them)
    board = _problem("test_vct_white")
    engine = Engine("renju", 15, hash_mb=2)
    st, tb = ST.state_from_board(board, engine.tables)
    stop = np.zeros(1, dtype=np.int64)
    for raised, cached in ((1, False), (0, True)):
        ctx = VT.new_context(st.cells.shape[0], rules.RENJU, stop)
        stop[0] = raised
        n = VT._expand_cached(st, tb, ctx, 0, 0)
        assert n > 0  # an attacker node with moves to try
        assert bool((ctx.exp_keys != 0).any()) == cached


def test_the_solver_numbers_refuse_values_that_break_the_solver() -> None:
    # as a pbrain INFO param or an arena spec gives them
    assert params.parse_number("VCT_KEEP", "1") == 1
    assert params.parse_number("VCT_VCF_BUDGET", "2000") == 2000
    with pytest.raises(ValueError, match="VCT_KEEP must be 0 or 1, not 2"):
        params.parse_number("VCT_KEEP", "2")
    for bad in ("0", "-5", "1.5"):
        with pytest.raises(ValueError, match="VCT_VCF_BUDGET must be a whole number of nodes"):
            params.parse_number("VCT_VCF_BUDGET", bad)


def test_a_store_takes_the_empty_slot_of_its_bucket_before_an_occupied_one() -> None:
    # an empty slot's zeroed numbers read as "proved"; a store must still fill it rather
    # than overwrite the unsolved entry beside it (a kept table empties many slots at a time)
    ctx = VT.new_context(256, rules.RENJU, tt_bits=4)
    size = ctx.tt_keys.shape[0]
    lost, unsolved, new = (np.uint64(k * size + 2) for k in (1, 2, 3))  # one bucket: slots 2, 3
    VT._tt_store(ctx, lost, 1 << 20, 0, 0, -1, 1)  # a disproof
    VT._tt_store(ctx, unsolved, 5, 7, 0, -1, 1)
    assert (VT.tt_find(ctx, lost), VT.tt_find(ctx, unsolved)) == (2, 3)
    VT.forget_disproofs(ctx)
    assert ctx.tt_keys[2] == 0 and VT.tt_find(ctx, unsolved) == 3
    VT._tt_store(ctx, new, 2, 9, 0, -1, 50)  # more work behind it than the other
    assert (VT.tt_find(ctx, new), VT.tt_find(ctx, unsolved)) == (2, 3)
    # a full bucket: a solved entry stays, the unsolved one with less work behind it goes
    VT._tt_store(ctx, lost, 0, 1 << 20, 3, -1, 1)
    assert (VT.tt_find(ctx, lost), VT.tt_find(ctx, new), VT.tt_find(ctx, unsolved)) == (3, 2, -1)
