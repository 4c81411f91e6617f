"""Training the pattern network: the leaves' histograms and bases, the fit (a planted
interaction learned, the loss lowered), the engine's fixed point against the float network,
and `plies train gomoku --target net`, on small data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board
from plies.gomoku.engine import Engine, combos
from plies.gomoku.engine import pattern_net as PN
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import threat_eval as TE
from plies.gomoku.rules import EMPTY, FREESTYLE
from plies.tune import gomoku_data, gomoku_net, gomoku_threat

SMALL = gomoku_data.SelfPlaySettings(rule="freestyle", size=9, nodes=300, random_moves=3)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    gomoku_data.generate(SMALL, 6, path, seed=30)
    return gomoku_data.load_games([path])


def test_the_leaves_are_the_threat_terms_with_the_term_in_the_base(games):
    net = gomoku_net.net_data(games, "freestyle", td=0.5)
    threat = gomoku_threat.threat_data(games, "freestyle", td=0.5)
    assert net.size == threat.size > 0
    assert np.array_equal(net.game, threat.game) and np.allclose(net.target, threat.target)
    table = TE.threat_table(FREESTYLE, "learned")
    term = table[threat.colour, threat.own * TE.SIDE_MASKS + threat.opp]
    assert np.array_equal(net.base, threat.base + term)
    # every empty cell but the dead ones (where no five can be made) is counted once a side,
    # in the shared table, the far cells as on an empty 15x15 board (these games are 9x9: 120
    # fewer far cells than 15x15's, added as the engine adds them)
    assert net.tables == 1 and net.index_own.max() < combos.N_COMBOS
    ptr = net.indptr_own
    own_cells = [net.count_own[a:b].sum() for a, b in zip(ptr[:-1], ptr[1:], strict=True)]
    index = PN.combo_index()
    for i, (_, st, _, s, _) in enumerate(gomoku_threat.leaves(games, "freestyle")):
        packed = st.p4[st.cells == EMPTY].astype(np.int64)
        codes = (packed & 0xFFFF) if s == 0 else (packed >> 16)
        extra = ST.empty_far_cells(9, 9, FREESTYLE)[s] - ST.empty_far_cells(15, 15, FREESTYLE)[s]
        assert extra == st.info[ST.I_FAR_EXTRA + s] == -120
        assert own_cells[i] == np.count_nonzero(index[codes] != combos.DEAD_COMBO) - extra


def test_the_base_takes_the_threat_table_it_is_given(games, tmp_path):
    threat = gomoku_threat.threat_data(games, "freestyle", td=0.5)
    off = gomoku_net.net_data(games, "freestyle", td=0.5, threat="off")
    assert np.array_equal(off.base, threat.base)
    table = np.arange(2 * TE.MASKS, dtype=np.int64).reshape(2, TE.MASKS) % 301 - 150
    path = tmp_path / "threat.npy"
    np.save(path, table.astype(np.int16))
    given = gomoku_net.net_data(games, "freestyle", td=0.5, threat=str(path))
    term = table[threat.colour, threat.own * TE.SIDE_MASKS + threat.opp]
    assert np.array_equal(given.base, threat.base + term) and np.any(term != 0)


def test_the_engine_net_computes_what_the_float_net_does(games, tmp_path):
    data = gomoku_net.net_data(games, "freestyle")
    result = gomoku_net.fit(data, "freestyle", steps=30, seed=2)
    result.w2 = np.random.default_rng(4).normal(0, 0.2, PN.H2)  # an output to compare
    result.b2 = 0.02
    engine_net = result.net()
    plain = ST.make_tables(FREESTYLE, {"NET": "off"})
    with_net = ST.make_tables(FREESTYLE, {"NET": engine_net})
    float_out = result.forward(data)[0]
    checked = 0
    from plies.tune.gomoku_threat import leaves

    for i, (_, st, *_) in enumerate(leaves(games, "freestyle")):
        copy = ST.State(*[a.copy() for a in st])
        ST.rebuild(copy, with_net)
        got = ST.evaluate(copy, with_net) - ST.evaluate(copy, plain)
        # fixed point: embeddings and first-layer weights to 1/1024
        assert got == pytest.approx(float_out[i], abs=0.05 * abs(float_out[i]) + 6)
        checked += 1
    assert checked == data.size
    path = gomoku_net.save(result, tmp_path / "n.npy", gain=2.0)
    doubled = PN.load_net(path)
    assert np.abs(doubled.w2 - 2 * engine_net.w2).max() <= 1
    assert json.loads(path.with_suffix(".json").read_text())["gain"] == 2.0
    with pytest.raises(InvalidOption, match=".npy"):
        gomoku_net.save(result, tmp_path / "n.txt")
    with pytest.raises(InvalidOption, match="gain"):
        gomoku_net.save(result, tmp_path / "n2.npy", gain=0.0)


def _planted(n: int, seed: int) -> gomoku_net.NetData:
    """Rows of random histograms whose targets follow an interaction no sum of cell values
    can express: +400 when the side to move has combination 600 and the opponent has none of
    combination 700."""
    rng = np.random.default_rng(seed)
    own = rng.integers(590, 610, size=(n, 3))
    opp = rng.integers(695, 705, size=(n, 3))
    base = rng.normal(0, 200, n)
    term = 400.0 * ((own == 600).any(axis=1) & ~(opp == 700).any(axis=1))
    target = (rng.random(n) < 1 / (1 + np.exp(-(base + term) / 400))).astype(float)
    ptr = np.arange(0, 3 * n + 1, 3)
    ones = np.ones(3 * n)
    return gomoku_net.NetData(
        ptr, own.reshape(-1), ones, ptr, opp.reshape(-1), ones, base, target, np.arange(n), 1
    )


def test_the_fit_learns_a_planted_interaction():
    data = _planted(20000, 5)
    result = gomoku_net.fit(data, "freestyle", steps=300, learning_rate=0.05, seed=1)
    report = result.report
    assert result.scale == pytest.approx(1.0, abs=0.25)
    gain = report["loss_before"]["test"] - report["loss_after"]["test"]
    assert gain > 0.005  # 0.013 measured
    out = result.forward(data)[0]
    own600 = (data.index_own.reshape(-1, 3) == 600).any(axis=1)
    opp700 = (data.index_opp.reshape(-1, 3) == 700).any(axis=1)
    assert out[own600 & ~opp700].mean() - out[own600 & opp700].mean() > 200


def test_plies_train_gomoku_net_command(tmp_path, capsys):
    from plies.cli import main

    data, out = tmp_path / "g.jsonl", tmp_path / "n.npy"
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--data", str(data)]
    main([*args, "--target", "net", "--out", str(out), "--steps", "5", "--gain", "3"])
    assert "leaves from 2 games" in capsys.readouterr().out
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["target"] == "net" and report["gain"] == 3.0 and report["steps"] == 5
    PN.load_net(out)
    Engine("freestyle", 9, hash_mb=1, params={"NET": str(out)}).search(
        Board.from_moves(["e5", "d4"], 9, "freestyle"), nodes=500
    )


def test_self_play_and_annotation_search_with_the_net_they_are_given(games, tmp_path):
    result = gomoku_net.fit(gomoku_net.net_data(games, "freestyle"), "freestyle", steps=5)
    result.w2 = np.random.default_rng(7).normal(0, 2.0, PN.H2)  # an output that changes play
    path = str(tmp_path / "candidate.npy")
    np.save(path, PN.pack(result.net()))
    with_net = gomoku_data.SelfPlaySettings(
        rule="freestyle", size=9, nodes=300, random_moves=3, net=path
    )
    record = gomoku_data.play_game(with_net, 5)
    assert record["net"] == path
    direct = Engine("freestyle", 9, hash_mb=16, params={"EVAL": "learned", "NET": path})
    assert gomoku_data.play_game(with_net, 5, engine=direct)["moves"] == record["moves"]
    off = Engine("freestyle", 9, hash_mb=16, params={"EVAL": "learned", "NET": "off"})
    assert gomoku_data.play_game(with_net, 5, engine=off)["moves"] != record["moves"]
    with pytest.raises(InvalidOption, match="--net: cannot load .*none.npy"):
        gomoku_data.SelfPlaySettings(net=str(tmp_path / "none.npy")).check()
    np.save(tmp_path / "bad.npy", np.zeros(3, dtype=np.int32))
    with pytest.raises(InvalidOption, match="--net: cannot load .*not a pattern net"):
        gomoku_data.SelfPlaySettings(net=str(tmp_path / "bad.npy")).check()


def _row(data, r: int) -> dict:
    at = slice(data.indptr_own[r], data.indptr_own[r + 1])
    return dict(zip(data.index_own[at].tolist(), data.count_own[at].tolist(), strict=True))


def test_without_far_cells_the_net_never_reads_them(games):
    full = gomoku_net.net_data(games, "freestyle")
    near = gomoku_net.net_data(games, "freestyle", far_cells=False)
    assert combos.FAR_COMBO in full.index_own and combos.FAR_COMBO not in near.index_own
    assert combos.FAR_COMBO not in near.index_opp
    for r in range(full.size):  # the other counts are the same, row by row
        counts = _row(full, r)
        counts.pop(combos.FAR_COMBO, None)
        assert counts == _row(near, r)
    net = gomoku_net.fit(near, "freestyle", steps=5).net()
    assert not net.emb[:, combos.FAR_COMBO].any()


def test_plies_train_gomoku_no_far_cells_reaches_the_fit(tmp_path):
    from plies.cli import main

    data = tmp_path / "g.jsonl"
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--data", str(data)]
    for flag, far in (("--far-cells", True), ("--no-far-cells", False)):
        out = tmp_path / f"{far}.npy"
        main([*args, "--target", "net", "--out", str(out), "--steps", "5", flag])
        assert json.loads(out.with_suffix(".json").read_text())["far_cells"] is far
        assert bool(PN.load_net(out).emb[:, combos.FAR_COMBO].any()) is far


def test_a_fit_can_start_from_an_engine_net(games):
    data = gomoku_net.net_data(games, "freestyle")
    start = gomoku_net.fit(data, "freestyle", steps=20, seed=3).net()
    # the float form of an engine net is its exact inverse
    again = gomoku_net.from_engine_net(start, 1).net()
    for a, b in zip(start, again, strict=True):
        assert np.array_equal(a, b)
    # no steps: the start itself; a few steps at a small rate: near it, lower training loss
    unchanged = gomoku_net.fit(data, "freestyle", steps=0, init=start)
    assert all(np.array_equal(a, b) for a, b in zip(start, unchanged.net(), strict=True))
    tuned = gomoku_net.fit(data, "freestyle", steps=10, learning_rate=0.002, init=start)
    assert tuned.report["loss_after"]["train"] < unchanged.report["loss_after"]["train"]
    moved = np.abs(tuned.emb - unchanged.emb).max()
    assert 0 < moved <= 10 * 0.002 * 1.01  # Adam moves a weight at most about its rate a step
    # a random start differs from it: the start was used
    fresh = gomoku_net.fit(data, "freestyle", steps=10, learning_rate=0.002, seed=3)
    assert np.abs(fresh.emb - unchanged.emb).max() > 0.01


def test_plies_train_gomoku_init_fine_tunes_a_net(tmp_path, capsys):
    from plies.cli import main

    data, out, tuned = tmp_path / "g.jsonl", tmp_path / "n.npy", tmp_path / "t.npy"
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--data", str(data)]
    main([*args, "--target", "net", "--out", str(out), "--steps", "5"])
    main([*args, "--target", "net", "--out", str(tuned), "--steps", "0", "--init", str(out)])
    assert json.loads(tuned.with_suffix(".json").read_text())["init"] == str(out)
    pairs = zip(PN.load_net(out), PN.load_net(tuned), strict=True)
    assert all(np.array_equal(a, b) for a, b in pairs)
    capsys.readouterr()
    for bad, message in (
        (["--target", "threat", "--init", str(out)], "--init needs --target net"),
        (["--target", "net", "--init", str(tmp_path / "none.npy")], "no net at"),
        (["--target", "net", "--learning-rate", "0"], "--learning-rate must be positive"),
        (["--target", "threat", "--learning-rate", "0.1"], "needs --target eval or net"),
        (["--target", "net", "--init", str(data)], "--init: cannot load"),
        (["--target", "threat", "--threat", "off"], "--threat needs --target net"),
        (["--target", "net", "--threat", str(tmp_path / "none.npy")], "no threat table at"),
        (["--target", "net", "--threat", str(out)], "--threat: cannot load"),
    ):
        with pytest.raises(SystemExit) as exc:
            main([*args, "--out", str(tmp_path / "x.npy"), *bad])
        assert exc.value.code == 2
        assert message in capsys.readouterr().err
