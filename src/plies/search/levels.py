"""Playing levels, from beginner to full strength, for any engine with MultiPV lines.

A weak engine that only searches less still never overlooks a four: it plays like a strong
engine in a hurry. A beginner misses things. So a level below full strength changes how the
move is *chosen*, not only how long the search runs:

* ``nodes``: the search's node budget (a shallower view);
* ``blunder``: the probability of not looking at the position at all and playing a plausible
  move at random (a Gomoku cell next to the stones, any legal chess move): the threat on the
  board is then missed;
* ``temperature``: otherwise one of the ``multipv`` best lines is drawn with probabilities
  ``exp((score - best) / temperature)`` (centi-units), so close alternatives get played and
  clearly worse ones rarely; 0 always plays the best line.

The top level searches with its nodes and plays the best line. The arena's calibration of the
levels in Elo is in docs/serve.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from plies.errors import InvalidOption

M = TypeVar("M")


@dataclass(frozen=True)
class Level:
    nodes: int
    multipv: int
    temperature: float
    blunder: float


LEVELS: dict[int, Level] = {
    1: Level(nodes=300, multipv=4, temperature=300.0, blunder=0.30),
    2: Level(nodes=1_000, multipv=4, temperature=200.0, blunder=0.20),
    3: Level(nodes=3_000, multipv=3, temperature=120.0, blunder=0.12),
    4: Level(nodes=8_000, multipv=3, temperature=60.0, blunder=0.06),
    5: Level(nodes=20_000, multipv=2, temperature=30.0, blunder=0.02),
    6: Level(nodes=60_000, multipv=1, temperature=0.0, blunder=0.0),
}
MAX_LEVEL = max(LEVELS)


def level(number: int | str) -> Level:
    """The level ``number`` (1 = beginner, :data:`MAX_LEVEL` = full strength)."""
    try:
        n = int(number)
    except (TypeError, ValueError):
        raise InvalidOption(f"level must be an integer from 1 to {MAX_LEVEL}") from None
    if n not in LEVELS:
        raise InvalidOption(f"level must be from 1 to {MAX_LEVEL}, not {n}")
    return LEVELS[n]


def choose(
    lines: Sequence[tuple[M, int]],
    plausible: Sequence[M],
    lvl: Level,
    rng: random.Random,
) -> tuple[M, bool]:
    """The move a player of level ``lvl`` makes from the engine's ``lines`` (``(move, score)``,
    best first, the mover's view) and its ``plausible`` moves; ``(move, blundered)``."""
    if plausible and rng.random() < lvl.blunder:
        return rng.choice(list(plausible)), True
    if lvl.temperature <= 0 or len(lines) == 1:
        return lines[0][0], False
    best = lines[0][1]
    weights = [math.exp(max(-50.0, (score - best) / lvl.temperature)) for _, score in lines]
    return rng.choices([m for m, _ in lines], weights=weights)[0], False
