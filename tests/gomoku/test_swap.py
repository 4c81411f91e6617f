"""Swap openings: the shared decisions (against scripted evaluations) and ``plies play``'s
swap1/swap2 flow with a person and the engine in each role."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from plies.gomoku import swap
from plies.gomoku.board import Board
from plies.gomoku.engine import Engine
from plies.gomoku.notation import Move
from plies.gomoku.play import PlayLimits, swap_opening


@dataclass
class Line:
    move: Move
    score: int


@dataclass
class Result:
    move: Move | None
    score: int
    lines: list = field(default_factory=list)


def scripted(score: int, fifth_scores=(300, -20, 90)):
    """A search whose root score is ``score``; after the fourth stone its MultiPV lines
    score ``fifth_scores``."""

    def search(board: Board, multipv: int):
        if len(board) == 3:
            return Result(Move(9, 7), score)
        lines = [Line(Move(5 + i, 10), s) for i, s in enumerate(fifth_scores)]
        return Result(lines[0].move, lines[0].score, lines)

    return search


@pytest.mark.parametrize(
    "score,mode,kind",
    [(-400, "swap2", "swap"), (400, "swap2", "play"), (0, "swap2", "add"),
     (-151, "swap1", "swap"), (40, "swap1", "play"), (-40, "swap1", "swap")],
)  # fmt: skip
def test_answer_three(score, mode, kind):
    board = Board.from_moves(["h8", "h9", "i10"], 15)
    decision = swap.answer_three(board, scripted(score), mode)
    assert decision.kind == kind
    if kind == "add":  # white's best, then the black reply closest to balanced (-20)
        assert decision.moves == (Move(9, 7), Move(6, 10))


def test_answer_five_and_propose():
    board = Board.from_moves(["h8", "h9", "i10", "j9", "g7"], 15)
    assert swap.answer_five(board, lambda b, k: Result(Move(1, 1), 30)).kind == "play"
    assert swap.answer_five(board, lambda b, k: Result(Move(1, 1), -30)).kind == "swap"
    candidates = swap.candidate_openings(15, 15)
    target = candidates[3]
    pick = swap.propose_opening(
        Board(15), lambda b, k: Result(None, 0 if b.history == target else 500)
    )
    assert pick == target


def run(mode, roles, lines):
    board = Board(15)
    engine = Engine("freestyle", 15, hash_mb=1)
    said: list[str] = []
    answers = iter(lines)
    limits = PlayLimits(movetime=None, depth=2)
    colors = swap_opening(board, engine, mode, roles, limits, ask=lambda _: next(answers),
                          say=said.append, show=lambda b: None)  # fmt: skip
    return board, colors, said


def test_play_person_opens_engine_chooses():
    lines = ["h8 x", "h8 h8 i9", "h8 h9 i10", "black"]  # "black": if asked after five stones
    board, colors, said = run("swap2", {"second"}, lines)
    assert board.history[:3] == [Move(7, 7), Move(7, 6), Move(8, 5)]
    assert any("error" in s for s in said)  # the bad lines were refused with a message
    if len(board) == 3:  # the engine swapped: it is black, the person plays white
        assert colors == {1}
    elif len(board) == 4:  # it stayed white and played
        assert colors == {2} and board.to_move == 1
    else:  # it added two stones; the person (opener) kept black: the engine plays white
        assert len(board) == 5 and colors == {2} and board.to_move == 2


def test_play_engine_opens_person_adds_and_engine_chooses():
    board, colors, _ = run("swap2", {"first"}, ["swap2 please", "a1 a2"])
    assert len(board) in (5, 6)
    if len(board) == 6:  # the engine took white and played the sixth stone
        assert colors == {2} and board.to_move == 1
    else:  # it kept black: the person plays white now
        assert colors == {1} and board.to_move == 2


def test_play_swap1_person_chooses():
    board, colors, said = run("swap1", {"first"}, ["i9 j9", "quit"])  # swap1: no "add"
    assert colors is None and len(board) == 3
    assert any(s.startswith("expected: 'swap' to take black, or your white move") for s in said)


def test_play_swap1_person_swaps():
    board, colors, _ = run("swap1", {"first"}, ["swap"])
    assert len(board) == 3 and colors == {2}  # the engine (opener) is white now
