"""The PVS search: exact against plain minimax with pruning off, forced moves, determinism."""

from __future__ import annotations

import numpy as np
import pytest

from plies.gomoku import Board, Move, rules
from plies.gomoku.engine import params as PR
from plies.gomoku.engine import search as S
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine.api import Engine, win_probability

EXACT_OFF = {name: False for name in S.FEATURE_NAMES}


def minimax(st, tb, ctx, depth: int, ply: int) -> int:
    """Plain negamax over the same moves and terminal rules as ``pvs``, no pruning at all."""
    s = st.info[ST.I_SIDE] - 1
    o = 1 - s
    side = s + 1
    if st.counts[s, ST.C_FIVE] > 0:
        return S.WIN - ply - 1
    if st.info[ST.I_PLY] >= st.info[ST.I_WIDTH] * st.info[ST.I_HEIGHT]:
        return 0
    forced = -1
    if st.counts[o, ST.C_FIVE] > 0:
        if st.counts[o, ST.C_FIVE] >= 2 and ply > 0:
            return -(S.WIN - ply - 2)
        forced = V.first_cell_of_class(st, o, ST.C_FIVE)
        if V.forbidden_for(st, side, forced) and ply > 0:
            return -(S.WIN - ply - 2)
    elif ply > 0 and S.real_threat_exists(st, s, ST.C_FLEX4):
        return S.WIN - ply - 3
    if forced < 0 and depth <= 0:
        return ST.evaluate(st, tb)
    if forced >= 0:
        moves = [forced]
        child_depth = depth
    else:
        n = S.generate(st, ctx, ply, -1, False, -1)
        moves = [int(m) for m in ctx.moves[ply, :n]]
        child_depth = depth - 1
    if not moves:
        return -(S.WIN - ply - 4)
    best = -S.INF
    for m in moves:
        ST.make(st, tb, m)
        best = max(best, -minimax(st, tb, ctx, child_depth, ply + 1))
        ST.undo(st, tb)
    return best


def _random_board(rng, size: int, rule: str, stones: int) -> Board:
    while True:
        board = Board(size, rule)
        ok = True
        for _ in range(stones):
            moves = board.moves()
            if not moves or board.is_over:
                ok = False
                break
            board.play(moves[int(rng.integers(len(moves)))])
        if ok and not board.is_over:
            return board


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju", "caro"])
def test_pvs_equals_minimax_with_pruning_off(rule: str) -> None:
    rng = np.random.default_rng(11)
    size = 7
    for trial in range(6):
        board = _random_board(rng, size, rule, int(rng.integers(4, 12)))
        depth = 3 if trial < 2 else 2
        st, tb = ST.state_from_board(board)
        ctx = S.new_context(st.cells.shape[0], S.new_tt(1), np.zeros(1, dtype=np.int64))
        ctx.features[:] = 0
        expected = minimax(st, tb, ctx, depth, 0)
        got = S.pvs(st, tb, ctx, -S.INF, S.INF, depth, 0, -1)
        assert got == expected, (rule, trial, board.history)


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_pvs_with_tt_equals_minimax(rule: str) -> None:
    # the transposition table is exact at a fixed depth (no depth-dependent pruning otherwise)
    rng = np.random.default_rng(5)
    for _ in range(4):
        board = _random_board(rng, 7, rule, int(rng.integers(4, 10)))
        st, tb = ST.state_from_board(board)
        ctx = S.new_context(st.cells.shape[0], S.new_tt(1), np.zeros(1, dtype=np.int64))
        ctx.features[:] = 0
        expected = minimax(st, tb, ctx, 2, 0)
        ctx.features[S.F_TT] = 1
        for d in (1, 2):
            got = S.pvs(st, tb, ctx, -S.INF, S.INF, d, 0, -1)
        assert got == expected


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_move_ordering_histories_do_not_change_the_value(rule: str) -> None:
    # killers, history and continuation history only reorder moves: with every pruning off,
    # a second search that uses what the first one learned still returns the minimax value
    rng = np.random.default_rng(17)
    for _ in range(4):
        board = _random_board(rng, 7, rule, int(rng.integers(4, 10)))
        st, tb = ST.state_from_board(board)
        ctx = S.new_context(st.cells.shape[0], S.new_tt(1), np.zeros(1, dtype=np.int64))
        ctx.features[:] = 0
        expected = minimax(st, tb, ctx, 3, 0)
        ctx.features[S.F_CONTHIST] = 1
        for _ in range(2):
            got = S.pvs(st, tb, ctx, -S.INF, S.INF, 3, 0, -1)
            assert got == expected
        assert np.any(ctx.conthist != 0)  # the table was used


def test_wins_with_its_own_four_first() -> None:
    # black has four on row 8 (h..k); white threatens too: black must complete five
    board = Board.from_moves(["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9"], 15, "freestyle")
    result = Engine("freestyle").search(board, depth=1)
    assert result.move in (Move(6, 7), Move(11, 7))
    assert result.score == S.WIN - 1


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju", "caro"])
def test_blocks_the_opponents_four_at_depth_1(rule: str) -> None:
    # white's four on row 9 (h..k, g9 taken by black): black must play l9
    moves = ["a1", "h9", "g9", "i9", "o1", "j9", "a15", "k9"]
    board = Board.from_moves(moves, 15, rule)
    result = Engine(rule).search(board, depth=1)
    assert result.move == Move(11, 6)


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_stops_the_open_three_at_depth_1(rule: str) -> None:
    # white has an open three h9 i9 j9; black has nothing: black must play g9 or k9 (or f9/l9)
    moves = ["a1", "h9", "o15", "i9", "a15", "j9"]
    board = Board.from_moves(moves, 15, rule)
    result = Engine(rule).search(board, depth=1)
    assert result.move in {Move(6, 6), Move(10, 6), Move(5, 6), Move(11, 6)}


def test_makes_the_open_four() -> None:
    moves = ["h8", "a1", "i8", "a3", "j8", "o15"]
    board = Board.from_moves(moves, 15, "freestyle")
    result = Engine("freestyle").search(board, depth=3)
    assert result.move in {Move(6, 7), Move(10, 7)}
    assert result.score > S.WIN_BOUND


def test_node_limited_search_is_deterministic() -> None:
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11"], 15, "freestyle")
    engine = Engine("freestyle", hash_mb=4)
    first = engine.search(board, nodes=20000)
    engine.new_game()
    second = engine.search(board, nodes=20000)
    assert (first.move, first.score, first.nodes) == (second.move, second.score, second.nodes)


def test_new_game_without_prefault_forgets_as_a_fresh_engine() -> None:
    """A brain's engine (``prefault=False``) gets a new lazily zeroed table on ``new_game``:
    the same search as a fresh engine's, and the old table is let go."""
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11"], 15, "freestyle")
    fresh = Engine("freestyle", hash_mb=4).search(board, nodes=20000)
    engine = Engine("freestyle", hash_mb=4, prefault=False)
    engine.search(Board.from_moves(["h8", "h9", "i8"], 15, "freestyle"), nodes=20000)
    old = engine.tt
    assert old.any()
    engine.new_game()
    assert engine.tt is not old and engine.tt.shape == old.shape and not engine.tt.any()
    again = engine.search(board, nodes=20000)
    assert (again.move, again.score, again.nodes) == (fresh.move, fresh.score, fresh.nodes)


def test_movetime_is_respected_and_multipv_gives_distinct_lines() -> None:
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11"], 15, "freestyle")
    engine = Engine("freestyle", hash_mb=4)
    result = engine.search(board, movetime=0.2, multipv=3)
    assert result.move is not None
    assert len({line.move for line in result.lines}) == len(result.lines) >= 2
    assert 0.0 <= result.win_probability <= 1.0


def test_two_threads_find_a_move() -> None:
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11"], 15, "freestyle")
    result = Engine("freestyle", hash_mb=4, threads=2).search(board, depth=5)
    assert result.move is not None and board.is_legal(result.move)


def test_win_probability_is_monotonic() -> None:
    assert win_probability(0) == 0.5
    assert win_probability(200) > win_probability(100) > 0.5
    assert win_probability(S.WIN - 5) == 1.0
    assert win_probability(-(S.WIN - 5)) == 0.0


def test_vcf_api_returns_a_winning_sequence() -> None:
    # black: h8 i8 j8 and h9 i10 ... a four-three chance
    board = Board.from_moves(["h8", "a1", "i8", "a3", "h9", "a5", "h10", "a7"], 15, "freestyle")
    seq = Engine("freestyle").vcf(board)
    assert seq is not None
    replay = board.copy()
    replay.play_moves(seq)
    assert replay.winner == rules.BLACK


def test_a_forced_reply_is_played_without_deepening_on_a_clock() -> None:
    moves = ["a1", "h9", "g9", "i9", "o1", "j9", "a15", "k9"]  # white's four: l9 is forced
    board = Board.from_moves(moves, 15, "freestyle")
    result = Engine("freestyle", hash_mb=4).search(board, movetime=5.0)
    assert result.move == Move(11, 6)
    assert result.depth == 1


def test_clock_allocation_stays_within_a_third_of_the_time_left() -> None:
    engine = Engine("freestyle", hash_mb=4)
    board = Board.from_moves(["h8", "i9"], 15, "freestyle")
    for left, inc in ((60.0, 0.0), (5.0, 2.0), (0.3, 0.0)):
        budget = engine.allocate_time(board, left, inc)
        assert 0 < budget <= left / 3


def test_full_time_searches_until_the_movetime_is_up() -> None:
    # an opening: no proven win and many candidates, so only the clock ends it. The first
    # iteration's report sleeps 0.7 s of the 1 s: after the next (quick) iteration the plain
    # clock rule expects the one after not to finish and stops; full_time searches on to the
    # deadline
    import time

    board = Board.from_moves(["h8", "i9", "g7", "j10"], 15, "freestyle")

    def slow_first(result) -> None:
        if result.depth == 1:
            time.sleep(0.7)

    plain = Engine("freestyle", hash_mb=4).search(board, movetime=1.0, info=slow_first)
    assert plain.time < 0.8
    full = Engine("freestyle", hash_mb=4).search(
        board, movetime=1.0, info=slow_first, full_time=True
    )
    assert full.move is not None and board.is_legal(full.move)
    assert full.depth > plain.depth and full.time >= 0.9


def test_a_tiny_movetime_still_returns_a_legal_move() -> None:
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11"], 15, "freestyle")
    engine = Engine("freestyle", hash_mb=4)
    for _ in range(3):
        result = engine.search(board, movetime=0.0005)
        assert result.move is not None and board.is_legal(result.move)


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_a_search_stopped_before_depth_1_still_makes_or_blocks_five(rule: str) -> None:
    # one node: the first iteration never finishes, so the move comes from the fallback; it
    # must still make the five, or block the opponent's (a brain on a tiny clock relies on it)
    engine = Engine(rule, hash_mb=4)
    # white to move, black threatens five at l8 only (h8-k8, g8 white)
    block = Board.from_moves(["h8", "g8", "i8", "a1", "j8", "a3", "k8"], 15, rule)
    assert engine.search(block, nodes=1).move == block.parse("l8")
    # black to move with a four of its own (d5-g5, h5 free) and white's four to block too
    win = Board.from_moves(["d5", "h8", "e5", "i8", "f5", "j8", "g5", "k8"], 15, rule)
    assert engine.search(win, nodes=1).move in {win.parse("c5"), win.parse("h5")}


def test_vct_api_solves_a_quintet_problem() -> None:
    from .helpers import problem_stones, quintet_problems

    problem = next(p for p in quintet_problems() if p["name"] == "test_vct_black")
    black, white, side = problem_stones(problem)
    board = Board(15, "renju")
    for b, w in zip(black, white, strict=True):  # equal counts, black to move
        board.play(Move(*b))
        board.play(Move(*w))
    assert board.to_move == side and not board.is_over
    line = Engine("renju").vct(board, max_depth=6)
    assert line is not None
    assert line[0].algebraic(15) == problem["solution"][0].lower()
    replay = board.copy()
    replay.play_moves(line)
    assert replay.winner == side or replay.lost_by_forbidden


def test_the_transposition_table_uses_its_whole_budget() -> None:
    tt = S.new_tt(3)  # not a power of two: 3 MB, 16 bytes an entry
    assert tt.nbytes == 3 * 1024 * 1024
    assert tt.ctypes.data % 64 == 0  # a bucket is one cache line
    entries = tt.shape[0] // 2
    # every bucket index stays inside the table
    for key in (0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15):
        base = S.tt_bucket(np.uint64(key), entries)
        assert 0 <= base <= entries - 4 and base % 4 == 0


@pytest.mark.parametrize("order", ["learned", "classic"])
def test_static_order_is_the_order_generate_gives_without_histories(order: str) -> None:
    # generate's score of a quiet move is static_order plus histories, killers and the table
    # move; with those empty it is static_order exactly (the policy reductions rely on it)
    rng = np.random.default_rng(23)
    engine = Engine("renju", params={"ORDER": order})
    for _ in range(5):
        board = _random_board(rng, 15, "renju", int(rng.integers(5, 25)))
        st, tb = ST.state_from_board(board, engine.tables)
        ctx = S.new_context(st.cells.shape[0], S.new_tt(1), np.zeros(1, dtype=np.int64))
        engine._prepare(ctx, None)
        ctx.history[:] = 0
        n = S.generate(st, ctx, 0, -1, False, -1)
        s = st.info[ST.I_SIDE] - 1
        assert n > 0
        for i in range(n):
            p = int(ctx.moves[0, i])
            own, opp = st.cls[s, p] & 7, st.cls[1 - s, p] & 7
            assert ctx.scores[0, i] == S.static_order(st, ctx, p, s, own, opp)


def test_policy_reductions_change_the_tree_only_when_switched_on() -> None:
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11", "h9", "h7"], 15, "freestyle")

    def nodes(params: dict) -> int:
        return Engine("freestyle", hash_mb=4, params=params).search(board, depth=8).nodes

    default = nodes({})
    assert nodes({"POLICY_REDUCE_GAP": 0, "POLICY_KEEP_GAP": 5000}) == default
    assert nodes({"POLICY_REDUCE_GAP": 1, "POLICY_KEEP_GAP": -(10**9)}) < default


def test_rule_params_apply_to_their_rule_and_give_way_to_the_callers(monkeypatch) -> None:
    from plies.gomoku.engine import params

    monkeypatch.setitem(params.RULE_PARAMS, "renju", {"ATTACK": 40})
    assert Engine("renju").tables.weights[ST.W_ATTACK] == 40
    assert Engine("freestyle").tables.weights[ST.W_ATTACK] == params.ATTACK
    assert Engine("renju", params={"ATTACK": 50}).tables.weights[ST.W_ATTACK] == 50


def test_singular_extensions_change_the_tree_only_when_switched_on() -> None:
    board = Board.from_moves(["h8", "i9", "h10", "g9", "i10", "j11", "h9", "h7"], 15, "freestyle")

    def search(params: dict):
        engine = Engine("freestyle", hash_mb=4, params=params)
        result = engine.search(board, depth=9)
        # every singular test put back the move it skipped
        ctx = engine._contexts[0]
        assert not ctx.stats[S.S_SKIP : S.S_SKIP + S.MAX_PLY].any()
        return result

    off = search({"SE_DEPTH": 0})
    assert search({"SE_DEPTH": 0, "SE_MARGIN": 1}).nodes == off.nodes
    assert search({"SE_DEPTH": 4, "SE_MARGIN": 2}).nodes != off.nodes


@pytest.mark.parametrize("rule", ["freestyle", "renju"])
def test_singular_extensions_keep_the_tactics(rule: str) -> None:
    se = {"SE_DEPTH": 2, "SE_MARGIN": 1}
    # make the open four (a win in 3)
    board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "o15"], 15, rule)
    result = Engine(rule, hash_mb=4, params=se).search(board, depth=6)
    assert result.move in {Move(6, 7), Move(10, 7)} and result.score > S.WIN_BOUND
    # block the opponent's four
    board = Board.from_moves(["a1", "h9", "g9", "i9", "o1", "j9", "a15", "k9"], 15, rule)
    assert Engine(rule, hash_mb=4, params=se).search(board, depth=6).move == Move(11, 6)


def test_an_unknown_engine_number_is_a_one_line_error() -> None:
    from plies.errors import InvalidOption

    with pytest.raises(InvalidOption, match=r"^unknown engine parameters: \['FOO'\]$"):
        Engine("freestyle", hash_mb=1, params={"FOO": 1})


def test_refined_eval_takes_the_table_score_only_beyond_the_static_value() -> None:
    lower, upper, exact = S.BOUND_LOWER, S.BOUND_UPPER, S.BOUND_EXACT
    # a lower bound above the static value, an upper bound below it: the truth is there
    assert S.refined_eval(100, 300, lower) == 300
    assert S.refined_eval(100, -50, upper) == -50
    assert S.refined_eval(100, 300, exact) == 300
    assert S.refined_eval(100, -50, exact) == -50
    # a bound on the near side says nothing the static value does not
    assert S.refined_eval(100, 300, upper) == 100
    assert S.refined_eval(100, -50, lower) == 100
    # wins and losses stay with the win logic
    assert S.refined_eval(100, S.WIN - 5, lower) == 100
    assert S.refined_eval(100, -(S.WIN - 5), upper) == 100


@pytest.mark.parametrize("name", ["TT_EVAL", "CUT_LMR"])
def test_session_30_refinements_change_the_tree_and_keep_the_tactics(name: str) -> None:
    board = Board.from_moves(["h8", "i9", "g7", "j9", "i7", "h7"], 15, "freestyle")

    def nodes(params: dict) -> int:
        return Engine("freestyle", hash_mb=4, params=params).search(board, depth=9).nodes

    assert nodes({name: 0}) != nodes({name: 1})
    for rule in ("freestyle", "renju"):
        # make the open four (a win in 3), block the opponent's four
        board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "o15"], 15, rule)
        result = Engine(rule, hash_mb=4, params={name: 1}).search(board, depth=8)
        assert result.move in {Move(6, 7), Move(10, 7)} and result.score > S.WIN_BOUND
        board = Board.from_moves(["a1", "h9", "g9", "i9", "o1", "j9", "a15", "k9"], 15, rule)
        assert Engine(rule, hash_mb=4, params={name: 1}).search(board, depth=8).move == Move(11, 6)


def test_table_entries_two_plies_below_the_horizon_are_trusted_at_any_depth() -> None:
    # stored as depth 256 + depth (session 30: storing them as -1 measured weaker at 20,000
    # nodes); one ply below the horizon stays -1, and ordinary depths are kept as they are;
    # TT_DEEP_FORCED 0 stores them as -1
    for deep, minus2, minus3 in ((1, 254, 253), (0, -1, -1)):
        ctx = S.new_context(400, S.new_tt(1), np.zeros(1, dtype=np.int64))
        ctx.stats[S.S_TT_DEEP_FORCED] = deep
        for key, depth, stored in ((11, 5, 5), (12, -1, -1), (13, -2, minus2), (14, -3, minus3)):
            S.tt_store(ctx, np.uint64(key << 40 | key), 7, 100, depth, S.BOUND_LOWER)
            found, move, score, got, bound = S.tt_probe(ctx, np.uint64(key << 40 | key))
            assert found and (move, score, got, bound) == (7, 100, stored, S.BOUND_LOWER)


def test_chebyshev_distance_on_the_board_array() -> None:
    stride = 21
    assert S.chebyshev(5 * stride + 5, 5 * stride + 5, stride) == 0
    assert S.chebyshev(5 * stride + 5, 8 * stride + 4, stride) == 3
    assert S.chebyshev(2 * stride + 9, 7 * stride + 3, stride) == 6


def test_useless_defence_reduction_keeps_the_defence_of_an_open_three() -> None:
    from plies.gomoku.notation import parse_move

    # black's open three h8-i8-j8 (j8 its last move); white's b14-c14-d14, blocked by black's
    # a14, is far away: its fours there are reduced, not dropped; the answer stops the three
    board = Board.from_moves(["h8", "b14", "i8", "c14", "a14", "d14", "j8"], 15, "freestyle")
    base = Engine("freestyle", hash_mb=4).search(board, depth=8)
    cut = Engine("freestyle", hash_mb=4, params={"USELESS_DEFENCE_R": 2}).search(board, depth=8)
    assert cut.nodes != base.nodes
    answers = {parse_move(m) for m in ("f8", "g8", "k8", "l8", "e14", "f14")}
    assert cut.move in answers and base.move in answers
    assert abs(cut.score) < S.WIN_BOUND


def test_move_count_limit_old_formula_and_rapfi_style_exponent() -> None:
    # 0: the shipped 2 + d(d+2)/2; an exponent e: 3 + d ** (e / 100), truncated
    assert [S.move_count_limit(d, 0) for d in (1, 4, 8)] == [3, 14, 42]
    assert [S.move_count_limit(d, 132) for d in (1, 4, 8)] == [4, 9, 18]
    assert [S.move_count_limit(d, 100) for d in (1, 4, 8)] == [4, 7, 11]


def test_every_search_number_in_a_stats_slot_reaches_the_kernels() -> None:
    # the engine's numbers and new_context's defaults go through the same table of slots
    names = [name for _, name in S.STAT_PARAMS]
    assert len(set(names)) == len(names) and set(names) <= set(PR.SEARCH_NUMBERS)
    slots = [slot for slot, _ in S.STAT_PARAMS]
    assert len(set(slots)) == len(slots) and max(slots) < S.S_COUNT
    engine = Engine("freestyle", hash_mb=1, params={"LMP_EXP": 132, "RFP_MARGIN": 90})
    engine.search(Board.from_moves(["h8", "i9"], 15, "freestyle"), depth=2)
    stats = engine._contexts[0].stats
    assert stats[S.S_LMP_EXP] == 132 and stats[S.S_RFP_MARGIN] == 90
    fresh = S.new_context(400, S.new_tt(1), np.zeros(1, dtype=np.int64)).stats
    for slot, name in S.STAT_PARAMS:
        assert fresh[slot] == getattr(PR, name)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LMP_EXP", 132),
        ("RFP_MARGIN", 60),
        ("LMR_HIST_DIV", 500),
        ("USELESS_DEFENCE_R", 2),
        ("LMR_DEEPER_MARGIN", 40),
        ("TT_DEEP_FORCED", 0),
        ("TACTICAL_OWN", 3),  # session 35's default is 4 (plain fours reducible)
        ("FUTILITY_DEPTH", 5),  # session 36's numbers
        ("FUTILITY_MARGIN", 80),
        ("QFOUR_PLIES", 2),
    ],
)
def test_session_34_search_numbers_change_the_tree_and_keep_the_tactics(
    name: str, value: int
) -> None:
    board = Board.from_moves(["h8", "i9", "g7", "j9", "i7", "h7"], 15, "freestyle")

    def nodes(params: dict) -> int:
        return Engine("freestyle", hash_mb=4, params=params).search(board, depth=9).nodes

    shipped = getattr(PR, name)
    assert nodes({name: shipped}) == nodes({})
    assert nodes({name: value, "RFP_DEPTH": 8}) != nodes({"RFP_DEPTH": 8})
    for rule in ("freestyle", "renju"):
        board = Board.from_moves(["h8", "a1", "i8", "a3", "j8", "o15"], 15, rule)
        result = Engine(rule, hash_mb=4, params={name: value}).search(board, depth=8)
        assert result.move in {Move(6, 7), Move(10, 7)} and result.score > S.WIN_BOUND
        board = Board.from_moves(["a1", "h9", "g9", "i9", "o1", "j9", "a15", "k9"], 15, rule)
        assert Engine(rule, hash_mb=4, params={name: value}).search(board, depth=8).move == Move(
            11, 6
        )


def test_leaf_vcf_nodes_counts_the_horizon_probes_inside_the_node_total() -> None:
    # black has fours to make on both sides of the board, so the horizon probes run
    board = Board.from_moves(["h8", "h9", "i8", "i9", "e5", "k11", "e6", "l11"], 15, "freestyle")
    engine = Engine("freestyle", hash_mb=4)
    assert engine.leaf_vcf_nodes == 0  # nothing searched yet
    result = engine.search(board, depth=5)
    assert 0 < engine.leaf_vcf_nodes < result.nodes
    off = Engine("freestyle", hash_mb=4, features={"vcf_leaf": False})
    off.search(board, depth=5)
    assert off.leaf_vcf_nodes == 0
