"""Pattern combinations: the learned evaluation's table, one value per multiset of four line
patterns.

An empty cell offers each side four line patterns (one per direction, see :mod:`patterns`);
the engine packs them in a 16-bit index, a nibble per direction. Which direction holds which
pattern does not change what the cell is worth, so the value of a cell depends only on the
*multiset* of its four patterns: 1001 combinations of the 11 patterns (``C(14, 4)``), numbered
here in a fixed order (:data:`COMBOS`).

The hand-written evaluation gives a combination the sum of its four pattern values plus a bonus
for its threat class (:func:`classic_values`). The learned evaluation gives each combination
its own value, per colour: ``values[colour, combo]`` (colour 0 black, 1 white), trained by
:mod:`plies.tune` on plies' self-play and shipped as ``plies/data/gomoku-eval-<rule>.npy``.
The search reads it through the same packed table as the hand-written one
(:func:`plies.gomoku.engine.state.make_tables`), so it costs nothing per node.
"""

from __future__ import annotations

import itertools
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from plies.gomoku.engine import patterns as P
from plies.gomoku.rules import RULE_NAMES

# every multiset of four patterns, as sorted tuples, in lexicographic order
COMBOS: tuple[tuple[int, int, int, int], ...] = tuple(
    itertools.combinations_with_replacement(range(P.N_PATTERNS), 4)
)
N_COMBOS = len(COMBOS)  # 1001
_COMBO_ID = {c: i for i, c in enumerate(COMBOS)}
# the all-dead combination: a cell where no five can ever be made (value 0 by definition)
DEAD_COMBO = _COMBO_ID[(P.DEAD,) * 4]
# the all-free-one combination: a cell with nothing on its four lines (a stone there would
# stand alone in every direction); the board's size shows in how many cells are like it
FAR_COMBO = _COMBO_ID[(P.F1,) * 4]


@cache
def combo_of_index() -> np.ndarray:
    """int16[2**16]: the combination number of every packed four-pattern index (-1 when a
    nibble is not a pattern)."""
    out = np.full(1 << 16, -1, dtype=np.int16)
    for idx in range(1 << 16):
        nibbles = [(idx >> (4 * k)) & 15 for k in range(4)]
        if max(nibbles) < P.N_PATTERNS:
            out[idx] = _COMBO_ID[tuple(sorted(nibbles))]
    out.setflags(write=False)
    return out


def packed_index(combo: tuple[int, ...]) -> int:
    """A packed four-pattern index holding ``combo`` (one pattern a nibble)."""
    return sum(p << (4 * k) for k, p in enumerate(combo))


def classic_values(rule: int, pattern_value=None, class_bonus=None) -> np.ndarray:
    """float64[2, N_COMBOS]: the hand-written evaluation's value of every combination (pattern
    values plus the threat-class bonus; the rule's values in :mod:`params` unless given)."""
    from plies.gomoku.engine.state import classify_p4, rule_weights

    pv, cb = rule_weights(rule, pattern_value, class_bonus)
    out = np.zeros((2, N_COMBOS))
    for s in range(2):
        for i, combo in enumerate(COMBOS):
            out[s, i] = classify_p4(rule, s + 1, packed_index(combo), pv, cb)[1]
    return out


def weights_path(rule: int | str) -> Path:
    """Where the shipped learned table of ``rule`` lives (it may not exist)."""
    name = RULE_NAMES[rule] if isinstance(rule, int) else rule
    return Path(str(resources.files("plies.data").joinpath(f"gomoku-eval-{name}.npy")))


def load_values(path: str | Path) -> np.ndarray:
    """A learned table (int16[2, N_COMBOS]) from a ``.npy`` file, checked."""
    values = np.load(path, allow_pickle=False)
    if values.shape != (2, N_COMBOS):
        raise ValueError(f"{path}: expected a table of shape (2, {N_COMBOS}), not {values.shape}")
    return values.astype(np.int16)


def _shipped(path: Path, load) -> np.ndarray | None:
    """The table at ``path`` read by ``load`` and frozen, or None when no such file ships."""
    if not path.is_file():
        return None
    values = load(path)
    values.setflags(write=False)
    return values


@cache
def shipped_values(rule: int) -> np.ndarray | None:
    """The learned table shipped for ``rule``, or None (the hand-written evaluation)."""
    return _shipped(weights_path(rule), load_values)


def order_path(rule: int | str) -> Path:
    """Where the shipped learned move order of ``rule`` lives (it may not exist)."""
    name = RULE_NAMES[rule] if isinstance(rule, int) else rule
    return Path(str(resources.files("plies.data").joinpath(f"gomoku-order-{name}.npy")))


def load_order(path: str | Path) -> np.ndarray:
    """A learned move order (:mod:`plies.tune.gomoku_policy`) from a ``.npy`` file, as
    int32[2, 2, N_COMBOS] (``[colour, 0 own / 1 opponent, combination]``); a table shared by
    both colours (shape ``[1, 2, N_COMBOS]``) is repeated for white."""
    values = np.load(path, allow_pickle=False)
    if values.ndim != 3 or values.shape[0] not in (1, 2) or values.shape[1:] != (2, N_COMBOS):
        raise ValueError(
            f"{path}: expected a move order of shape (1 or 2, 2, {N_COMBOS}), not {values.shape}"
        )
    values = np.clip(np.rint(values), -(1 << 30), 1 << 30).astype(np.int32)
    return np.ascontiguousarray(np.broadcast_to(values, (2, 2, N_COMBOS)))


@cache
def shipped_order(rule: int) -> np.ndarray | None:
    """The learned move order shipped for ``rule``, or None (the hand-written order)."""
    return _shipped(order_path(rule), load_order)


def move_order(rule: int, choice: str) -> np.ndarray | None:
    """The move order the search uses: ``"learned"`` (the shipped table, if any),
    ``"classic"`` (None: the hand-written order) or the path of a table."""
    if choice == "classic":
        return None
    if choice == "learned":
        return shipped_order(rule)
    return load_order(choice)
