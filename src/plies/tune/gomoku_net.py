"""Training the pattern network of the Gomoku evaluation (:mod:`plies.gomoku.engine.pattern_net`).

Data (TD-leaf, as for the threat term: :func:`plies.tune.gomoku_threat.leaves`): for the leaf
of every labelled engine move, the histograms of the pattern combinations of its empty cells
for the side to move and for the opponent, its evaluation without the network (``base``: the
cell values and the rule's threat term, as the engine plays) and its TD(lambda) target.

Model: ``P(win) = sigmoid(scale * (base + net) / WIN_PROB_SCALE)`` with ``net`` the
network's output in evaluation units: per colour the sums of the embeddings of the cells'
combinations (``a_own``, ``a_opp``, :data:`pattern_net.H` numbers each), a hidden layer of
:data:`pattern_net.H2` clipped ReLUs over both, one linear output. ``scale`` is fitted first on
``base`` alone and then held. Loss: the mean cross-entropy plus ``prior`` times the sum of the
squared weights (the pull toward no network); Adam, full batch; the combinations no
training row shows keep a zero embedding. Games whose seed is a multiple
of 10 are held out. The engine's net is the fitted one times a ``gain`` (the threat term's
lesson: the calibrated term is too timid, docs/training.md), in fixed point.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from plies.errors import InvalidOption
from plies.gomoku.engine import combos
from plies.gomoku.engine import pattern_net as PN
from plies.tune.gomoku_fit import (
    csr_matmul,
    csr_t_matmul_add,
    held_out_split,
    save_with_report,
    shared_table,
)

OUT = 400.0  # the output layer's unit, in evaluation units (centi-units)


@dataclass
class NetData:
    """One row per labelled leaf: the side to move's and the opponent's combination
    histograms (CSR, columns ``table * N_COMBOS + combo``), base, target, game."""

    indptr_own: np.ndarray
    index_own: np.ndarray
    count_own: np.ndarray
    indptr_opp: np.ndarray
    index_opp: np.ndarray
    count_opp: np.ndarray
    base: np.ndarray
    target: np.ndarray
    game: np.ndarray
    tables: int  # 1: both colours share the embeddings, 2: one table a colour (Renju)

    @property
    def size(self) -> int:
        return len(self.target)

    def subset(self, rows: np.ndarray) -> NetData:
        from plies.tune.gomoku_fit import csr_rows

        own_ptr, own_take = csr_rows(self.indptr_own, rows)
        opp_ptr, opp_take = csr_rows(self.indptr_opp, rows)
        return NetData(
            own_ptr,
            self.index_own[own_take],
            self.count_own[own_take],
            opp_ptr,
            self.index_opp[opp_take],
            self.count_opp[opp_take],
            self.base[rows],
            self.target[rows],
            self.game[rows],
            self.tables,
        )


def net_data(
    games: list[dict],
    rule: str,
    td: float = 0.7,
    progress: Callable[[int, int], None] | None = None,
    far_cells: bool = True,
    threat: str = "learned",
) -> NetData:
    """The labelled leaves of ``games`` (all ``rule``) with their combination histograms;
    ``far_cells`` False leaves out the cells with nothing on their lines
    (:data:`combos.FAR_COMBO`: their number is mostly the board's size, which a net that
    plays on every size should not read), so that their embedding stays zero. ``threat`` is
    the threat table in the base (:func:`threat_eval.threat_table`: learned, off or a path),
    the one the net will be played with."""
    from plies.gomoku.engine import params
    from plies.gomoku.engine import state as ST
    from plies.gomoku.engine import threat_eval as TE
    from plies.gomoku.rules import EMPTY, RULE_CODES
    from plies.tune.gomoku_threat import leaves

    tables = 1 if shared_table(rule) else 2
    choice = str(params.rule_value("THREAT", rule)) if threat == "learned" else threat
    table = TE.threat_table(RULE_CODES[rule], choice)
    index_of = PN.combo_index().astype(np.int64)
    n = combos.N_COMBOS
    parts: dict[str, list] = {k: [] for k in ("own", "own_n", "opp", "opp_n")}
    base: list[float] = []
    target: list[float] = []
    game: list[int] = []
    for record, st, tb, s, t in leaves(games, rule, td, progress):
        empty = np.flatnonzero(st.cells == EMPTY)
        packed = st.p4[empty].astype(np.int64)
        per_colour = (index_of[packed & 0xFFFF], index_of[packed >> 16])
        for key, colour in (("own", s), ("opp", 1 - s)):
            counts = np.bincount(per_colour[colour], minlength=n)
            counts[combos.DEAD_COMBO] = 0  # no embedding: a cell where nothing can be made
            if not far_cells:
                counts[combos.FAR_COMBO] = 0
            else:  # as the engine counts them: referred to an empty board of NET_SIZE
                counts[combos.FAR_COMBO] -= st.info[ST.I_FAR_EXTRA + colour]
            nz = np.flatnonzero(counts)
            parts[key].append(nz + (colour * n if tables == 2 else 0))
            parts[key + "_n"].append(counts[nz])
        mask = TE.mask_of(st.counts, s, tb.weights[ST.W_BLACK_33])
        base.append(float(ST.evaluate(st, tb) + table[s, mask]))
        target.append(t)
        game.append(int(record["seed"]))

    def csr(key: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lengths = np.array([len(r) for r in parts[key]], dtype=np.int64)
        indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        cat = np.concatenate if parts[key] else (lambda _: np.zeros(0))
        return (
            indptr,
            cat(parts[key]).astype(np.int64),
            cat(parts[key + "_n"]).astype(np.float64),
        )

    return NetData(
        *csr("own"),
        *csr("opp"),
        np.array(base, dtype=np.float64),
        np.array(target, dtype=np.float64),
        np.array(game, dtype=np.int64),
        tables,
    )


@dataclass
class NetFit:
    """The fitted network in float (``emb[tables * N_COMBOS, H]``, ``w1[H2, 2H]``, ``b1``,
    ``w2``, ``b2``; the output is ``OUT * (h @ w2 + b2)`` in evaluation units, so that every
    weight is of order 1 for the optimiser), the scale and the fit's report."""

    emb: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float
    scale: float
    tables: int
    report: dict = field(default_factory=dict)

    def forward(self, data: NetData) -> tuple[np.ndarray, ...]:
        """``(net output, hidden pre-activations, inputs)`` of every row."""
        a_own = np.zeros((data.size, PN.H))
        a_opp = np.zeros((data.size, PN.H))
        csr_matmul(data.indptr_own, data.index_own, data.count_own, self.emb, a_own)
        csr_matmul(data.indptr_opp, data.index_opp, data.count_opp, self.emb, a_opp)
        x = np.concatenate([a_own, a_opp], axis=1)
        pre = x @ self.w1.T + self.b1
        out = OUT * (np.clip(pre, 0.0, 1.0) @ self.w2 + self.b2)
        return out, pre, x

    def logits(self, data: NetData) -> np.ndarray:
        from plies.gomoku.engine.params import WIN_PROB_SCALE

        return self.scale * (data.base + self.forward(data)[0]) / WIN_PROB_SCALE

    def net(self, gain: float = 1.0) -> PN.Net:
        """The engine's fixed-point net (the output times ``gain``)."""
        emb = np.rint(self.emb * PN.Q_EMB).reshape(self.tables, combos.N_COMBOS, PN.H)
        emb[:, combos.DEAD_COMBO] = 0  # never seen in the data (its counts are dropped)
        emb = np.broadcast_to(emb, (2, combos.N_COMBOS, PN.H))
        w1 = np.rint(self.w1 * PN.Q_W1)
        b1 = np.rint(self.b1 * PN.ONE)
        w2 = np.rint(np.append(self.w2, self.b2) * OUT * gain)
        limit = np.iinfo(np.int32).max // 4
        return PN.Net(
            *(
                np.ascontiguousarray(np.clip(a, -limit, limit), dtype=np.int32)
                for a in (emb, w1, b1, w2)
            )
        )


def from_engine_net(net: PN.Net, tables: int) -> NetFit:
    """The float form of an engine net (the inverse of :meth:`NetFit.net` at gain 1); its
    scale is 1 (a fit sets its own)."""
    emb = net.emb[:tables].reshape(tables * net.emb.shape[1], PN.H) / PN.Q_EMB
    w2 = net.w2 / OUT
    return NetFit(
        emb, net.w1 / PN.Q_W1, net.b1 / PN.ONE, w2[: PN.H2], float(w2[PN.H2]), 1.0, tables
    )


def load_start(choice: str, rule: str) -> PN.Net:
    """The net a fit starts from (``--init``): ``learned`` (the rule's shipped net) or a
    net's path."""
    from plies.gomoku.rules import RULE_CODES

    if choice == "learned":
        path = PN.net_path(RULE_CODES[rule])
        if not path.exists():
            raise InvalidOption(f"the {rule} rule has no shipped net to start from")
    else:
        path = Path(choice)
        if not path.exists():
            raise InvalidOption(f"no net at {choice}")
    try:
        return PN.load_net(path)
    except (OSError, ValueError) as exc:
        raise InvalidOption(f"--init: cannot load {choice}: {str(exc)[:120]}") from None


def check_threat(choice: str) -> None:
    """Raise :class:`InvalidOption` unless ``choice`` (``--threat``) is learned, off or the
    path of a threat table."""
    from plies.gomoku.engine import threat_eval as TE

    if choice in ("learned", "off"):
        return
    if not Path(choice).is_file():
        raise InvalidOption(f"no threat table at {choice}")
    try:
        TE.load_threat(choice)
    except (OSError, ValueError) as exc:
        raise InvalidOption(f"--threat: cannot load {choice}: {str(exc)[:120]}") from None


def cross_entropy(target: np.ndarray, z: np.ndarray) -> float:
    """Mean cross-entropy of ``sigmoid(z)`` against the targets."""
    return float(np.mean(target * np.logaddexp(0, -z) + (1 - target) * np.logaddexp(0, z)))


def fit_scale(data: NetData, steps: int = 200) -> float:
    """The scale of the evaluation alone (``sigmoid(scale * base / WIN_PROB_SCALE)``), by
    Newton's method on the cross-entropy."""
    from plies.gomoku.engine.params import WIN_PROB_SCALE

    u = data.base / WIN_PROB_SCALE
    scale = 1.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-scale * u))
        g = float(np.sum((p - data.target) * u))
        h = float(np.sum(p * (1 - p) * u * u)) + 1e-9
        step = g / h
        scale -= step
        if abs(step) < 1e-9:
            break
    return max(scale, 1e-3)


def fit(
    data: NetData,
    rule: str,
    *,
    steps: int = 800,
    learning_rate: float = 0.01,
    prior: float = 1e-3,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
    init: PN.Net | None = None,
) -> NetFit:
    """Fit the network to ``data`` (see the module's text): the scale on the training rows
    first, then the weights by Adam from a seeded start whose output is 0, or from the
    engine net ``init`` (fine-tuning: every weight, unseen combinations' embeddings
    included, starts at ``init``'s)."""
    from plies.gomoku.engine.params import WIN_PROB_SCALE

    if data.size == 0:
        raise InvalidOption("no labelled positions to fit")
    train, test = held_out_split(data)
    scale = fit_scale(train)
    if init is not None:
        model = from_engine_net(init, data.tables)
        model.scale = scale
    else:
        rng = np.random.default_rng(seed)
        n_emb = data.tables * combos.N_COMBOS
        model = NetFit(
            emb=rng.normal(0.0, 0.05, (n_emb, PN.H)),
            w1=rng.normal(0.0, 0.3, (PN.H2, 2 * PN.H)),
            b1=np.full(PN.H2, 0.5),
            w2=np.zeros(PN.H2),
            b2=0.0,
            scale=scale,
            tables=data.tables,
        )
        # combinations the training rows never show keep no embedding (they would add their
        # random start to the evaluation of the positions where they do occur)
        seen = np.zeros(n_emb, dtype=bool)
        seen[np.unique(np.concatenate([train.index_own, train.index_opp]))] = True
        model.emb[~seen] = 0.0
    names = ("emb", "w1", "b1", "w2", "b2")
    moments = {k: (np.zeros_like(np.asarray(getattr(model, k), float)),) * 2 for k in names}
    b1m, b2m, eps = 0.9, 0.999, 1e-8
    before = (
        cross_entropy(train.target, scale * train.base / WIN_PROB_SCALE),
        cross_entropy(test.target, scale * test.base / WIN_PROB_SCALE),
    )
    m_rows = train.size
    for step in range(1, steps + 1):
        out, pre, x = model.forward(train)
        z = scale * (train.base + out) / WIN_PROB_SCALE
        r = (1.0 / (1.0 + np.exp(-z)) - train.target) * scale / WIN_PROB_SCALE / m_rows
        h = np.clip(pre, 0.0, 1.0)
        grads = {"w2": OUT * (h.T @ r), "b2": np.array(OUT * r.sum())}
        dpre = OUT * np.outer(r, model.w2) * ((pre > 0.0) & (pre < 1.0))
        grads["w1"] = dpre.T @ x
        grads["b1"] = dpre.sum(axis=0)
        dx = dpre @ model.w1
        g_emb = np.zeros_like(model.emb)
        csr_t_matmul_add(train.indptr_own, train.index_own, train.count_own, dx[:, : PN.H], g_emb)
        csr_t_matmul_add(train.indptr_opp, train.index_opp, train.count_opp, dx[:, PN.H :], g_emb)
        grads["emb"] = g_emb
        for k in ("emb", "w1", "w2"):
            grads[k] = grads[k] + 2.0 * prior * getattr(model, k)
        for k in names:
            m, v = moments[k]
            g = grads[k]
            m = b1m * m + (1 - b1m) * g
            v = b2m * v + (1 - b2m) * g * g
            moments[k] = (m, v)
            delta = learning_rate * (m / (1 - b1m**step)) / (np.sqrt(v / (1 - b2m**step)) + eps)
            if k == "b2":
                model.b2 = float(model.b2 - delta)
            else:
                setattr(model, k, getattr(model, k) - delta)
        if progress:
            progress(step, steps)
    after = (
        cross_entropy(train.target, model.logits(train)),
        cross_entropy(test.target, model.logits(test)),
    )
    out_test = model.forward(test)[0]
    model.report = {
        "rule": rule,
        "target": "net",
        "positions": int(data.size),
        "train_positions": int(train.size),
        "test_positions": int(test.size),
        "steps": steps,
        "learning_rate": learning_rate,
        "prior": prior,
        "seed": seed,
        "scale": scale,
        "hidden": [PN.H, PN.H2],
        "output_sd_test": float(np.std(out_test)),
        "loss_before": {"train": before[0], "test": before[1]},
        "loss_after": {"train": after[0], "test": after[1]},
    }
    return model


def save(result: NetFit, path: str | Path, gain: float = 1.0) -> Path:
    """Write the engine's net (``.npy``, :func:`pattern_net.pack`, output times ``gain``) and,
    beside it, the fit's report (``.json``)."""
    return save_with_report(
        path, PN.pack(result.net(gain), result.tables), result.report, "net", gain
    )
