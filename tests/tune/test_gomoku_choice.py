"""The evaluation fitted to the search's choices, on small data: every candidate's sparse row
is exactly the engine's evaluation change, the fit, and the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.errors import InvalidOption
from plies.gomoku import Board
from plies.gomoku.board import rule_code
from plies.gomoku.engine import Engine, combos, params
from plies.gomoku.engine import state as ST
from plies.tune import gomoku_choice, gomoku_data, gomoku_fit, gomoku_policy

SMALL = {
    rule: gomoku_data.SelfPlaySettings(rule=rule, size=9, nodes=300, random_moves=3)
    for rule in ("freestyle", "renju")
}


@pytest.fixture(scope="module", params=["freestyle", "renju"])
def games(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / f"{request.param}.jsonl"
    gomoku_data.generate(SMALL[request.param], 5, path, seed=40)
    return request.param, gomoku_data.load_games([path])


def _mover_view(state, s: int, rule: str) -> float:
    """(DEFENCE * side s's sum - ATTACK * the other side's sum) / 64, unrounded."""
    own = state.info[ST.I_EVALSUM + s]
    opp = state.info[ST.I_EVALSUM + 1 - s]
    attack, defence = params.rule_value("ATTACK", rule), params.rule_value("DEFENCE", rule)
    return (defence * own - attack * opp) / 64


def test_each_row_is_the_engines_evaluation_change(games):
    # row . (hand-written values) is what the engine's own sums say the candidate changes, seen
    # by the side that moves: (DEFENCE * own sum - ATTACK * opponent sum) / 64 of the child,
    # minus the same of the parent (which every candidate shares)
    rule, records = games
    data = gomoku_choice.choice_data(records, rule)
    w0 = gomoku_fit.initial_values(rule)[:-1]
    rows = np.zeros(len(data.pos))
    gomoku_fit._matvec(data.indptr, data.index, data.value, w0, rows)
    # the hand-written values as the combination table has them: Renju black's double-three
    # cells keep their value (RENJU_33_FORBIDDEN 0)
    tb = ST.make_tables(rule_code(rule), {"EVAL": "classic", "RENJU_33_FORBIDDEN": 0})
    row = 0
    checked = 0
    for record in records:
        board = Board(9, rule, forbidden="loses")
        for move, score in zip(record["moves"], record["scores"], strict=True):
            st, _ = ST.state_from_board(board, tb)
            s = board.to_move - 1
            labelled = (
                score is not None
                and abs(score) < gomoku_fit.WIN_SCORE_LIMIT
                and st.counts[s, ST.C_FIVE] == 0
                and st.counts[1 - s, ST.C_FIVE] == 0
            )
            cells = gomoku_policy.candidates(st, rule) if labelled else []
            x, y = (int(v) for v in move.split(","))
            chosen = (y + ST.PAD) * int(st.info[ST.I_STRIDE]) + x + ST.PAD
            if len(cells) >= 2 and chosen in cells:
                parent = _mover_view(st, s, rule)
                for c in cells:
                    ST.make(st, tb, int(c))
                    change = _mover_view(st, s, rule) - parent
                    ST.undo(st, tb)
                    assert rows[row] == pytest.approx(change, abs=1e-6), (record["seed"], c)
                    assert data.label[row] == (1 if c == chosen else 0)
                    row += 1
                    checked += 1
            board.play(move)
    assert row == len(data.pos) and checked > 200


def test_the_fit_improves_on_its_training_data_and_keeps_dead_cells(games):
    rule, records = games
    data = gomoku_choice.choice_data(records, rule)
    assert np.all(np.bincount(data.pos, weights=data.label) == 1)
    data.game[:] = 1  # keep every position for training
    result = gomoku_choice.fit(data, rule, steps=60, prior=1e-5)
    hand, fitted = result.report["hand_train"], result.report["fit_train"]
    assert fitted["cross_entropy"] < hand["cross_entropy"]
    table = gomoku_fit.to_table(result.w, rule)
    classic = combos.classic_values(rule_code(rule))
    assert table.shape == (2, combos.N_COMBOS) and table.dtype == np.int16
    assert np.array_equal(table[:, combos.DEAD_COMBO], classic[:, combos.DEAD_COMBO])
    assert not np.array_equal(table, classic)
    with pytest.raises(InvalidOption):
        data.game[:] = 10
        gomoku_choice.fit(data, rule, steps=5)


def test_plies_train_gomoku_fits_the_evaluation_to_choices(tmp_path):
    from plies.cli import main

    data, out = tmp_path / "g.jsonl", tmp_path / "choice.npy"
    args = "train gomoku --size 9 --games 10 --nodes 300 --seed 5 --target choice --steps 20"
    main([*args.split(), "--data", str(data), "--out", str(out)])
    table = np.load(out)
    assert table.shape == (2, combos.N_COMBOS) and table.dtype == np.int16
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["objective"] == "choice" and report["games"] == 10
    assert report["fit_test"] is not None
    Engine("freestyle", 9, params={"EVAL": str(out)}).search(Board(9), nodes=500)
