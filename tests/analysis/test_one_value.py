"""The review's invariants (docs/review.md, "One value per position" and "Lines"): one value
per position, so a row's winning chances after the move are the next row's before it; losses
are never negative; every line shown starts with the move its sentence names and replays
legally from its position, with real moves only; "lost" only in lost positions; "best" only
for the engine's choice or a move of the same value. Checked on the bundled example, on
generated self-play games (Gomoku and chess) and on unit cases of the backward pass."""

from pathlib import Path

import chess
import chess.pgn
import pytest

from plies.analysis.chess import review_game
from plies.analysis.gomoku import review_record
from plies.analysis.review import DEFAULT_THRESHOLDS as _T
from plies.analysis.review import Budget, LineEval, PositionEval
from plies.analysis.scoring import Proof, ValueRules, position_values, score_from_values
from plies.gomoku import Board
from plies.gomoku.records import load_record, read_record

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "renju-example.sgf"
SMALL = Budget(nodes=2000, solver_nodes=2000)
DEMO = Budget(nodes=8000, solver_nodes=8000)  # plies demo's budget


def _selfplay_gomoku(opening: str, rule: str, plies: int, nodes: int) -> str:
    from plies.gomoku.engine import Engine

    board = Board(width=15, height=15, rule=rule, forbidden="loses")
    board.play_moves(opening.split())
    engine = Engine(rule, width=15, height=15, hash_mb=8)
    while not board.is_over and len(board) < plies:
        engine.new_game()
        board.play(engine.search(board, nodes=nodes).move)
    return " ".join(m.algebraic(15) for m in board.history)


def _selfplay_chess(opening: str, plies: int, nodes: int) -> chess.pgn.Game:
    from plies.chess.engine.api import Engine

    board = chess.Board()
    for san in opening.split():
        board.push_san(san)
    engine = Engine(hash_mb=8)
    while not board.is_game_over() and len(board.move_stack) < plies:
        engine.new_game()
        board.push(engine.search(board, nodes=nodes).move)
    return chess.pgn.Game.from_board(board)


# --- checks -----------------------------------------------------------------------------------


def check_values(review) -> None:
    moves = review.moves
    for m in moves:
        assert m.loss >= 0.0, (m.ply, m.loss)
        assert (
            m.loss == pytest.approx(max(0.0, m.win_probability_before - m.win_probability_after))
            or m.classification == "book"
        )
        if m.classification == "lost":
            assert m.win_probability_before <= 0.1, (m.ply, m.win_probability_before)
        if m.classification == "best":
            assert m.best_move in (None, m.move) or m.score_after >= m.score_before, m.ply
        if m.classification == "missed_win":
            assert m.win_probability_before == 1.0 and m.win_probability_after < 1.0
    for a, b in zip(moves, moves[1:], strict=False):
        assert b.ply == a.ply + 1
        assert a.win_probability_after == pytest.approx(1 - b.win_probability_before, abs=1e-9), (
            a.ply,
            a.win_probability_after,
            b.win_probability_before,
        )
    data = review.to_dict()["moves"]
    for a, b in zip(data, data[1:], strict=False):
        assert abs(a["win_probability_after"] - (1 - b["win_probability_before"])) <= 1e-4


def _near_stone(board: Board, text: str) -> bool:
    m = board.parse(text)
    for x, y in ((s.x, s.y) for s in board.history):
        if max(abs(x - m.x), abs(y - m.y)) <= 3:
            return True
    return not board.history


def _replays_gomoku(board: Board, line: list[str], what: str) -> None:
    b = board.copy()
    for text in line:
        # a real move: legal, and in the fight (a solver's placeholder reply is far away)
        assert _near_stone(b, text), (what, line, text)
        b.play(text)
        if b.is_over:
            break


def check_gomoku_lines(review) -> None:
    game = review.game
    board = Board(width=game["width"], height=game["height"], rule=game["rule"], forbidden="loses")
    for m in review.moves:
        if m.best_move:
            assert m.best_line and m.best_line[0] == m.best_move, m.ply
            _replays_gomoku(board, m.best_line, f"{m.ply} best line")
            assert f"Best was {m.best_move} (" in m.explanation or "Best was" not in m.explanation
        for line in m.lines:
            assert line.pv[0] == line.move
            _replays_gomoku(board, line.pv, f"{m.ply} line {line.move}")
        had = m.facts.get("had_win")
        if had:
            assert had["line"][0] == m.best_move, m.ply  # the win named is the Best column's
            _replays_gomoku(board, had["line"], f"{m.ply} had_win")
        after = board.copy()
        after.play(m.move)
        wins = m.facts.get("opponent_wins")
        if wins and not after.is_over:
            _replays_gomoku(after, wins["line"], f"{m.ply} opponent_wins")
        for key in ("long_vct",):
            if key in m.facts:
                _replays_gomoku(board, m.facts[key], f"{m.ply} {key}")
        board = after


def check_chess_lines(review) -> None:
    board = chess.Board(review.game["start_fen"])
    for m, uci in zip(review.moves, review.game["moves_uci"], strict=True):
        lines = [("best", m.best_line)] + [(ln.move, ln.pv) for ln in m.lines]
        if "had_mate" in m.facts:
            assert m.facts["had_mate"]["line"][0] == m.best_move
            lines.append(("had_mate", m.facts["had_mate"]["line"]))
        if m.best_move:
            assert m.best_line[0] == m.best_move
        for what, line in lines:
            b = board.copy()
            for san in line:
                b.push_san(san)  # raises on an illegal move
            assert what in ("best", "had_mate") or line[0] == what
        after = board.copy()
        after.push_uci(uci)
        if "opponent_mates" in m.facts:
            b = after.copy()
            for san in m.facts["opponent_mates"]["line"]:
                b.push_san(san)
        board = after


# --- the reviews ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def example():
    return review_record(load_record(EXAMPLE), DEMO)


@pytest.fixture(scope="module")
def gomoku_games():
    games = [
        _selfplay_gomoku("h8 h9 i9", "renju", 40, 400),
        _selfplay_gomoku("h8 i9 g7", "freestyle", 40, 300),
    ]
    return [
        review_record(read_record(g, rule=r), SMALL)
        for g, r in zip(games, ("renju", "freestyle"), strict=True)
    ]


@pytest.fixture(scope="module")
def chess_games():
    games = [_selfplay_chess("e4 e5 Nf3 Nc6 Bb5 a6", 24, 300), _selfplay_chess("d4 d5 c4", 20, 300)]
    return [review_game(g, SMALL) for g in games]


def test_example_one_value_and_lines(example):
    check_values(example)
    check_gomoku_lines(example)
    # the summary names moves as the table does, and a winner has a turning point
    s = example.summary
    assert s.result == "black" and s.turning_point is not None
    assert s.turning_point_label == f"{s.turning_point}. {example.moves[s.turning_point - 1].move}"
    assert len(s.critical_moment_labels) == len(s.critical_moments)


def test_example_is_deterministic(example):
    again = review_record(load_record(EXAMPLE), DEMO)
    assert [(m.classification, m.categories, m.best_move) for m in again.moves] == [
        (m.classification, m.categories, m.best_move) for m in example.moves
    ]


def test_example_wording(example):
    for m in example.moves:
        assert "by force" not in m.explanation  # "a forced win by force"
        words = m.explanation.split()
        assert all(a != b for a, b in zip(words, words[1:], strict=False)), m.explanation


def test_vct_free_defender_move_is_reported_and_cut():
    from plies.gomoku.engine import Engine

    # before Black's 15th move of the example: m7 wins by VCT; after j6 White has no playable
    # defence, so the solver's line goes on with a placeholder (a15) and the final VCF
    full = load_record(EXAMPLE).to_board(forbidden="loses")
    board = Board(width=15, height=15, rule=full.rule, forbidden="loses")
    board.play_moves(full.history[:14])
    engine = Engine(full.rule, width=15, height=15, hash_mb=8)
    line = [m.algebraic(15) for m in engine.vct(board, max_nodes=8000) or []]
    assert line[:6] == ["m7", "l7", "l8", "k9", "j6", "a15"] and engine.vct_free == 5
    assert engine.vct(Board(width=15, height=15, rule=full.rule), max_nodes=100) is None
    assert engine.vct_free is None


def test_table_does_not_repeat_the_class(example):
    from plies.analysis.report import shown_categories

    missed = [m for m in example.moves if m.classification == "missed_win"]
    assert missed and all("missed_win" in m.categories for m in missed)  # kept in the JSON
    assert all("missed_win" not in shown_categories(m) for m in missed)  # not shown twice
    m15 = example.moves[14]
    assert m15.move == "h7" and m15.best_move == "m7" and "a15" not in m15.explanation


def test_movetime_review_keeps_the_invariants():
    # a time budget: uncertain positions get a second search, the invariants still hold
    review = review_record(
        read_record("h8 h9 i9 g7 j10 i8", rule="renju"), Budget(movetime=0.05, solver_time=0.02)
    )
    check_values(review)
    check_gomoku_lines(review)


def test_generated_gomoku_games(gomoku_games):
    for review in gomoku_games:
        check_values(review)
        check_gomoku_lines(review)


def test_generated_chess_games(chess_games):
    for review in chess_games:
        check_values(review)
        check_chess_lines(review)
        for m in review.moves:
            if m.best_move and m.classification == "best" and m.move != m.best_move:
                assert "equally good" in m.explanation


def test_chess_even_trade_is_no_sacrifice_and_moments_are_move_labels():
    from plies.analysis.chess import load_pgn

    trade = review_game(load_pgn(text="1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 *"), SMALL)
    bxc6 = trade.moves[6]
    assert bxc6.move == "Bxc6" and "sacrifice" not in bxc6.facts
    assert "sacrific" not in bxc6.explanation
    check_values(trade)
    check_chess_lines(trade)
    scholar = review_game(load_pgn(text="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"), SMALL)
    s = scholar.summary
    # the blunder is a critical moment, labelled by its move; any other is a real loss of the
    # "good" threshold or more (2. Qh5, which lichess marks as an inaccuracy, may be one)
    assert 6 in s.critical_moments
    assert s.critical_moment_labels[s.critical_moments.index(6)] == "3... Nf6"
    assert len(s.critical_moment_labels) == len(s.critical_moments)
    for ply in s.critical_moments:
        assert scholar.moves[ply - 1].loss >= _T.good
    # the turning point is the blunder, or (White ahead in every position) none, and it is said
    assert (s.turning_point_label == "3... Nf6") != s.winner_ahead_throughout


# --- the backward pass on its own -------------------------------------------------------------


def _wp(score: int) -> float:
    return 1.0 if score > 900 else 0.0 if score < -900 else 0.5 + score / 2000


RULES = ValueRules(_wp, 900, lambda pos: Proof(1000, [], "terminal") if pos.terminal else None)


def _pos(ply: int, *lines: tuple[str, int], terminal: str | None = None) -> PositionEval:
    evals = [LineEval(m, s, _wp(s), [m]) for m, s in lines]
    return PositionEval(ply, lines=evals, score=evals[0].score if evals else 0, terminal=terminal)


def test_backward_pass_reconciles_a_position_seen_twice():
    # position 0 thinks a is worth +100; after a, the deeper search says the mover is at +300
    # (-300 for the side to move there): V(0) = 300 by a, and a's row loses nothing
    evals = {0: _pos(0, ("a", 100), ("b", 50)), 1: _pos(1, ("c", -300)), 2: _pos(2, ("d", 300))}
    values = position_values(evals, ["a", "c"], RULES)
    assert values[0].score == 300 and values[0].top.move == "a"
    s0 = score_from_values("a", values[0], values[1], RULES, thresholds=_T)
    s1 = score_from_values("c", values[1], values[2], RULES, thresholds=_T)
    assert s0.loss == 0 and s0.wp_after == pytest.approx(1 - s1.wp_before)
    # the played move's line always takes the deeper value after it, even when it drops
    evals[2] = _pos(2, ("d", -200))
    values = position_values(evals, ["a", "c"], RULES)
    assert values[0].line_of("a").score == -200 and values[0].top.move == "b"
    s0 = score_from_values("a", values[0], values[1], RULES, thresholds=_T)
    assert s0.wp_before == _wp(50) and s0.wp_after == _wp(-200) and s0.classification == "mistake"


def test_the_searchs_own_choice_loses_by_hindsight_only():
    # a was position 0's first choice; only the deeper value after it shows the loss: at worst
    # an inaccuracy (the loss and the winning chances stay what they are)
    evals = {0: _pos(0, ("a", 100), ("b", 50)), 1: _pos(1, ("c", 300)), 2: _pos(2, ("d", -300))}
    values = position_values(evals, ["a", "c"], RULES)
    own = score_from_values("a", values[0], values[1], RULES, thresholds=_T, first_choice="a")
    assert own.classification == "inaccuracy" and own.hindsight
    assert own.wp_before == _wp(50) and own.wp_after == _wp(-300)
    # the same move when the search preferred another one is judged by its loss
    other = score_from_values("a", values[0], values[1], RULES, thresholds=_T, first_choice="b")
    assert other.classification == "mistake" and not other.hindsight


def test_an_unproven_loss_within_the_budgets_noise_is_an_inaccuracy_at_worst():
    # b's loss (wp(100) - wp(-250) = 0.175 here) is a mistake by the thresholds; with a noise
    # band above it the move is an inaccuracy, marked as such
    evals = {0: _pos(0, ("a", 100), ("b", 50)), 1: _pos(1, ("c", 250))}
    values = position_values(evals, ["b"], RULES)
    plain = score_from_values("b", values[0], values[1], RULES, thresholds=_T)
    assert plain.classification == "mistake" and not plain.within_noise
    wide = score_from_values("b", values[0], values[1], RULES, thresholds=_T, noise=0.25)
    assert wide.classification == "inaccuracy" and wide.within_noise
    assert wide.loss == plain.loss  # the loss and the chances stay what they are
    narrow = score_from_values("b", values[0], values[1], RULES, thresholds=_T, noise=0.1)
    assert narrow.classification == "mistake" and not narrow.within_noise
    # a proof after the move (the opponent's win) is no noise: the verdict stands
    evals[1] = _pos(1, ("c", 1000), terminal="loss")
    values = position_values(evals, ["b"], RULES)
    proven = score_from_values("b", values[0], values[1], RULES, thresholds=_T, noise=1.0)
    assert values[1].proof is not None
    assert proven.classification == "blunder" and not proven.within_noise


def test_search_noise_follows_the_calibration():
    from plies.analysis.gomoku import NOISE_P90, search_noise

    (n0, p0), (n1, p1) = NOISE_P90[0], NOISE_P90[-1]
    assert search_noise(0) == 0.0
    assert search_noise(n0 // 10) == pytest.approx(2**0.5 * p0)
    assert search_noise(n1 * 10) == pytest.approx(2**0.5 * p1)
    middle = search_noise(int((NOISE_P90[0][0] * NOISE_P90[1][0]) ** 0.5))
    assert 2**0.5 * min(p0, NOISE_P90[1][1]) <= middle <= 2**0.5 * max(p0, NOISE_P90[1][1])


def test_equal_alternative_is_best_with_a_note_and_a_lower_one_is_not():
    evals = {0: _pos(0, ("a", 100), ("b", 100)), 1: _pos(1, ("c", -100))}
    values = position_values(evals, ["b"], RULES)
    s = score_from_values("b", values[0], values.get(1), RULES, thresholds=_T)
    assert s.is_best and s.equal and s.classification == "best"
    evals = {0: _pos(0, ("a", 100), ("b", 99)), 1: _pos(1, ("c", -99))}
    values = position_values(evals, ["b"], RULES)
    s = score_from_values("b", values[0], values.get(1), RULES, thresholds=_T)
    assert not s.is_best and s.classification == "excellent"


def test_verified_alternative_replaces_its_shallow_score():
    evals = {0: _pos(0, ("a", 400), ("b", 0)), 1: _pos(1, ("c", 0))}
    alt = {(0, "a"): _pos(1, ("x", 100))}  # after a, the opponent is at +100: a is worth -100
    values = position_values(evals, ["b"], RULES, alt)
    assert values[0].top.move == "b" and values[0].score == 0
    assert values[0].line_of("a").score == -100


def test_proof_is_inherited_along_the_winning_line():
    win = Proof(995, ["a", "x", "b"], "vcf")
    rules = ValueRules(_wp, 900, lambda pos: win if pos.ply == 0 else None)
    evals = {0: _pos(0, ("z", 50), ("a", 40)), 1: _pos(1, ("x", 0)), 2: _pos(2, ("b", 10))}
    values = position_values(evals, ["a", "x"], rules)
    assert values[0].top.move == "a" and values[0].score > 900  # the proof's move heads
    assert values[1].score < -900 and values[2].score > 900  # lost after a, won after x


def test_an_unproven_costly_verdict_is_confirmed_at_a_larger_budget():
    from plies.analysis.scoring import CONFIRM_LIMIT, settle_values, unproven_losses

    # shallow: a is worth +100, the played b leaves the opponent at +300 (a blunder on values
    # alone, 0.2 of win probability); at the larger budget a leaves the opponent at +260: the
    # position was lost already, b costs 0.02
    def fresh():
        return {0: _pos(0, ("a", 100), ("b", 50)), 1: _pos(1, ("c", 0)), 2: _pos(2, ("d", -300))}

    asked = []

    def confirm(pairs):
        asked.extend(pairs)
        deep = {(0, "b"): _pos(1, ("c", 280), ("e", 0)), (0, "a"): _pos(1, ("y", 260))}
        return {p: deep[p] for p in pairs if p in deep}

    shallow = settle_values(fresh(), ["b", "c"], RULES, None, 0.05)
    before = score_from_values("b", shallow[0], shallow[1], RULES, thresholds=_T)
    assert before.classification == "blunder" and before.loss == pytest.approx(0.2)
    assert unproven_losses(fresh(), ["b", "c"], shallow, RULES, _T.inaccuracy) == [
        (pytest.approx(0.2), 0)
    ]
    evals = fresh()
    values = settle_values(
        evals, ["b", "c"], RULES, None, 0.05, confirm=confirm, confirm_threshold=_T.inaccuracy
    )
    assert sorted(asked) == [(0, "a"), (0, "b")]  # no position before move 0 to ask for
    assert [ln.move for ln in evals[1].lines] == ["c", "e"]  # the deeper analysis, in place
    assert values[0].score == -260 and values[0].top.move == "a"
    s = score_from_values("b", values[0], values[1], RULES, thresholds=_T)
    assert s.loss == pytest.approx(0.02) and s.classification == "good"
    # the row after shows the same position: one value per position
    s1 = score_from_values("c", values[1], values[2], RULES, thresholds=_T)
    assert s.wp_after == pytest.approx(1 - s1.wp_before)
    # a loss the solver proves is not searched again
    evals = fresh()
    evals[1] = _pos(1, ("c", 1000), terminal="loss")
    asked.clear()
    settle_values(evals, ["b", "c"], RULES, None, 0.05, confirm=confirm, confirm_threshold=0.1)
    assert asked == []
    # at most CONFIRM_LIMIT moves a game, the largest losses first
    many = {
        i: _pos(i, ("a", 100), ("b", 50)) if i % 2 == 0 else _pos(i, ("c", 300)) for i in range(40)
    }
    asked.clear()
    settle_values(
        many, ["b", "c"] * 19 + ["b"], RULES, None, 0.05, confirm=confirm, confirm_threshold=0.1
    )
    played = {i for i, m in asked if m == "b"}
    assert 0 < len(played) <= CONFIRM_LIMIT


def test_the_best_move_named_does_not_depend_on_the_move_played():
    from plies.analysis.scoring import settle_values

    # move 0 (m) is a costly verdict on search values alone, so the position after it (1) is
    # analysed again at the larger budget, whose lines (k 290, l 214) then meet the shallow
    # values of the moves played there (k 48, l 156, a 749 against the mover). Each review
    # must compare k and l on the same footing and name the same best move, and k, played,
    # must lose nothing
    shallow = {(1, "k"): -48, (1, "l"): -156, (1, "a"): 749}
    deep = {(1, "k"): -262, (1, "l"): -229, (1, "a"): 749}

    def game(move):
        return {
            0: _pos(0, ("z", 400), ("m", 0)),
            1: _pos(1, ("l", 0), ("k", -10)),
            2: _pos(2, ("r", shallow[(1, move)])),
        }

    asked = []

    def confirm(pairs):
        asked.extend(pairs)
        out = {(0, "m"): _pos(1, ("k", 290), ("l", 214)), (0, "z"): _pos(1, ("q", -400))}
        out.update({p: _pos(2, ("r", v)) for p, v in deep.items()})
        return {p: out[p] for p in pairs if p in out}

    best = {}
    for move in ("a", "k", "l"):
        asked.clear()
        values = settle_values(
            game(move), ["m", move], RULES, None, 0.05, confirm=confirm, confirm_threshold=0.1
        )
        best[move] = values[1].top.move
        assert values[1].line_of("k").score == 262 and values[1].line_of("l").score == 229
        s = score_from_values(move, values[1], values[2], RULES, thresholds=_T)
        assert (s.loss == 0) == (move == "k")
        assert (0, "m") in asked and len(asked) == len(set(asked))  # none analysed twice
    assert best == {"a": "k", "k": "k", "l": "k"}
