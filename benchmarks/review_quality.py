"""How good is the Gomoku review? Measured on self-play games (issue 19's targets).

    PYTHONPATH=src python benchmarks/review_quality.py [--games 10] [--nodes 4000]
        [--rule freestyle] [--seed 1] [--ref-factor 10] [--rapfi PATH --rapfi-time 1.0]
        [--workers 2] [--player-param NAME=VALUE ...] [--alarm-nodes 1000000]
        [--no-confirm] [--swap 3] [--json OUT]

Games: plies plays both sides at ``--nodes`` per move from seeded random openings (the
trainer's generator, :func:`plies.tune.gomoku_data.play_game`). Every figure below is
printed and, with ``--json``, written:

* **equal-budget errors**: each game is reviewed at the budget it was played with; a move
  labelled worse than an inaccuracy (mistake, blunder, missed win) is an error of the review
  or of the player at that budget (the random opening stones of the games are not counted:
  they are no engine's moves). Each is listed (``errors``). Reported apart: those a
  threat proof backs (the opponent's forced win after the move, or a forced win of the mover
  missed: errors of the player the review's solver proves) and those resting on the search's
  values alone (the ones search noise could produce), and of the latter the **false
  alarms**: those a search of ``--alarm-nodes`` nodes finds losing under 0.10 (target: at
  most 1 per 10 games; docs/review.md). ``--no-confirm`` reviews without the confirmation of
  unproven costly verdicts at a larger budget.
* **consistency**: rows whose "after" differs from the next row's "before" (seen from the
  other side) by more than 0.02; lines that do not replay legally from their position or do
  not start at the move their row names (best line, the missed win, the refutation).
* **injected losing moves**: in each game a move is replaced by one after which the opponent
  has a VCF (the engine's best move there allows none), and the opponent's VCF is appended;
  the share of those games whose injected move the review labels inaccuracy or worse (and
  how many as blunder). Target: at least 95%.
* **best-move agreement**: the review's best move in every judged position against plies at
  ``--ref-factor`` times the nodes (fresh table each): the same move, and an equivalent one
  (the reference values the review's move within 0.02 of win probability of its own choice,
  searching the position after it at the same budget); and against Rapfi when ``--rapfi``
  gives its binary (pbrain protocol, ``--rapfi-time`` seconds a move, one thread). Target: at
  least 80%.
* **threat facts**: every cell the review lists as making a five, a four or an open four
  for a colour is checked with the rules kernels (place the stone, count the cells that
  then make five: at least 1 for a four, at least 2 for an open four).
* **the best move, played**: for up to ``--swap`` rows a game judged inaccuracy or worse (the
  largest losses first), the game up to that move is reviewed again with the review's best
  move played instead; that row should then lose nothing. Counted: the rows checked, those
  where the best move played is "best" (or scores the same as the best), and those where it
  is an inaccuracy or worse (the review contradicting its own advice).
* **time**: review seconds per position (wall clock, ``--workers`` processes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from plies.analysis import scoring  # noqa: E402
from plies.analysis.gomoku import SOLVER_SHARE, review_record  # noqa: E402
from plies.analysis.review import BAD_CLASSES, DEFAULT_THRESHOLDS, Budget  # noqa: E402
from plies.errors import InvalidOption  # noqa: E402
from plies.gomoku import Board, Move, rules  # noqa: E402
from plies.gomoku.engine import Engine  # noqa: E402
from plies.gomoku.records import GameRecord  # noqa: E402
from plies.tune.gomoku_data import SelfPlaySettings, play_game  # noqa: E402

WORSE_THAN_INACCURACY = ("mistake", "blunder", "missed_win")


def self_play_games(
    rule: str, nodes: int, games: int, seed: int, params: dict | None = None
) -> list[tuple[list[Move], int]]:
    """``games`` seeded self-play games: each game's moves and how many of its first moves
    were random opening stones (not engine moves); ``params``: the players' engine numbers
    (``Engine(params=...)``)."""
    settings = SelfPlaySettings(rule=rule, size=15, nodes=nodes, evaluation="classic")
    player = Engine(rule, 15, hash_mb=16, params={"EVAL": "classic", **(params or {})})
    out = []
    for i in range(games):
        record = play_game(settings, seed + i, player)
        moves = [Move(*map(int, m.split(","))) for m in record["moves"]]
        out.append((moves, int(record["opening"])))
    return out


def record_of(moves: list[Move] | list[str], rule: str) -> GameRecord:
    board = Board(15, rule, forbidden="loses")
    board.play_moves(moves)
    return GameRecord.from_board(board)


def best_move_rows(review, random_stones: int, limit: int) -> list:
    """Up to ``limit`` rows judged inaccuracy or worse whose best move is another move,
    the largest losses first (no opening stone, book, forced or lost row)."""
    rows = [
        r
        for r in review.moves
        if r.ply > random_stones
        and r.classification in BAD_CLASSES
        and r.best_move is not None
        and r.best_move != r.move
    ]
    rows.sort(key=lambda r: -r.loss)
    return rows[:limit]


def replays(board: Board, line: list[str]) -> bool:
    """The line is a sequence of legal moves from ``board`` (a copy is played on)."""
    b = board.copy()
    try:
        for text in line:
            if b.is_over:
                return False
            b.play(text)
    except Exception:
        return False
    return True


def check_review(review, moves: list[Move], rule: str) -> dict:
    """Consistency of consecutive rows and of every shown line, on one reviewed game."""
    contradictions = bad_lines = lines = 0
    rows = review.moves
    for a, b in zip(rows, rows[1:], strict=False):
        if abs(a.win_probability_after - (1.0 - b.win_probability_before)) > 0.02:
            contradictions += 1
    for row in rows:
        board_i = Board(15, rule, forbidden="loses")
        board_i.play_moves(moves[: row.ply - 1])
        shown = []
        if row.best_line:
            shown.append((row.best_line, row.best_move, board_i))
        had = row.facts.get("had_win")
        if had and had.get("line"):
            shown.append((had["line"], None, board_i))
        ref = row.facts.get("opponent_wins")
        if ref and ref.get("line"):
            after = board_i.copy()
            if not after.is_over and after.is_legal(row.move):
                after.play(row.move)
                shown.append((ref["line"], None, after))
        for line, first, start in shown:
            lines += 1
            if (first is not None and line[0] != first) or not replays(start, line):
                bad_lines += 1
    return {"contradictions": contradictions, "lines": lines, "bad_lines": bad_lines}


def threat_fact_errors(moves: list[Move], rule: str) -> tuple[int, int]:
    """(cells checked, cells whose five/four/open four claim the rules kernels deny) over
    every position of the game."""
    from plies.analysis.gomoku import threat_cells
    from plies.gomoku.engine import state as ST

    board = Board(15, rule, forbidden="loses")
    tables = ST.make_tables(board.rule_code)  # the engine's own tables, without an engine
    checked = wrong = 0
    for m in [None, *moves]:
        if m is not None:
            board.play(m)
        if board.is_over:
            break
        cells = threat_cells(board, tables)
        for side, colour in ((1, "black"), (2, "white")):
            for kind, need in (("five", 0), ("four", 1), ("open_four", 2)):
                for text in cells[colour][kind]:
                    checked += 1
                    if not _claim_holds(board, board.parse(text), side, need):
                        wrong += 1
    return checked, wrong


def _claim_holds(board: Board, cell: Move, colour: int, need: int) -> bool:
    """``need`` 0: the stone makes five; otherwise after it at least ``need`` empty cells
    make five for the same colour."""
    code = board.rule_code
    pos = board._pos(cell)
    if need == 0:
        return bool(rules.makes_five(board.cells, board.stride, pos, colour, code))
    b = board.copy()
    b.put(cell, colour)
    fives = 0
    for y in range(b.height):
        for x in range(b.width):
            q = b._pos(Move(x, y))
            if b.cells[q] == rules.EMPTY and rules.makes_five(b.cells, b.stride, q, colour, code):
                fives += 1
    return fives >= need


def inject_losing_move(
    moves: list[Move], rule: str, rng: random.Random, engine: Engine
) -> tuple[list[Move], int] | None:
    """A game with one move replaced by a losing one: after it the opponent has a VCF, while
    after the engine's best move there (20,000 nodes) the opponent has neither a VCF nor a
    VCT (often a threat left unanswered: the position held, the move lets it through), and
    where the mover's chances by that search are at least 10%. Returns (moves, 1-based ply)."""
    from plies.gomoku.engine.api import win_probability

    plies = list(range(6, max(7, len(moves) - 4)))
    rng.shuffle(plies)
    for k in plies[:12]:
        board = Board(15, rule, forbidden="loses")
        board.play_moves(moves[:k])
        if board.is_over or engine.vcf(board) is not None:
            continue  # the mover wins: any other move would be a missed win
        engine.new_game()
        found = engine.search(board, nodes=20000)
        if win_probability(found.score) < 0.1:
            continue  # lost already in all but name: a losing move there costs next to nothing
        best = found.move
        after_best = board.copy()
        after_best.play(best)
        if after_best.is_over or engine.vcf(after_best) is not None:
            continue
        if engine.vct(after_best, max_nodes=200_000) is not None:
            continue  # the position was lost already: no move there can be blamed
        near = sorted(
            {
                Move(m.x + dx, m.y + dy)
                for m in board.history
                for dx in (-2, -1, 0, 1, 2)
                for dy in (-2, -1, 0, 1, 2)
            }
        )
        rng.shuffle(near)
        for cell in near:
            if not board.is_legal(cell) or cell == best:
                continue
            trial = board.copy()
            trial.play(cell)
            if trial.is_over:
                continue
            line = engine.vcf(trial)
            if line is not None:
                return moves[:k] + [cell] + list(line), k + 1
    return None


def value_after(engine: Engine, board: Board, move: str, limit: dict) -> float:
    """The mover's win probability after ``move`` by a search of the reply position at
    ``limit`` (fresh table)."""
    from plies.gomoku.engine.api import win_probability

    after = board.copy()
    after.play(move)
    if after.is_over:
        return 1.0 if after.winner != 0 else 0.5
    engine.new_game()
    return 1.0 - win_probability(engine.search(after, **limit).score)


def equivalent_paired(engine: Engine, board: Board, move: str, ref_move: str, limit: dict) -> bool:
    """The reference values the positions after ``move`` and after its own ``ref_move`` alike
    (within 0.02 of win probability), both searched at ``limit``: the two are compared at the
    same depth, where :func:`equivalent` compares a child with the root."""
    return (
        value_after(engine, board, ref_move, limit) - value_after(engine, board, move, limit)
        <= 0.02
    )


def equivalent(engine: Engine, board: Board, move: str, ref_score: int, limit: dict) -> bool:
    """The reference search values ``move`` within 0.02 of win probability of its own best
    move (the position after ``move`` searched at the reference budget, fresh table)."""
    from plies.gomoku.engine.api import win_probability

    return win_probability(ref_score) - value_after(engine, board, move, limit) <= 0.02


def reference_loss(engine: Engine, board: Board, move: str, nodes: int) -> float:
    """The win probability ``move`` loses by a search of ``nodes`` nodes (fresh tables): the
    best of the position's own search and of the position after the reference's best move,
    against the position after ``move``."""
    from plies.gomoku.engine.api import win_probability

    limit = {"nodes": nodes}
    engine.new_game()
    root = engine.search(board, **limit)
    best = win_probability(root.score)
    if root.move is not None and root.move.algebraic(15) != move:
        best = max(best, value_after(engine, board, root.move.algebraic(15), limit))
    return max(0.0, best - value_after(engine, board, move, limit))


def rapfi_move(binary: str, board: Board, seconds: float) -> str | None:
    """Rapfi's move in ``board`` by the pbrain protocol (BOARD), one thread."""
    stones = []
    for i, m in enumerate(board.history):
        own = 1 if (len(board.history) - i) % 2 == 0 else 2  # 1 = the side to move's stone
        stones.append(f"{m.x},{m.y},{own}")
    rule = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}.get(board.rule, 0)
    script = "\n".join(
        [
            f"START {board.width}",
            f"INFO timeout_turn {int(seconds * 1000)}",
            "INFO timeout_match 0",
            "INFO thread_num 1",
            f"INFO rule {rule}",
            "BOARD",
            *stones,
            "DONE",
            "END",
            "",
        ]
    )
    out = subprocess.run(
        [binary], input=script, capture_output=True, text=True, timeout=seconds * 4 + 30,
        cwd=os.path.dirname(binary),
    )  # fmt: skip
    for line in out.stdout.splitlines():
        parts = line.strip().split(",")
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            return Move(int(parts[0]), int(parts[1])).algebraic(board.height)
    return None


def parse_params(items: list[str]) -> dict[str, int | str]:
    """``NAME=VALUE`` strings as engine params (integers where they read as one, else text
    such as ``off`` or a table's path)."""
    out: dict[str, int | str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"expected NAME=VALUE, not {item!r}")
        try:
            out[name] = int(value)
        except ValueError:
            out[name] = value
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--nodes", type=int, default=4000)
    ap.add_argument(
        "--movetime",
        type=float,
        default=None,
        help="review at this many seconds a position (as plies analyze: the solvers get "
        "their share of it) and search the reference for --ref-factor times as long; the "
        "self-play games are still played at --nodes",
    )
    ap.add_argument("--rule", default="freestyle", choices=["freestyle", "standard", "renju"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--ref-factor", type=int, default=10, help="the reference's nodes / ours (0: no reference)"
    )
    ap.add_argument(
        "--player-param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine number for the self-play games' players (e.g. DEFENCE_VCT_SHARE=10)",
    )
    ap.add_argument(
        "--review-param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine number or table for the review's engine only (e.g. NET=off); the "
        "players, the reference and the false-alarm check keep the shipped engine",
    )
    ap.add_argument(
        "--alarm-nodes",
        type=int,
        default=1_000_000,
        help="nodes of the reference that checks each unproven error (0: no check)",
    )
    ap.add_argument(
        "--no-confirm",
        action="store_true",
        help="review without confirming unproven costly verdicts at a larger budget",
    )
    ap.add_argument(
        "--swap",
        type=int,
        default=3,
        help="rows a game (inaccuracy or worse, largest losses first) whose best move is "
        "played instead and the game reviewed again up to it",
    )
    ap.add_argument("--rapfi", default=None, help="path of a pbrain-rapfi binary (optional)")
    ap.add_argument("--rapfi-time", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if args.swap < 0:
        ap.error("--swap must be 0 or more")
    if args.rapfi and not os.access(args.rapfi, os.X_OK):
        print(f"error: no executable Rapfi at {args.rapfi}", file=sys.stderr)
        return 2
    try:
        params = parse_params(args.player_param)
        review_params = parse_params(args.review_param)
    except ValueError as exc:
        ap.error(str(exc))
    engine_params = tuple(review_params.items())
    if args.movetime:
        budget = Budget(
            movetime=args.movetime,
            solver_time=args.movetime * SOLVER_SHARE,
            engine_params=engine_params,
        )
        ref_limit = {"movetime": args.movetime * args.ref_factor}
    else:
        budget = Budget(nodes=args.nodes, solver_nodes=args.nodes, engine_params=engine_params)
        ref_limit = {"nodes": args.nodes * args.ref_factor}
    if args.no_confirm:
        scoring.CONFIRM_LIMIT = 0
    print(f"playing {args.games} self-play games at {args.nodes} nodes ({args.rule})")
    try:
        Engine(args.rule, 15, hash_mb=1, params=budget.params())  # checks --review-param
        games = self_play_games(args.rule, args.nodes, args.games, args.seed, params)
    except InvalidOption as exc:
        ap.error(str(exc))
    totals = {
        "games": len(games), "rows": 0, "worse_than_inaccuracy": 0, "worse_proven": 0,
        "inaccuracies": 0,
        "contradictions": 0, "lines": 0, "bad_lines": 0, "positions": 0, "seconds": 0.0,
        "agree_ref": 0, "equivalent_ref": 0, "equivalent_ref_paired": 0, "judged": 0,
        "agree_rapfi": 0, "rapfi_judged": 0,
        "threat_cells": 0, "threat_wrong": 0, "injected": 0, "flagged": 0, "blunders": 0,
        "false_alarms": 0, "swapped": 0, "swapped_best": 0, "swapped_worse": 0,
    }  # fmt: skip
    errors = []  # every move labelled worse than an inaccuracy, for a look at each
    ref_engine = Engine(args.rule, 15, hash_mb=64)
    for gi, (moves, random_stones) in enumerate(games):
        start = time.perf_counter()
        review = review_record(record_of(moves, args.rule), budget, workers=args.workers)
        totals["seconds"] += time.perf_counter() - start
        totals["positions"] += len(moves) + 1
        totals["rows"] += len(review.moves)
        for row in review.moves:
            if row.ply <= random_stones:
                continue  # a random opening stone, not an engine move at the budget
            if row.classification in WORSE_THAN_INACCURACY:
                totals["worse_than_inaccuracy"] += 1
                # a proof backs it: the opponent's forced win after the move, or the mover's
                # own forced win missed (an error of the player that the solver proves)
                proven = bool(row.facts.get("opponent_wins") or row.facts.get("had_win"))
                totals["worse_proven"] += proven
                error = {
                    "game": gi + 1, "ply": row.ply, "move": row.move,
                    "best": row.best_move, "class": row.classification,
                    "loss": round(row.win_probability_before - row.win_probability_after, 3),
                    "proven": proven,
                }  # fmt: skip
                if not proven and args.alarm_nodes > 0:
                    board = Board(15, args.rule, forbidden="loses")
                    board.play_moves(moves[: row.ply - 1])
                    ref_loss = reference_loss(ref_engine, board, row.move, args.alarm_nodes)
                    error["reference_loss"] = round(ref_loss, 3)
                    totals["false_alarms"] += ref_loss < DEFAULT_THRESHOLDS.inaccuracy
                errors.append(error)
            elif row.classification == "inaccuracy":
                totals["inaccuracies"] += 1
        for key, value in check_review(review, moves, args.rule).items():
            totals[key] += value
        checked, wrong = threat_fact_errors(moves, args.rule)
        totals["threat_cells"] += checked
        totals["threat_wrong"] += wrong
        for row in review.moves:
            if args.ref_factor <= 0:
                break  # no reference searches asked for
            if row.classification in ("book", "forced", "lost") or row.best_move is None:
                continue
            board = Board(15, args.rule, forbidden="loses")
            board.play_moves(moves[: row.ply - 1])
            ref_engine.new_game()
            ref = ref_engine.search(board, **ref_limit)
            totals["judged"] += 1
            same = ref.move is not None and ref.move.algebraic(15) == row.best_move
            totals["agree_ref"] += same
            totals["equivalent_ref"] += same or equivalent(
                ref_engine, board, row.best_move, ref.score, ref_limit
            )
            totals["equivalent_ref_paired"] += same or (
                ref.move is not None
                and equivalent_paired(
                    ref_engine, board, row.best_move, ref.move.algebraic(15), ref_limit
                )
            )
            if args.rapfi:
                theirs = rapfi_move(args.rapfi, board, args.rapfi_time)
                if theirs is not None:
                    totals["rapfi_judged"] += 1
                    totals["agree_rapfi"] += theirs == row.best_move
        for row in best_move_rows(review, random_stones, args.swap):
            swapped = [*(m.algebraic(15) for m in moves[: row.ply - 1]), row.best_move]
            again = review_record(record_of(swapped, args.rule), budget, workers=args.workers)
            new = next(r for r in again.moves if r.ply == row.ply)
            totals["swapped"] += 1
            totals["swapped_best"] += new.classification == "best"
            worse = new.classification in BAD_CLASSES
            totals["swapped_worse"] += worse
            if worse:
                print(
                    f"game {gi + 1} ply {row.ply}: best {row.best_move} instead of {row.move}"
                    f" is {new.classification} (best {new.best_move}, loss {new.loss:.3f})"
                )
        print(f"game {gi + 1}/{len(games)}: {len(moves)} moves, running totals {totals}")
    rng = random.Random(args.seed)
    for gi, (moves, _) in enumerate(games):
        injected = inject_losing_move(moves, args.rule, rng, ref_engine)
        if injected is None:
            continue
        new_moves, ply = injected
        review = review_record(record_of(new_moves, args.rule), budget, workers=args.workers)
        row = next(r for r in review.moves if r.ply == ply)
        totals["injected"] += 1
        totals["flagged"] += row.classification in BAD_CLASSES
        totals["blunders"] += row.classification == "blunder"
        print(f"injected game {gi + 1}: ply {ply} {row.move} -> {row.classification}")
    n = max(1, totals["games"])
    report = {
        "settings": vars(args),
        "totals": totals,
        "worse_than_inaccuracy_per_10_games": round(10 * totals["worse_than_inaccuracy"] / n, 2),
        # of those, the ones a threat proof backs (real errors of the player at its budget)
        # and the ones that rest on the search's values alone (what noise could produce)
        "proven_per_10_games": round(10 * totals["worse_proven"] / n, 2),
        "unproven_per_10_games": round(
            10 * (totals["worse_than_inaccuracy"] - totals["worse_proven"]) / n, 2
        ),
        # of those, the ones a much deeper search contradicts (it loses less than an
        # inaccuracy there): the review's own errors
        "false_alarms_per_10_games": round(10 * totals["false_alarms"] / n, 2),
        "contradictions": totals["contradictions"],
        "bad_lines": totals["bad_lines"],
        "injected_flagged_share": round(totals["flagged"] / max(1, totals["injected"]), 3),
        "agreement_with_reference": round(totals["agree_ref"] / max(1, totals["judged"]), 3),
        "equivalent_to_reference": round(totals["equivalent_ref"] / max(1, totals["judged"]), 3),
        "equivalent_to_reference_paired": round(
            totals["equivalent_ref_paired"] / max(1, totals["judged"]), 3
        ),
        "agreement_with_rapfi": round(totals["agree_rapfi"] / totals["rapfi_judged"], 3)
        if totals["rapfi_judged"]
        else None,
        "threat_fact_errors": totals["threat_wrong"],
        # the review's best move, played instead: "best" then, and an inaccuracy or worse
        "swapped_best_share": round(totals["swapped_best"] / max(1, totals["swapped"]), 3),
        "swapped_worse": totals["swapped_worse"],
        "seconds_per_position": round(totals["seconds"] / max(1, totals["positions"]), 3),
        "load_average": os.getloadavg()[0],
        "errors": errors,
    }
    print(
        json.dumps({k: v for k, v in report.items() if k not in ("settings", "errors")}, indent=1)
    )
    for e in errors:
        print("worse than inaccuracy:", e)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
