"""The chess Texel tuner on small data: self-play games, quiet positions, the batch evaluation,
the fit, the parameter files and ``plies train chess``."""

from __future__ import annotations

import json
import math
import random

import chess
import numpy as np
import pytest

from plies.chess.engine import params as P
from plies.chess.engine.evaluate import SCRATCH, evaluate
from plies.chess.position import Position
from plies.cli import main
from plies.errors import InvalidOption
from plies.tune import chess_data, chess_fit, gomoku_data

SMALL = chess_data.ChessSelfPlay(nodes=300, random_moves=6, max_plies=60)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    gomoku_data.generate(SMALL, 3, path, seed=5, play=chess_data.play)
    return chess_fit.load_games([path])


def _random_positions(count: int, seed: int) -> list[chess.Board]:
    """Positions of seeded random games (not checkmated or stalemated)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randint(4, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board.copy(stack=False))
    return boards


def test_self_play_games_are_reproducible_and_legal(games):
    assert [g["seed"] for g in games] == [5, 6, 7]
    assert chess_data.play_game(SMALL, 6) == games[1]
    for g in games:
        board = chess.Board()
        for uci in g["moves"]:
            move = chess.Move.from_uci(uci)
            assert move in board.legal_moves
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            assert len(g["moves"]) == SMALL.max_plies and g["result"] == 0.5
        else:
            assert g["result"] == (0.5 if outcome.winner is None else float(outcome.winner))
        assert g["scores"][: g["opening"]] == [None] * g["opening"]
        assert all(s is not None for s in g["scores"][g["opening"] :])
        assert 2 <= g["opening"] <= SMALL.random_moves


def test_quiet_positions_keep_exactly_the_quiet_ones():
    # 1. e4 d5 2. exd5 (capture) Qxd5 (capture) 3. Nc3 Qe5+ 4. Qe2 (evasion) Qxe2+ (capture)
    moves = ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "d1e2", "e5e2"]
    game = {"opening": 0, "moves": moves, "scores": [10] * 8, "result": 0.0}
    game["scores"][1] = 31000  # a mate score is never kept
    got = chess_fit.quiet_positions([game], skip=0)
    board, expected = chess.Board(), []
    for ply, uci in enumerate(moves):
        move = chess.Move.from_uci(uci)
        if ply != 1 and not board.is_capture(move) and not board.is_check():
            expected.append(board.fen())
        board.push(move)
    assert len(got) == len(expected) == 3  # e2e4, b1c3, d5e5 (d1e2 answers a check)
    assert np.all(got.y == 0.0)
    skipped = chess_fit.quiet_positions([game], skip=4)
    assert len(skipped) == 2  # from ply 4 on: b1c3, d5e5


def test_batch_evaluation_matches_the_engine_for_any_parameters():
    boards = _random_positions(40, seed=3)
    overrides = {
        "MATERIAL_MG": (100, 300, 350, 500, 900),
        "PST_DELTA_EG": tuple(range(192)),
        "KING_SAFETY_SCALE": 9,
        "TEMPO": 30,
    }
    pst, w = P.eval_arrays(overrides)
    games = [
        {"opening": 0, "moves": [], "scores": [], "result": 1.0},
    ]
    assert len(chess_fit.quiet_positions(games)) == 0
    positions = chess_fit.Positions(
        np.array([Position.from_board(b).bd for b in boards]),
        np.array([Position.from_board(b).st for b in boards]),
        np.ones(len(boards)),
    )
    got = chess_fit.white_evals(positions, overrides)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    for board, value in zip(boards, got, strict=True):
        pos = Position.from_board(board, pst)
        e = evaluate(pos.bd, pos.st, w, scratch)
        assert value == (e if board.turn == chess.WHITE else -e)


def test_pst_corrections_are_mirrored_and_signed():
    delta = list(P.PST_DELTA_MG)
    delta[(chess.KNIGHT - 1) * 32 + 2 * 4 + 2] += 50  # knight, relative rank 3, file c or f
    base, _ = P.eval_arrays()
    pst, _ = P.eval_arrays({"PST_DELTA_MG": delta})
    diff = pst - base
    assert {(c, s) for c, s in zip(*np.nonzero(diff[0]), strict=True)} == {
        (chess.KNIGHT, chess.C3),
        (chess.KNIGHT, chess.F3),
        (chess.KNIGHT | 8, chess.C6),
        (chess.KNIGHT | 8, chess.F6),
    }
    assert diff[0, chess.KNIGHT, chess.C3] == 50 and diff[0, chess.KNIGHT | 8, chess.F6] == -50
    assert not diff[1].any()


def test_fit_recovers_a_parameter_from_labels_it_generated():
    """Labels (win probabilities) from a 'true' evaluation with the knight worth 380 (middle
    game and end game): starting from 325/300, the fit moves both toward 380 and lowers both
    losses."""
    boards = _random_positions(600, seed=11)
    truth = {"MATERIAL_MG": (88, 380, 335, 465, 960), "MATERIAL_EG": (110, 380, 315, 520, 950)}
    positions = chess_fit.Positions(
        np.array([Position.from_board(b).bd for b in boards]),
        np.array([Position.from_board(b).st for b in boards]),
        np.zeros(len(boards)),
    )
    positions.y = 1 / (1 + np.exp(-chess_fit.white_evals(positions, truth) / 250.0))
    material = ("MATERIAL_MG", "MATERIAL_EG")
    changed, report = chess_fit.texel_fit(positions, seed=2, step=8, passes=3, names=material)
    assert set(changed) <= set(material)
    assert report.train_after < report.train_before
    assert report.held_out_after < report.held_out_before
    assert changed["MATERIAL_MG"][1] > 325 + 16
    assert changed["MATERIAL_EG"][1] > 300 + 16
    again, _ = chess_fit.texel_fit(positions, seed=2, step=8, passes=3, names=material)
    assert again == changed  # reproducible
    held, _ = chess_fit.texel_fit(positions, seed=2, step=8, passes=3, names=material, prior=1e-5)
    moved = sum(abs(a - b) for a, b in zip(changed["MATERIAL_MG"], P.MATERIAL_MG, strict=True))
    held_moved = sum(
        abs(a - b)
        for a, b in zip(held.get("MATERIAL_MG", P.MATERIAL_MG), P.MATERIAL_MG, strict=True)
    )
    assert held_moved < moved  # the prior pulls toward the starting values


def _positions(boards: list[chess.Board]) -> chess_fit.Positions:
    return chess_fit.Positions(
        np.array([Position.from_board(b).bd for b in boards]),
        np.array([Position.from_board(b).st for b in boards]),
        np.zeros(len(boards)),
    )


def test_coefficients_predict_the_evaluation_of_linear_terms():
    """Moving linear parameters by whole steps moves every evaluation by the coefficients'
    prediction, up to the tapered evaluation's rounding (a centipawn a parameter)."""
    positions = _positions(_random_positions(80, seed=8))
    values = chess_fit.start_values()
    slots = [("MATERIAL_MG", 1), ("MATERIAL_EG", 3), ("ROOK_OPEN_FILE", 0), ("TEMPO", None)]
    e0, c = chess_fit.coefficients(positions, values, slots)
    assert np.array_equal(e0, chess_fit.white_evals(positions, values))
    assert chess_fit.start_values() == values  # left as it was
    assert np.abs(c).max() > 0
    moved = chess_fit.start_values()
    step = np.array([40, -25, 15, 9])
    for slot, d in zip(slots, step, strict=True):
        chess_fit._set(moved, slot, chess_fit._get(moved, slot) + int(d))
    predicted = e0 + c @ step
    assert np.abs(chess_fit.white_evals(positions, moved) - predicted).max() <= len(slots)


def test_gradient_fit_recovers_a_parameter_from_labels_it_generated():
    """As the coordinate-descent test: a knight worth 380 in the labels; the gradient fit moves
    both knight values toward it, lowers both losses, is reproducible, and moves less with a
    strong prior."""
    positions = _positions(_random_positions(600, seed=11))
    truth = {"MATERIAL_MG": (88, 380, 335, 465, 960), "MATERIAL_EG": (110, 380, 315, 520, 950)}
    positions.y = 1 / (1 + np.exp(-chess_fit.white_evals(positions, truth) / 250.0))
    material = ("MATERIAL_MG", "MATERIAL_EG")
    changed, report = chess_fit.gradient_fit(positions, seed=2, rounds=3, names=material)
    assert set(changed) <= set(material)
    assert report.train_after < report.train_before
    assert report.held_out_after < report.held_out_before
    assert changed["MATERIAL_MG"][1] > 325 + 16
    assert changed["MATERIAL_EG"][1] > 300 + 16
    again, _ = chess_fit.gradient_fit(positions, seed=2, rounds=3, names=material)
    assert again == changed
    held, _ = chess_fit.gradient_fit(positions, seed=2, rounds=3, names=material, prior=1e-5)
    moved = sum(abs(a - b) for a, b in zip(changed["MATERIAL_MG"], P.MATERIAL_MG, strict=True))
    held_moved = sum(
        abs(a - b)
        for a, b in zip(held.get("MATERIAL_MG", P.MATERIAL_MG), P.MATERIAL_MG, strict=True)
    )
    assert held_moved < moved


def test_fit_keeps_the_evaluations_switches_as_given():
    """A switch (``MOBILITY_AREA``, 1 by default) in the base parameters is what the fit
    evaluates with (the losses differ from the fit with the default) and is never tuned or
    reported as changed."""
    positions = _positions(_random_positions(300, seed=12))
    truth = {"MOBILITY_AREA": 0, "MOBILITY_MG": (0, 0, 7, 6, 4, 2, 0)}
    positions.y = 1 / (1 + np.exp(-chess_fit.white_evals(positions, truth) / 250.0))
    names = ("MOBILITY_MG",)
    given, given_report = chess_fit.gradient_fit(positions, seed=3, rounds=2, names=names,
                                                 base={"MOBILITY_AREA": 0})  # fmt: skip
    default, default_report = chess_fit.gradient_fit(positions, seed=3, rounds=2, names=names)
    assert P.MOBILITY_AREA == 1
    assert "MOBILITY_AREA" not in given and "MOBILITY_AREA" not in default
    assert given_report.train_before != default_report.train_before
    assert given_report.train_after < default_report.train_after  # the labels' setting
    assert ("MOBILITY_AREA", None) not in chess_fit._slots(
        chess_fit.start_values({"MOBILITY_AREA": 0})
    )
    with pytest.raises(InvalidOption):
        chess_fit.gradient_fit(positions, names=("MOBILITY_AREA",))


def test_labels_blend_results_and_search_scores():
    positions = chess_fit.Positions(
        np.zeros((3, 64), np.int8), np.zeros((3, 4), np.int64), np.array([1.0, 0.5, 0.0]),
        np.array([0.0, 200.0, -200.0]),
    )  # fmt: skip
    assert np.array_equal(positions.labels(200.0, 0.0), positions.y)
    blended = positions.labels(200.0, 0.5)
    s = 1 / (1 + math.exp(-1))
    assert np.allclose(blended, [0.75, 0.25 + 0.5 * s, 0.5 * (1 - s)])
    assert np.allclose(positions.labels(200.0, 1.0), [0.5, s, 1 - s])


def test_quiet_positions_keep_the_search_scores_from_whites_view(games):
    positions = chess_fit.quiet_positions(games)
    assert len(positions.score) == len(positions) > 0
    board_scores = []
    for game in games:
        board = chess.Board()
        first = game["opening"] + 4
        for ply, (uci, score) in enumerate(zip(game["moves"], game["scores"], strict=True)):
            move = chess.Move.from_uci(uci)
            if (
                ply >= first and score is not None and abs(score) < 10000
                and move.promotion is None and not board.is_capture(move) and not board.is_check()
            ):  # fmt: skip
                board_scores.append(score if board.turn == chess.WHITE else -score)
            board.push(move)
    assert positions.score.tolist() == board_scores


def test_fit_refuses_too_little_data():
    empty = chess_fit.quiet_positions([])
    with pytest.raises(InvalidOption, match="too few"):
        chess_fit.texel_fit(empty)
    boards = _random_positions(30, seed=1)
    positions = chess_fit.Positions(
        np.array([Position.from_board(b).bd for b in boards]),
        np.array([Position.from_board(b).st for b in boards]),
        np.zeros(len(boards)),
    )
    with pytest.raises(InvalidOption, match="LMR_BASE"):
        chess_fit.texel_fit(positions, names=("LMR_BASE",))


def test_k_fit_finds_the_scale_of_generated_labels():
    boards = _random_positions(300, seed=4)
    positions = chess_fit.Positions(
        np.array([Position.from_board(b).bd for b in boards]),
        np.array([Position.from_board(b).st for b in boards]),
        np.zeros(len(boards)),
    )
    evals = chess_fit.white_evals(positions)
    positions.y = 1 / (1 + np.exp(-evals / 180.0))
    assert math.isclose(chess_fit.fit_k(positions), 180.0, abs_tol=2.0)


def test_parameter_files(tmp_path):
    path = tmp_path / "p.json"
    chess_fit.write_params({"TEMPO": 20}, path, base={"DOUBLED": [5, 6]})
    assert chess_fit.load_params(path) == {"DOUBLED": [5, 6], "TEMPO": 20}
    path.write_text(json.dumps({"NOT_A_PARAM": 1}))
    with pytest.raises(InvalidOption, match="NOT_A_PARAM"):
        chess_fit.load_params(path)
    path.write_text("[1, 2]")
    with pytest.raises(InvalidOption, match="JSON object"):
        chess_fit.load_params(path)
    with pytest.raises(InvalidOption, match="cannot read"):
        chess_fit.load_params(tmp_path / "missing.json")


def test_train_chess_command(tmp_path, capsys):
    data, out = tmp_path / "g.jsonl", tmp_path / "p.json"
    args = ["train", "chess", "--games", "2", "--nodes", "200", "--data", str(data)]
    main([*args, "--out", str(out), "--passes", "1", "--step", "2"])
    assert len(chess_fit.load_games([data])) == 2
    params = chess_fit.load_params(out)
    report = json.loads(out.with_suffix(".report.json").read_text())
    assert report["games"] == 2 and report["train_after"] <= report["train_before"]
    assert set(params) == set(report["changed"])
    with pytest.raises(SystemExit) as exc:
        main(args)  # no --out
    assert exc.value.code == 2
    assert "--out" in capsys.readouterr().err
    coordinate = tmp_path / "c.json"
    main([*args, "--out", str(coordinate), "--method", "coordinate", "--passes", "1"])
    assert json.loads(coordinate.with_suffix(".report.json").read_text())["method"] == "coordinate"
    for bad, message in (
        (["--score-weight", "1.5"], "--score-weight"),
        (["--score-weight", "0.5", "--method", "coordinate"], "needs --method gradient"),
        (["--prior", "-1"], "--prior"),
        (["--rounds", "0"], "--rounds"),
    ):
        with pytest.raises(SystemExit) as exc:
            main([*args, "--out", str(out), *bad])
        assert exc.value.code == 2
        assert message in capsys.readouterr().err


def test_arena_takes_a_parameter_file(tmp_path):
    from plies.arena.engines.inprocess import ChessEnginePlayer

    path = tmp_path / "p.json"
    path.write_text(json.dumps({"TEMPO": 40}))
    assert ChessEnginePlayer({"params": str(path), "nodes": "100"}, "x").params == {"TEMPO": 40}
    with pytest.raises(InvalidOption, match="cannot read"):
        ChessEnginePlayer({"params": str(tmp_path / "none.json")}, "x")
