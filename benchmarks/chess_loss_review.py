"""Where plies loses its games against a peer: every position of the games judged by a
full-strength Stockfish.

    python benchmarks/chess_loss_review.py GAMES.pgn [GAMES.pgn ...] [--player plies]
                                           [--stockfish PATH] [--nodes 200000]
                                           [--only lost|drawn|all] [--json OUT]

For each game (by default only those ``--player`` lost) Stockfish, one thread, searches every
position after the book moves to ``--nodes`` nodes. Its score (from the player's side, mates
as +-10,000 cp) before and after each of the player's moves gives that move's **loss**
(the best score minus the score after the move, never below 0). Per game the script prints
the move where the game was **lost** (the first of the player's moves after which Stockfish
gives it -200 cp or less and never again above -100 cp) and classifies it:

* ``blunder``: one move lost 150 cp or more, from a position Stockfish judged within +-100;
* ``drift``: the score fell to -200 by moves losing less than 150 each;
* ``lost-ending``: the losing move came with at most 12 units of non-pawn material left
  (N/B 3, R 5, Q 9, both sides together).

It also reports the player's own score for each move (the arena's PGN comments, ``+0.15/17``)
against Stockfish's at the same position: a player that believes it is level while Stockfish
sees -150 is misjudging the position (an evaluation error), one that loses material in one
move is missing a tactic (a search error). Drawn games are classified by Stockfish's score
after the player's last three moves (mean): ``lost`` at -300 or less, ``worse`` to -100,
``level``, ``better`` from +100, ``won`` from +300: a weakened peer that repeats moves in a
won position draws games the player had lost. Totals by class, the mean loss per move by game
phase and the mean gap between the player's score and Stockfish's, and each lost game's
decisive move in SAN go to stdout (and ``--json``). The test suite never needs Stockfish.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn

MATE_CP = 10_000
COMMENT_SCORE = re.compile(r"([+-])(M?)(\d+(?:\.\d+)?)/(\d+)")


def player_score(comment: str) -> int | None:
    """The player's own score in centipawns from an arena comment (``+0.15/17``, ``-M7/17``)."""
    found = COMMENT_SCORE.search(comment or "")
    if not found:
        return None
    sign = 1 if found.group(1) == "+" else -1
    if found.group(2):
        return sign * MATE_CP
    return round(sign * float(found.group(3)) * 100)


def judge(engine: chess.engine.SimpleEngine, board: chess.Board, nodes: int) -> int:
    """Stockfish's score of ``board`` for the side to move, in centipawns (mates +-MATE_CP)."""
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
    return info["score"].relative.score(mate_score=MATE_CP)


def non_pawn_material(board: chess.Board) -> int:
    """Both sides' knights, bishops, rooks and queens at 3, 3, 5 and 9."""
    worth = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    return sum(worth[p] * len(board.pieces(p, c)) for p in worth for c in chess.COLORS)


def phase_of(material: int) -> str:
    """Opening/middlegame/ending by non-pawn material (the start has 62)."""
    if material > 44:
        return "opening"
    return "middlegame" if material > 12 else "ending"


def review_game(game: chess.pgn.Game, player: str, engine, nodes: int) -> dict | None:
    """Every move of ``player`` in ``game`` with Stockfish's loss, or None if it did not play."""
    headers = game.headers
    if player not in (headers.get("White"), headers.get("Black")):
        return None
    colour = chess.WHITE if headers.get("White") == player else chess.BLACK
    board = game.board()
    moves = []
    for node in game.mainline():
        mover = board.turn
        comment = node.comment or ""
        if mover == colour and "book" not in comment:
            before = judge(engine, board, nodes)
            san = board.san(node.move)
            material = non_pawn_material(board)
            board.push(node.move)
            after = (
                -judge(engine, board, nodes)
                if not board.is_game_over()
                else (MATE_CP if board.is_checkmate() else 0)
            )
            moves.append(
                {
                    "ply": board.ply(),
                    "san": san,
                    "before": before,
                    "after": after,
                    "loss": max(0, before - after),
                    "material": material,
                    "own": player_score(comment),
                    "phase": phase_of(material),
                }
            )
        else:
            board.push(node.move)
    return {
        "round": headers.get("Round"),
        "colour": "white" if colour else "black",
        "outcome": outcome(headers, player),
        "termination": headers.get("Termination", ""),
        "moves": moves,
    }


def decisive_move(moves: list[dict]) -> dict | None:
    """The first move after which the score stays at or below -100 and reaches -200."""
    for i, move in enumerate(moves):
        if move["after"] <= -200 and all(m["after"] <= -100 for m in moves[i:]):
            return move
    return None


def classify(move: dict | None) -> str:
    """blunder, drift or lost-ending (see the module's docstring); 'unclear' without a move."""
    if move is None:
        return "unclear"
    if move["material"] <= 12:
        return "lost-ending"
    if move["loss"] >= 150 and move["before"] >= -100:
        return "blunder"
    return "drift"


def draw_class(moves: list[dict]) -> str:
    """How a drawn game ended for the player, by Stockfish (see the module's docstring)."""
    if not moves:
        return "level"
    last = sum(m["after"] for m in moves[-3:]) / len(moves[-3:])
    if last <= -300:
        return "lost"
    if last <= -100:
        return "worse"
    if last < 100:
        return "level"
    return "better" if last < 300 else "won"


def summarise(reviews: list[dict]) -> dict:
    """Totals by class and phase for the reviewed games."""
    classes: dict[str, int] = {}
    draws: dict[str, int] = {}
    lost = []
    by_phase: dict[str, list[int]] = {}
    gaps: dict[str, list[int]] = {}
    for review in reviews:
        for move in review["moves"]:
            by_phase.setdefault(move["phase"], []).append(min(move["loss"], 1000))
            if move["own"] is not None and abs(move["before"]) < 1000 and abs(move["own"]) < 1000:
                gaps.setdefault(move["phase"], []).append(move["own"] - move["before"])
        if review["outcome"] == "draw":
            kind = draw_class(review["moves"])
            draws[kind] = draws.get(kind, 0) + 1
        if review["outcome"] != "loss":
            continue
        move = decisive_move(review["moves"])
        kind = classify(move)
        classes[kind] = classes.get(kind, 0) + 1
        lost.append(
            {
                "round": review["round"],
                "colour": review["colour"],
                "class": kind,
                "move": move
                and {k: move[k] for k in ("ply", "san", "before", "after", "own", "material")},
            }
        )
    return {
        "classes": classes,
        "draws": draws,
        "mean_loss_by_phase": {k: round(statistics.mean(v), 1) for k, v in by_phase.items()},
        "moves_by_phase": {k: len(v) for k, v in by_phase.items()},
        "mean_own_minus_judge_by_phase": {k: round(statistics.mean(v), 1) for k, v in gaps.items()},
        "lost_games": lost,
    }


def outcome(headers, player: str) -> str | None:
    """``win``, ``loss`` or ``draw`` for ``player`` by the game's result; None if it did not
    play or the game is unfinished."""
    result = headers.get("Result", "*")
    if player not in (headers.get("White"), headers.get("Black")):
        return None
    if result == "1/2-1/2":
        return "draw"
    if result not in ("1-0", "0-1"):
        return None
    winner = headers.get("White") if result == "1-0" else headers.get("Black")
    return "win" if winner == player else "loss"


def select_games(games: list, player: str, only: str) -> list:
    """The games to review: those ``player`` lost (``lost``), drew (``drawn``) or played."""
    wanted = {"lost": ("loss",), "drawn": ("draw",), "all": ("win", "loss", "draw")}[only]
    return [g for g in games if outcome(g.headers, player) in wanted]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", default="plies")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--only", choices=("lost", "drawn", "all"), default="lost")
    parser.add_argument("--json")
    args = parser.parse_args()
    if not Path(args.stockfish).is_file():
        print(
            f"no Stockfish binary at {args.stockfish!r}: apt-get install stockfish", file=sys.stderr
        )
        return 2
    games = []
    for name in args.pgn:
        try:
            with open(name, encoding="utf-8") as handle:
                while (game := chess.pgn.read_game(handle)) is not None:
                    games.append(game)
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: cannot read {name}: {exc}", file=sys.stderr)
            return 2
    games = select_games(games, args.player, args.only)
    reviews = []
    started = time.monotonic()
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        for i, game in enumerate(games, 1):
            review = review_game(game, args.player, engine, args.nodes)
            if review is None:
                continue
            reviews.append(review)
            move = decisive_move(review["moves"])
            kind = {
                "loss": classify(move),
                "draw": "draw " + draw_class(review["moves"]),
            }.get(review["outcome"], "-")
            where = (
                f"{(move['ply'] + 1) // 2}{'.' if move['ply'] % 2 else '...'}{move['san']} "
                f"{move['before']:+d} -> {move['after']:+d} (own {move['own']})"
                if move
                else ""
            )
            print(
                f"[{i}/{len(games)} {time.monotonic() - started:.0f}s] round "
                f"{review['round']} {review['colour']} {review['outcome']}: {kind} {where}",
                flush=True,
            )
    summary = summarise(reviews)
    print(json.dumps({k: v for k, v in summary.items() if k != "lost_games"}, indent=1))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"nodes": args.nodes, "summary": summary, "games": reviews}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
