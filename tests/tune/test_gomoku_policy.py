"""The learned move order on small data: candidates, the hand-written tables, the fit, and the
engine reading a table."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board
from plies.gomoku.board import rule_code
from plies.gomoku.engine import Engine, combos
from plies.gomoku.engine import search as S
from plies.gomoku.engine import state as ST
from plies.gomoku.rules import EMPTY
from plies.tune import gomoku_data, gomoku_policy

SMALL = {
    rule: gomoku_data.SelfPlaySettings(rule=rule, size=9, nodes=300, random_moves=3)
    for rule in ("freestyle", "renju")
}


@pytest.fixture(scope="module", params=["freestyle", "renju"])
def games(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / f"{request.param}.jsonl"
    gomoku_data.generate(SMALL[request.param], 6, path, seed=20)
    return request.param, gomoku_data.load_games([path])


def test_hand_tables_are_the_search_order(games):
    # U[own combination] + V[opponent combination] is exactly the static part of the search's
    # ordering score of every candidate cell, in every position of the games
    rule, records = games
    hand = gomoku_policy.hand_tables(rule)
    index = combos.combo_of_index()
    tb = ST.make_tables(rule_code(rule), {"EVAL": "classic"})
    checked = 0
    for record in records:
        board = Board(9, rule, forbidden="loses")
        for move in record["moves"]:
            st, _ = ST.state_from_board(board, tb)
            s = board.to_move - 1
            o = 1 - s
            t_own, t_opp = (0, 0) if hand.shape[0] == 1 else (s, o)
            for p in np.flatnonzero((st.cells == EMPTY) & (st.near > 0)):
                own, opp = st.cls[s, p] & 7, st.cls[o, p] & 7
                if own == ST.C_FORBID:
                    continue
                search = (
                    st.val[s, p] + st.val[o, p] + S.OWN_CLASS_SCORE[own] + S.BLOCK_CLASS_SCORE[opp]
                )
                both = int(st.p4[p])
                a = index[(both >> (16 * s)) & 0xFFFF]
                b = index[(both >> (16 * o)) & 0xFFFF]
                assert hand[t_own, 0, a] + hand[t_opp, 1, b] == search
                checked += 1
            board.play(move)
    assert checked > 100


def test_policy_data_labels_one_legal_candidate_per_position(games):
    rule, records = games
    data = gomoku_policy.policy_data(records, rule)
    assert data.positions > 20
    per_position = np.bincount(data.pos, weights=data.label, minlength=data.positions)
    assert np.all(per_position == 1)
    assert np.all(np.diff(data.pos) >= 0)
    assert data.n_tables == (2 if rule == "renju" else 1)
    assert data.a.min() >= 0 and data.b.min() >= 0


def test_the_fit_improves_on_its_training_data_and_keeps_dead_cells(games):
    rule, records = games
    data = gomoku_policy.policy_data(records, rule)
    data.game[:] = 1  # keep every position for training
    result = gomoku_policy.fit(data, rule, steps=60, prior=1e-4)
    hand, fitted = result.report["hand_train"], result.report["fit_train"]
    assert fitted["cross_entropy"] < hand["cross_entropy"]
    dead = combos.DEAD_COMBO
    assert np.array_equal(result.tables[:, :, dead], gomoku_policy.hand_tables(rule)[:, :, dead])
    assert result.report["test_positions"] == 0 and result.report["fit_test"] is None


def test_every_game_held_out_is_an_error(games):
    rule, records = games
    data = gomoku_policy.policy_data(records, rule)
    data.game[:] = 10
    with pytest.raises(InvalidOption):
        gomoku_policy.fit(data, rule, steps=5)


def test_the_engine_with_the_hand_tables_searches_exactly_as_the_hand_written_order(tmp_path):
    for rule in ("freestyle", "renju"):
        path = tmp_path / f"order-{rule}.npy"
        np.save(path, gomoku_policy.hand_tables(rule).astype(np.int32))
        board = Board.from_moves(["h8", "i9", "g7", "j10", "h6"], 15, rule)
        classic = Engine(rule, hash_mb=4, params={"ORDER": "classic"}).search(board, nodes=6000)
        table = Engine(rule, hash_mb=4, params={"ORDER": str(path)}).search(board, nodes=6000)
        assert (table.move, table.score, table.nodes, table.depth) == (
            classic.move,
            classic.score,
            classic.nodes,
            classic.depth,
        )


def test_a_different_order_changes_the_search(tmp_path):
    rule = "freestyle"
    hand = gomoku_policy.hand_tables(rule)
    reversed_own = hand.copy()
    reversed_own[:, 0] = -hand[:, 0]  # prefer the cells worth least to the side to move
    path = tmp_path / "odd.npy"
    np.save(path, reversed_own.astype(np.int32))
    board = Board.from_moves(["h8", "i9", "g7", "j10", "h6"], 15, rule)
    classic = Engine(rule, hash_mb=4, params={"ORDER": "classic"}).search(board, nodes=6000)
    odd = Engine(rule, hash_mb=4, params={"ORDER": str(path)}).search(board, nodes=6000)
    assert (odd.depth, odd.score, odd.move) != (classic.depth, classic.score, classic.move)


def test_a_malformed_order_table_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.npy"
    np.save(path, np.zeros((3, 3)))
    with pytest.raises(InvalidOption, match="move order"):
        Engine("freestyle", params={"ORDER": str(path)})


def test_plies_train_gomoku_fits_an_order(tmp_path):
    from plies.cli import main

    data, out = tmp_path / "g.jsonl", tmp_path / "order.npy"
    args = "train gomoku --size 9 --games 10 --nodes 300 --seed 5 --target order --steps 20"
    main([*args.split(), "--data", str(data), "--out", str(out)])
    table = np.load(out)
    assert table.shape == (1, 2, combos.N_COMBOS) and table.dtype == np.int32
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["games"] == 10 and report["fit_test"] is not None
    Engine("freestyle", 9, params={"ORDER": str(out)}).search(Board(9), nodes=500)
