"""The pattern network: a small learned network over the cells' pattern combinations.

The cell-value sums of the evaluation give every empty cell a number (its combination's
value) and add them up; the threat term adds one number per mask of threat counts. The
pattern network learns what neither can say: which *mixtures* of cells are worth more or less
than their parts. Like NNUE, it is cheap because its first layer is a sum kept up to date by
``make``:

* every empty cell offers each colour a pattern combination (one of the 1001 multisets of four
  line patterns, :mod:`combos`); each combination has an embedding of :data:`H` numbers per
  colour (``emb[colour, combo, :]``), and the state keeps, per colour, the sum of the
  embeddings of its empty cells (``State.acc``): a move changes the combinations of the cells
  on its four lines only, and ``make`` adds the difference;
* at a leaf the side to move's sum and the opponent's (``2 * H`` numbers) go through one hidden
  layer of :data:`H2` clipped-ReLU units to one output, added to the evaluation in its own
  units (centi-units, side to move's view).

The engine holds the whole net in one flat int32 array (:func:`engine_array`: the map from
packed patterns to combinations, then the embeddings, then the dense layers, at the ``O_*``
offsets), and the sums in the state's ``info`` (``state.I_ACC``): one more array to pass
around the search, not six.

Fixed point: embeddings are stored times :data:`Q_EMB`, first-layer weights times
:data:`Q_W1`, so that a hidden unit's input is in units of ``1 / ONE`` (``ONE = Q_EMB * Q_W1``)
and clipped to ``0 .. ONE``; output weights are in evaluation units. A net is one int32 array
(:func:`pack`; shipped as ``plies/data/gomoku-net-<rule>.npy``); ``params.NET`` chooses it
(``"learned"``: the shipped one, if any; ``"off"``; or a file). With no net, ``make`` skips the
sums and the evaluation is exactly the one without this module. Trained by
:mod:`plies.tune.gomoku_net`.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from plies.gomoku.engine import combos
from plies.gomoku.rules import RULE_NAMES

H = 8  # accumulator channels a colour
H2 = 16  # hidden units
Q_EMB = 1024  # embeddings are stored times this
Q_W1 = 1024  # first-layer weights are stored times this
ONE = Q_EMB * Q_W1  # a hidden unit's 1.0
FORMAT = 1  # the packed layout's version (its first number)
# offsets in the engine's flat array (engine_array)
O_EMB = 1 << 16  # after the map from packed patterns to combinations
O_W1 = O_EMB + 2 * combos.N_COMBOS * H
O_B1 = O_W1 + H2 * 2 * H
O_W2 = O_B1 + H2  # H2 output weights, then the output bias
ENGINE_SIZE = O_W2 + H2 + 1
HEADER = 4  # format, H, H2, number of embedding tables (1: both colours share one)


class Net(NamedTuple):
    """A net in the engine's form: ``emb`` int32[2, N_COMBOS, H] (one table a colour), ``w1``
    int32[H2, 2H] (inputs: side to move's sums, then the opponent's), ``b1`` int32[H2] (in
    units of 1 / ONE) and ``w2`` int32[H2 + 1] (the output weights, then the output bias)."""

    emb: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray


def empty_net() -> Net:
    """The all-zero net (what the engine carries when no net is on; it is never read)."""
    return Net(
        np.zeros((2, combos.N_COMBOS, H), dtype=np.int32),
        np.zeros((H2, 2 * H), dtype=np.int32),
        np.zeros(H2, dtype=np.int32),
        np.zeros(H2 + 1, dtype=np.int32),
    )


def pack(net: Net, tables: int = 2) -> np.ndarray:
    """The net as one int32 vector (the file format): header, then the embeddings (``tables``
    of them: 1 when both colours share one), ``w1``, ``b1``, ``w2``."""
    emb = net.emb[:tables]
    return np.concatenate(
        [
            np.array([FORMAT, H, H2, tables], dtype=np.int64),
            emb.reshape(-1),
            net.w1.reshape(-1),
            net.b1,
            net.w2,
        ]
    ).astype(np.int32)


def unpack(data: np.ndarray, source: str = "net") -> Net:
    """The engine's net from :func:`pack`'s vector; ValueError naming what is wrong."""
    data = np.asarray(data)
    if data.ndim != 1 or data.size < HEADER or not np.issubdtype(data.dtype, np.integer):
        raise ValueError(f"{source}: not a pattern net (expected a 1-D integer array)")
    fmt, h, h2, tables = (int(v) for v in data[:HEADER])
    if fmt != FORMAT or h != H or h2 != H2 or tables not in (1, 2):
        raise ValueError(
            f"{source}: a net of format {fmt}, H {h}, H2 {h2}, {tables} tables; this engine "
            f"reads format {FORMAT}, H {H}, H2 {H2}"
        )
    n_emb = tables * combos.N_COMBOS * H
    expected = HEADER + n_emb + H2 * 2 * H + H2 + H2 + 1
    if data.size != expected:
        raise ValueError(f"{source}: {data.size} numbers, expected {expected}")
    at = HEADER
    emb = data[at : at + n_emb].reshape(tables, combos.N_COMBOS, H)
    at += n_emb
    w1 = data[at : at + H2 * 2 * H].reshape(H2, 2 * H)
    at += H2 * 2 * H
    b1 = data[at : at + H2]
    w2 = data[at + H2 :]
    emb = np.broadcast_to(emb, (2, combos.N_COMBOS, H))
    return Net(*(np.ascontiguousarray(a, dtype=np.int32) for a in (emb, w1, b1, w2)))


def net_path(rule: int | str) -> Path:
    """Where the shipped net of ``rule`` lives (it may not exist)."""
    name = RULE_NAMES[rule] if isinstance(rule, int) else rule
    return Path(str(resources.files("plies.data").joinpath(f"gomoku-net-{name}.npy")))


def load_net(path: str | Path) -> Net:
    """A net from a ``.npy`` file written by :func:`pack` (ValueError when it is not one)."""
    return unpack(np.load(path, allow_pickle=False), str(path))


@cache
def _shipped(rule: int) -> Net | None:
    path = net_path(rule)
    return load_net(path) if path.is_file() else None


def net_tables(rule: int, choice: str | Net) -> tuple[Net, bool]:
    """The net the evaluation uses and whether it is on: ``"learned"`` (the shipped one, else
    none), ``"off"``, the path of a net, or a :class:`Net` itself (tests and tuning)."""
    if isinstance(choice, Net):
        return Net(*(np.ascontiguousarray(a, dtype=np.int32) for a in choice)), True
    if choice == "off":
        return empty_net(), False
    if choice == "learned":
        shipped = _shipped(rule)
        if shipped is None:
            return empty_net(), False
        # writable copies: the kernels are compiled for writable arrays
        return Net(*(a.copy() for a in shipped)), True
    return load_net(choice), True


def engine_array(net: Net) -> np.ndarray:
    """The flat int32 array the engine reads (offsets ``O_*``)."""
    return np.concatenate(
        [combo_index(), net.emb.reshape(-1), net.w1.reshape(-1), net.b1, net.w2]
    ).astype(np.int32)


@cache
def combo_index() -> np.ndarray:
    """int32[2**16]: the combination of every packed four-pattern index (the all-dead one for
    an index that is no pattern, which has no embedding)."""
    index = combos.combo_of_index().astype(np.int32)
    index[index < 0] = combos.DEAD_COMBO
    return index


@njit(cache=True, nogil=True, _nrt=False)
def net_output(info, at: int, s: int, net) -> int:
    """The network's output (evaluation units, side ``s``'s view) from the colour sums held in
    ``info[at + colour * H + h]``, the net being the flat :func:`engine_array`."""
    own = at + s * H
    opp = at + (1 - s) * H
    out = np.int64(0)
    for j in range(H2):
        pre = np.int64(net[O_B1 + j])
        row = O_W1 + j * 2 * H
        for i in range(H):
            pre += np.int64(net[row + i]) * info[own + i]
            pre += np.int64(net[row + H + i]) * info[opp + i]
        if pre > 0:
            out += np.int64(net[O_W2 + j]) * (pre if pre < ONE else ONE)
    return out // ONE + net[O_W2 + H2]
