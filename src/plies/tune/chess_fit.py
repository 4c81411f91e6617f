"""Texel tuning of the chess evaluation on positions from plies' own games.

Positions: every position of a self-play game (:mod:`plies.tune.chess_data`) from
``skip`` plies after its random opening on, kept when it is quiet (the side to move is not in
check and the move the engine played there is neither a capture nor a promotion) and its
search score is not a mate; labelled by the game's result from white's view (1, 0.5, 0).
A seeded shuffle splits them into a training set and a held-out tenth.

Loss: the mean squared error between the label and ``1 / (1 + exp(-e / K))``, where ``e`` is
the static evaluation from white's view (the compiled ``evaluate``, with the piece-square
sums recomputed from the candidate tables) and ``K`` is first fitted to the starting values.

Fit: coordinate descent over every scalar of the evaluation's parameters in
:mod:`plies.chess.engine.params` (the entries of the tuples one by one): each pass visits the
parameters in a seeded random order and moves each by ``+-step`` for as long as the training
loss falls; a pass that improves nothing halves the step, down to 1. Parameters whose change
moves no position's evaluation (a pawn on the first rank, ...) are dropped after the first
look. Deterministic for given data and seed.

The result is a JSON object of the parameters that changed (``{"NAME": value or [values]}``),
which ``Engine(params=...)``, ``plies:chess?params=FILE`` and the self-play take.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from plies.chess.engine import params as P
from plies.chess.engine.board import I_EG, I_MG, I_SIDE
from plies.chess.engine.evaluate import evaluate
from plies.errors import InvalidOption

SEARCH_NAMES = P.SEARCH_NAMES
EVAL_NAMES = tuple(n for n in P.NAMES if n not in SEARCH_NAMES)


def load_params(path: str | Path) -> dict:
    """The parameter overrides of a JSON file (names of :mod:`params`, values as there)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise InvalidOption(f"cannot read chess parameters {str(path)!r}: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidOption(f"chess parameters {str(path)!r}: expected a JSON object")
    unknown = set(data) - set(P.NAMES)
    if unknown:
        raise InvalidOption(f"unknown chess parameter(s) in {path}: {', '.join(sorted(unknown))}")
    return data


def load_games(paths: list[str | Path]) -> list[dict]:
    """Every complete chess game record of the given JSON Lines files."""
    games = []
    for path in paths:
        lines = Path(path).read_text().splitlines()
        for n, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
                record["moves"], record["scores"], record["result"]  # noqa: B018
            except (json.JSONDecodeError, KeyError, TypeError):
                if n == len(lines):
                    break  # cut short by an interrupted run
                raise InvalidOption(f"{path}, line {n}: not a chess game record") from None
            games.append(record)
    return games


@dataclass
class Positions:
    """Quiet labelled positions as kernel arrays: boards ``bd[n, 64]``, states ``st[n, S]``
    (bitboards set) and results ``y[n]`` (white's view)."""

    bd: np.ndarray
    st: np.ndarray
    y: np.ndarray

    def __len__(self) -> int:
        return len(self.y)

    def take(self, index: np.ndarray) -> Positions:
        return Positions(self.bd[index], self.st[index], self.y[index])


def quiet_positions(games: list[dict], skip: int = 4, mate_bound: int = 10000) -> Positions:
    """The quiet positions of ``games`` (see the module's docstring)."""
    import chess

    from plies.chess.engine.board import set_bitboards
    from plies.chess.position import Position

    bds, sts, ys = [], [], []
    for game in games:
        board = chess.Board()
        first = int(game.get("opening", 0)) + skip
        for ply, (uci, score) in enumerate(zip(game["moves"], game["scores"], strict=True)):
            move = chess.Move.from_uci(uci)
            quiet = (
                ply >= first
                and score is not None
                and abs(score) < mate_bound
                and move.promotion is None
                and not board.is_capture(move)
                and not board.is_check()
            )
            if quiet:
                pos = Position.from_fen(board.fen())
                set_bitboards(pos.bd, pos.st)
                bds.append(pos.bd)
                sts.append(pos.st)
                ys.append(float(game["result"]))
            board.push(move)
    if not ys:
        return Positions(
            np.zeros((0, 64), np.int8), np.zeros((0, 0), np.int64), np.zeros(0, np.float64)
        )
    return Positions(np.array(bds), np.array(sts), np.array(ys, dtype=np.float64))


@njit(cache=True, nogil=True)
def _white_evals(bd, st, pst, w, out) -> None:
    scratch = np.zeros(1, dtype=np.int64)
    for i in range(bd.shape[0]):
        b = bd[i]
        s = st[i]
        mg = 0
        eg = 0
        for sq in range(64):
            p = b[sq]
            if p != 0:
                mg += pst[0, p, sq]
                eg += pst[1, p, sq]
        s[I_MG] = mg
        s[I_EG] = eg
        e = evaluate(b, s, w, scratch)
        out[i] = e if s[I_SIDE] == 0 else -e


@njit(cache=True, nogil=True)
def _mse(evals, y, k) -> float:
    total = 0.0
    for i in range(evals.shape[0]):
        d = y[i] - 1.0 / (1.0 + math.exp(-evals[i] / k))
        total += d * d
    return total / max(1, evals.shape[0])


def white_evals(positions: Positions, overrides: dict | None = None) -> np.ndarray:
    """The static evaluation of every position from white's view under ``overrides``."""
    pst, w = P.eval_arrays(overrides)
    out = np.zeros(len(positions), dtype=np.float64)
    if len(positions):
        _white_evals(positions.bd, positions.st, pst, w, out)
    return out


def loss(positions: Positions, overrides: dict | None, k: float) -> float:
    """The mean squared error of the positions' results against the evaluation's sigmoid."""
    return float(_mse(white_evals(positions, overrides), positions.y, k))


def fit_k(positions: Positions, overrides: dict | None = None) -> float:
    """The sigmoid scale ``K`` (centipawns) that fits the evaluation best (golden section
    over 50..1000)."""
    evals = white_evals(positions, overrides)
    lo, hi = 50.0, 1000.0
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = _mse(evals, positions.y, a), _mse(evals, positions.y, b)
    while hi - lo > 0.5:
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = _mse(evals, positions.y, a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = _mse(evals, positions.y, b)
    return (lo + hi) / 2


def start_values(base: dict | None = None) -> dict:
    """The evaluation's parameters as mutable values: ``base`` over :mod:`params`."""
    values = {}
    for name in EVAL_NAMES:
        v = (base or {}).get(name, getattr(P, name))
        values[name] = list(v) if isinstance(v, list | tuple) else v
    return values


def _slots(values: dict) -> list[tuple[str, int | None]]:
    return [
        (name, i)
        for name, v in values.items()
        for i in (range(len(v)) if isinstance(v, list) else [None])
    ]


def _get(values: dict, slot: tuple[str, int | None]):
    name, i = slot
    return values[name] if i is None else values[name][i]


def _set(values: dict, slot: tuple[str, int | None], x) -> None:
    name, i = slot
    if i is None:
        values[name] = x
    else:
        values[name][i] = x


@dataclass
class FitReport:
    k: float
    train_before: float
    train_after: float
    held_out_before: float
    held_out_after: float
    positions: int
    held_out: int
    passes: int
    evaluations: int
    changed: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return self.__dict__.copy()


def texel_fit(
    positions: Positions,
    *,
    seed: int = 1,
    step: int = 4,
    passes: int = 8,
    base: dict | None = None,
    held_out_share: float = 0.1,
    names: tuple[str, ...] = (),
    prior: float = 0.0,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[dict, FitReport]:
    """Tune the evaluation's parameters on ``positions`` (see the module's docstring): those
    named in ``names``, or all of them. Returns (the changed parameters, a report of the
    losses). ``prior`` > 0 adds ``prior * (value - start)^2`` per parameter to the training
    loss: a pull toward the starting values, so that parameters the data hardly determines do
    not wander (the reported losses are without it)."""
    unknown = set(names) - set(EVAL_NAMES)
    if unknown:
        raise InvalidOption(f"not evaluation parameters: {', '.join(sorted(unknown))}")
    if len(positions) < 20:
        raise InvalidOption(f"too few quiet positions to fit: {len(positions)}")
    if step < 1 or passes < 1:
        raise InvalidOption("step and passes must be at least 1")
    rng = random.Random(seed)
    order = list(range(len(positions)))
    rng.shuffle(order)
    cut = max(1, int(len(order) * held_out_share))
    held = positions.take(np.array(sorted(order[:cut])))
    train = positions.take(np.array(sorted(order[cut:])))
    values = start_values(base)
    start = json.loads(json.dumps(values))
    k = fit_k(train, values)
    best = loss(train, values, k)
    report = FitReport(k, best, best, loss(held, values, k), 0.0, len(train), len(held), 0, 1)
    slots = [s for s in _slots(values) if not names or s[0] in names]
    dead: set[tuple[str, int | None]] = set()
    penalty = 0.0  # prior * sum of (value - start)^2 over the slots
    objective = best
    for n in range(passes):
        rng.shuffle(slots)
        improved = False
        for slot in slots:
            if slot in dead:
                continue
            x0 = _get(values, slot)
            origin = _get(start, slot)
            moved = False
            flat = True
            for direction in (1, -1):
                while True:
                    x = _get(values, slot) + direction * step
                    _set(values, slot, x)
                    trial = loss(train, values, k)
                    report.evaluations += 1
                    if trial != best:
                        flat = False
                    change = prior * ((x - origin) ** 2 - (x - direction * step - origin) ** 2)
                    if trial + penalty + change < objective - 1e-12:
                        best = trial
                        penalty += change
                        objective = best + penalty
                        moved = improved = True
                        continue
                    _set(values, slot, x - direction * step)
                    break
                if moved:
                    break
            if flat and n == 0 and _get(values, slot) == x0:
                dead.add(slot)
        report.passes = n + 1
        if progress:
            progress(n + 1, best)
        if not improved:
            if step == 1:
                break
            step = max(1, step // 2)
    report.train_after = best
    report.held_out_after = loss(held, values, k)
    changed = {name: v for name, v in values.items() if v != start[name]}
    report.changed = changed
    return changed, report


def write_params(changed: dict, path: str | Path, base: dict | None = None) -> None:
    """Write the overrides (``base`` merged under the changes) as the JSON that
    :func:`load_params` reads."""
    merged = {**(base or {}), **changed}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(merged, indent=1) + "\n")
