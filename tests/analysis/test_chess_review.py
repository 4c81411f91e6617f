"""The chess review: constructed games with known verdicts (a hung queen, a missed mate in one
and in two, an allowed mate, an only move, best moves), both languages, the JSON schema, the
HTML report and the CLI. Small fixed node budgets (one thread): deterministic."""

import json
import re
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from fresh_process import run_plies
from plies.analysis.chess import (
    load_pgn,
    load_pgn_games,
    looks_like_pgn,
    mates_in_one,
    review_game,
    review_games,
    threat_if_passing,
    winning_captures,
)
from plies.analysis.report.html import render_html
from plies.analysis.review import Budget
from plies.cli import cli, main
from plies.errors import InvalidOption, InvalidRecord

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "review-schema.json"
BUDGET = Budget(nodes=3000)
MORPHY = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1"  # Qd8+! Bxd8 Re8#
GAMES = {
    "queen": "1. e4 d5 2. Qg4 Bxg4 *",
    "scholar": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Nc3 a6 5. Qxf7# 1-0",
    "only_move": "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 *",
    "missed_m2": f'[FEN "{MORPHY}"]\n[SetUp "1"]\n\n1. Rad1 *',
    "mate_m2": f'[FEN "{MORPHY}"]\n[SetUp "1"]\n\n1. Qd8+ Bxd8 2. Re8# 1-0',
}


@pytest.fixture(scope="module")
def reviews():
    out = {name: review_game(load_pgn(text=pgn), BUDGET) for name, pgn in GAMES.items()}
    out["scholar_vi"] = review_game(load_pgn(text=GAMES["scholar"]), BUDGET, lang="vi")
    out["queen_vi"] = review_game(load_pgn(text=GAMES["queen"]), BUDGET, lang="vi")
    return out


def by_ply(review):
    return {m.ply: m for m in review.moves}


def test_exact_facts():
    board = chess.Board("6k1/5ppp/8/8/8/8/1q3PPP/3RR1K1 w - - 0 1")
    assert sorted(mates_in_one(board)) == ["Rd8#", "Re8#"]
    assert mates_in_one(chess.Board()) == []
    # after 1. e4 d5 2. Qg4, Bxg4 wins the queen outright (SEE 950)
    board = chess.Board()
    for san in ("e4", "d5", "Qg4"):
        board.push_san(san)
    caps = winning_captures(board)
    assert caps[0] == {"move": "Bxg4", "square": "g4", "piece": "queen", "gain": 950}
    board.pop()
    assert winning_captures(board) == []  # exd5 Qxd5: pawn for pawn, no gain
    # the threat if White passed: none, then the queen attacked by a knight
    board = chess.Board()
    for san in ("e4", "d5", "Qg4", "e6"):
        board.push_san(san)
    assert threat_if_passing(board) is None
    board.push_san("Qh5")
    board.push_san("Nf6")  # the knight attacks the queen on h5
    threat = threat_if_passing(board)
    assert threat is not None and threat["piece"] == "queen" and threat["move"] == "Nxh5"


def test_hung_queen_is_a_blunder(reviews):
    moves = by_ply(reviews["queen"])
    qg4 = moves[3]
    assert qg4.move == "Qg4" and qg4.player == "white"
    assert qg4.classification == "blunder"
    assert "hanging_piece" in qg4.categories
    assert qg4.facts["hangs"]["piece"] == "queen" and qg4.facts["hangs"]["move"] == "Bxg4"
    assert "queen on g4 hanging" in qg4.explanation and "Bxg4" in qg4.explanation
    assert moves[4].classification == "best" and moves[4].facts["captures"] == "queen"
    assert qg4.accuracy < 30 and moves[4].accuracy > 99.9


def test_queen_sacrificed_on_f7_and_the_only_legal_move(reviews):
    moves = by_ply(reviews["only_move"])
    assert moves[5].move == "Qxf7+" and moves[5].classification == "blunder"
    assert moves[5].categories == ["hanging_piece"]
    kxf7 = moves[6]
    assert kxf7.classification == "forced" and kxf7.loss == 0
    assert "only legal move" in kxf7.explanation


def test_missed_mate_in_one_and_allowed_mate(reviews):
    moves = by_ply(reviews["scholar"])
    nf6 = moves[6]
    assert nf6.classification == "blunder" and "allowed_mate" in nf6.categories
    assert nf6.facts["opponent_mates"] == {"kind": "mate", "line": ["Qxf7#"], "mate_in": 1}
    nc3 = moves[7]
    assert nc3.classification == "missed_win"
    assert nc3.categories[:2] == ["missed_win", "missed_mate"]
    assert nc3.facts["had_mate"]["mate_in"] == 1 and nc3.best_move == "Qxf7#"
    assert "mate in 1: Qxf7#" in nc3.explanation
    a6 = moves[8]
    assert a6.classification == "blunder" and "allowed_mate" in a6.categories
    assert "missed_capture" in a6.categories and a6.facts["missed_capture"]["move"] == "Nxh5"
    mate = moves[9]
    assert mate.classification == "best" and mate.facts["checkmate"] is True
    review = reviews["scholar"]
    assert review.summary.result == "white" and review.game["game"] == "chess"
    assert review.summary.critical_moments == [6, 7, 8]
    stats = review.summary.players
    assert stats["white"]["counts"]["missed_win"] == 1 and stats["black"]["counts"]["blunder"] == 2


def test_missed_mate_in_two_and_the_mate_played(reviews):
    missed = reviews["missed_m2"].moves[0]
    assert missed.move == "Rad1" and missed.classification == "missed_win"
    assert "missed_mate" in missed.categories
    assert missed.facts["had_mate"]["mate_in"] == 2
    assert missed.facts["had_mate"]["line"][:3] == ["Qd8+", "Bxd8", "Re8#"]
    played = by_ply(reviews["mate_m2"])
    assert played[1].classification == "best" and "mate in 2" in played[1].explanation
    assert played[2].classification == "forced"
    assert played[3].classification == "best" and played[3].facts["checkmate"]


def test_vietnamese(reviews):
    moves = by_ply(reviews["scholar_vi"])
    assert reviews["scholar_vi"].language == "vi"
    assert "chiếu hết" in moves[7].explanation and "Nước đi Nc3 bỏ lỡ" in moves[7].explanation
    assert "để đối phương chiếu hết" in moves[6].explanation
    assert "bắt được quân hậu" in moves[8].explanation
    assert "chiếu hết: Trắng thắng" in moves[9].explanation
    qg4 = by_ply(reviews["queen_vi"])[3]
    assert "quân hậu ở g4" in qg4.explanation and "bắt quân bằng Bxg4" in qg4.explanation
    # same verdicts in both languages
    assert [m.classification for m in reviews["scholar_vi"].moves] == [
        m.classification for m in reviews["scholar"].moves
    ]


def test_json_matches_schema(reviews):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for review in reviews.values():
        data = json.loads(json.dumps(review.to_dict()))
        validator.validate(data)
        assert data["schema_version"] == 1 and data["game"]["game"] == "chess"
        assert len(data["game"]["fens"]) == len(data["game"]["moves"]) + 1
    bad = json.loads(json.dumps(reviews["queen"].to_dict()))
    del bad["game"]["fens"]  # a chess review must carry its positions
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(bad)


def test_html_report(reviews):
    html = render_html(reviews["scholar"])
    assert html.startswith("<!DOCTYPE html>") and 'id="chart"' in html
    assert 'id="chess-extra"' in html and "♛" in html and 'class="board chess"' in html
    assert not re.search(r"(src|href)=\"https?:", html)  # self-contained
    assert "White's winning chances" in html
    assert "<td>4.</td><td>White</td><td>Nc3</td>" in html
    assert "<td>4...</td><td>Black</td><td>a6</td>" in html
    assert "cờ vua" in render_html(reviews["scholar_vi"])


def test_malformed_pgn():
    with pytest.raises(InvalidRecord, match="illegal san"):
        load_pgn(text="1. e4 e5 2. Ke3 *")
    with pytest.raises(InvalidRecord, match="no game"):
        load_pgn(text="")
    with pytest.raises(InvalidRecord, match="no moves"):
        load_pgn(text="this is not a game")


def test_cli_errors(tmp_path, capsys, monkeypatch):
    compiled = []  # a bad file is refused before the kernels compile (70 s on a cold cache)
    monkeypatch.setattr("plies.cli._ensure_kernels", compiled.append)
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 e5 2. Ke3 *\n")
    for args in (["analyze", str(bad)], ["analyze", str(tmp_path / "game.pgn"), "--rule", "renju"]):
        if "--rule" in args:
            (tmp_path / "game.pgn").write_text("1. e4 e5 *\n")
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1
    assert compiled == []


def test_cli_analyze_pgn(tmp_path, monkeypatch):
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "game.pgn"
    game.write_text(
        '[Event "Test"]\n[White "Alice"]\n[Black "Bob"]\n[Result "1-0"]\n\n' + GAMES["scholar"]
    )
    args = ["analyze", str(game), "--nodes", "3000", "--workers", "1", "--json",
            str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Missed win" in result.output and "Allowed mate" in result.output
    assert "4. Nc3" in result.output and "3... Nf6" in result.output  # chess move numbers
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["game"]["players"] == {"white": "Alice", "black": "Bob"}
    assert data["moves"][6]["classification"] == "missed_win"
    assert data["moves"][6]["move"] == "Nc3"
    assert "Alice" in (tmp_path / "r.html").read_text()
    again = CliRunner().invoke(cli, args + ["--lang", "vi"])  # from the cache
    assert again.exit_code == 0 and "Độ chính xác" in again.output
    assert "chiếu hết" in json.loads((tmp_path / "r.json").read_text())["moves"][6]["explanation"]
    assert (
        json.loads((tmp_path / "r.json").read_text())["moves"][6]["loss"]
        == (data["moves"][6]["loss"])
    )


TWO_GAMES = (
    '[Event "One"]\n[White "Alice"]\n[Black "Bob"]\n\n' + GAMES["scholar"] + "\n\n"
    '[Event "Two"]\n[White "Carol"]\n[Black "Dan"]\n\n' + GAMES["queen"] + "\n"
)


def test_looks_like_pgn():
    for text in (
        '[Event "x"]\n\n1. e4 e5 *',
        '\ufeff\n[Site "?"]',
        "1. e4 e5 2. Nf3 *",
        "e4 e5 Nf3 Nc6",
        "d4 d5 c4 dxc4",
        "e4 e5 O-O",
        GAMES["queen"],
    ):
        assert looks_like_pgn(text), text
    for text in (
        "h8 h9 i10 g8",
        "7,7 7,6 (8,8)",
        "# rule: renju\n# black: Alice\nh8 i9 j10",
        "e5 k11 f5 m9 g5 c12 a15",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n",
        "(;GM[4]SZ[15];B[hh];W[hi])",
        "e4 e5",  # bare pawn moves: a Gomoku list
        "",
    ):
        assert not looks_like_pgn(text), text


def test_load_pgn_games():
    games = load_pgn_games(text=TWO_GAMES)
    assert [g.headers["Event"] for g in games] == ["One", "Two"]
    (second,) = load_pgn_games(text=TWO_GAMES, game=2)
    assert second.headers["White"] == "Carol"
    with pytest.raises(InvalidOption, match="--game 3: the PGN has 2 games"):
        load_pgn_games(text=TWO_GAMES, game=3)
    bad = TWO_GAMES + '\n[Event "Three"]\n\n1. e4 e5 2. Ke3 *\n'
    with pytest.raises(InvalidRecord, match="game 3: bad PGN: illegal san"):
        load_pgn_games(text=bad)
    assert len(load_pgn_games(text=bad, game=1)) == 1  # only the chosen game is checked
    with pytest.raises(InvalidRecord, match="game 2: no moves"):
        load_pgn_games(text=GAMES["queen"] + '\n\n[Event "empty"]\n\n*\n')
    with pytest.raises(InvalidRecord, match="no game"):
        load_pgn_games(text="")


def test_review_games_is_review_game_per_game(reviews):
    # one analysis pass over both games (each position searched from a cleared table)
    both = review_games(load_pgn_games(text=TWO_GAMES), BUDGET)
    for review, name in zip(both, ("scholar", "queen"), strict=True):
        alone = reviews[name]
        assert review.complete
        assert [m.to_dict() for m in review.moves] == [m.to_dict() for m in alone.moves]
    assert both[0].game["players"] == {"white": "Alice", "black": "Bob"}


def test_cli_analyze_all_games_and_stdin(tmp_path, monkeypatch):
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    games = tmp_path / "games.pgn"
    games.write_text(TWO_GAMES)
    out = tmp_path / "r.json"
    base = ["--nodes", "3000", "--workers", "1", "--json", str(out)]
    result = CliRunner().invoke(cli, ["analyze", str(games), *base])
    assert result.exit_code == 0, result.output
    assert "Game 1 of 2: Alice - Bob" in result.output
    assert "Game 2 of 2: Carol - Dan" in result.output
    assert not out.exists()
    first = json.loads((tmp_path / "r-1.json").read_text())
    second = json.loads((tmp_path / "r-2.json").read_text())
    assert first["game"]["players"] == {"white": "Alice", "black": "Bob"}
    assert second["moves"][2]["move"] == "Qg4" and second["moves"][2]["classification"] == (
        "blunder"
    )
    # stdin: a PGN is recognised; --game picks one game, its report under the plain name
    result = CliRunner().invoke(cli, ["analyze", "-", "--game", "2", *base], input=TWO_GAMES)
    assert result.exit_code == 0, result.output
    assert "Game 1" not in result.output
    assert json.loads(out.read_text())["moves"] == second["moves"]
    # movetext only, no tags, on stdin
    result = CliRunner().invoke(cli, ["analyze", "-", *base], input=GAMES["scholar"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["game"]["game"] == "chess"
    # a PGN in a file of another extension is chess too
    (tmp_path / "game.txt").write_text(GAMES["queen"])
    result = CliRunner().invoke(cli, ["analyze", str(tmp_path / "game.txt"), *base])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["moves"][2]["move"] == "Qg4"
    # a Gomoku move list on stdin still goes to the Gomoku review
    result = CliRunner().invoke(cli, ["analyze", "-", *base], input="e5 k11 f5 m9 g5 c12 a15\n")
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["game"]["game"] == "gomoku"


def test_cli_multi_game_errors(tmp_path, capsys):
    games = tmp_path / "games.pgn"
    games.write_text(TWO_GAMES + '\n[Event "Three"]\n\n1. e4 e5 2. Ke3 *\n')
    gomoku = tmp_path / "g.txt"
    gomoku.write_text("h8 h9 i10\n")
    for args, message in (
        (["analyze", str(games)], "game 3: bad PGN"),
        (["analyze", str(games), "--game", "4"], "--game 4: the PGN has 3 games"),
        (["analyze", str(gomoku), "--game", "1"], "--game applies to PGN"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err


def test_cli_bad_pgn_in_a_fresh_process(tmp_path):
    """The real command: one line on stderr (python-chess logs nothing), exit status 2."""
    bad = TWO_GAMES + '\n[Event "Three"]\n\n1. e4 e5 2. Ke3 *\n'
    proc = run_plies(["analyze", "-"], bad)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "error: <stdin>: game 3: bad PGN: illegal san: 'Ke3' in "
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    ]


def test_the_noise_band_follows_the_chess_calibration(monkeypatch):
    import plies.analysis.chess as chess_review

    # measured: a chess search's noise is far below the mistake threshold, so the band never
    # softens a mistake or a blunder at these budgets
    assert chess_review.search_noise(3000) < 0.10
    # the band is the adapter's: with a (made-up) band wider than the loss, the unproven hung
    # queen would be an inaccuracy at worst, with the note that says why
    monkeypatch.setattr(chess_review, "NOISE_P90", ((1000, 1.0),))
    qg4 = by_ply(review_game(load_pgn(text=GAMES["queen"]), BUDGET))[3]
    assert qg4.classification == "inaccuracy"
    assert "cannot reliably tell Qg4" in qg4.explanation
