"""The brain's stop path in-process: one stop reaches a search however the threads interleave
(``Engine.begin``). Threads are ordered with events, not sleeps."""

from __future__ import annotations

import io
import threading

import pytest

from plies.gomoku import Board
from plies.gomoku.engine import Engine
from plies.gomoku.pbrain import Brain, Budget

MOVES = ["h8", "h10", "f11", "j10", "j6", "l11", "d9"]
WAIT = 60.0
LONG = Budget(soft=30.0, hard=30.0, limit=31.0)


@pytest.fixture
def setup():
    brain = Brain(io.StringIO(), io.StringIO())
    brain.engine = Engine("freestyle", hash_mb=4)
    return brain, brain.engine, Board.from_moves(MOVES, 15, "freestyle")


def test_a_stop_before_the_search_starts_reaches_it(setup, monkeypatch) -> None:
    brain, engine, board = setup
    about, stopped = threading.Event(), threading.Event()
    search, stop = engine.search, engine.stop

    def late_search(*args, **kwargs):
        about.set()  # the worker is about to call search(): the stop lands now
        assert stopped.wait(WAIT)
        return search(*args, **kwargs)

    def stop_once(*args, **kwargs):
        stop(*args, **kwargs)
        stopped.set()

    monkeypatch.setattr(engine, "search", late_search)
    monkeypatch.setattr(engine, "stop", stop_once)
    out = {}
    brain._worker = threading.Thread(
        target=lambda: out.setdefault("r", brain._search(engine, board, LONG))
    )
    brain._worker.start()
    assert about.wait(WAIT)
    brain._finish_search(stop=True, wait=WAIT)  # YXSTOP: one engine.stop(), then join
    assert brain._worker is None
    assert out["r"].depth == 0 and board.is_legal(out["r"].move)


def test_a_stop_before_the_engine_was_ready_reaches_the_search(setup) -> None:
    brain, engine, board = setup
    brain._stop.set()  # YXSTOP while the worker was still waiting for the engine
    result = brain._search(engine, board, LONG)
    assert result.depth == 0 and board.is_legal(result.move)


def test_a_search_after_a_finished_stop_runs(setup) -> None:
    brain, engine, board = setup
    engine.stop()  # stray: no search announced
    brain.info["max_depth"] = 3
    assert brain._search(engine, board, LONG).depth == 3
