"""The game-agnostic review: thresholds, accuracy, summary, budget, cache, the position pool."""

import math

import pytest

from plies.analysis.cache import ReviewCache, cache_dir
from plies.analysis.review import (
    Budget,
    MoveReview,
    analyse_positions,
    classify_loss,
    move_accuracy,
    player_accuracy,
    summarise,
)
from plies.errors import InvalidOption


def test_classify_loss_thresholds():
    assert classify_loss(0.3, True) == "best"
    assert classify_loss(0.0, False) == "best"
    assert classify_loss(0.019, False) == "excellent"
    assert classify_loss(0.02, False) == "good"
    assert classify_loss(0.05, False) == "inaccuracy"
    assert classify_loss(0.10, False) == "mistake"
    assert classify_loss(0.20, False) == "blunder"


def test_accuracy_formula():
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(1.0) == 0.0
    assert move_accuracy(0.1) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)
    assert player_accuracy([]) is None
    assert player_accuracy([100, 100]) == pytest.approx(100)
    # one blunder weighs more than in the plain mean
    assert player_accuracy([100, 100, 0]) < 200 / 3


def _move(ply, player, wp_before, wp_after, cls="best"):
    loss = max(0, wp_before - wp_after)
    return MoveReview(
        ply, player, "h8", cls, [], wp_before, wp_after, loss, move_accuracy(loss), 0, 0, None,
        [], [], {}, "",
    )  # fmt: skip


def test_summary_turning_point_and_critical_moments():
    moves = [
        _move(1, "black", 0.6, 0.6),
        _move(2, "white", 0.4, 0.4),
        _move(3, "black", 0.6, 0.3, "blunder"),  # white now ahead ...
        _move(4, "white", 0.7, 0.35, "blunder"),  # ... until this move gives it back
        _move(5, "black", 0.65, 1.0),
    ]
    s = summarise(moves, ("black", "white"), result="black", opening=None)
    assert s.turning_point == 4
    assert s.critical_moments == [3, 4]
    assert s.players["black"]["counts"]["blunder"] == 1
    assert s.players["white"]["moves"] == 2
    draw = summarise(moves, ("black", "white"), result=None, opening=None)
    assert draw.turning_point == 4  # the largest loss
    assert s.turning_point_label == "4. h8" and s.critical_moment_labels == ["3. h8", "4. h8"]
    # White wins although it was behind in every position the engine saw: the loser's largest
    # loss is the turning point; a winner ahead throughout has none, and that is said
    s = summarise(moves, ("black", "white"), result="white", opening=None)
    assert s.turning_point == 3 and not s.winner_ahead_throughout
    ahead = [_move(1, "black", 0.6, 0.6), _move(2, "white", 0.4, 0.4), _move(3, "black", 0.6, 1.0)]
    s = summarise(ahead, ("black", "white"), result="black", opening=None)
    assert s.turning_point is None and s.winner_ahead_throughout


def test_budget_validation():
    with pytest.raises(InvalidOption):
        Budget()
    with pytest.raises(InvalidOption):
        Budget(nodes=10, depth=3)
    with pytest.raises(InvalidOption):
        Budget(movetime=-1)
    assert Budget(nodes=100).deterministic
    assert not Budget(movetime=0.5).deterministic
    assert Budget(nodes=100).key() != Budget(nodes=200).key()


def test_cache_roundtrip(tmp_path, monkeypatch):
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    with ReviewCache() as cache:
        assert cache.get("k") is None
        cache.put("k", {"a": [1, 2]})
        assert cache.get("k") == {"a": [1, 2]}
        assert len(cache) == 1
    with ReviewCache() as cache:  # persisted
        assert cache.get("k") == {"a": [1, 2]}


def test_cache_keeps_the_deeper_or_proven_analysis(tmp_path):
    with ReviewCache(tmp_path / "db.sqlite") as cache:
        deep = {"depth": 9, "facts": {}}
        assert cache.put("k", deep) == deep
        assert cache.put("k", {"depth": 7, "facts": {}}) == deep  # shallower: kept the old
        assert cache.get("k") == deep
        deeper = {"depth": 10, "facts": {}}
        assert cache.put("k", deeper) == deeper
        proven = {"depth": 3, "facts": {"proven": True}}
        assert cache.put("k", proven) == proven  # a proof beats any depth
        assert cache.put("k", {"depth": 30, "facts": {}}) == proven
        assert cache.get("k") == proven


class Square:
    """A picklable worker factory: each job's result is its square."""

    def __call__(self):
        return lambda job: {"value": job * job}


class Interrupting:
    def __call__(self):
        def work(job):
            if job == 3:
                raise KeyboardInterrupt
            return {"value": job}

        return work


def test_analyse_positions_in_process_and_cache(tmp_path):
    cache = ReviewCache(tmp_path / "db.sqlite")
    jobs = [(f"k{i}", i) for i in range(5)]
    seen = []
    results, complete = analyse_positions(
        jobs, Square(), cache=cache, on_result=lambda i, v, c: seen.append(c)
    )
    assert complete and results == {i: {"value": i * i} for i in range(5)}
    assert seen == [False] * 5
    seen.clear()
    results, _ = analyse_positions(
        jobs, Square(), cache=cache, on_result=lambda i, v, c: seen.append(c)
    )
    assert seen == [True] * 5 and results[4] == {"value": 16}


def test_analyse_positions_pool():
    results, complete = analyse_positions([(None, i) for i in range(6)], Square(), workers=2)
    assert complete and results == {i: {"value": i * i} for i in range(6)}


def test_interrupt_keeps_finished_results():
    results, complete = analyse_positions([(None, i) for i in range(6)], Interrupting())
    assert not complete and results == {i: {"value": i} for i in range(3)}


def test_a_scaled_budget_is_larger_and_searches_each_position_once():
    from plies.analysis.review import Budget

    nodes = Budget(nodes=4000, solver_nodes=4000).scaled(4)
    assert (nodes.nodes, nodes.solver_nodes, nodes.retry) == (16000, 16000, False)
    timed = Budget(movetime=0.5, solver_time=0.1).scaled(4)
    assert (timed.movetime, timed.solver_time) == (2.0, 0.4)
    assert Budget(depth=6).scaled(4).depth == 8
    # the cache keeps the two apart; a plain budget's key is unchanged
    assert timed.key() != Budget(movetime=2.0, solver_time=0.4).key()
    assert Budget(movetime=2.0).key() == "t2.0:dNone:nNone:pv3:th1:stNone:snNone"
