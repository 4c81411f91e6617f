"""The evaluation's threat term: the masks, the engine's use of a table, TD-leaf labels and the
fit (planted terms recovered), on small data."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board
from plies.gomoku.engine import Engine
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import threat_eval as TE
from plies.gomoku.rules import FREESTYLE, RENJU, STANDARD
from plies.tune import gomoku_data, gomoku_fit, gomoku_threat

SMALL = gomoku_data.SelfPlaySettings(rule="freestyle", size=9, nodes=300, random_moves=3)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    gomoku_data.generate(SMALL, 6, path, seed=20)
    return gomoku_data.load_games([path])


def _reference_bucket(flex: int, double: int, four: int, three: int) -> int:
    """The side mask by the module text's bucket limits, written out independently."""
    fb = 0 if flex == 0 else (1 if flex <= 2 else 2)
    db = min(double, 2)
    qb = 0 if four == 0 else (1 if four <= 2 else (2 if four <= 4 else 3))
    tb = 0 if three <= 1 else (1 if three <= 4 else (2 if three <= 8 else 3))
    return ((fb * 3 + db) * 4 + qb) * 4 + tb


def test_side_masks_bucket_the_class_counts():
    rng = np.random.default_rng(3)
    for _ in range(300):
        counts = np.zeros((2, ST.N_CLASSES), dtype=np.int32)
        counts[:, 1:6] = rng.integers(0, 12, size=(2, 5))
        for s in range(2):
            c = counts[s]
            expected = _reference_bucket(
                c[ST.C_FLEX4], c[ST.C_THREE2] + c[ST.C_FOUR_THREE], c[ST.C_FOUR], c[ST.C_THREE]
            )
            assert TE.side_mask(counts, s) == expected
            assert TE.decode_side(expected)[0] == int(c[ST.C_FLEX4] > 0) + int(c[ST.C_FLEX4] > 2)
        assert TE.mask_of(counts, 0) == TE.side_mask(counts, 0) * TE.SIDE_MASKS + TE.side_mask(
            counts, 1
        )
    assert TE.SIDE_MASKS == 144 and TE.MASKS == 144 * 144


def test_the_engine_adds_the_table_entry_of_the_mask(tmp_path):
    table = np.random.default_rng(1).integers(-300, 300, size=(2, TE.MASKS)).astype(np.int16)
    path = tmp_path / "threat.npy"
    np.save(path, table)
    board = Board.from_moves(["h8", "i9", "h9", "h10", "i8", "j8", "g8"], 15, "freestyle")
    plain = ST.make_tables(FREESTYLE, {"THREAT": "off"})
    learned = ST.make_tables(FREESTYLE, {"THREAT": str(path)})
    st, _ = ST.state_from_board(board, plain)
    st2, _ = ST.state_from_board(board, learned)
    s = int(st.info[ST.I_SIDE]) - 1
    assert ST.evaluate(st2, learned) - ST.evaluate(st, plain) == table[s, TE.mask_of(st.counts, s)]
    # the all-zero table is no term at all: the same search
    np.save(path, np.zeros((1, TE.MASKS)))
    a = Engine("freestyle", 15, hash_mb=2, params={"THREAT": "off"}).search(board, nodes=3000)
    b = Engine("freestyle", 15, hash_mb=2, params={"THREAT": str(path)}).search(board, nodes=3000)
    assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)
    with pytest.raises(ValueError, match="shape"):
        np.save(path, np.zeros((3, 5)))
        TE.load_threat(path)


def test_td_returns():
    record = {"scores": [None, None, 400, -400, 0], "winner": 1}
    # lambda 1: the result for every position, from its own side (black moves at even plies)
    assert gomoku_fit.td_returns(record, 1.0) == [1.0, 0.0, 1.0, 0.0, 1.0]
    # lambda 0: the next search's win probability, turned to this side; the last: the result
    p = 1.0 / (1.0 + np.exp(-1.0))
    r = gomoku_fit.td_returns(record, 0.0)
    assert r[4] == 1.0
    assert r[3] == pytest.approx(0.5)  # the next score 0
    assert r[2] == pytest.approx(p)  # the next score -400 for the opponent
    assert r[1] == pytest.approx(1 - p)  # the next score 400 for the opponent
    assert r[0] == pytest.approx(p)  # the next stone was random: its return, turned
    with pytest.raises(InvalidOption, match="td"):
        gomoku_threat.threat_data([], "freestyle", td=1.5)


def test_games_keep_their_principal_variations_and_leaves_replay(games):
    for g in games:
        assert len(g["pvs"]) == len(g["moves"])
        board = Board(9, "freestyle")
        for ply, move in enumerate(g["moves"]):
            line = g["pvs"][ply]
            if ply < g["opening"]:
                assert line == []
            else:
                assert line[0] == move  # the line starts with the move played
                probe = board.copy()
                for m in line:
                    if probe.is_over or not probe.is_legal(m):
                        break
                    probe.play(m)
            board.play(move)


def test_threat_data_holds_the_leaves_evaluation_and_mask(games):
    data = gomoku_threat.threat_data(games, "freestyle", td=0.5, quiet=False)
    assert data.size > 0
    assert np.all((data.target >= 0) & (data.target <= 1))
    # recompute the first game's leaves by hand
    g = games[0]
    returns = gomoku_fit.td_returns(g, 0.5)
    tb = ST.make_tables(FREESTYLE, {"EVAL": "classic", "THREAT": "off", "NET": "off"})
    rows = []
    board = Board(9, "freestyle")
    for ply, (move, score) in enumerate(zip(g["moves"], g["scores"], strict=True)):
        root, _ = ST.state_from_board(board, tb)
        five = root.counts[:, ST.C_FIVE].any()
        if score is not None and abs(score) < gomoku_fit.WIN_SCORE_LIMIT and not five:
            leaf = board.copy()
            n = 0
            for m in g["pvs"][ply]:
                if leaf.is_over or not leaf.is_legal(m):
                    break
                leaf.play(m)
                n += 1
            st, _ = ST.state_from_board(leaf, tb)
            s = int(st.info[ST.I_SIDE]) - 1
            if st.counts[s, ST.C_FIVE] == 0 and st.counts[1 - s, ST.C_FIVE] == 0:
                target = returns[ply] if n % 2 == 0 else 1 - returns[ply]
                rows.append((ST.evaluate(st, tb), TE.side_mask(st.counts, s), target))
        board.play(move)
    first = data.game == g["seed"]
    assert int(first.sum()) == len(rows)
    assert np.array_equal(data.base[first], [r[0] for r in rows])
    assert np.array_equal(data.own[first], [r[1] for r in rows])
    assert np.allclose(data.target[first], [r[2] for r in rows])


def _planted(n: int, seed: int) -> tuple[gomoku_threat.ThreatData, np.ndarray]:
    """Rows whose targets follow a known term: own double bucket +300, opponent's -200."""
    rng = np.random.default_rng(seed)
    own = rng.integers(0, TE.SIDE_MASKS, n)
    opp = rng.integers(0, TE.SIDE_MASKS, n)
    base = rng.normal(0, 300, n)
    term = 300.0 * (own // 16 % 3 > 0) - 200.0 * (opp // 16 % 3 > 0)
    p = 1 / (1 + np.exp(-(base + term) / 400))
    target = (rng.random(n) < p).astype(float)
    data = gomoku_threat.ThreatData(
        base, own, opp, np.zeros(n, dtype=np.int64), target, np.arange(n)
    )
    return data, term


def test_the_fit_recovers_a_planted_term_and_lowers_the_loss(tmp_path):
    data, term = _planted(40000, 5)
    result = gomoku_threat.fit(data, "freestyle", steps=400, prior=1.0)
    report = result.report
    assert report["loss_after"]["test"] < report["loss_before"]["test"]
    assert result.scale == pytest.approx(1.0, abs=0.1)
    table = result.table()
    fitted = table[0, data.own * TE.SIDE_MASKS + data.opp].astype(float)
    # the term's differences are recovered (a constant offset is free)
    assert np.corrcoef(fitted, term)[0, 1] > 0.85  # 0.896 measured: sampling noise
    gap = fitted[term == 300].mean() - fitted[term == -200].mean()
    assert gap == pytest.approx(500, abs=100)
    path = gomoku_threat.save(result, tmp_path / "t.npy")
    assert np.array_equal(TE.load_threat(path), table)
    # a table from a file has the shipped table's numba type (writable, C order, int16): a
    # read-only one would compile the kernels again, for minutes, at a brain's first move
    from numba import typeof

    shipped_type = typeof(TE.threat_table(FREESTYLE, "learned"))
    np.save(tmp_path / "one-row.npy", table[:1])
    for loaded in (TE.load_threat(path), TE.threat_table(FREESTYLE, str(tmp_path / "one-row.npy"))):
        assert typeof(loaded) == shipped_type and loaded.flags.writeable
    assert json.loads(path.with_suffix(".json").read_text())["positions"] == data.size
    with pytest.raises(InvalidOption, match=".npy"):
        gomoku_threat.save(result, tmp_path / "t.txt")
    doubled = TE.load_threat(gomoku_threat.save(result, tmp_path / "t2.npy", gain=2.0))
    assert np.abs(doubled.astype(int) - 2 * table.astype(int)).max() <= 1
    with pytest.raises(InvalidOption, match="gain"):
        gomoku_threat.save(result, tmp_path / "t3.npy", gain=0.0)


def test_renju_fits_a_term_per_colour():
    """A term planted for black to move only is learned for black, not for white."""
    data, term = _planted(40000, 7)
    data.colour[:] = np.arange(data.size) % 2
    white = data.colour == 1
    p = 1 / (1 + np.exp(-data.base[white] / 400))  # white's rows: no term
    data.target[white] = (np.random.default_rng(8).random(int(white.sum())) < p).astype(float)
    result = gomoku_threat.fit(data, "renju", steps=300, prior=1.0)
    assert result.own.shape == (2, TE.SIDE_MASKS)
    table = result.table().astype(float)
    gaps = []
    for c in (0, 1):
        rows = data.colour == c
        fitted = table[c, data.own[rows] * TE.SIDE_MASKS + data.opp[rows]]
        t = term[rows]
        gaps.append(fitted[t == 300].mean() - fitted[t == -200].mean())
    assert gaps[0] == pytest.approx(500, abs=120)
    assert abs(gaps[1]) < 100


def test_plies_train_gomoku_threat_command(tmp_path, capsys):
    from plies.cli import main

    data, out = tmp_path / "g.jsonl", tmp_path / "t.npy"
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--data", str(data)]
    main([*args, "--target", "threat", "--out", str(out), "--steps", "5", "--td", "0.5"])
    assert TE.load_threat(out).shape == (2, TE.MASKS)
    assert "leaves from 2 games" in capsys.readouterr().out
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["td"] == 0.5 and report["coarse"] is False
    main([*args, "--target", "threat", "--out", str(out), "--steps", "5", "--coarse"])
    assert json.loads(out.with_suffix(".json").read_text())["coarse"] is True
    main([*args, "--target", "threat", "--out", str(out), "--steps", "5", "--gain", "2"])
    assert json.loads(out.with_suffix(".json").read_text())["gain"] == 2.0
    capsys.readouterr()
    for bad, word in ((["--td", "1.5"], "--td"), (["--gain", "0"], "--gain")):
        with pytest.raises(SystemExit) as exc:
            main([*args, "--target", "threat", "--out", str(out), *bad])
        assert exc.value.code == 2
        assert word in capsys.readouterr().err
    Engine("freestyle", 9, hash_mb=1, params={"THREAT": str(out)}).search(
        Board.from_moves(["e5", "d4"], 9, "freestyle"), nodes=500
    )


def test_combination_features_at_the_leaves_agree_with_the_threat_data(games):
    """gomoku_fit.features(leaf=True, td=...) and threat_data take the same leaves, with the
    same labels, and the hand-written table evaluates them as the engine does."""
    leaves = gomoku_fit.features(games, "freestyle", leaf=True, td=0.5)
    threat = gomoku_threat.threat_data(games, "freestyle", td=0.5, quiet=False)
    assert leaves.size == threat.size > 0
    assert np.allclose(leaves.target, threat.target)
    predicted = gomoku_fit.predict(leaves, gomoku_fit.initial_values("freestyle"))
    assert np.all(np.abs(predicted - threat.base) <= 1.0)
    roots = gomoku_fit.features(games, "freestyle", td=0.5)
    assert not np.allclose(gomoku_fit.predict(roots, gomoku_fit.initial_values("freestyle"))[:5],
                           predicted[:5])  # fmt: skip


def test_the_shipped_freestyle_table_is_the_default():
    from plies.gomoku.rules import CARO

    shipped = TE.shipped_threat(FREESTYLE)
    assert shipped is not None and shipped.shape == (2, TE.MASKS)
    assert np.array_equal(shipped[0], shipped[1])  # freestyle: one table for both colours
    assert np.array_equal(ST.make_tables(FREESTYLE).threat, shipped)
    assert not ST.make_tables(FREESTYLE, {"THREAT": "off"}).threat.any()
    assert TE.shipped_threat(CARO) is None and not ST.make_tables(CARO).threat.any()
    renju = TE.shipped_threat(RENJU)  # one table per colour: black's forbidden points
    assert renju is not None and not np.array_equal(renju[0], renju[1])
    standard = TE.shipped_threat(STANDARD)
    assert standard is not None and np.array_equal(standard[0], standard[1])
    # having the move with a double three to make is worth more than the opponent having one
    quiet = TE.side_mask(np.array([[0, 1, 0, 0, 0, 0, 0, 0]] * 2, dtype=np.int32), 0)
    double = TE.side_mask(np.array([[0, 2, 1, 2, 0, 0, 0, 0]] * 2, dtype=np.int32), 0)
    m = TE.SIDE_MASKS
    assert (
        shipped[0, double * m + quiet]
        > shipped[0, quiet * m + quiet]
        > shipped[0, quiet * m + double]
    )
