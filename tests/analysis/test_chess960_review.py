"""The review of Chess960 games: a lichess-style PGN (``[Variant "Chess960"]`` with a FEN) and a
python-chess ``chess960=True`` game, both castlings reviewed in SAN with king-takes-rook UCI,
an exact mate by castling, the cache key, the JSON and HTML reports, and the variants that are
still refused. Small fixed node budgets (one thread): deterministic."""

import json
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from fresh_process import run_plies
from plies.analysis.chess import ChessJob, cache_key, load_pgn, load_pgn_games, review_game
from plies.analysis.report.chessboard import best_line_arrows
from plies.analysis.report.html import render_html
from plies.analysis.review import Budget
from plies.cli import cli, main
from plies.errors import InvalidRecord

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "review-schema.json"
BUDGET = Budget(nodes=3000)
START = "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"  # Chess960 position 4
# Generated, not played: seeded random developing moves from START with python-chess until
# one side had castled short and the other long (the shortest of the seeds tried). Black's
# O-O leaves the king on g8 (only the rook moves, h8-f8: UCI g8h8); White's O-O-O takes the
# king from g1 over its rook on e1 to c1 (UCI g1e1).
MOVES = "1. a3 e6 2. d3 f6 3. Bd2 b6 4. Nc3 Ng6 5. Ng3 O-O 6. O-O-O *"
GAME960 = (
    '[Event "Casual Chess960 game"]\n[Site "https://lichess.org/abcdefgh"]\n'
    '[White "Alice"]\n[Black "Bob"]\n[Result "*"]\n[Variant "Chess960"]\n'
    f'[FEN "{START}"]\n[SetUp "1"]\n\n{MOVES}\n'
)
# White mates with O-O-O (king b1 to c1, rook a1 to d1); after 1. a3 Rb8 it only checks
MATE960 = (
    '[Variant "Chess960"]\n[FEN "2rkr3/2p1p3/8/8/8/8/PP6/RK6 w A - 0 1"]\n[SetUp "1"]\n\n'
    "1. a3 Rb8 2. O-O-O *\n"
)
CRAZYHOUSE = '[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 *\n'


@pytest.fixture(scope="module")
def reviews():
    return {
        "game": review_game(load_pgn(text=GAME960), BUDGET),
        "mate": review_game(load_pgn(text=MATE960), BUDGET),
    }


def test_load_chess960():
    game = load_pgn(text=GAME960)
    assert game.board().chess960
    assert [m.uci() for m in game.mainline_moves()][-2:] == ["g8h8", "g1e1"]
    # a Shredder-FEN castling field and python-chess's other spellings are Chess960 too
    shredder = GAME960.replace("KQkq", "HEhe").replace("Chess960", "Fischerandom")
    assert load_pgn(text=shredder).board().chess960
    # "From Position" (lichess, a standard game from a set-up position) is standard chess
    from_position = '[Variant "From Position"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1. e4 *'
    assert not load_pgn(text=from_position).board().chess960


def test_castlings_reviewed(reviews):
    review = reviews["game"]
    assert review.complete and len(review.moves) == 11
    assert review.game["rule"] == "chess960" and review.game["game"] == "chess"
    assert review.game["players"] == {"white": "Alice", "black": "Bob"}
    short, long = review.moves[9], review.moves[10]
    assert (short.ply, short.player, short.move) == (10, "black", "O-O")
    assert (long.ply, long.player, long.move) == (11, "white", "O-O-O")
    assert review.game["moves_uci"][9:] == ["g8h8", "g1e1"]
    for m in review.moves:
        assert m.classification in {"best", "excellent", "good", "inaccuracy", "mistake",
                                    "blunder", "missed_win", "forced"}  # fmt: skip
        assert m.best_move and m.best_line and 0 <= m.win_probability_after <= 1
    # the start FEN, the UCI moves and the FENs replay on a Chess960 board into the SAN moves
    board = chess.Board(review.game["start_fen"], chess960=True)
    assert review.game["start_fen"] == START
    for san, uci, fen in zip(
        review.game["moves"], review.game["moves_uci"], review.game["fens"], strict=False
    ):
        assert board.fen() == fen
        move = chess.Move.from_uci(uci)
        assert board.san(move) == san
        board.push(move)
    assert board.fen() == review.game["fens"][-1]
    # every engine line is legal SAN in its Chess960 position
    for m in review.moves:
        line_board = chess.Board(review.game["fens"][m.ply - 1], chess960=True)
        for san in m.best_line:
            line_board.push_san(san)


def test_mate_by_castling(reviews):
    a3, rb8, castle = reviews["mate"].moves
    assert a3.classification == "missed_win" and a3.categories[:2] == ["missed_win", "missed_mate"]
    assert a3.facts["had_mate"] == {"kind": "mate", "line": ["O-O-O#"], "mate_in": 1}
    assert a3.best_move == "O-O-O#" and "mate in 1: O-O-O#" in a3.explanation
    # judged one ply deeper than its alternatives (one value per position): about equal
    assert castle.move == "O-O-O+" and castle.classification in ("best", "excellent")
    assert reviews["mate"].game["moves_uci"] == ["a2a3", "c8b8", "b1a1"]
    # the HTML report's best-line arrow of the castling: king to its rook (king-takes-rook)
    assert best_line_arrows(reviews["mate"])["1"][0] == ["b1", "a1"]


def test_python_chess_game(reviews):
    """A game built with python-chess on a ``chess960=True`` board reviews as its PGN does."""
    board = chess.Board(START, chess960=True)
    for san in MOVES.replace("*", "").split():
        if not san[0].isdigit():
            board.push_san(san)
    game = chess.pgn.Game.from_board(board)
    game.headers["White"], game.headers["Black"] = "Alice", "Bob"
    review = review_game(game, BUDGET)
    assert review.game["moves_uci"] == reviews["game"].game["moves_uci"]
    assert [m.to_dict() for m in review.moves] == [m.to_dict() for m in reviews["game"].moves]


def test_cache_key_distinguishes_chess960():
    standard, c960 = chess.Board(), chess.Board(chess960=True)  # same X-FEN (position 518)
    assert standard.fen() == c960.fen()
    assert cache_key(standard, BUDGET) != cache_key(c960, BUDGET)
    assert ":960:" in cache_key(c960, BUDGET) and "HAha" in cache_key(c960, BUDGET)
    assert cache_key(standard, BUDGET) == f"chess-2:{standard.fen()}:{BUDGET.key()}"
    # the castling right of the inner or the outer rook
    inner = chess.Board("4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1", chess960=True)
    outer = chess.Board("4k3/8/8/8/8/8/8/1R2K1RR w H - 0 1", chess960=True)
    assert cache_key(inner, BUDGET) != cache_key(outer, BUDGET)
    job = ChessJob(START, ("a2a3",), chess960=True)
    assert job.board().chess960 and cache_key(job.board(), BUDGET).startswith("chess-2:960:")


def test_json_and_html(reviews, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    for review in reviews.values():
        data = json.loads(json.dumps(review.to_dict()))
        validator.validate(data)
        assert data["game"]["rule"] == "chess960"
    html = render_html(reviews["game"])
    assert html.startswith("<!DOCTYPE html>") and 'class="board chess"' in html
    assert "Chess960" in html
    assert "<td>5...</td><td>Black</td><td>O-O</td>" in html
    assert "<td>6.</td><td>White</td><td>O-O-O</td>" in html
    assert "cờ vua Chess960" in render_html(review_game(load_pgn(text=MATE960), BUDGET, lang="vi"))


def test_cli_chess960(tmp_path, monkeypatch):
    """``plies analyze`` end to end: the JSON written, read back and written again from the
    cache, the same."""
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "game960.pgn"
    game.write_text(GAME960)
    out = tmp_path / "r.json"
    args = ["analyze", str(game), "--nodes", "3000", "--workers", "1", "--json", str(out),
            "--html", str(tmp_path / "r.html")]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "5... O-O" in result.output and "6. O-O-O" in result.output
    first = json.loads(out.read_text())
    assert first["game"]["rule"] == "chess960"
    assert first["game"]["moves"][-2:] == ["O-O", "O-O-O"]
    assert first["game"]["moves_uci"][-2:] == ["g8h8", "g1e1"]
    assert "Chess960" in (tmp_path / "r.html").read_text()
    again = CliRunner().invoke(cli, args)  # every position from the cache
    assert again.exit_code == 0, again.output
    second = json.loads(out.read_text())
    assert second["moves"] == first["moves"] and second["game"] == first["game"]


@pytest.mark.parametrize(
    ("pgn", "name"),
    [
        (CRAZYHOUSE, "Crazyhouse"),
        ('[Variant "Atomic"]\n\n1. e4 d5 *\n', "Atomic"),
        ('[Variant "King of the Hill"]\n\n1. e4 e5 *\n', "King of the Hill"),
        ('[Variant "Shogi"]\n\n1. e4 e5 *\n', "Shogi"),  # unknown to python-chess
    ],
)
def test_other_variants_rejected(pgn, name):
    with pytest.raises(InvalidRecord, match=f"the variant '{name}' cannot be reviewed"):
        load_pgn(text=pgn)
    with pytest.raises(InvalidRecord, match=f"game 2: the variant '{name}'"):
        load_pgn_games(text=GAME960 + "\n" + pgn)


def test_cli_crazyhouse_exit_2(tmp_path, capsys):
    path = tmp_path / "zh.pgn"
    path.write_text(CRAZYHOUSE)
    with pytest.raises(SystemExit) as exc:
        main(["analyze", str(path)])
    assert exc.value.code == 2
    assert capsys.readouterr().err == (
        f"error: {path}: the variant 'Crazyhouse' cannot be reviewed (only standard chess and "
        "Chess960)\n"
    )
    # the real command, on stdin
    proc = run_plies(["analyze", "-"], CRAZYHOUSE)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "error: <stdin>: the variant 'Crazyhouse' cannot be reviewed (only standard chess and "
        "Chess960)"
    ]
