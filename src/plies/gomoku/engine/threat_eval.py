"""The threat term of the evaluation: a learned value for what each side can make next move.

The cell-value sums of the evaluation add up every empty cell's worth, but cannot say that
having the move with a double three to make is nearly a win while the same double three for
the side that just moved is a threat to answer. The threat term does: the position's *threat
mask* is, for the side to move and for its opponent, a bucket of four counts the state keeps
anyway (empty cells per threat class, ``State.counts``):

* ``flex``: cells where the side makes a flex four (it has an open three): 0, 1-2, 3+;
* ``double``: cells where it makes a double three or a four-three: 0, 1, 2+;
* ``four``: cells where it makes a four: 0, 1-2, 3-4, 5+;
* ``three``: cells where it makes an open three: 0-1, 2-4, 5-8, 9+.

That is :data:`SIDE_MASKS` (144) buckets a side, and the term is one table entry per pair
(side to move's bucket, opponent's bucket) and colour to move: ``int16[2, 144 * 144]``, added to
the evaluation (centi-units, side to move's view). The table is learned from plies' own
self-play (:mod:`plies.tune.gomoku_threat`); with no table the term is 0 and the evaluation is
the hand-written one exactly. Reading it costs eight counts and one look-up per evaluation.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numba import njit

from plies.gomoku.rules import RULE_NAMES

FLEX_BUCKETS = 3
DOUBLE_BUCKETS = 3
FOUR_BUCKETS = 4
THREE_BUCKETS = 4
SIDE_MASKS = FLEX_BUCKETS * DOUBLE_BUCKETS * FOUR_BUCKETS * THREE_BUCKETS
MASKS = SIDE_MASKS * SIDE_MASKS
# class slots of State.counts (the values of state.C_THREE ... C_FLEX4, repeated here so that
# this module does not import the state, which imports it)
_THREE, _THREE2, _FOUR, _FOUR_THREE, _FLEX4 = 1, 2, 3, 4, 5


@njit(cache=True, nogil=True, _nrt=False)
def side_mask(counts, s: int, black_33_forbidden: int = 0) -> int:
    """The bucket (0 .. SIDE_MASKS - 1) of side ``s``'s threat counts (``counts[s, class]``);
    ``black_33_forbidden`` (Renju): black's double-three cells are no double threats."""
    f = counts[s, _FLEX4]
    flex = 0 if f == 0 else (1 if f <= 2 else 2)
    d = counts[s, _FOUR_THREE]
    if s != 0 or black_33_forbidden == 0:
        d += counts[s, _THREE2]
    double = d if d < 2 else 2
    q = counts[s, _FOUR]
    four = 0 if q == 0 else (1 if q <= 2 else (2 if q <= 4 else 3))
    t = counts[s, _THREE]
    three = 0 if t <= 1 else (1 if t <= 4 else (2 if t <= 8 else 3))
    return ((flex * DOUBLE_BUCKETS + double) * FOUR_BUCKETS + four) * THREE_BUCKETS + three


@njit(cache=True, nogil=True, _nrt=False)
def mask_of(counts, s: int, black_33_forbidden: int = 0) -> int:
    """The position's threat mask for side to move ``s`` (0 black): its own bucket times
    SIDE_MASKS plus the opponent's (``black_33_forbidden``: see :func:`side_mask`)."""
    return side_mask(counts, s, black_33_forbidden) * SIDE_MASKS + side_mask(
        counts, 1 - s, black_33_forbidden
    )


def decode_side(mask):
    """The (flex, double, four, three) buckets of one side's mask (an int or an integer
    array)."""
    mask, three = divmod(mask, THREE_BUCKETS)
    mask, four = divmod(mask, FOUR_BUCKETS)
    flex, double = divmod(mask, DOUBLE_BUCKETS)
    return flex, double, four, three


def empty_table() -> np.ndarray:
    """The table of no threat term (every entry 0)."""
    return np.zeros((2, MASKS), dtype=np.int16)


def threat_path(rule: int | str) -> Path:
    """Where the shipped threat table of ``rule`` lives (it may not exist)."""
    name = RULE_NAMES[rule] if isinstance(rule, int) else rule
    return Path(str(resources.files("plies.data").joinpath(f"gomoku-threat-{name}.npy")))


def load_threat(path: str | Path) -> np.ndarray:
    """A threat table (int16[2, MASKS]: row 0 black to move, row 1 white) from a ``.npy``
    file, checked; a single row (shape ``[1, MASKS]``) serves both colours."""
    values = np.load(path, allow_pickle=False)
    if values.ndim != 2 or values.shape[0] not in (1, 2) or values.shape[1] != MASKS:
        raise ValueError(
            f"{path}: expected a threat table of shape (1 or 2, {MASKS}), not {values.shape}"
        )
    values = np.clip(np.rint(values), -32000, 32000).astype(np.int16)
    # a writable copy (np.broadcast_to's view is read-only): the kernels are compiled for
    # writable arrays, and a read-only one is another type, compiled again for minutes
    return np.array(np.broadcast_to(values, (2, MASKS)), dtype=np.int16, order="C")


@cache
def shipped_threat(rule: int) -> np.ndarray | None:
    """The threat table shipped for ``rule``, or None (no threat term)."""
    path = threat_path(rule)
    if not path.is_file():
        return None
    values = load_threat(path)
    values.setflags(write=False)
    return values


def threat_table(rule: int, choice: str) -> np.ndarray:
    """The table the evaluation uses: ``"learned"`` (the shipped one, else none), ``"off"``
    (none) or the path of a table; "none" is the all-zero table."""
    if choice == "off":
        return empty_table()
    if choice == "learned":
        shipped = shipped_threat(rule)
        # a writable copy: the kernels are compiled for writable arrays (a read-only one would
        # be another type, and another compilation)
        return empty_table() if shipped is None else shipped.copy()
    return load_threat(choice)
