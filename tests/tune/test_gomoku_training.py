"""The learned-evaluation pipeline on small data: self-play games, features, fit, table."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board
from plies.gomoku.engine import Engine, combos
from plies.gomoku.engine import state as ST
from plies.gomoku.rules import FREESTYLE, RENJU
from plies.tune import gomoku_data, gomoku_fit

SMALL = gomoku_data.SelfPlaySettings(rule="freestyle", size=9, nodes=300, random_moves=3)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    gomoku_data.generate(SMALL, 6, path, seed=10)
    return gomoku_data.load_games([path])


def test_classic_values_reproduce_the_hand_written_tables():
    for rule in (FREESTYLE, RENJU):
        classic = ST.make_tables(rule, {"EVAL": "classic"})
        as_table = ST.make_tables(rule, {"COMBO_VALUE": combos.classic_values(rule)})
        assert np.array_equal(classic.p4cv, as_table.p4cv)


def test_combination_index_ignores_direction_order():
    index = combos.combo_of_index()
    assert len(combos.COMBOS) == combos.N_COMBOS == 1001
    a = combos.packed_index((2, 7, 9, 0))
    b = combos.packed_index((9, 0, 7, 2))
    assert index[a] == index[b] == combos.COMBOS.index((0, 2, 7, 9))
    assert index[0xFFFF] == -1


def test_self_play_games_are_reproducible_and_legal(games):
    again = gomoku_data.play_game(SMALL, games[0]["seed"])
    assert again == games[0]
    for g in games:
        board = Board(9, "freestyle")
        board.play_moves(g["moves"])
        assert board.is_over and board.winner == g["winner"]
        assert g["scores"][: g["opening"]] == [None] * g["opening"]
        assert all(isinstance(s, int) for s in g["scores"][g["opening"] :])


def test_generation_resumes_and_drops_a_cut_line(tmp_path):
    path = tmp_path / "g.jsonl"
    assert gomoku_data.generate(SMALL, 2, path, seed=1) == 2
    text = path.read_text()
    path.write_text(text + text.splitlines()[0][:30])  # a run killed mid-line
    calls = []
    assert gomoku_data.generate(SMALL, 3, path, seed=1, progress=lambda d, t: calls.append(d)) == 3
    seeds = [json.loads(line)["seed"] for line in path.read_text().splitlines()]
    assert sorted(seeds) == [1, 2, 3]  # only seed 3 was played
    assert calls == [2, 3]


def test_generation_refuses_a_file_of_other_seeds(tmp_path):
    path = tmp_path / "g.jsonl"
    gomoku_data.generate(SMALL, 2, path, seed=1)
    before = path.read_text()
    # a run meant to fit on this file, given the wrong seed, must not append a new run to it
    with pytest.raises(InvalidOption, match=r"seeds 1\.\.2, none of 100\.\.101.*--seed 1"):
        gomoku_data.generate(SMALL, 2, path, seed=100)
    assert path.read_text() == before
    assert gomoku_data.generate(SMALL, 1, path, seed=2) == 1  # a part of the file: no new game
    assert path.read_text() == before


def test_features_with_classic_values_equal_the_engine_evaluation(games):
    data = gomoku_fit.features(games, "freestyle")
    assert data.size > 0
    predicted = gomoku_fit.predict(data, gomoku_fit.initial_values("freestyle"))
    # the same positions, evaluated by the engine's incremental state
    expected = []
    tb = ST.make_tables(FREESTYLE, {"EVAL": "classic", "THREAT": "off", "NET": "off"})
    for g in games:
        board = Board(9, "freestyle")
        for ply, (move, score) in enumerate(zip(g["moves"], g["scores"], strict=True)):
            st, _ = ST.state_from_board(board, tb)
            s = ply % 2
            if (
                score is not None
                and abs(score) < gomoku_fit.WIN_SCORE_LIMIT
                and st.counts[s, ST.C_FIVE] == 0
                and st.counts[1 - s, ST.C_FIVE] == 0
            ):
                expected.append(ST.evaluate(st, tb))
            board.play(move)
    assert len(expected) == data.size
    assert np.all(np.abs(predicted - np.array(expected)) <= 1.0)


def test_fit_lowers_the_loss_and_the_engine_plays_the_table(games, tmp_path):
    data = gomoku_fit.features(games, "freestyle", lam=0.5)
    result = gomoku_fit.fit(data, "freestyle", steps=60, learning_rate=8.0)
    report = result.report
    assert report["loss_after"]["train"] < report["loss_before"]["train"]
    path = gomoku_fit.save(result, "freestyle", tmp_path / "t.npy")
    table = combos.load_values(path)
    assert table.shape == (2, combos.N_COMBOS) and np.array_equal(table[0], table[1])
    assert json.loads(path.with_suffix(".json").read_text())["positions"] == data.size
    # the engine's evaluation under the table is the fit's prediction (rounded values)
    engine_tables = ST.make_tables(FREESTYLE, {"EVAL": str(path), "THREAT": "off", "NET": "off"})
    g = games[0]
    board = Board(9, "freestyle")
    board.play_moves(g["moves"][: g["opening"] + 1])
    st, _ = ST.state_from_board(board, engine_tables)
    one = gomoku_fit.features(
        [{**g, "moves": g["moves"][: g["opening"] + 2], "scores": [None] * (g["opening"] + 1)
          + [0], "winner": 0}],
        "freestyle",
    )  # fmt: skip
    assert one.size == 1
    assert (
        abs(gomoku_fit.predict(one, table[0].astype(float))[0] - ST.evaluate(st, engine_tables))
        <= 1
    )
    Engine("freestyle", 9, hash_mb=1, params={"EVAL": str(path)}).search(board, nodes=500)


def test_renju_tables_are_per_colour(tmp_path):
    settings = gomoku_data.SelfPlaySettings(rule="renju", size=9, nodes=300, random_moves=3)
    path = tmp_path / "r.jsonl"
    gomoku_data.generate(settings, 2, path, seed=5)
    data = gomoku_fit.features(gomoku_data.load_games([path]), "renju")
    assert data.n_features == 2 * combos.N_COMBOS + 1  # and the tempo
    result = gomoku_fit.fit(data, "renju", steps=5)
    assert gomoku_fit.to_table(result.w, "renju").shape == (2, combos.N_COMBOS)


def test_bad_inputs_get_clear_errors(tmp_path):
    from plies.errors import InvalidOption

    with pytest.raises(InvalidOption, match="nodes"):
        gomoku_data.generate(gomoku_data.SelfPlaySettings(nodes=5), 1, tmp_path / "x.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1}\n{"seed": 2, "moves": [], "scores": [], "winner": 0}\n')
    with pytest.raises(InvalidOption, match="line 1"):
        gomoku_data.load_games([bad])
    with pytest.raises(ValueError, match="shape"):
        np.save(tmp_path / "w.npy", np.zeros((3, 3)))
        combos.load_values(tmp_path / "w.npy")


def test_plies_train_gomoku_command(tmp_path, capsys):
    from plies.cli import main

    data, out = tmp_path / "g.jsonl", tmp_path / "w.npy"
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--data", str(data)]
    main([*args, "--out", str(out), "--steps", "5"])
    assert out.exists() and len(data.read_text().splitlines()) == 2
    assert "held-out loss" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(args)  # no --out
    assert exc.value.code == 2
    assert "--out" in capsys.readouterr().err


def test_pair_structure_fits_a_correction_of_pattern_pair_terms(games):
    data = gomoku_fit.features(games, "freestyle")
    result = gomoku_fit.fit(data, "freestyle", steps=40, learning_rate=8.0, structure="pairs")
    assert result.report["loss_after"]["train"] < result.report["loss_before"]["train"]
    correction = (result.w - gomoku_fit.initial_values("freestyle"))[:-1]
    basis = gomoku_fit.pair_basis(1)
    assert basis.shape == (combos.N_COMBOS, 66)
    # every combination holds 6 pairs; the correction is a sum of pair terms
    assert np.all(basis.sum(axis=1) == 6)
    basis[combos.DEAD_COMBO] = 0.0  # the all-dead combination stays worth nothing
    assert correction[combos.DEAD_COMBO] == 0.0
    theta, *_ = np.linalg.lstsq(basis, correction, rcond=None)
    assert np.abs(basis @ theta - correction).max() < 1e-6
    assert abs(correction).max() > 0
    with pytest.raises(InvalidOption):
        gomoku_fit.fit(data, "freestyle", structure="cubes")


def test_self_play_from_the_renju_openings_under_the_board_symmetries(tmp_path):
    from plies.gomoku.notation import parse_moves
    from plies.gomoku.openings import identify_renju_opening

    settings = gomoku_data.SelfPlaySettings(
        rule="renju", size=15, nodes=200, random_moves=1, openings="renju26"
    )
    path = tmp_path / "r26.jsonl"
    gomoku_data.generate(settings, 4, path, seed=7)
    games = gomoku_data.load_games([path])
    firsts = set()
    for g in games:
        start = parse_moves(" ".join(g["moves"][:3]))
        found = identify_renju_opening(start)
        assert found is not None and g["opening_name"] == f"renju26:{found.number}"
        assert g["openings"] == "renju26" and g["opening"] in (3, 4)
        assert g["scores"][: g["opening"]] == [None] * g["opening"]
        firsts.add(tuple(g["moves"][:3]))
    assert len(firsts) > 1  # seeds choose different openings (or symmetries)
    assert gomoku_data.play_game(settings, games[1]["seed"]) == games[1]
    # no random stone after the opening: the game starts from the opening itself
    bare = gomoku_data.SelfPlaySettings(rule="renju", nodes=200, random_moves=0, openings="renju26")
    record = gomoku_data.play_game(bare, 3)
    assert record["opening"] == 3 and identify_renju_opening(
        parse_moves(" ".join(record["moves"][:3]))
    )


def test_symmetries_keep_an_opening_on_the_board():
    stones = ((7, 7), (8, 6), (10, 9))
    images = {tuple(gomoku_data._transformed(stones, 15, k)) for k in range(8)}
    assert len(images) == 8 and all(img[0] == (7, 7) for img in images)
    assert gomoku_data._transformed(((0, 3),), 9, 4) == [(3, 0)]
    assert gomoku_data._transformed(((0, 3), (1, 1)), 9, 1) == [(8, 3), (7, 1)]


def test_openings_options_are_checked(tmp_path):
    with pytest.raises(InvalidOption, match="cannot read openings file"):
        gomoku_data.SelfPlaySettings(openings=str(tmp_path / "none.txt")).check()
    with pytest.raises(InvalidOption, match=r"2\.\.12, not 0"):
        gomoku_data.SelfPlaySettings(random_moves=0).check()
    gomoku_data.SelfPlaySettings(random_moves=0, openings="renju26", rule="renju").check()
    with pytest.raises(InvalidOption, match=r"0\.\.12 after an opening, not 13"):
        gomoku_data.SelfPlaySettings(random_moves=13, openings="renju26").check()


def test_plies_train_gomoku_from_an_openings_file(tmp_path):
    from plies.cli import main

    openings, data = tmp_path / "o.txt", tmp_path / "g.jsonl"
    openings.write_text("0,0 1,0 -1,1\n")
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--no-fit"]
    main([*args, "--data", str(data), "--openings", str(openings), "--random-moves", "0"])
    records = [json.loads(line) for line in data.read_text().splitlines()]
    for r in records:
        assert r["opening_name"] == "o.txt:1" and r["opening"] == 3
        assert r["moves"][0] == "4,4"  # the centre stays the centre under every symmetry


def test_unique_games_keep_the_first_of_each_sequence(tmp_path, capsys):
    from plies.cli import main

    a = {"seed": 1, "moves": ["4,4", "4,5"], "scores": [None, 3], "winner": 1}
    b = {**a, "seed": 2}
    c = {**a, "seed": 3, "moves": ["4,4", "5,5"]}
    assert [g["seed"] for g in gomoku_data.unique_games([a, b, c, b])] == [1, 3]
    # the command leaves the repeats out of the fit, and says how many
    data, out = tmp_path / "g.jsonl", tmp_path / "w.npy"
    args = ["train", "gomoku", "--size", "9", "--games", "2", "--nodes", "200", "--data", str(data)]
    main([*args, "--no-fit"])
    extra = tmp_path / "copy.jsonl"
    extra.write_text(data.read_text())
    main([*args, "--out", str(out), "--steps", "5", "--extra-data", str(extra), "--unique"])
    assert "2 repeated games left out, 2 kept" in capsys.readouterr().out
    assert json.loads((tmp_path / "w.json").read_text())["games"] == 2


def _interrupt_ignored(job: tuple) -> dict:
    import signal

    return {"seed": job[1], "ignored": signal.getsignal(signal.SIGINT) is signal.SIG_IGN}


def test_generation_workers_leave_ctrl_c_to_the_parent():
    # a worker that took Ctrl-C itself died mid-game with a traceback (BrokenPipeError)
    results = list(gomoku_data._local([(None, 1), (None, 2)], 2, _interrupt_ignored))
    assert sorted(r["seed"] for r in results) == [1, 2]
    assert all(r["ignored"] for r in results)
