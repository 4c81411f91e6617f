"""Fitting the learned Gomoku evaluation: one value per pattern combination.

The engine's static evaluation of a position, for the side to move, is

    eval = (ATTACK * sum(own cell values) - DEFENCE * sum(opponent cell values)) / 64

over the empty cells, where a cell's value for a side is ``values[table, combo]``: the value of
the multiset of its four line patterns (:mod:`plies.gomoku.engine.combos`); ``table`` is the
side's colour under Renju (black's forbidden moves make the two colours' patterns mean
different things) and one shared table for the other rules. ``eval`` is linear in the values,
so the fit is a logistic regression over combination counts: each position's features are
``+ATTACK/64`` times its own cells' count of each combination and ``-DEFENCE/64`` times the
opponent's.

The label of a position blends what happened and what a search saw there:
``target = lam * result + (1 - lam) * sigmoid(score / WIN_PROB_SCALE)``, with ``result`` 1/0.5/0
for the side to move and ``score`` the self-play search's score of the position (TD-style: the
search looked deeper than the static evaluation). Positions with a won or lost score, or a
five to make or to block, are left out (the search decides those without the evaluation).

The loss is the cross-entropy between ``sigmoid(eval / WIN_PROB_SCALE + tempo)`` and the
target, plus an L2 pull toward the hand-written values (combinations seen rarely keep them);
Adam, full batch, on compiled sparse products. ``tempo`` is one more fitted number, the value of
having the move, which the table cannot express (it has no side-to-move term): without it the
fit bends the combination values to explain the mover's edge. It is reported and then dropped
(a constant added to every evaluation changes no move choice). Games whose seed is a multiple
of 10 are held out to measure the fit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from plies.errors import InvalidOption
from plies.gomoku.engine import combos

WIN_SCORE_LIMIT = 20000  # scores beyond this are proven wins/losses: not labels


@dataclass
class Dataset:
    """Sparse features (CSR: ``indptr``, ``index``, ``value``), targets and the game of each
    position. The last feature is the constant tempo term (1 in every position)."""

    indptr: np.ndarray
    index: np.ndarray
    value: np.ndarray
    target: np.ndarray
    game: np.ndarray
    n_features: int

    @property
    def size(self) -> int:
        return len(self.target)

    def subset(self, rows: np.ndarray) -> Dataset:
        """The positions ``rows`` (sorted indices) as a dataset of their own."""
        indptr, take = csr_rows(self.indptr, rows)
        return Dataset(
            indptr,
            self.index[take],
            self.value[take],
            self.target[rows],
            self.game[rows],
            self.n_features,
        )


def held_out_split(data):
    """``(train, test)``: the positions of the games whose seed is a multiple of 10 are held
    out; where that leaves either side empty, both are the whole of ``data``."""
    held = (data.game % 10) == 0
    if not (held.any() and (~held).any()):
        return data, data
    return data.subset(np.flatnonzero(~held)), data.subset(np.flatnonzero(held))


def save_with_report(
    path: str | Path, array: np.ndarray, report: dict, what: str, gain: float | None = None
) -> Path:
    """Write a fitted ``array`` (``.npy``; already times ``gain`` when one is given, which must
    be within (0, 10] and goes into the report) and, beside it, its fit's ``report``
    (``.json``); ``what`` names the file in errors."""
    path = Path(path)
    if path.suffix != ".npy":
        raise InvalidOption(f"the {what} file must end in .npy, not {path.name!r}")
    if gain is not None:
        if not 0.0 < gain <= 10.0:
            raise InvalidOption(f"gain must be within (0, 10], not {gain}")
        report["gain"] = gain
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, array)
    path.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    return path


def csr_rows(indptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the sorted ``rows`` of a CSR matrix: their own ``indptr`` and the indices of their
    entries in the matrix's ``index``/``value`` arrays."""
    starts, ends = indptr[rows], indptr[rows + 1]
    sub = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(ends - starts, out=sub[1:])
    take = (
        np.concatenate([np.arange(a, b) for a, b in zip(starts, ends, strict=True)])
        if len(rows)
        else np.zeros(0, dtype=np.int64)
    )
    return sub, take


def shared_table(rule: str) -> bool:
    """Whether both colours share one table (every rule but Renju)."""
    return rule != "renju"


def features(
    games: list[dict],
    rule: str,
    lam: float = 0.5,
    attack: int | None = None,
    defence: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    quiet: bool = False,
    leaf: bool = False,
    td: float | None = None,
) -> Dataset:
    """The dataset of every labelled position of ``games`` (records of
    :mod:`plies.tune.gomoku_data`, all of ``rule``); ``quiet`` keeps only positions where
    the side to move has no four to make and the opponent no four-three, flex four or double
    three (the static evaluation's own ground: elsewhere the search decides).

    ``leaf`` (TD-leaf): the features are those of the position at the end of the move's
    principal variation (the records' ``pvs``), the position whose static evaluation the
    search's score came from, seen from its own side to move (the label flips with the
    line's parity); a leaf with a five to make or to block is left out. ``td`` (0..1) labels a
    position with its TD(lambda) return (:func:`td_returns`) instead of the ``lam`` blend."""
    from plies.gomoku.engine import params
    from plies.gomoku.engine import state as ST
    from plies.gomoku.rules import EMPTY
    from plies.tune.gomoku_data import replay

    if not 0.0 <= lam <= 1.0:
        raise InvalidOption(f"lambda must be within 0..1, not {lam}")
    a = (params.rule_value("ATTACK", rule) if attack is None else attack) / 64.0
    d = (params.rule_value("DEFENCE", rule) if defence is None else defence) / 64.0
    shared = shared_table(rule)
    n = combos.N_COMBOS
    n_tables = 1 if shared else 2
    index_of = combos.combo_of_index().astype(np.int64)
    rows_index: list[np.ndarray] = []
    rows_value: list[np.ndarray] = []
    targets: list[float] = []
    game_ids: list[int] = []
    if td is not None and not 0.0 <= td <= 1.0:
        raise InvalidOption(f"td lambda must be within 0..1, not {td}")
    returns: list[float] = []
    for record, ply, st, tb, _, score in replay(games, rule, progress):
        if ply == 0 and td is not None:
            returns = td_returns(record, td)
        side = 1 + ply % 2  # black moves at even plies
        s = side - 1
        if (
            score is None
            or abs(score) >= WIN_SCORE_LIMIT
            or st.counts[s, ST.C_FIVE] != 0
            or st.counts[1 - s, ST.C_FIVE] != 0
        ):
            continue
        winner = record["winner"]
        result = 0.5 if winner == 0 else (1.0 if winner == side else 0.0)
        if td is not None:
            target = returns[ply]
        else:
            searched = 1.0 / (1.0 + math.exp(-score / params.WIN_PROB_SCALE))
            target = lam * result + (1.0 - lam) * searched
        line = _line(record, ply, st) if leaf else []
        for p in line:
            ST.make(st, tb, p)
        if len(line) % 2:
            s, target = 1 - s, 1.0 - target
        usable = (
            st.counts[s, ST.C_FIVE] == 0
            and st.counts[1 - s, ST.C_FIVE] == 0
            and not (quiet and _threatened(st, s))
        )
        if usable:
            empty = np.flatnonzero(st.cells == EMPTY)
            packed = st.p4[empty].astype(np.int64)
            per_side = (index_of[packed & 0xFFFF], index_of[packed >> 16])
            own, opp = per_side[s], per_side[1 - s]
            own_base = 0 if shared else s * n
            opp_base = 0 if shared else (1 - s) * n
            own_counts = np.bincount(own[own >= 0], minlength=n)
            opp_counts = np.bincount(opp[opp >= 0], minlength=n)
            fo = np.flatnonzero(own_counts)
            fp = np.flatnonzero(opp_counts)
            tempo = np.array([n_tables * n])
            rows_index.append(np.concatenate([fo + own_base, fp + opp_base, tempo]))
            rows_value.append(np.concatenate([a * own_counts[fo], -d * opp_counts[fp], [1.0]]))
            targets.append(target)
            game_ids.append(int(record["seed"]))
        for _ in line:
            ST.undo(st, tb)
    lengths = np.array([len(r) for r in rows_index], dtype=np.int64)
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    empty_i = np.zeros(0, dtype=np.int64)
    return Dataset(
        indptr,
        np.concatenate(rows_index).astype(np.int64) if rows_index else empty_i,
        np.concatenate(rows_value).astype(np.float64) if rows_value else np.zeros(0),
        np.array(targets, dtype=np.float64),
        np.array(game_ids, dtype=np.int64),
        n_tables * n + 1,
    )


def td_returns(record: dict, lam: float) -> list[float]:
    """Each position's TD(lambda) return for its side to move: the win probabilities of the
    later searches' scores (each from its own mover's view, turned to this one's), weighted
    ``(1 - lam) * lam**(k - 1)`` for the search ``k`` moves later, and the game's result with
    the rest of the weight; the last position's return is the result. Random opening stones
    (no score) get the return of the first searched position after them, seen from their side."""
    from plies.gomoku.engine import params

    scores = record["scores"]
    n = len(scores)
    winner = record["winner"]
    returns = [0.5] * n
    if n == 0:
        return returns
    last_side = 1 + (n - 1) % 2
    g = 0.5 if winner == 0 else (1.0 if winner == last_side else 0.0)
    returns[n - 1] = g
    for t in range(n - 2, -1, -1):
        nxt = scores[t + 1]
        if nxt is None:
            g = 1.0 - g  # the next stone was random: its return, seen from this side
        else:
            v = 1.0 / (
                1.0
                + math.exp(
                    -max(-WIN_SCORE_LIMIT, min(WIN_SCORE_LIMIT, nxt)) / params.WIN_PROB_SCALE
                )
            )
            g = 1.0 - ((1.0 - lam) * v + lam * g)
        returns[t] = g
    return returns


def _line(record: dict, ply: int, st) -> list[int]:
    """The engine cells of the principal variation of move ``ply`` (empty when the record has
    none), cut before a cell that is not empty (a line that a stop left inconsistent)."""
    from plies.gomoku.engine import state as ST
    from plies.gomoku.rules import EMPTY

    pvs = record.get("pvs")
    if not pvs or ply >= len(pvs):
        return []
    stride = int(st.info[ST.I_STRIDE])
    cells: list[int] = []
    seen: set[int] = set()
    for move in pvs[ply]:
        x, y = (int(v) for v in move.split(","))
        p = (y + ST.PAD) * stride + x + ST.PAD
        if p in seen or st.cells[p] != EMPTY:
            break
        seen.add(p)
        cells.append(p)
    return cells


def _threatened(st, s: int) -> bool:
    """Whether the side ``s`` (0 black) may make a four, or its opponent a double three or
    more, on some empty cell."""
    from plies.gomoku.engine import state as ST

    own = st.counts[s, ST.C_FOUR] + st.counts[s, ST.C_FOUR_THREE] + st.counts[s, ST.C_FLEX4]
    o = 1 - s
    opp = st.counts[o, ST.C_THREE2] + st.counts[o, ST.C_FOUR_THREE] + st.counts[o, ST.C_FLEX4]
    return bool(own + opp)


@njit(cache=True, nogil=True)
def _matvec(indptr, index, value, w, out) -> None:
    for r in range(len(indptr) - 1):
        acc = 0.0
        for k in range(indptr[r], indptr[r + 1]):
            acc += value[k] * w[index[k]]
        out[r] = acc


@njit(cache=True, nogil=True)
def _rmatvec(indptr, index, value, g, out) -> None:
    out[:] = 0.0
    for r in range(len(indptr) - 1):
        gr = g[r]
        for k in range(indptr[r], indptr[r + 1]):
            out[index[k]] += value[k] * gr


@njit(cache=True, nogil=True)
def csr_matmul(indptr, index, value, emb, out) -> None:
    """``out = C @ emb`` for the CSR matrix ``C``."""
    out[:, :] = 0.0
    for r in range(len(indptr) - 1):
        for k in range(indptr[r], indptr[r + 1]):
            v = value[k]
            row = index[k]
            for h in range(emb.shape[1]):
                out[r, h] += v * emb[row, h]


@njit(cache=True, nogil=True)
def csr_t_matmul_add(indptr, index, value, grad, out) -> None:
    """``out += C.T @ grad`` for the CSR matrix ``C``."""
    for r in range(len(indptr) - 1):
        for k in range(indptr[r], indptr[r + 1]):
            v = value[k]
            row = index[k]
            for h in range(grad.shape[1]):
                out[row, h] += v * grad[r, h]


def predict(data: Dataset, w: np.ndarray) -> np.ndarray:
    """Every position's evaluation (centi-units) under the flat values ``w``."""
    out = np.zeros(data.size)
    _matvec(data.indptr, data.index, data.value, w, out)
    return out


def loss(data: Dataset, w: np.ndarray) -> float:
    """Mean cross-entropy of the evaluation's win probability against the targets."""
    from plies.gomoku.engine.params import WIN_PROB_SCALE

    z = predict(data, w) / WIN_PROB_SCALE
    t = data.target
    # log(1 + e^-z) and log(1 + e^z), stably
    return float(np.mean(t * np.logaddexp(0, -z) + (1 - t) * np.logaddexp(0, z)))


@dataclass
class FitResult:
    """Flat values, the losses on training and held-out positions before and after, and the
    settings of the fit."""

    w: np.ndarray
    report: dict = field(default_factory=dict)


def initial_values(rule: str) -> np.ndarray:
    """The hand-written evaluation's values as a flat vector (the fit's start and prior), and
    a tempo of 0 last."""
    from plies.gomoku.board import rule_code

    classic = combos.classic_values(rule_code(rule))
    values = classic[0] if shared_table(rule) else classic.reshape(-1)
    return np.append(values, 0.0)


def pair_basis(n_tables: int) -> np.ndarray:
    """float64[n_tables * N_COMBOS, n_tables * 66]: each combination's count of every unordered
    pair of patterns among its four (a pattern with itself counts when it appears twice), per
    table. A correction ``basis @ theta`` gives every combination the sum of its pairs' terms:
    66 numbers a table instead of 1001, so that rare combinations share what common ones show."""
    from plies.gomoku.engine import patterns as P

    pairs = [(a, b) for a in range(P.N_PATTERNS) for b in range(a, P.N_PATTERNS)]
    column = {pair: i for i, pair in enumerate(pairs)}
    one = np.zeros((combos.N_COMBOS, len(pairs)))
    for i, combo in enumerate(combos.COMBOS):
        for k in range(4):
            for j in range(k + 1, 4):
                one[i, column[(combo[k], combo[j])]] += 1
    basis = np.zeros((n_tables * combos.N_COMBOS, n_tables * len(pairs)))
    for t in range(n_tables):
        rows = slice(t * combos.N_COMBOS, (t + 1) * combos.N_COMBOS)
        basis[rows, t * len(pairs) : (t + 1) * len(pairs)] = one
    return basis


def fit(
    data: Dataset,
    rule: str,
    *,
    steps: int = 400,
    learning_rate: float = 4.0,
    prior: float = 1e-7,
    min_pattern: int = 0,
    structure: str = "free",
    progress: Callable[[int, int], None] | None = None,
) -> FitResult:
    """Fit the values to ``data`` (Adam, full batch); ``prior`` weighs the pull toward the
    hand-written values (per squared centi-unit, against the mean cross-entropy). Only
    combinations holding a pattern of at least ``min_pattern`` (e.g. ``patterns.B3``) are
    fitted; the others keep their hand-written values. ``structure`` ``"free"`` fits every
    combination's value; ``"pairs"`` fits a correction made of pattern-pair terms
    (:func:`pair_basis`)."""
    from plies.gomoku.engine.params import WIN_PROB_SCALE

    if data.size == 0:
        raise InvalidOption("no labelled positions to fit")
    if structure not in ("free", "pairs"):
        raise InvalidOption(f"unknown structure {structure!r}: expected free or pairs")
    train, test = held_out_split(data)
    w0 = initial_values(rule)
    w = w0.copy()
    # the all-dead combination stays worth nothing
    frozen = np.zeros_like(w, dtype=bool)
    weak = np.array([max(c) < min_pattern for c in combos.COMBOS])
    n_values = len(w) - 1  # the table's values; the tempo is last
    for base in range(0, n_values, combos.N_COMBOS):
        frozen[base + combos.DEAD_COMBO] = True
        frozen[base : base + combos.N_COMBOS] |= weak
    # w = w0 + basis @ theta: the identity for free values, pattern pairs otherwise
    basis = None
    if structure == "pairs":
        basis = np.zeros((len(w), 66 * (n_values // combos.N_COMBOS) + 1))
        basis[:n_values, :-1] = pair_basis(n_values // combos.N_COMBOS)
        basis[-1, -1] = 1.0  # the tempo is its own parameter
        basis[frozen] = 0.0
    theta = np.zeros(len(w) if basis is None else basis.shape[1])
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    b1, b2, eps = 0.9, 0.999, 1e-8
    z = np.zeros(train.size)
    grad = np.zeros_like(w)
    before = (loss(train, w0), loss(test, w0))
    for step in range(1, steps + 1):
        _matvec(train.indptr, train.index, train.value, w, z)
        p = 1.0 / (1.0 + np.exp(-z / WIN_PROB_SCALE))
        _rmatvec(train.indptr, train.index, train.value, (p - train.target), grad)
        grad /= train.size * WIN_PROB_SCALE
        grad[:n_values] += 2 * prior * (w - w0)[:n_values]
        grad[frozen] = 0.0
        g = grad if basis is None else basis.T @ grad
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat = m / (1 - b1**step)
        vhat = v / (1 - b2**step)
        theta -= learning_rate * mhat / (np.sqrt(vhat) + eps)
        w = w0 + (theta if basis is None else basis @ theta)
        if progress:
            progress(step, steps)
    after = (loss(train, w), loss(test, w))
    report = {
        "rule": rule,
        "positions": int(data.size),
        "train_positions": int(train.size),
        "test_positions": int(test.size),
        "steps": steps,
        "learning_rate": learning_rate,
        "prior": prior,
        "min_pattern": min_pattern,
        "structure": structure,
        "tempo": float(w[-1]),
        "loss_before": {"train": before[0], "test": before[1]},
        "loss_after": {"train": after[0], "test": after[1]},
    }
    return FitResult(w, report)


def to_table(w: np.ndarray, rule: str) -> np.ndarray:
    """The flat values as the engine's int16 ``[2, N_COMBOS]`` table (the tempo dropped)."""
    n = combos.N_COMBOS
    w = w[:-1]
    rows = np.stack([w, w]) if shared_table(rule) else w.reshape(2, n)
    return np.clip(np.rint(rows), -32000, 32000).astype(np.int16)


def save(result: FitResult, rule: str, path: str | Path) -> Path:
    """Write the table (``.npy``) and, beside it, the fit's report (``.json``)."""
    return save_with_report(path, to_table(result.w, rule), result.report, "table")
