"""plies against OpenSpiel's MCTS bot at Dots and Boxes, at equal time per move.

    python benchmarks/vs_openspiel.py [--size 5x5] [--games 100] [--movetime 1.0]
        [--engine plies:dots-pro] [--uct-c 2.0] [--rollouts 1] [--seed 1] [--out FILE]

OpenSpiel (``pip install open_spiel``, in the ``bench`` extra) plays ``dots_and_boxes`` with
its C++ ``MCTSBot`` (random-rollout evaluator, UCT, the MCTS-solver on, ``max_wall_clock_time``
= the move time, no simulation limit); plies plays the ``--engine`` spec with
``movetime`` set to the same time. The two sides alternate the first move; one side thinks
at a time. Both use the same line numbering (horizontal lines row by row, then vertical), and
the script checks each game's final score against OpenSpiel's returns. Each game's result
goes to ``--out`` as one JSON line; the summary gives plies' wins, draws, losses, its score
with a 95% Wilson interval, and the mean wall and CPU seconds per move of each side (the
machine may be shared: equal wall time is what the two sides get).
"""

from __future__ import annotations

import argparse
import json
import time

from plies.dots.charts import wilson
from plies.dots.rules import Board, parse_size
from plies.search.agents import make_agent


def make_bot(pyspiel, game, movetime: float, uct_c: float, rollouts: int, seed: int):
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
    return pyspiel.MCTSBot(
        game,
        evaluator,
        uct_c,
        10**9,  # max_simulations: the clock stops it
        1000,  # max_memory_mb
        True,  # solve
        seed,
        False,  # verbose
        pyspiel.ChildSelectionPolicy.UCT,
        movetime,
    )


def play_game(pyspiel, game, engine: str, movetime: float, args, index: int) -> dict:
    rows, cols = parse_size(args.size)
    agent = make_agent(_with_movetime(engine, movetime, args.seed + index))
    bot = make_bot(pyspiel, game, movetime, args.uct_c, args.rollouts, args.seed + index)
    plies_side = index % 2  # plies moves first in even games
    board = Board(rows, cols)
    state = game.new_initial_state()
    clock = {"plies": [0.0, 0.0, 0], "openspiel": [0.0, 0.0, 0]}
    while not board.is_over:
        side = "plies" if board.to_move == plies_side else "openspiel"
        wall, cpu = time.perf_counter(), time.process_time()
        if side == "plies":
            line = int(agent.select_move(board))
        else:
            line = int(bot.step(state))
        used = clock[side]
        used[0] += time.perf_counter() - wall
        used[1] += time.process_time() - cpu
        used[2] += 1
        if state.current_player() != board.to_move:
            raise RuntimeError(f"turns differ after {len(board.history)} moves")
        board.play(line)
        state.apply_action(line)
    returns = state.returns()
    margin = board.margin
    if (margin > 0) != (returns[0] > 0) or (margin < 0) != (returns[0] < 0):
        raise RuntimeError(f"results differ: margin {margin}, OpenSpiel returns {returns}")
    mine = margin if plies_side == 0 else -margin
    return {
        "game": index,
        "plies_first": plies_side == 0,
        "plies_margin": mine,
        "result": 1.0 if mine > 0 else (0.5 if mine == 0 else 0.0),
        "moves": [board.geo.text(line) for line, _, _ in board.history],
        "seconds": {k: [round(v[0], 3), round(v[1], 3), v[2]] for k, v in clock.items()},
    }


def _with_movetime(spec: str, movetime: float, seed: int) -> str:
    spec = spec.removeprefix("plies:")
    sep = "&" if "?" in spec else "?"
    extra = []
    if "movetime=" not in spec:
        extra.append(f"movetime={movetime}")
    if "seed=" not in spec:
        extra.append(f"seed={seed}")
    return spec + (sep + "&".join(extra) if extra else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--movetime", type=float, default=1.0)
    parser.add_argument("--engine", default="plies:dots-pro")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        raise SystemExit("needs OpenSpiel: pip install open_spiel") from None
    rows, cols = parse_size(args.size)
    game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    make_agent(_with_movetime(args.engine, args.movetime, 0))  # bad specs fail before games
    score, wins, draws, losses = 0.0, 0, 0, 0
    totals = {"plies": [0.0, 0.0, 0], "openspiel": [0.0, 0.0, 0]}
    for i in range(args.games):
        record = play_game(pyspiel, game, args.engine, args.movetime, args, i)
        score += record["result"]
        wins += record["result"] == 1.0
        draws += record["result"] == 0.5
        losses += record["result"] == 0.0
        for k in totals:
            for j in range(3):
                totals[k][j] += record["seconds"][k][j]
        if args.out:
            with open(args.out, "a") as out:
                out.write(json.dumps(record) + "\n")
        print(
            f"game {i + 1}: plies {'first' if record['plies_first'] else 'second'}, margin "
            f"{record['plies_margin']:+d}; plies {wins}-{draws}-{losses}",
            flush=True,
        )
    lo, hi = wilson(score, args.games)
    print(
        f"{args.engine} vs OpenSpiel MCTS (uct_c {args.uct_c}, {args.rollouts} rollout), "
        f"{args.size}, {args.movetime} s a move, {args.games} games: +{wins} ={draws} -{losses}, "
        f"score {100 * score / args.games:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%)"
    )
    for k, (wall, cpu, n) in totals.items():
        n = max(n, 1)
        print(f"  {k}: {n} moves, {wall / n:.3f} s wall and {cpu / n:.3f} s CPU a move")


if __name__ == "__main__":
    main()
