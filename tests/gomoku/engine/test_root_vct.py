"""The VCT solver at the root of a search: a proven threat win is played at once, with a mate
score and a line that replays as a win; switched off, the search is the plain one; a stop
during the VCT ends the search promptly."""

from __future__ import annotations

import threading
import time

import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board, rules
from plies.gomoku.engine import api
from plies.gomoku.engine import search as S
from plies.gomoku.engine import vct as VT
from plies.gomoku.engine.api import Engine

from .helpers import algebraic, quintet_problems
from .test_vct import _pos, problem_board, verify_vct

WAIT = 60.0


def quintet(name: str) -> tuple[dict, Board]:
    problem = next(p for p in quintet_problems() if p["name"] == name)
    return problem, problem_board(problem)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine("renju", 15, hash_mb=4)


@pytest.fixture(scope="module")
def engine_off() -> Engine:
    return Engine("renju", 15, hash_mb=4, params={"ROOT_VCT_SHARE": 0})


def assert_proven_win(board: Board, result, first: str) -> None:
    assert algebraic(result.move) == first
    assert result.score == S.WIN - len(result.pv) and result.score > S.WIN_BOUND
    assert result.win_probability == 1.0 and result.score_text == f"win in {len(result.pv)}"
    assert result.depth == len(result.pv) and result.pv[0] == result.move
    assert [line.move for line in result.lines] == [result.move]
    verify_vct(board.cells, 15, 15, rules.RENJU, board.to_move, [_pos(m, 15) for m in result.pv])
    replay = board.copy()
    replay.play_moves(result.pv)
    assert replay.winner == board.to_move or not replay.is_over  # a four black cannot block


@pytest.mark.parametrize("name", ["test_vct_black", "test_vct_fukumi_move"])
def test_a_timed_search_plays_the_proven_vct(engine: Engine, name: str) -> None:
    problem, board = quintet(name)
    assert engine.vcf(board) is None  # a threat win, not a VCF the search's leaves could see
    reports = []
    result = engine.search(board, movetime=2.0, info=reports.append)
    assert engine.root_vct_stats["proved"] == 1
    assert_proven_win(board, result, problem["solution"][0])
    assert reports and reports[-1].move == result.move and reports[-1].score == result.score


def test_a_node_limited_search_gives_the_vct_its_share(engine: Engine) -> None:
    problem, board = quintet("test_vct_fukumi_move")
    nodes = 20_000
    result = engine.search(board, nodes=nodes)
    share = engine._search_params["ROOT_VCT_SHARE"]
    assert 0 < engine.root_vct_stats["nodes"] <= nodes * share // 100
    assert_proven_win(board, result, problem["solution"][0])
    assert result.nodes == engine.root_vct_stats["nodes"]


def test_switched_off_the_search_is_the_plain_one(engine: Engine, engine_off: Engine) -> None:
    _, board = quintet("test_vct_fukumi_move")
    off = engine_off.search(board, nodes=20_000)
    assert engine_off.root_vct_stats == {}
    assert off.score < S.WIN_BOUND  # the plain search does not see this win within 20,000
    assert off.nodes > 19_000  # and spends the whole budget on its own iterations


def test_no_root_vct_at_fixed_depth_nor_with_multipv(engine: Engine) -> None:
    _, board = quintet("test_vct_fukumi_move")
    engine.search(board, depth=2)
    assert engine.root_vct_stats == {}
    result = engine.search(board, nodes=20_000, multipv=2)
    assert engine.root_vct_stats == {} and len(result.lines) == 2


def test_a_stop_during_the_root_vct_returns_promptly(monkeypatch: pytest.MonkeyPatch) -> None:
    # an unsolved quintet bench problem: the VCT, given the whole of a long budget, runs on
    engine = Engine("renju", 15, hash_mb=4, params={"ROOT_VCT_SHARE": 100, "ROOT_VCT_DEPTH": 30})
    _, board = quintet("bench_vct_black")
    started = threading.Event()
    solve = api.VT.solve

    def announced_solve(*args, **kwargs):
        started.set()
        return solve(*args, **kwargs)

    monkeypatch.setattr(api.VT, "solve", announced_solve)
    out = {}

    def run() -> None:
        out["result"] = engine.search(board, movetime=60.0)

    thread = threading.Thread(target=run)
    thread.start()
    assert started.wait(WAIT)
    time.sleep(0.2)
    stopped = time.perf_counter()
    engine.stop()
    thread.join(WAIT)
    assert not thread.is_alive()
    assert time.perf_counter() - stopped < 1.0
    result = out["result"]
    assert engine.root_vct_stats["proved"] == 0 and engine.root_vct_stats["nodes"] > 0
    assert result.move is not None and board.is_legal(result.move)


def test_the_root_vct_keeps_to_its_share_of_the_budget() -> None:
    # bench_vct_black needs about 1 s and 96k df-pn nodes: every budget here cuts it off
    engine = Engine("renju", 15, hash_mb=4, params={"ROOT_VCT_SHARE": 50, "ROOT_VCT_DEPTH": 30})
    _, board = quintet("bench_vct_black")
    for nodes in (4_000, 20_000):
        result = engine.search(board, nodes=nodes)
        stats = engine.root_vct_stats
        # the limit is checked as a node is entered; its look-ahead may add a few more
        assert stats["proved"] == 0 and nodes // 2 <= stats["nodes"] <= nodes // 2 + VT.MAX_THREATS
        assert result.depth >= 1 and result.nodes > 0
    engine.search(board, movetime=0.05)  # untimed: any kernel still to load is loaded here
    for movetime in (0.05, 0.2):
        start = time.perf_counter()
        result = engine.search(board, movetime=movetime)
        elapsed = time.perf_counter() - start
        stats = engine.root_vct_stats
        # the VCT's CPU time cannot exceed its wall-clock share (plus the clock's granularity),
        # however loaded the machine
        assert stats["proved"] == 0 and stats["nodes"] > 0
        assert stats["cpu"] <= movetime / 2 + 0.02
        assert elapsed < movetime + 1.0  # only a runaway: the deadline tests are elsewhere
        assert result.depth >= 1  # the search after it still had time for an iteration


def test_the_root_vct_share_comes_from_the_target_time() -> None:
    # movetime is only the deadline here (as in the brain, which stops the search itself):
    # half of the 0.1 s target is the VCT's, not half of the 6 s, in which it would prove
    # bench_vct_black (about 1 s)
    engine = Engine("renju", 15, hash_mb=4, params={"ROOT_VCT_SHARE": 50, "ROOT_VCT_DEPTH": 30})
    _, board = quintet("bench_vct_black")
    result = engine.search(board, movetime=6.0, target=0.1, info=lambda r: engine.stop())
    assert engine.root_vct_stats["proved"] == 0 and engine.root_vct_stats["nodes"] > 0
    assert engine.root_vct_stats["cpu"] < 0.5
    assert result.move is not None and board.is_legal(result.move)


def test_root_vct_bytes_is_what_the_engine_allocates() -> None:
    engine = Engine("caro", 20, hash_mb=1)
    ctx = engine._vct_context((20 + 2 * rules.PAD) ** 2)
    own = sum(a.nbytes for a in ctx if hasattr(a, "nbytes")) - ctx.pot.nbytes - ctx.pwin.nbytes
    assert api.root_vct_bytes("caro", 20, 20) == own


@pytest.mark.parametrize("target", [-1.0, float("nan")])
def test_a_bad_target_is_a_one_line_error(engine: Engine, target: float) -> None:
    _, board = quintet("test_vct_black")
    with pytest.raises(InvalidOption, match="target must be a non-negative number of seconds"):
        engine.search(board, movetime=0.1, target=target)


def test_the_hot_share_follows_the_same_sides_previous_score() -> None:
    def share_after(engine: Engine, searched: Board, now: Board) -> int:
        engine.search(searched, depth=2)
        return engine._root_vct_share(now)

    start = Board.from_moves(["h8", "h9", "j8", "g7"], 15, "renju")
    two_later = start.copy()
    two_later.play_moves(["k8", "g8"])
    one_later = start.copy()
    one_later.play("k8")
    elsewhere = Board.from_moves(["h8", "h9", "j9", "g7", "k8", "g8"], 15, "renju")
    hot = Engine(
        "renju", 15, hash_mb=4, params={"ROOT_VCT_HOT_SHARE": 70, "ROOT_VCT_HOT_SCORE": -S.INF}
    )
    cold = Engine(
        "renju", 15, hash_mb=4, params={"ROOT_VCT_HOT_SHARE": 70, "ROOT_VCT_HOT_SCORE": S.INF}
    )
    off = Engine("renju", 15, hash_mb=4, params={"ROOT_VCT_HOT_SCORE": -S.INF})
    base = hot._search_params["ROOT_VCT_SHARE"]
    assert hot._root_vct_share(two_later) == base  # nothing searched yet
    assert share_after(hot, start, two_later) == 70
    assert share_after(hot, start, one_later) == base  # the other side to move
    assert share_after(hot, start, elsewhere) == base  # another game
    assert share_after(cold, start, two_later) == base  # the score is below the bar
    assert share_after(off, start, two_later) == base  # no hot share given
    hot.search(start, depth=2)
    hot.new_game()
    assert hot._root_vct_share(two_later) == base  # a new game forgets the last search


def test_the_hot_share_runs_the_root_vct_where_the_plain_share_is_off() -> None:
    engine = Engine(
        "renju",
        15,
        hash_mb=4,
        params={"ROOT_VCT_SHARE": 0, "ROOT_VCT_HOT_SHARE": 70, "ROOT_VCT_HOT_SCORE": -S.INF},
    )
    board = Board.from_moves(["h8", "h9", "j8", "g7"], 15, "renju")
    engine.search(board, nodes=2_000)
    assert engine.root_vct_stats == {}  # no previous search: the plain share, 0, runs none
    board.play_moves(["k8", "g8"])
    engine.search(board, nodes=2_000)
    assert 0 < engine.root_vct_stats["nodes"] <= 2_000 * 70 // 100


def test_leaf_vcf_nodes_is_zero_after_a_search_the_root_vct_answered() -> None:
    _, board = quintet("test_vct_black")
    engine = Engine("renju", 15, hash_mb=8)
    engine.search(board, depth=4)  # a tree search: its horizon probes count
    assert engine.leaf_vcf_nodes > 0
    engine.search(board, movetime=2.0)
    assert engine.root_vct_stats["proved"] == 1
    assert engine.leaf_vcf_nodes == 0  # no tree was searched: not the previous search's count


def test_the_solver_numbers_reach_every_solver_run_of_the_engine() -> None:
    # VCT_LOOKAHEAD and VCT_VCF_BUDGET set the solver's look-ahead and VCF probe budget for the
    # root VCT (kept across the context's resets) and Engine.vct; every setting proves the same
    # quintet problem, the counts differ
    problem, board = quintet("test_vct_fukumi_move")
    counts = {}
    for look, budget in ((0, 20000), (2, 20000), (0, 2000)):
        params = {"VCT_LOOKAHEAD": look, "VCT_VCF_BUDGET": budget}
        engine = Engine("renju", 15, hash_mb=4, params=params)
        cells = board.cells.shape[0]
        for _ in range(2):  # the second after a reset
            ctl = engine._vct_context(cells).ctl
            assert (ctl[VT.K_LOOKAHEAD], ctl[VT.K_VCF_BUDGET]) == (look, budget)
        line = engine.vct(board, max_depth=20)
        assert line is not None and engine.vct_stats["nodes"] > 0
        verify_vct(board.cells, 15, 15, rules.RENJU, board.to_move, [_pos(m, 15) for m in line])
        counts[look, budget] = (engine.vct_stats["nodes"], engine.vct_stats["vcf_nodes"])
        result = engine.search(board, movetime=2.0)
        assert engine.root_vct_stats["proved"] == 1
        assert_proven_win(board, result, problem["solution"][0])
    assert counts[0, 20000] != counts[2, 20000]
    assert counts[0, 20000] != counts[0, 2000]
