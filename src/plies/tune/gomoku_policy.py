"""Fitting a learned move order for the Gomoku search: which cell the search will choose.

The search orders its quiet candidate moves by a static score per cell (then killers, the
counter-move and histories): for the side to move, ``U[own combination] + V[opponent
combination]``, where a cell's combination is the multiset of its four line patterns
(:mod:`plies.gomoku.engine.combos`) for that side. The hand-written ``U`` is the cell value
plus a bonus for the threat class the move makes; ``V`` the opponent's cell value plus a bonus
for the class the move takes away. Late-move reductions and move-count pruning cut by this
order, so a better order searches the right moves deeper.

The fit treats the order as a policy: ``softmax((U[a(c)] + V[b(c)]) / T)`` over the candidate
cells ``c`` of a position (the cells the search generates: empty, near a stone, not forbidden;
only the defences when the opponent has an open three), with the move a deeper self-play
search chose as the label (records of :mod:`plies.tune.gomoku_data`). ``T`` is fitted first
for the hand-written tables (one number), then ``U`` and ``V`` move from the hand-written
values by Adam on the cross-entropy plus an L2 pull back to them; they keep the search's units,
so killers and histories weigh as before. One pair of tables per colour under Renju, one
shared pair otherwise. Positions with a five to make or to block are left out (the search
decides those without the order). Games whose seed is a multiple of 10 are held out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from plies.errors import InvalidOption
from plies.gomoku.engine import combos


@dataclass
class PolicyData:
    """Every candidate cell of every labelled position: its position number ``pos``
    (non-decreasing), own and opponent table rows ``t_own``/``t_opp``, combinations
    ``a``/``b``, and ``label`` (1 for the move chosen); ``game`` is each position's seed."""

    pos: np.ndarray
    t_own: np.ndarray
    t_opp: np.ndarray
    a: np.ndarray
    b: np.ndarray
    label: np.ndarray
    game: np.ndarray
    n_tables: int

    @property
    def positions(self) -> int:
        return len(self.game)

    def subset(self, keep_positions: np.ndarray) -> PolicyData:
        """The positions whose mask ``keep_positions`` (bool per position) is set, renumbered."""
        rows = keep_positions[self.pos]
        renumber = np.cumsum(keep_positions) - 1
        return PolicyData(
            renumber[self.pos[rows]],
            self.t_own[rows],
            self.t_opp[rows],
            self.a[rows],
            self.b[rows],
            self.label[rows],
            self.game[keep_positions],
            self.n_tables,
        )


def hand_tables(rule: str) -> np.ndarray:
    """float64[n_tables, 2, N_COMBOS]: the search's hand-written order, ``[t, 0]`` = U (own
    combination) and ``[t, 1]`` = V (opponent combination)."""
    from plies.gomoku.board import rule_code
    from plies.gomoku.engine import search as S
    from plies.gomoku.engine import state as ST

    code = rule_code(rule)
    tb = ST.make_tables(code, {"EVAL": "classic"})
    n_tables = 1 if rule != "renju" else 2
    out = np.zeros((n_tables, 2, combos.N_COMBOS))
    for t in range(n_tables):
        for i, combo in enumerate(combos.COMBOS):
            cv = int(tb.p4cv[t, combos.packed_index(combo)])
            cls, value = cv & 7, cv >> 8
            out[t, 0, i] = value + S.OWN_CLASS_SCORE[cls]
            out[t, 1, i] = value + S.BLOCK_CLASS_SCORE[cls]
    return out


def candidates(st, rule: str) -> np.ndarray:
    """The cells the search generates for the side to move of engine state ``st`` (a position
    without a five to make or block): empty, within two cells of a stone, not forbidden to
    Renju black; only our fours and the defences when the opponent has an open three."""
    from plies.gomoku.engine import search as S
    from plies.gomoku.engine import state as ST
    from plies.gomoku.engine import vcf as V
    from plies.gomoku.rules import BLACK, EMPTY

    s = int(st.info[ST.I_SIDE]) - 1
    o = 1 - s
    stride = int(st.info[ST.I_STRIDE])
    cells = np.flatnonzero((st.cells == EMPTY) & (st.near > 0))
    own_cls = st.cls[s, cells] & 7
    opp_cls = st.cls[o, cells] & 7
    keep = np.ones(len(cells), dtype=bool)
    if s + 1 == BLACK and rule == "renju":
        for k, p in enumerate(cells):
            raw = int(st.cls[s, p])
            if (raw & 7) == ST.C_FORBID or (
                raw & ST.CHECK_FLAG and V.is_forbidden(st.cells, stride, int(p))
            ):
                keep[k] = False
    if S.real_threat_exists(st, o, ST.C_FLEX4):
        keep &= (own_cls >= ST.C_FOUR) | ((opp_cls >= ST.C_FOUR) & (opp_cls != ST.C_FORBID))
    return cells[keep]


def policy_data(
    games: list[dict], rule: str, progress: Callable[[int, int], None] | None = None
) -> PolicyData:
    """The candidate cells and chosen moves of every engine move of ``games`` (all ``rule``)."""
    from plies.gomoku.engine import state as ST
    from plies.tune.gomoku_data import replay

    shared = rule != "renju"
    index_of = combos.combo_of_index().astype(np.int64)
    cols: dict[str, list[np.ndarray]] = {k: [] for k in ("pos", "t_own", "t_opp", "a", "b", "y")}
    game_ids: list[int] = []
    for record, ply, st, _, chosen, score in replay(games, rule, progress):
        s = ply % 2
        o = 1 - s
        if score is None or st.counts[s, ST.C_FIVE] != 0 or st.counts[o, ST.C_FIVE] != 0:
            continue
        cells = candidates(st, rule)
        if len(cells) < 2 or chosen not in cells:
            continue
        packed = st.p4[cells].astype(np.int64)
        per_side = (index_of[packed & 0xFFFF], index_of[packed >> 16])
        n = len(game_ids)
        cols["pos"].append(np.full(len(cells), n))
        cols["t_own"].append(np.full(len(cells), 0 if shared else s))
        cols["t_opp"].append(np.full(len(cells), 0 if shared else o))
        cols["a"].append(per_side[s])
        cols["b"].append(per_side[o])
        cols["y"].append((cells == chosen).astype(np.int8))
        game_ids.append(int(record["seed"]))
    if not game_ids:
        raise InvalidOption("no labelled positions in the games")
    cat = {k: np.concatenate(v) for k, v in cols.items()}
    return PolicyData(
        cat["pos"].astype(np.int64),
        cat["t_own"].astype(np.int64),
        cat["t_opp"].astype(np.int64),
        cat["a"].astype(np.int64),
        cat["b"].astype(np.int64),
        cat["y"],
        np.array(game_ids, dtype=np.int64),
        1 if shared else 2,
    )


def _scores(data: PolicyData, tables: np.ndarray) -> np.ndarray:
    return tables[data.t_own, 0, data.a] + tables[data.t_opp, 1, data.b]


def softmax_by_position(
    pos: np.ndarray, positions: int, logits: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per-candidate probabilities of ``logits`` within each position (``pos``: the position
    of each candidate) and per-position log-sum-exp."""
    top = np.full(positions, -np.inf)
    np.maximum.at(top, pos, logits)
    e = np.exp(logits - top[pos])
    z = np.bincount(pos, weights=e, minlength=positions)
    return e / z[pos], top + np.log(z)


def _softmax(data: PolicyData, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return softmax_by_position(data.pos, data.positions, logits)


def best_temperature(cross_entropy_at: Callable[[float], float], lo: float, hi: float) -> float:
    """The temperature in ``lo..hi`` minimising ``cross_entropy_at(T)`` (golden section on
    log T)."""
    lo, hi = np.log(lo), np.log(hi)
    f = lambda lt: cross_entropy_at(float(np.exp(lt)))  # noqa: E731
    g = (np.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = f(a), f(b)
    for _ in range(40):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = f(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = f(b)
    return float(np.exp((lo + hi) / 2))


def cross_entropy(data: PolicyData, tables: np.ndarray, temperature: float) -> float:
    """Mean negative log-likelihood of the chosen moves."""
    logits = _scores(data, tables) / temperature
    _, lse = _softmax(data, logits)
    chosen = np.bincount(data.pos, weights=logits * data.label, minlength=data.positions)
    return float(np.mean(lse - chosen))


def ranks(data: PolicyData, tables: np.ndarray) -> np.ndarray:
    """The rank (0 = first) of the chosen move in each position's order (ties count against)."""
    scores = _scores(data, tables)
    chosen = np.zeros(data.positions)
    chosen[data.pos[data.label == 1]] = scores[data.label == 1]
    ahead = (scores >= chosen[data.pos]) & (data.label == 0)
    return np.bincount(data.pos, weights=ahead, minlength=data.positions).astype(np.int64)


def fit_temperature(data: PolicyData, tables: np.ndarray) -> float:
    """The temperature that makes ``tables`` the best policy."""
    return best_temperature(lambda t: cross_entropy(data, tables, t), 10.0, 1e6)


@dataclass
class PolicyFit:
    """The fitted tables (search units), the temperature and the report."""

    tables: np.ndarray
    temperature: float
    report: dict = field(default_factory=dict)


def _summary(data: PolicyData, tables: np.ndarray, temperature: float) -> dict:
    r = ranks(data, tables)
    return {
        "cross_entropy": round(cross_entropy(data, tables, temperature), 4),
        "top1": round(float(np.mean(r == 0)), 4),
        "top3": round(float(np.mean(r < 3)), 4),
        "mean_rank": round(float(np.mean(r)), 3),
    }


def fit(
    data: PolicyData,
    rule: str,
    *,
    steps: int = 300,
    lr: float = 0.05,
    prior: float = 1e-4,
    progress: Callable[[int, int], None] | None = None,
) -> PolicyFit:
    """Fit the order's tables to ``data`` (see the module docstring)."""
    hand = hand_tables(rule)
    if hand.shape[0] != data.n_tables:
        raise InvalidOption(f"the data has {data.n_tables} tables, the rule {hand.shape[0]}")
    held = data.game % 10 == 0
    train, test = data.subset(~held), data.subset(held)
    if train.positions == 0:
        raise InvalidOption("no training positions (every game is held out)")
    temperature = fit_temperature(train, hand)
    w = hand / temperature  # logits' units while fitting
    w0 = w.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    n_cells = w.shape[2]
    for step in range(1, steps + 1):
        logits = w[train.t_own, 0, train.a] + w[train.t_opp, 1, train.b]
        prob, _ = _softmax(train, logits)
        g_cell = (prob - train.label) / train.positions
        grad = np.zeros_like(w)
        for t in range(w.shape[0]):
            own = train.t_own == t
            grad[t, 0] = np.bincount(train.a[own], weights=g_cell[own], minlength=n_cells)
            opp = train.t_opp == t
            grad[t, 1] = np.bincount(train.b[opp], weights=g_cell[opp], minlength=n_cells)
        grad += 2 * prior * (w - w0)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        w[:, :, combos.DEAD_COMBO] = w0[:, :, combos.DEAD_COMBO]
        if progress:
            progress(step, steps)
    tables = np.round(w * temperature)
    report = {
        "rule": rule,
        "temperature": round(temperature, 2),
        "train_positions": train.positions,
        "test_positions": test.positions,
        "hand_train": _summary(train, hand, temperature),
        "hand_test": _summary(test, hand, temperature) if test.positions else None,
        "fit_train": _summary(train, tables, temperature),
        "fit_test": _summary(test, tables, temperature) if test.positions else None,
        "steps": steps,
        "lr": lr,
        "prior": prior,
    }
    return PolicyFit(tables, temperature, report)
