"""The loss review of benchmarks/chess_loss_review.py, with a fake judge instead of Stockfish."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import chess
import chess.engine
import chess.pgn

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "chess_loss_review.py"
_SPEC = importlib.util.spec_from_file_location("plies_bench_chess_loss_review", _PATH)
review = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(review)


def _move(ply: int, before: int, after: int, material: int = 40, own: int | None = 0) -> dict:
    return {
        "ply": ply,
        "san": "e4",
        "before": before,
        "after": after,
        "material": material,
        "loss": max(0, before - after),
        "own": own,
        "phase": review.phase_of(material),
    }


def test_player_score_reads_arena_comments() -> None:
    assert review.player_score("+0.15/17 0.314s") == 15
    assert review.player_score("-2.66/17 0.146s") == -266
    assert review.player_score("-M7/17 0.164s") == -review.MATE_CP
    assert review.player_score("book") is None


def test_decisive_move_is_the_first_that_stays_lost() -> None:
    moves = [_move(1, 0, -250), _move(3, -250, -50), _move(5, -50, -220), _move(7, -220, -400)]
    # move 1 reached -250 but the game came back to -50: move 5 is the one that stayed lost
    assert review.decisive_move(moves)["ply"] == 5
    assert review.decisive_move([_move(1, 0, -150)]) is None


def test_classes() -> None:
    assert review.classify(_move(9, 20, -300)) == "blunder"
    assert review.classify(_move(9, -150, -220)) == "drift"
    assert review.classify(_move(9, 0, -300, material=12)) == "lost-ending"
    assert review.classify(None) == "unclear"
    assert review.draw_class([_move(1, 0, -500)] * 3) == "lost"
    assert review.draw_class([_move(1, 0, -150)] * 3) == "worse"
    assert review.draw_class([_move(1, 0, 0)] * 3) == "level"
    assert review.draw_class([_move(1, 0, 150)] * 3) == "better"
    assert review.draw_class([_move(1, 0, 900)] * 3) == "won"


class _Judge:
    """Scores every position by its material balance, for the side to move (as an engine
    reports it)."""

    def analyse(self, board: chess.Board, limit) -> dict:
        worth = {
            chess.PAWN: 100,
            chess.KNIGHT: 300,
            chess.BISHOP: 300,
            chess.ROOK: 500,
            chess.QUEEN: 900,
        }
        balance = sum(
            v * (len(board.pieces(p, True)) - len(board.pieces(p, False))) for p, v in worth.items()
        )
        relative = balance if board.turn == chess.WHITE else -balance
        return {"score": chess.engine.PovScore(chess.engine.Cp(relative), board.turn)}


def test_review_game_scores_the_players_moves_only() -> None:
    pgn = (
        '[White "plies"]\n[Black "sf"]\n[Result "0-1"]\n\n'
        "1. e4 { book } 1... d5 { book } 2. Nc3 { +0.20/10 0.1s } 2... dxe4 { +0.10/9 0.1s } "
        "3. Qh5 { +0.30/10 0.1s } 3... Nf6 { +0.00/9 0.1s } 0-1\n"
    )
    game = chess.pgn.read_game(io.StringIO(pgn))
    result = review.review_game(game, "plies", _Judge(), 1000)
    assert result["outcome"] == "loss" and result["colour"] == "white"
    assert [m["san"] for m in result["moves"]] == ["Nc3", "Qh5"]  # book moves skipped
    nc3, qh5 = result["moves"]
    assert nc3["own"] == 20 and nc3["before"] == 0 and nc3["after"] == 0
    assert qh5["before"] == -100 and qh5["after"] == -100 and qh5["loss"] == 0
    assert review.review_game(game, "nobody", _Judge(), 1000) is None


def test_games_are_selected_by_the_players_outcome() -> None:
    def game(white: str, black: str, result: str) -> chess.pgn.Game:
        g = chess.pgn.Game()
        g.headers.update({"White": white, "Black": black, "Result": result})
        return g

    games = [
        game("plies", "sf", "0-1"),
        game("sf", "plies", "0-1"),
        game("sf", "plies", "1-0"),
        game("plies", "sf", "1/2-1/2"),
        game("a", "b", "1-0"),
        game("plies", "sf", "*"),
    ]
    assert [review.outcome(g.headers, "plies") for g in games] == [
        "loss",
        "win",
        "loss",
        "draw",
        None,
        None,
    ]
    assert review.select_games(games, "plies", "lost") == [games[0], games[2]]
    assert review.select_games(games, "plies", "drawn") == [games[3]]
    assert review.select_games(games, "plies", "all") == games[:4]


def test_an_unreadable_pgn_is_a_one_line_error(tmp_path, monkeypatch, capsys) -> None:
    import sys

    missing = tmp_path / "none.pgn"
    argv = ["chess_loss_review.py", str(missing), "--stockfish", sys.executable]
    monkeypatch.setattr(sys, "argv", argv)
    assert review.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: cannot read {missing}") and "\n" not in err
    binary = tmp_path / "latin1.pgn"
    binary.write_bytes(b'[Event "\xff\xfe"]\n\n1. e4 *\n')
    monkeypatch.setattr(sys, "argv", [argv[0], str(binary), "--stockfish", sys.executable])
    assert review.main() == 2
    assert "cannot read" in capsys.readouterr().err
