"""Quiet winning moves at the root: a single-line search finds the win at the depth where only
a MultiPV search's later line (a full-window search of that move) used to find it."""

from __future__ import annotations

import pytest

from plies.gomoku import Board
from plies.gomoku.engine import Engine
from plies.gomoku.engine import search as S

# (rule, depth, moves): at ``depth``, multipv=3 proved a win in line 2 or 3 (or sorted it first)
# while multipv=1 did not; the depth where multipv=1 first proved it before the fix
# (root_threats and razor_threats off) is in the comment.
FOUND_NOW = [
    ("freestyle", 5, "h8 j6 i9 l6 m6 k5 f9 k8 l10"),  # was 6 (test_multipv.py)
    (
        "freestyle",
        5,
        "7,7 9,5 10,4 11,5 9,3 5,7 10,7 11,2 8,9 5,9 12,4 3,9 12,1 4,5 6,5 9,11 7,4 10,3",
    ),  # 6
    ("freestyle", 5, "7,7 8,9 9,9 7,5 11,7 8,7 6,8 8,3 6,4 10,5"),  # 7
    ("freestyle", 6, "7,7 6,9 7,11 9,8 4,9 2,10 10,9 1,10 0,9 8,9 12,11 5,11 6,5 12,10 4,6"),  # 7
    ("freestyle", 6, "7,7 7,8 5,8 8,6 10,7 5,9 3,8 12,6 10,4 2,9 12,5 0,11 3,6 3,11 5,4 8,3"),  # 7
    (
        "renju",
        5,
        "7,7 8,6 7,6 7,5 5,9 3,8 9,9 5,4 10,8 3,11 9,3 3,5 1,5 2,12 7,4 2,5 4,10 5,5 4,3 10,5"
        " 12,4 10,1 3,3 12,3 9,10 4,14",
    ),  # 6
]

# the positions and depths were found with the hand-set evaluation weights of session 5 and
# LMR_BASE 1.0; the SPSA-tuned defaults (session 6) find two of them one ply later and the Renju
# one's reply search does not see its loss at depth + 1, and LMR_BASE 0.75 (session 8) finds
# another one ply later, and the learned move order (session 10) changes which moves are
# reduced, so the search fix is tested with those settings and the hand-written order (and
# without the pattern network of session 16, with which one of them is found a ply later;
# and with Renju black's double-three cells valued as threats, as before session 27: taken as
# forbidden, the Renju position's win is found at depth 6)
SESSION5_PARAMS = {
    "ORDER": "classic",
    "NET": "off",
    "PATTERN_VALUE": [0, 0, 1, 3, 4, 14, 18, 60, 70, 400, 2000],
    "CLASS_BONUS": [0, 0, 180, 0, 350, 600, 0, 0],
    "ATTACK": 72,
    "LMR_BASE": 1.0,
    "RENJU_33_FORBIDDEN": 0,
}


@pytest.mark.parametrize(("rule", "depth", "moves"), FOUND_NOW)
def test_single_line_search_finds_the_win(rule: str, depth: int, moves: str) -> None:
    board = Board.from_moves(moves.split(), 15, rule)
    result = Engine(rule, hash_mb=4, params=SESSION5_PARAMS).search(board, depth=depth)
    assert result.score > S.WIN_BOUND, result.score_text
    # the move really wins: after it, the opponent's own search sees its loss
    after = Board.from_moves(moves.split() + [str(result.move)], 15, rule)
    reply = Engine(rule, hash_mb=4, params=SESSION5_PARAMS).search(after, depth=depth + 1)
    assert reply.score < -S.WIN_BOUND, reply.score_text


def test_the_switches_exist_and_default_on() -> None:
    for name in ("root_threats", "razor_threats"):
        assert S.DEFAULT_FEATURES[S.FEATURE_NAMES.index(name)]
