"""Fitting the threat term of the Gomoku evaluation (:mod:`plies.gomoku.engine.threat_eval`).

Data (TD-leaf): every engine move of the self-play games (:mod:`plies.tune.gomoku_data`,
records with ``pvs``) gives the position at the end of that move's principal variation, the
position whose static evaluation the search's score came from. Its features are the threat
mask of its side to move and its cell-value evaluation (the hand-written part, ``base``); its
label is the searched position's TD(lambda) return (:func:`plies.tune.gomoku_fit.td_returns`:
the later searches' win probabilities and the result), turned to the leaf's side to move when
the line has odd length. Leaves with a five to make or block (and with ``quiet``, an open
three on the board), positions with a five to make or block, and positions whose search
proved a win or loss are left out.

Model: ``P(win) = sigmoid((scale * base + T[mask]) / WIN_PROB_SCALE)`` with, per colour to move
under Renju (one shared set otherwise), ``T[mask] = own[side bucket] + opp[opponent bucket] +
both[coarse own, coarse opponent]`` (the coarse bucket: flex / double / four present or not),
so that the 20,736 masks share 352 numbers and a rare mask is built from common parts. Loss:
the summed cross-entropy plus ``prior * sum((T / WIN_PROB_SCALE)^2)`` over the parts (a prior
of ``k`` acts like ``k`` positions at even odds for each part); Adam, full batch. The table the
engine adds is ``T / scale``: the evaluation stays in the hand-written part's units. Games
whose seed is a multiple of 10 are held out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from plies.errors import InvalidOption
from plies.gomoku.engine import threat_eval as TE
from plies.tune.gomoku_fit import (
    WIN_SCORE_LIMIT,
    _line,
    held_out_split,
    save_with_report,
    td_returns,
)

N_COARSE = 8  # flex, double, four: each present or not


@dataclass
class ThreatData:
    """One row per labelled leaf: its cell-value evaluation, the two sides' buckets, the colour
    to move (0 black), the target and the game's seed."""

    base: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    colour: np.ndarray
    target: np.ndarray
    game: np.ndarray

    @property
    def size(self) -> int:
        return len(self.target)

    def subset(self, rows: np.ndarray) -> ThreatData:
        return ThreatData(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))


def coarse_of(side_mask: np.ndarray) -> np.ndarray:
    """The coarse bucket (0..7: flex, double and four present or not) of side masks."""
    flex, double, four, _ = TE.decode_side(side_mask)
    return (flex > 0) * 4 + (double > 0) * 2 + (four > 0)


def leaves(
    games: list[dict],
    rule: str,
    td: float = 0.7,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[tuple[dict, Any, Any, int, float]]:
    """``(record, state, tables, side, target)`` for the leaf of every labelled engine move of
    ``games`` (all ``rule``; see the module's text): the state is at the end of the move's
    principal variation (the searched position itself for games without them), ``side`` its
    side to move (0 black) and ``target`` the TD(lambda) return turned to that side. Leaves
    with a five to make or block are skipped. The state is taken back after each item: use
    it before asking for the next."""
    from plies.gomoku.engine import state as ST
    from plies.tune.gomoku_data import replay

    if not 0.0 <= td <= 1.0:
        raise InvalidOption(f"td lambda must be within 0..1, not {td}")
    returns: list[float] = []
    for record, ply, st, tb, _, score in replay(games, rule, progress):
        if ply == 0:
            returns = td_returns(record, td)
        if score is None or abs(score) >= WIN_SCORE_LIMIT or st.counts[:, ST.C_FIVE].any():
            continue  # no label, a proven result, or a forced five (made or blocked)
        line = _line(record, ply, st)
        for p in line:
            ST.make(st, tb, p)
        s = int(st.info[ST.I_SIDE]) - 1
        target = returns[ply] if len(line) % 2 == 0 else 1.0 - returns[ply]
        if st.counts[s, ST.C_FIVE] + st.counts[1 - s, ST.C_FIVE] == 0:
            yield record, st, tb, s, target
        for _ in line:
            ST.undo(st, tb)


def threat_data(
    games: list[dict],
    rule: str,
    td: float = 0.7,
    progress: Callable[[int, int], None] | None = None,
    quiet: bool = False,
) -> ThreatData:
    """The leaves of every engine move of ``games`` (all ``rule``), labelled as described
    above (:func:`leaves`). ``quiet`` keeps only the leaves the search would evaluate
    statically: neither side has an open three (the search answers the opponent's below its
    horizon and scores its own as a win); off by default, as it played no better
    (docs/training.md)."""
    from plies.gomoku.engine import state as ST

    cols: dict[str, list] = {k: [] for k in ("base", "own", "opp", "colour", "target", "game")}
    for record, st, tb, s, target in leaves(games, rule, td, progress):
        if quiet and st.counts[s, ST.C_FLEX4] + st.counts[1 - s, ST.C_FLEX4] > 0:
            continue
        cols["base"].append(ST.evaluate(st, tb))
        black_33 = tb.weights[ST.W_BLACK_33]
        cols["own"].append(TE.side_mask(st.counts, s, black_33))
        cols["opp"].append(TE.side_mask(st.counts, 1 - s, black_33))
        cols["colour"].append(s)
        cols["target"].append(target)
        cols["game"].append(int(record["seed"]))
    types = {"base": np.float64, "target": np.float64}
    return ThreatData(**{k: np.asarray(v, dtype=types.get(k, np.int64)) for k, v in cols.items()})


@dataclass
class ThreatFit:
    """The fitted parts (logit units times WIN_PROB_SCALE), the scale, and the fit's report."""

    own: np.ndarray  # [colours, SIDE_MASKS]
    opp: np.ndarray  # [colours, SIDE_MASKS]
    both: np.ndarray  # [colours, N_COARSE * N_COARSE]
    scale: float
    report: dict = field(default_factory=dict)

    def table(self, gain: float = 1.0) -> np.ndarray:
        """The engine's table, int16[2, MASKS] (``gain * T / scale``, both colours): ``gain``
        above 1 plays better than the calibrated term (docs/training.md)."""
        colours = self.own.shape[0]
        coarse = coarse_of(np.arange(TE.SIDE_MASKS))
        out = np.zeros((2, TE.MASKS))
        for c in range(2):
            k = c if colours == 2 else 0
            t = (
                self.own[k][:, None]
                + self.opp[k][None, :]
                + self.both[k].reshape(N_COARSE, N_COARSE)[coarse[:, None], coarse[None, :]]
            )
            out[c] = gain * t.reshape(-1) / self.scale
        return np.clip(np.rint(out), -32000, 32000).astype(np.int16)


def _rows(data: ThreatData, colours: int) -> tuple[np.ndarray, ...]:
    """Each row's part set (its colour under Renju, else 0) and its entries in the three
    parts: own bucket, opponent bucket, coarse pair."""
    k = data.colour if colours == 2 else np.zeros_like(data.colour)
    both = coarse_of(data.own) * N_COARSE + coarse_of(data.opp)
    return k, data.own, data.opp, both


def _logits(data: ThreatData, rows, parts, scale: float) -> np.ndarray:
    """``(scale * base + T) / WIN_PROB_SCALE`` of every row; ``parts`` in logit units."""
    from plies.gomoku.engine.params import WIN_PROB_SCALE

    k, *index = rows
    t = sum((p * WIN_PROB_SCALE)[k, i] for p, i in zip(parts, index, strict=True))
    # this order of operations is the one the shipped tables were fitted with (the fit of
    # rarely seen entries follows rounding closely: Adam steps them by the sign of tiny
    # gradients)
    return (scale * data.base + t) / WIN_PROB_SCALE


def cross_entropy(data: ThreatData, z: np.ndarray) -> float:
    """Mean cross-entropy of ``sigmoid(z)`` against the targets."""
    t = data.target
    return float(np.mean(t * np.logaddexp(0, -z) + (1 - t) * np.logaddexp(0, z)))


def fit(
    data: ThreatData,
    rule: str,
    *,
    steps: int = 600,
    learning_rate: float = 0.05,
    prior: float = 10.0,
    coarse: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ThreatFit:
    """Fit the parts and the scale to ``data`` (Adam, full batch; see the module's text);
    ``coarse`` fits only the coarse part (64 numbers a colour: fewer, better-measured values),
    the per-side parts staying 0."""
    from plies.gomoku.engine.params import WIN_PROB_SCALE
    from plies.tune.gomoku_fit import shared_table

    if data.size == 0:
        raise InvalidOption("no labelled positions to fit")
    train, test = held_out_split(data)
    colours = 1 if shared_table(rule) else 2
    sizes = (TE.SIDE_MASKS, TE.SIDE_MASKS, N_COARSE * N_COARSE)
    # parameters in logit units: the three parts per colour, then log(scale); coarse fits
    # the last part only
    parts = [np.zeros((colours, n)) for n in sizes]
    fitted = [not coarse, not coarse, True]
    log_scale = 0.0
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in parts] + [(0.0, 0.0)]
    b1, b2, eps = 0.9, 0.999, 1e-8
    rows_train, rows_test = _rows(train, colours), _rows(test, colours)
    k, *index = rows_train
    before = (
        cross_entropy(train, train.base / WIN_PROB_SCALE),
        cross_entropy(test, test.base / WIN_PROB_SCALE),
    )
    for step in range(1, steps + 1):
        scale = math.exp(log_scale)
        z = _logits(train, rows_train, parts, scale)
        r = 1.0 / (1.0 + np.exp(-z)) - train.target  # d(summed CE)/dz
        grads: list = []
        for p, idx, n, on in zip(parts, index, sizes, fitted, strict=True):
            g = np.zeros_like(p)
            if on:
                for c in range(colours):
                    sel = k == c
                    g[c] = np.bincount(idx[sel], weights=r[sel], minlength=n) + 2 * prior * p[c]
            grads.append(g)
        grads.append(float(np.sum(r * train.base / WIN_PROB_SCALE)) * scale / train.size)
        for i, g in enumerate(grads):
            m, v = moments[i]
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            moments[i] = (m, v)
            delta = learning_rate * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + eps)
            if i < len(parts):
                parts[i] -= delta
            else:
                log_scale -= float(delta)
        if progress:
            progress(step, steps)
    result = ThreatFit(*(p * WIN_PROB_SCALE for p in parts), math.exp(log_scale))
    after = (
        cross_entropy(train, _logits(train, rows_train, parts, result.scale)),
        cross_entropy(test, _logits(test, rows_test, parts, result.scale)),
    )
    result.report = {
        "rule": rule,
        "target": "threat",
        "positions": int(data.size),
        "train_positions": int(train.size),
        "test_positions": int(test.size),
        "steps": steps,
        "learning_rate": learning_rate,
        "prior": prior,
        "coarse": coarse,
        "scale": result.scale,
        "loss_before": {"train": before[0], "test": before[1]},
        "loss_after": {"train": after[0], "test": after[1]},
    }
    return result


def save(result: ThreatFit, path: str | Path, gain: float = 1.0) -> Path:
    """Write the engine's table (``.npy``, times ``gain``) and, beside it, the fit's report
    (``.json``)."""
    return save_with_report(path, result.table(gain), result.report, "table", gain)
