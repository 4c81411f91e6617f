"""Swap openings (swap1, swap2): the engine's decisions, shared by ``plies play`` and the brain.

In **swap1** the first player places three stones (black, white, black) and the second player
chooses a colour: it stays white and plays the fourth stone, or swaps and takes black (the
first player then plays the fourth stone as white). **Swap2** gives the second player a third
choice: place a white and a black stone (stones 4 and 5), after which the first player chooses
the colour, and white plays the sixth stone.

Every decision comes from the engine's evaluation of the position for the side to move, through
the ``search(board, multipv)`` callable the caller passes (so that each caller keeps its own
time management): a score beyond ``MARGIN`` centi-units decides a colour; in between, the swap2
player adds the two stones that keep the position closest to balanced. The opener proposes the
candidate three-stone opening whose evaluation is closest to 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from plies.gomoku.board import Board
from plies.gomoku.notation import Move

MARGIN = 150  # centi-units: beyond it a swap position counts as decided for one side
MODES = ("swap1", "swap2")

Search = Callable[[Board, int], object]  # (board, multipv) -> an engine SearchResult


@dataclass(frozen=True)
class Decision:
    """A swap choice: ``swap`` (take the colour that is not to move), ``play`` (stay, and play
    ``moves[0]``) or ``add`` (swap2: place ``moves``, a white and a black stone)."""

    kind: str
    moves: tuple[Move, ...] = ()


def candidate_openings(width: int, height: int) -> list[list[Move]]:
    """Three-stone openings (black, white, black) around the centre that the opener tries."""
    cx, cy = width // 2, height // 2
    shapes = [
        [(0, 0), (1, 0), (1, 2)],
        [(0, 0), (1, 1), (-1, 2)],
        [(0, 0), (1, 0), (-2, 1)],
        [(0, 0), (1, 1), (3, 0)],
        [(0, 0), (2, 0), (-1, 2)],
        [(0, 0), (1, -1), (2, 2)],
    ]
    out = []
    for shape in shapes:
        moves = [Move(cx + dx, cy + dy) for dx, dy in shape]
        if all(0 <= m.x < width and 0 <= m.y < height for m in moves):
            out.append(moves)
    return out


def propose_opening(
    board: Board, search: Search, stopped: Callable[[], bool] = lambda: False
) -> list[Move]:
    """The opener's three stones: the candidate closest to balanced for white to move."""
    best, best_score = None, None
    candidates = candidate_openings(board.width, board.height)
    for moves in candidates:
        trial = board.copy()
        try:
            trial.play_moves(moves)
        except Exception:  # noqa: BLE001 - a candidate illegal under the rule
            continue
        if trial.is_over:
            continue
        score = abs(int(search(trial, 1).score))
        if best_score is None or score < best_score:
            best, best_score = moves, score
        if stopped():
            break
    return best if best is not None else candidates[0]


def answer_three(board: Board, search: Search, mode: str = "swap2") -> Decision:
    """The second player's choice after three stones (white to move)."""
    r = search(board, 1)
    s = int(r.score)
    if s < -MARGIN or r.move is None:
        return Decision("swap")
    if mode == "swap1" or s > MARGIN:
        return Decision("play", (r.move,)) if s >= 0 else Decision("swap")
    # balanced: add a white and a black stone so that the position stays balanced
    after = board.copy()
    after.play(r.move)
    lines = search(after, 6).lines or []
    if not lines:
        return Decision("play", (r.move,))
    fifth = min(lines, key=lambda ln: abs(ln.score)).move
    return Decision("add", (r.move, fifth))


def answer_five(board: Board, search: Search) -> Decision:
    """The first player's choice after five stones (white to move): stay black (``swap``:
    the other player keeps white... see :class:`Decision`) or take white and play."""
    r = search(board, 1)
    if int(r.score) > 0 and r.move is not None:
        return Decision("play", (r.move,))
    return Decision("swap")
