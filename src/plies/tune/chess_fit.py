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
from plies.chess.engine.evaluate import SCRATCH, evaluate
from plies.errors import InvalidOption

SEARCH_NAMES = P.SEARCH_NAMES
EVAL_NAMES = tuple(n for n in P.NAMES if n not in SEARCH_NAMES | P.SWITCH_NAMES)


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
    (bitboards set), results ``y[n]`` and the game's search scores ``score[n]`` (centipawns;
    both from white's view)."""

    bd: np.ndarray
    st: np.ndarray
    y: np.ndarray
    score: np.ndarray | None = None  # None: zeros

    def __post_init__(self) -> None:
        if self.score is None:
            self.score = np.zeros(len(self.y), dtype=np.float64)

    def __len__(self) -> int:
        return len(self.y)

    def take(self, index: np.ndarray) -> Positions:
        return Positions(self.bd[index], self.st[index], self.y[index], self.score[index])

    def labels(self, k: float, score_weight: float) -> np.ndarray:
        """``(1 - score_weight) * result + score_weight * sigmoid(score / k)``: the results,
        or a blend with the search's own view of each position."""
        if score_weight == 0:
            return self.y
        return (1 - score_weight) * self.y + score_weight / (1 + np.exp(-self.score / k))


def quiet_positions(games: list[dict], skip: int = 4, mate_bound: int = 10000) -> Positions:
    """The quiet positions of ``games`` (see the module's docstring)."""
    import chess

    from plies.chess.engine.board import set_bitboards
    from plies.chess.position import Position

    bds, sts, ys, scores = [], [], [], []
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
                scores.append(score if board.turn == chess.WHITE else -score)
            board.push(move)
    if not ys:
        return Positions(
            np.zeros((0, 64), np.int8),
            np.zeros((0, 0), np.int64),
            np.zeros(0, np.float64),
            np.zeros(0, np.float64),
        )
    return Positions(
        np.array(bds),
        np.array(sts),
        np.array(ys, dtype=np.float64),
        np.array(scores, dtype=np.float64),
    )


@njit(cache=True, nogil=True)
def _white_evals(bd, st, pst, w, out) -> None:
    scratch = np.zeros(SCRATCH, dtype=np.int64)
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
    for name in P.SWITCH_NAMES & set(base or {}):  # kept as given, never tuned
        values[name] = base[name]
    return values


def _slots(values: dict) -> list[tuple[str, int | None]]:
    return [
        (name, i)
        for name, v in values.items()
        if name not in P.SWITCH_NAMES
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


def _check_fit(positions: Positions, names: tuple[str, ...]) -> None:
    unknown = set(names) - set(EVAL_NAMES)
    if unknown:
        raise InvalidOption(f"not evaluation parameters: {', '.join(sorted(unknown))}")
    if len(positions) < 20:
        raise InvalidOption(f"too few quiet positions to fit: {len(positions)}")


def _split(positions: Positions, rng: random.Random, share: float) -> tuple[Positions, Positions]:
    """(training set, held-out set): a seeded shuffle's first ``share`` held out."""
    order = list(range(len(positions)))
    rng.shuffle(order)
    cut = max(1, int(len(order) * share))
    train = positions.take(np.array(sorted(order[cut:])))
    return train, positions.take(np.array(sorted(order[:cut])))


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
    _check_fit(positions, names)
    if step < 1 or passes < 1:
        raise InvalidOption("step and passes must be at least 1")
    rng = random.Random(seed)
    train, held = _split(positions, rng, held_out_share)
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


def coefficients(
    positions: Positions, values: dict, slots: list[tuple[str, int | None]]
) -> tuple[np.ndarray, np.ndarray]:
    """``(e0, c)``: the positions' evaluations (white's view) under ``values`` and, column
    ``j``, how much each moves per unit of ``slots[j]`` (a central difference of up to 8 units,
    fewer for small values; exact for the terms linear in the parameter, up to the
    evaluation's rounding). ``values`` is left as it was."""
    e0 = white_evals(positions, values)
    c = np.empty((len(positions), len(slots)), dtype=np.float32)
    for j, slot in enumerate(slots):
        x = _get(values, slot)
        h = max(1, min(8, abs(int(x)) // 2))
        _set(values, slot, x + h)
        up = white_evals(positions, values)
        _set(values, slot, x - h)
        c[:, j] = (up - white_evals(positions, values)) / (2 * h)
        _set(values, slot, x)
    return e0, c


def _adam(e0, c, y, k, pull, prior, iterations, lr) -> np.ndarray:
    """The step ``dx`` that minimises ``mse(y, sigmoid((e0 + c dx) / k)) + prior * |dx -
    pull|^2`` (``pull``: the starting values less the current ones), by Adam with a learning
    rate falling from ``lr`` to a tenth."""
    n, m = c.shape
    dx = np.zeros(m)
    first = np.zeros(m)
    second = np.zeros(m)
    b1, b2 = 0.9, 0.999
    for t in range(1, iterations + 1):
        e = e0 + c @ dx.astype(np.float32)
        p = 1.0 / (1.0 + np.exp(-e / k))
        ge = (2.0 / (n * k)) * (p - y) * p * (1.0 - p)
        g = (c.T @ ge.astype(np.float32)).astype(np.float64) + 2 * prior * (dx - pull)
        first = b1 * first + (1 - b1) * g
        second = b2 * second + (1 - b2) * g * g
        rate = lr * (1 - 0.9 * (t - 1) / max(1, iterations - 1))
        dx -= rate * (first / (1 - b1**t)) / (np.sqrt(second / (1 - b2**t)) + 1e-12)
    return dx


def gradient_fit(
    positions: Positions,
    *,
    seed: int = 1,
    rounds: int = 3,
    iterations: int = 300,
    lr: float = 2.0,
    base: dict | None = None,
    held_out_share: float = 0.1,
    names: tuple[str, ...] = (),
    prior: float = 0.0,
    score_weight: float = 0.0,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[dict, FitReport]:
    """Tune the evaluation's parameters by gradient descent on a linearisation: each round
    measures how every position's evaluation moves with each parameter (:func:`coefficients`),
    runs Adam on that linear model (``iterations`` steps), rounds the result to whole
    centipawns and keeps it when the true training objective falls (else half the step, up to
    three times; no gain ends the fit). Much faster than :func:`texel_fit` on large data (a
    round costs two evaluations of the data a parameter) and it moves all parameters at once.
    The objective is the mean squared error against the labels (the results, blended with the
    search scores by ``score_weight``: :meth:`Positions.labels`) plus ``prior * (value -
    start)^2`` per number; the reported losses are against the results alone."""
    _check_fit(positions, names)
    if rounds < 1 or iterations < 1 or not 0 <= score_weight <= 1:
        raise InvalidOption("rounds and iterations must be at least 1, score weight 0..1")
    train, held = _split(positions, random.Random(seed), held_out_share)
    values = start_values(base)
    start = json.loads(json.dumps(values))
    k = fit_k(train, values)
    target = train.labels(k, score_weight)
    fitted = Positions(train.bd, train.st, target, train.score)
    slots = [s for s in _slots(values) if not names or s[0] in names]

    def objective(vals: dict) -> float:
        pen = sum((_get(vals, s) - _get(start, s)) ** 2 for s in slots)
        return loss(fitted, vals, k) + prior * pen

    report = FitReport(k, loss(train, values, k), 0.0, loss(held, values, k), 0.0,
                       len(train), len(held), 0, 1)  # fmt: skip
    current = objective(values)
    for r in range(rounds):
        e0, c = coefficients(fitted, values, slots)
        report.evaluations += 2 * len(slots) + 1
        live = np.flatnonzero(np.abs(c).max(axis=0) > 0)
        slots = [slots[j] for j in live]
        c = np.ascontiguousarray(c[:, live])
        x = np.array([_get(values, s) for s in slots], dtype=np.float64)
        pull = np.array([_get(start, s) for s in slots], dtype=np.float64) - x
        dx = _adam(e0, c, target, k, pull, prior, iterations, lr)
        accepted = False
        for _half in range(4):
            trial = json.loads(json.dumps(values))
            for s, v in zip(slots, np.rint(x + dx), strict=True):
                _set(trial, s, int(v))
            value = objective(trial)
            report.evaluations += 1
            if value < current - 1e-12:
                values, current, accepted = trial, value, True
                break
            dx /= 2
        report.passes = r + 1
        if progress:
            progress(r + 1, current)
        if not accepted:
            break
    report.train_after = loss(train, values, k)
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
