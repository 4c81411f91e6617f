"""Opening rules: which cells the first player's first two stones may take.

The one definition every part of plies uses (Board, the engine's root moves, the brain, the
arena, ``plies play``, the review, the records):

* ``free``: no restriction.
* ``pro``: the first stone (move 1) stands on the centre, and the first player's second stone
  (move 3) at Chebyshev distance 3 or more from the centre (outside the 5x5 square around it).
* ``long-pro``: the same with distance 4 or more (outside the 7x7 square).

The centre is cell ``(width // 2, height // 2)``, where a pro game's first stone stands, so
"distance from the centre" is "distance from the first stone". The restriction depends only on
the number of stones already on the board (0: move 1, 2: move 3) and never on white's moves.
``pro`` is the default for ``caro`` and ``caro5`` (Caro as played); the other rules default to
``free`` (docs/rules.md, "Opening rules").
"""

from __future__ import annotations

from plies.errors import InvalidMove, InvalidOption
from plies.gomoku.notation import Move

OPENING_NAMES = ("free", "pro", "long-pro")
_DISTANCE = {"free": 0, "pro": 3, "long-pro": 4}
_DEFAULTS = {"caro": "pro", "caro5": "pro"}
_SPELLINGS = {"longpro": "long-pro", "long_pro": "long-pro", "none": "free"}


def default_opening(rule: str) -> str:
    """The opening rule a game under ``rule`` has unless told otherwise: ``pro`` for Caro."""
    return _DEFAULTS.get(str(rule).lower(), "free")


def opening_name(name: str | None, rule: str | None = None) -> str:
    """The canonical opening name for ``name`` (any case; ``long_pro`` and ``none`` accepted),
    or the rule's default when ``name`` is None. Raises :class:`InvalidOption` otherwise."""
    if name is None:
        return default_opening(rule or "freestyle")
    key = str(name).strip().lower()
    key = _SPELLINGS.get(key, key)
    if key not in _DISTANCE:
        raise InvalidOption(
            f"unknown opening rule {name!r}: expected one of {', '.join(OPENING_NAMES)}"
        )
    return key


def min_distance(opening: str) -> int:
    """The least Chebyshev distance from the centre of the first player's second stone."""
    return _DISTANCE[opening_name(opening)]


def check_board(opening: str, width: int, height: int) -> None:
    """Raise :class:`InvalidOption` when no cell of a ``width`` x ``height`` board is far
    enough from the centre for the opening's move 3 (``pro`` needs a side of 6 or more,
    ``long-pro`` 8 or more)."""
    dist = min_distance(opening)
    if dist and max(width // 2, height // 2) < dist:
        raise InvalidOption(
            f"the {opening} opening rule needs a board side of at least {2 * dist}, "
            f"not {width}x{height}"
        )


def centre(width: int, height: int) -> Move:
    """The centre cell, where a ``pro`` game's first stone stands."""
    return Move(width // 2, height // 2)


def restricts(opening: str, stones: int) -> bool:
    """Whether the opening rule limits the move played on a board holding ``stones`` stones."""
    return min_distance(opening) > 0 and stones in (0, 2)


def violation(opening: str, width: int, height: int, stones: int, move: Move) -> str | None:
    """Why ``move``, played on a board holding ``stones`` stones, breaks the opening rule (one
    line), or None when it does not."""
    dist = min_distance(opening)
    if dist == 0 or stones not in (0, 2):
        return None
    c = centre(width, height)
    here = f"{move} ({move.algebraic(height)})"
    if stones == 0:
        if move != c:
            return (
                f"{here} breaks the {opening} opening rule: the first stone (move 1) goes on "
                f"the centre {c} ({c.algebraic(height)})"
            )
        return None
    if max(abs(move.x - c.x), abs(move.y - c.y)) < dist:
        return (
            f"{here} breaks the {opening} opening rule: black's second stone (move 3) must "
            f"stand at least {dist} cells from the centre {c} ({c.algebraic(height)})"
        )
    return None


def check(opening: str, width: int, height: int, stones: int, move: Move) -> None:
    """Raise :class:`InvalidMove` with :func:`violation`'s message when ``move`` breaks it."""
    reason = violation(opening, width, height, stones, move)
    if reason is not None:
        raise InvalidMove(reason)


def banned_cells(opening: str, width: int, height: int, stones: int) -> list[Move]:
    """The cells the opening rule forbids for the move on a board holding ``stones`` stones
    (occupied cells included; empty list when nothing is restricted)."""
    if not restricts(opening, stones):
        return []
    return [
        Move(x, y)
        for y in range(height)
        for x in range(width)
        if violation(opening, width, height, stones, Move(x, y)) is not None
    ]
