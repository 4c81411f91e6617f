"""The pattern network in the engine: its sums kept by make/undo equal a rebuild (see also
test_state.py), its output equals a slow reference, no net is the old evaluation, and its
file format is checked."""

from __future__ import annotations

import numpy as np
import pytest

from plies.gomoku import Board
from plies.gomoku.engine import Engine, combos, params
from plies.gomoku.engine import pattern_net as PN
from plies.gomoku.engine import state as ST
from plies.gomoku.rules import EMPTY, FREESTYLE, RENJU, RULE_CODES


def random_net(seed: int, tables: int = 2) -> PN.Net:
    """A net with every part random and large enough for the clips to matter."""
    rng = np.random.default_rng(seed)
    emb = rng.integers(-40, 41, size=(tables, combos.N_COMBOS, PN.H))
    emb = np.broadcast_to(emb, (2, combos.N_COMBOS, PN.H))
    return PN.Net(
        np.ascontiguousarray(emb, dtype=np.int32),
        rng.integers(-60, 61, size=(PN.H2, 2 * PN.H)).astype(np.int32),
        rng.integers(-PN.ONE, 2 * PN.ONE, size=PN.H2).astype(np.int32),
        rng.integers(-300, 301, size=PN.H2 + 1).astype(np.int32),
    )


def reference_output(st: ST.State, net: PN.Net, s: int) -> int:
    """The net's output for side to move ``s``, from the cells' packed patterns, in Python."""
    index = PN.combo_index()
    acc = [[0] * PN.H for _ in range(2)]
    for p in np.flatnonzero(st.cells == EMPTY):
        packed = int(st.p4[p])
        for colour, code in ((0, packed & 0xFFFF), (1, packed >> 16)):
            for h in range(PN.H):
                acc[colour][h] += int(net.emb[colour, index[code], h])
    x = acc[s] + acc[1 - s]
    out = 0
    for j in range(PN.H2):
        pre = int(net.b1[j]) + sum(int(net.w1[j, i]) * x[i] for i in range(2 * PN.H))
        out += int(net.w2[j]) * min(max(pre, 0), PN.ONE)
    return out // PN.ONE + int(net.w2[PN.H2])


@pytest.mark.parametrize("rule", [FREESTYLE, RENJU])
def test_the_evaluation_adds_the_nets_output(rule: int) -> None:
    moves = ["h8", "i9", "h9", "h10", "i8", "j8", "g8", "g9", "j10", "k11", "f8"]
    board = Board.from_moves(moves, 15, rule)
    net = random_net(3, tables=2 if rule == RENJU else 1)
    plain = ST.make_tables(rule, {"NET": "off"})
    with_net = ST.make_tables(rule, {"NET": net})
    assert with_net.weights[ST.W_NET] == 1 and plain.weights[ST.W_NET] == 0
    st, _ = ST.state_from_board(board, plain)
    st2, _ = ST.state_from_board(board, with_net)
    for _ in range(2):  # black to move, then (after one more move) white
        s = int(st.info[ST.I_SIDE]) - 1
        got = ST.evaluate(st2, with_net) - ST.evaluate(st, plain)
        assert got == reference_output(st2, net, s) != 0
        empty = int(np.flatnonzero(st.cells == EMPTY)[40])
        ST.make(st, plain, empty)
        ST.make(st2, with_net, empty)


def test_no_net_and_a_zero_net_search_alike(tmp_path) -> None:
    board = Board.from_moves(["h8", "i9", "h9", "h10", "i8"], 15, "freestyle")
    zero = PN.empty_net()
    path = tmp_path / "zero.npy"
    np.save(path, PN.pack(zero, 1))
    a = Engine("freestyle", 15, hash_mb=2, params={"NET": "off"}).search(board, nodes=3000)
    b = Engine("freestyle", 15, hash_mb=2, params={"NET": str(path)}).search(board, nodes=3000)
    assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)
    # no net ships yet for Caro: the default is none
    assert ST.make_tables(3).weights[ST.W_NET] == 0


def test_pack_and_load(tmp_path) -> None:
    net = random_net(5, tables=1)
    path = tmp_path / "net.npy"
    np.save(path, PN.pack(net, 1))
    loaded = PN.load_net(path)
    for a, b in zip(loaded, net, strict=True):
        assert np.array_equal(a, b)
    assert params.check_table("NET", str(path)) == str(path)
    renju = random_net(6, tables=2)
    np.save(path, PN.pack(renju, 2))
    assert np.array_equal(PN.load_net(path).emb, renju.emb)
    bad = PN.pack(net, 1)
    for broken, word in (
        (bad[:-1], "numbers"),
        (np.concatenate([[9], bad[1:]]), "format"),
        (np.zeros((2, 3), dtype=np.int32), "1-D"),
    ):
        np.save(path, broken)
        with pytest.raises(ValueError, match=word):
            PN.load_net(path)
    with pytest.raises(ValueError, match="cannot load"):
        params.check_table("NET", str(path))


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_the_shipped_nets_are_on_by_default(rule: str) -> None:
    """Freestyle and standard ship a net with one table for both colours (session 16), Renju
    one with a table a colour (session 17, black's forbidden points change what its patterns
    mean); each is read by the format check, "learned" turns it on and "off" turns it off;
    Caro ships none, so "learned" means no net there."""
    path = PN.net_path(rule)
    assert path.is_file() and path.stat().st_size < 100_000
    shipped = PN.load_net(path)
    tables = int(np.load(path)[3])
    assert tables == (2 if rule == "renju" else 1)
    assert np.array_equal(shipped.emb[0], shipped.emb[1]) == (tables == 1)
    assert shipped.emb.any() and shipped.w1.any() and shipped.w2.any()
    code = RULE_CODES[rule]
    assert ST.make_tables(code).weights[ST.W_NET] == 1
    assert ST.make_tables(code, {"NET": "off"}).weights[ST.W_NET] == 0
    assert not PN.net_path("caro").exists()
    assert ST.make_tables(RULE_CODES["caro"]).weights[ST.W_NET] == 0


def far_only_net() -> PN.Net:
    """A net whose only embedding is the far combination's (one per channel), so that the
    sums count far cells."""
    net = PN.empty_net()
    emb = net.emb.copy()
    emb[:, combos.FAR_COMBO, :] = np.arange(1, PN.H + 1)
    return PN.Net(emb, net.w1, net.b1, net.w2)


def centred(moves: list[tuple[int, int]], size: int) -> Board:
    """``moves`` (offsets from the centre) played in the centre of a ``size`` board."""
    board = Board(size, "freestyle")
    c = size // 2
    for dx, dy in moves:
        board.play(board.parse(f"{dx + c},{dy + c}"))
    return board


SHAPE = [(0, 0), (1, 1), (0, 1), (0, 2), (-1, 0), (2, 0), (-1, -2)]


def far_extra(size: int) -> int:
    """Black's far cells of an empty ``size`` board beyond an empty 15x15's."""
    return ST.empty_far_cells(size, size, FREESTYLE)[0] - ST.empty_far_cells(15, 15, FREESTYLE)[0]


def test_far_cells_are_counted_as_on_the_reference_board() -> None:
    net = far_only_net()
    sums = {}
    for size in (15, 19, 20, 22):
        tb = ST.make_tables(FREESTYLE, {"NET": net})  # NET_SIZE 15, the default
        st, _ = ST.state_from_board(centred(SHAPE, size), tb)
        sums[size] = st.info[ST.I_ACC : ST.I_ACC + 2 * PN.H].copy()
        raw = ST.make_tables(FREESTYLE, {"NET": net, "NET_SIZE": 0})
        st0, _ = ST.state_from_board(centred(SHAPE, size), raw)
        extra = far_extra(size)
        assert extra == st.info[ST.I_FAR_EXTRA] and (extra > 0) == (size > 15)
        # the board's own count, as trained before NET_SIZE: the extra cells' embeddings more
        own = st0.info[ST.I_ACC : ST.I_ACC + PN.H]
        assert np.array_equal(own - sums[size][: PN.H], extra * np.arange(1, PN.H + 1))
    # the same stones in the middle of a larger board: about 15x15's far cells (channel 0
    # counts them; the stones' lines reach the edge region of 15x15, so not exactly), where the
    # board's own count has all the extra ones
    for size in (19, 20, 22):
        extra = far_extra(size)
        for colour in (0, 1):
            gap = sums[size][colour * PN.H] - sums[15][colour * PN.H]
            assert 0 <= gap < extra // 4


def test_the_far_correction_survives_make_and_undo() -> None:
    net = random_net(5, tables=1)
    tb = ST.make_tables(FREESTYLE, {"NET": net})
    board = centred(SHAPE, 20)
    st, _ = ST.state_from_board(board, tb)
    start = st.info.copy()
    for text in ("k12", "l12", "j9", "m13"):
        ST.make(st, tb, ST_pos(st, board, text))
        board.play(text)
        fresh, _ = ST.state_from_board(board, tb)
        assert np.array_equal(st.info[ST.I_ACC :], fresh.info[ST.I_ACC :])
        assert ST.evaluate(st, tb) == ST.evaluate(fresh, tb)
    for _ in range(4):
        ST.undo(st, tb)
    assert np.array_equal(st.info[ST.I_ACC :], start[ST.I_ACC :])


def ST_pos(st: ST.State, board: Board, text: str) -> int:
    m = board.parse(text)
    return (m.y + ST.PAD) * int(st.info[ST.I_STRIDE]) + m.x + ST.PAD


def test_net_size_is_checked() -> None:
    from plies.errors import InvalidOption

    for bad in (3, 23, 15.5):
        with pytest.raises(InvalidOption, match="NET_SIZE must be 0 or a board size"):
            Engine("freestyle", 20, params={"NET_SIZE": bad})
    assert ST.make_tables(FREESTYLE, {"NET_SIZE": 0}).weights[ST.W_NET_SIZE] == 0
