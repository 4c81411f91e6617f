"""Fitting the learned Gomoku evaluation to the moves a deeper search chose (comparison
training).

The search uses its static evaluation to compare sibling positions at the horizon, so this fit
asks the evaluation to do exactly that at one ply: of the positions each candidate move leads
to, the one the self-play search moved to should evaluate best. For the side ``s`` that moves,
the evaluation of the child after candidate ``c`` (the opponent to move, seen from ``s``) is

    child(c) = (DEFENCE * sum(s's cell values) - ATTACK * sum(opponent's cell values)) / 64

over the child's empty cells, with a cell's value ``values[table, combination]`` as in
:mod:`plies.tune.gomoku_fit`. Every candidate changes the same parent, so the parent's part
cancels out of a softmax over the candidates: each candidate is described by the *changes* its
stone makes (the cells whose combinations it changes, and the cell it fills), a few dozen
sparse terms, and ``P(c) = softmax(child(c) / T)``. ``T`` is fitted first for the hand-written
values (one number); then the values move from them by Adam on the cross-entropy of the chosen
moves plus an L2 pull back to them; the all-dead combination keeps its value. Candidates are
the cells the search generates (:func:`plies.tune.gomoku_policy.candidates`); positions with
a five to make or block, or a proven score, are left out. Games whose seed is a multiple of 10
are held out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from plies.errors import InvalidOption
from plies.gomoku.engine import combos
from plies.tune import gomoku_fit
from plies.tune.gomoku_fit import WIN_SCORE_LIMIT, FitResult, _matvec, _rmatvec
from plies.tune.gomoku_policy import best_temperature, candidates, softmax_by_position


@dataclass
class ChoiceData:
    """One row per candidate move (CSR ``indptr``/``index``/``value`` over the flat values of
    :func:`plies.tune.gomoku_fit.initial_values`, without the tempo), its position ``pos``
    (non-decreasing) and ``label`` (1 for the move chosen); ``game`` is each position's seed."""

    indptr: np.ndarray
    index: np.ndarray
    value: np.ndarray
    pos: np.ndarray
    label: np.ndarray
    game: np.ndarray
    n_values: int

    @property
    def positions(self) -> int:
        return len(self.game)

    def subset(self, keep_positions: np.ndarray) -> ChoiceData:
        """The positions whose mask ``keep_positions`` (bool per position) is set, renumbered."""
        rows = np.flatnonzero(keep_positions[self.pos])
        indptr, take = gomoku_fit.csr_rows(self.indptr, rows)
        renumber = np.cumsum(keep_positions) - 1
        return ChoiceData(
            indptr,
            self.index[take],
            self.value[take],
            renumber[self.pos[rows]],
            self.label[rows],
            self.game[keep_positions],
            self.n_values,
        )


def choice_data(
    games: list[dict],
    rule: str,
    progress: Callable[[int, int], None] | None = None,
    attack: int | None = None,
    defence: int | None = None,
) -> ChoiceData:
    """Every candidate of every labelled engine move of ``games`` (all ``rule``), described
    by the changes of its stone (see the module docstring)."""
    from plies.gomoku.engine import params
    from plies.gomoku.engine import state as ST
    from plies.gomoku.rules import EMPTY
    from plies.tune.gomoku_data import replay

    a = (params.rule_value("ATTACK", rule) if attack is None else attack) / 64.0
    d = (params.rule_value("DEFENCE", rule) if defence is None else defence) / 64.0
    n = combos.N_COMBOS
    shared = gomoku_fit.shared_table(rule)
    index_of = combos.combo_of_index().astype(np.int64)
    indices: list[np.ndarray] = []
    values: list[np.ndarray] = []
    pos: list[int] = []
    labels: list[int] = []
    game_ids: list[int] = []

    def combos_of(st) -> tuple[np.ndarray, np.ndarray]:
        packed = st.p4.astype(np.int64)
        return index_of[packed & 0xFFFF], index_of[packed >> 16]

    for record, ply, st, tb, chosen, score in replay(games, rule, progress):
        s = ply % 2
        o = 1 - s
        if (
            score is None
            or abs(score) >= WIN_SCORE_LIMIT
            or st.counts[s, ST.C_FIVE] != 0
            or st.counts[o, ST.C_FIVE] != 0
        ):
            continue
        cells = candidates(st, rule)
        if len(cells) < 2 or chosen not in cells:
            continue
        base_s = 0 if shared else s * n
        base_o = 0 if shared else o * n
        empty = st.cells == EMPTY
        parent = combos_of(st)
        number = len(game_ids)
        for c in cells:
            ST.make(st, tb, int(c))
            child = combos_of(st)
            ST.undo(st, tb)
            changed = empty & ((child[0] != parent[0]) | (child[1] != parent[1]))
            changed[c] = False
            q = np.flatnonzero(changed)
            src = np.concatenate(
                [child[s][q], parent[s][q], child[o][q], parent[o][q], [parent[s][c], parent[o][c]]]
            )
            base = np.concatenate([np.full(2 * len(q), base_s), np.full(2 * len(q), base_o)])
            base = np.append(base, [base_s, base_o])
            k = len(q)
            val = np.concatenate(
                [np.full(k, d), np.full(k, -d), np.full(k, -a), np.full(k, a), [-d, a]]
            )
            ok = src >= 0  # a packed pattern set that names no combination maps to -1
            indices.append((base + src)[ok])
            values.append(val[ok])
            pos.append(number)
            labels.append(1 if c == chosen else 0)
        game_ids.append(int(record["seed"]))
    if not game_ids:
        raise InvalidOption("no labelled positions in the games")
    lengths = np.array([len(r) for r in indices], dtype=np.int64)
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    return ChoiceData(
        indptr,
        np.concatenate(indices).astype(np.int64),
        np.concatenate(values).astype(np.float64),
        np.array(pos, dtype=np.int64),
        np.array(labels, dtype=np.int8),
        np.array(game_ids, dtype=np.int64),
        (1 if shared else 2) * n,
    )


def _evaluations(data: ChoiceData, w: np.ndarray) -> np.ndarray:
    out = np.zeros(len(data.pos))
    _matvec(data.indptr, data.index, data.value, w, out)
    return out


def cross_entropy(data: ChoiceData, w: np.ndarray, temperature: float) -> float:
    """Mean negative log-likelihood of the chosen moves under ``softmax(child / T)``."""
    logits = _evaluations(data, w) / temperature
    _, lse = softmax_by_position(data.pos, data.positions, logits)
    chosen = np.bincount(data.pos, weights=logits * data.label, minlength=data.positions)
    return float(np.mean(lse - chosen))


def top1(data: ChoiceData, w: np.ndarray) -> float:
    """How often the chosen move's child evaluates strictly best among its siblings."""
    ev = _evaluations(data, w)
    chosen = np.zeros(data.positions)
    chosen[data.pos[data.label == 1]] = ev[data.label == 1]
    ahead = (ev >= chosen[data.pos]) & (data.label == 0)
    return float(np.mean(np.bincount(data.pos, weights=ahead, minlength=data.positions) == 0))


def fit_temperature(data: ChoiceData, w: np.ndarray) -> float:
    """The temperature that makes the values ``w`` the best policy."""
    return best_temperature(lambda t: cross_entropy(data, w, t), 1.0, 1e5)


def fit(
    data: ChoiceData,
    rule: str,
    *,
    steps: int = 400,
    learning_rate: float = 1.0,
    prior: float = 1e-4,
    progress: Callable[[int, int], None] | None = None,
) -> FitResult:
    """Fit the evaluation's values to the choices in ``data`` (see the module docstring);
    ``prior`` weighs the pull toward the hand-written values per squared centi-unit."""
    w0 = gomoku_fit.initial_values(rule)[:-1]  # no tempo: it cancels between siblings
    if len(w0) != data.n_values:
        raise InvalidOption(f"the data has {data.n_values} values, the rule {len(w0)}")
    held = data.game % 10 == 0
    if not (~held).any():
        raise InvalidOption("no training positions (every game is held out)")
    train, test = data.subset(~held), data.subset(held)
    temperature = fit_temperature(train, w0)
    frozen = np.zeros(len(w0), dtype=bool)
    frozen[combos.DEAD_COMBO :: combos.N_COMBOS] = True
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    grad = np.zeros_like(w)
    for step in range(1, steps + 1):
        logits = _evaluations(train, w) / temperature
        prob, _ = softmax_by_position(train.pos, train.positions, logits)
        _rmatvec(train.indptr, train.index, train.value, prob - train.label, grad)
        grad /= train.positions * temperature
        grad += 2 * prior * (w - w0)
        grad[frozen] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w = w - learning_rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if progress:
            progress(step, steps)

    def summary(part: ChoiceData, values: np.ndarray) -> dict | None:
        if part.positions == 0:
            return None
        return {
            "cross_entropy": round(cross_entropy(part, values, temperature), 4),
            "top1": round(top1(part, values), 4),
        }

    report = {
        "rule": rule,
        "objective": "choice",
        "temperature": round(temperature, 2),
        "train_positions": train.positions,
        "test_positions": test.positions,
        "hand_train": summary(train, w0),
        "hand_test": summary(test, w0),
        "fit_train": summary(train, w),
        "fit_test": summary(test, w),
        "steps": steps,
        "learning_rate": learning_rate,
        "prior": prior,
    }
    return FitResult(np.append(w, 0.0), report)
