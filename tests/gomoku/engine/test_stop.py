"""The stop contract: a stop() for a search that is about to start is never lost, a stray one
never cuts the next search short. Threads are ordered with events, not sleeps."""

from __future__ import annotations

import threading

import pytest

from plies.gomoku import Board
from plies.gomoku.engine import Engine

MOVES = ["h8", "h10", "f11", "j10", "j6", "l11", "d9"]  # undecided (about -60 at depth 5)
DEEP = 40  # a depth no test search reaches unless it ignores the stop
WAIT = 60.0  # generous timeouts: an event that never comes fails the test, not a hang
BACKSTOP = 300_000  # nodes: a search that misses its stop still ends (and fails the test)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine("freestyle", hash_mb=4)


@pytest.fixture
def board() -> Board:
    return Board.from_moves(MOVES, 15, "freestyle")


def stopped_at_once(board: Board, result) -> bool:
    """Stopped before the first iteration: the first ordered move, a handful of nodes."""
    return result.depth == 0 and result.nodes < 100 and board.is_legal(result.move)


def test_stop_after_begin_stops_the_search(engine: Engine, board: Board) -> None:
    engine.begin()
    engine.stop()
    assert stopped_at_once(board, engine.search(board, depth=DEEP, nodes=BACKSTOP))


def test_stop_from_another_thread_between_begin_and_search(engine: Engine, board: Board) -> None:
    token = engine.begin()
    stopper = threading.Thread(target=engine.stop, args=(token,))
    stopper.start()
    stopper.join(WAIT)
    assert stopped_at_once(board, engine.search(board, depth=DEEP, nodes=BACKSTOP))


def test_a_stop_landing_inside_search_before_it_runs_is_kept(
    engine: Engine, board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without begin(): the stop arrives from another thread while search() checks its
    # arguments, before any iteration (main cleared the flag after that point: lost)
    entered, stopped = threading.Event(), threading.Event()
    check = engine._check_board

    def slow_check(b: Board) -> None:
        entered.set()
        assert stopped.wait(WAIT)
        check(b)

    monkeypatch.setattr(engine, "_check_board", slow_check)

    def stopper() -> None:
        assert entered.wait(WAIT)
        engine.stop()
        stopped.set()

    t = threading.Thread(target=stopper)
    t.start()
    result = engine.search(board, depth=DEEP, nodes=BACKSTOP)
    t.join(WAIT)
    assert stopped_at_once(board, result)


def test_a_stray_stop_does_not_poison_the_next_search(engine: Engine, board: Board) -> None:
    engine.stop()  # nothing running or announced
    assert engine.search(board, depth=3).depth == 3
    engine.stop()
    engine.begin()  # announced after the stray stop: a fresh search
    assert engine.search(board, depth=3).depth == 3


def test_a_stop_for_a_finished_search_does_not_reach_the_next(engine: Engine, board: Board) -> None:
    old = engine.begin()
    assert engine.search(board, depth=2).depth == 2
    new = engine.begin()
    engine.stop(old)  # late: meant for the search that is over
    assert engine.search(board, depth=3).depth == 3
    engine.begin()
    engine.stop(new)
    assert engine.search(board, depth=3).depth == 3


def test_search_alone_forgets_an_earlier_stop(engine: Engine, board: Board) -> None:
    # backwards compatible: search() without begin() starts with a clear flag
    engine.begin()
    assert engine.search(board, depth=2).depth == 2
    engine.stop()
    assert engine.search(board, depth=3).depth == 3


def test_stop_during_the_search_from_another_thread(board: Board) -> None:
    engine = Engine("freestyle", hash_mb=4, threads=2)
    iterated = threading.Event()
    token = engine.begin()
    out = {}

    def run() -> None:
        out["result"] = engine.search(board, depth=DEEP, info=lambda r: iterated.set())

    t = threading.Thread(target=run)
    t.start()
    assert iterated.wait(WAIT)  # one iteration done: the search is running
    engine.stop(token)
    t.join(WAIT)
    assert not t.is_alive()
    result = out["result"]
    assert 1 <= result.depth < DEEP and board.is_legal(result.move)


def test_a_failed_search_consumes_its_announcement(engine: Engine, board: Board) -> None:
    engine.begin()
    engine.stop()
    with pytest.raises(Exception, match="multipv"):
        engine.search(board, depth=2, multipv=0)
    assert engine.search(board, depth=2).depth == 2  # the stop went with the failed search
