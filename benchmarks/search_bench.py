"""Benchmarks of plies.search on Connect Four, against easyAI and OpenSpiel when installed.

    python benchmarks/search_bench.py [--repeat 3] [--quick]

1. Negamax nodes/s: plies' negamax (table, PVS, iterative deepening) and easyAI's Negamax
   (with its stock numpy ConnectFour, and with a fairer copy that has ``unmake_move``) to the
   same depth on the same positions. A node is a move made (easyAI's counted in make_move).
2. Solving: ``solve()`` on positions 12 plies from the end (30 discs played).
3. MCTS iterations (one random playout each) per second from the empty board and from a
   middle-game position, and OpenSpiel's Python MCTSBot (random rollouts) on the same.

Every figure is the median of ``--repeat`` runs (the machine may be shared).
Install the comparisons with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from plies.games import ConnectFour
from plies.search import MCTS, negamax, solve

MIDGAME = ["4453", "44444132", "3344522156", "4444333", "443322"]
NEGAMAX_DEPTH = 6


def tactical_game(rng: random.Random, plies: int) -> ConnectFour | None:
    """Random play that takes immediate wins and blocks immediate threats; None if it ends."""
    game = ConnectFour()
    while len(game.history) < plies:
        if game.is_terminal():
            return None
        moves = game.legal_moves()
        choice = None
        for who in (game.current_player(), 1 - game.current_player()):
            for m in moves:  # a win for the mover, else the opponent's win square
                b = game.bb[who] | (1 << game.heights[m])
                from plies.games.connect4 import has_four

                if has_four(b, game.geo.h1):
                    choice = m
                    break
            if choice is not None:
                break
        game.play(choice if choice is not None else rng.choice(moves))
    return None if game.is_terminal() else game


def endgame_positions(count: int, seed: int = 2024) -> list[ConnectFour]:
    """``count`` live positions with 12 empty cells whose result is not immediate."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        game = tactical_game(rng, 30)
        if game is None:
            continue
        r = solve(game, iterative=False)
        if r.proven and (r.value == 0 or (r.score and abs(r.score) % 1_000_000 > 0)):
            pv = abs(abs(r.score) - abs(r.value) * 1_000_000) if r.value else 12
            if pv > 3:  # not decided within three plies
                out.append(game)
    return out


def median_run(fn, repeat: int):
    results = [fn() for _ in range(repeat)]
    return sorted(results, key=lambda r: r[0])[len(results) // 2]


# --- 1. negamax against easyAI -------------------------------------------------------------
def bench_plies_negamax(repeat: int) -> tuple[float, int, float]:
    def run():
        nodes, seconds = 0, 0.0
        for moves in MIDGAME:
            r = negamax(ConnectFour(moves), NEGAMAX_DEPTH)
            nodes += r.nodes
            seconds += r.time
        return nodes / seconds, nodes, seconds

    return median_run(run, repeat)


def bench_easyai(repeat: int, unmake: bool) -> tuple[float, int, float] | None:
    try:
        from easyAI import AI_Player, Negamax
        from easyAI.games import ConnectFour as EasyConnectFour
    except ImportError:
        return None
    import numpy as np

    counter = [0]

    class Counted(EasyConnectFour):
        def make_move(self, column):
            counter[0] += 1
            super().make_move(column)

    class Undoable(Counted):
        def make_move(self, column):
            counter[0] += 1
            line = int(np.argmin(self.board[:, column] != 0))
            self.board[line, column] = self.current_player

        def unmake_move(self, column):
            filled = np.nonzero(self.board[:, column])[0]
            self.board[filled[-1], column] = 0

    cls = Undoable if unmake else Counted

    def run():
        nodes, seconds = 0, 0.0
        for moves in MIDGAME:
            algo = Negamax(NEGAMAX_DEPTH)
            game = cls([AI_Player(algo), AI_Player(algo)])
            for ch in moves:
                game.play_move(int(ch) - 1)
            counter[0] = 0
            start = time.perf_counter()
            algo(game)
            seconds += time.perf_counter() - start
            nodes += counter[0]
        return nodes / seconds, nodes, seconds

    return median_run(run, repeat)


# --- 2. solving endgames -------------------------------------------------------------------
def bench_solve(positions: list[ConnectFour], repeat: int) -> list[tuple[float, int, str]]:
    rows = []
    for game in positions:
        times, last = [], None
        for _ in range(repeat):
            last = solve(game)
            times.append(last.time)
        rows.append(
            (statistics.median(times), last.nodes, f"{game.moves_text()} {last.score_text}")
        )
    return rows


# --- 3. MCTS ---------------------------------------------------------------------------------
def bench_mcts(moves: str, iterations: int, repeat: int) -> float:
    def run():
        r = MCTS(iterations, solver=True, reuse=False, seed=1).search(ConnectFour(moves))
        return (r.nps,)

    return median_run(run, repeat)[0]


def bench_openspiel(moves: str, iterations: int, repeat: int) -> float | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts as osmcts
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")

    def run():
        state = game.new_initial_state()
        for ch in moves:
            state.apply_action(int(ch) - 1)
        rng = np.random.RandomState(1)
        bot = osmcts.MCTSBot(
            game, 2.0, iterations, osmcts.RandomRolloutEvaluator(1, rng), random_state=rng
        )
        start = time.perf_counter()
        bot.step(state)
        return (iterations / (time.perf_counter() - start),)

    return median_run(run, repeat)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer positions and playouts")
    args = parser.parse_args()
    repeat = args.repeat
    iterations = 5000 if args.quick else 20000

    print(f"1. Connect Four negamax to depth {NEGAMAX_DEPTH} on {len(MIDGAME)} positions")
    nps, nodes, secs = bench_plies_negamax(repeat)
    print(
        f"   plies negamax (TT, PVS, ID)     {nps:>10,.0f} nodes/s  ({nodes} nodes, {secs:.2f} s)"
    )
    for unmake, label in (
        (False, "easyAI Negamax (stock)        "),
        (True, "easyAI Negamax (unmake_move)  "),
    ):
        res = bench_easyai(repeat, unmake)
        if res is None:
            print("   easyAI not installed (pip install easyAI)")
            break
        e_nps, e_nodes, e_secs = res
        print(
            f"   {label}  {e_nps:>10,.0f} nodes/s  ({e_nodes} nodes, {e_secs:.2f} s)"
            f"  -> plies is {nps / e_nps:.1f}x"
        )

    count = 4 if args.quick else 10
    deep = []
    for moves in MIDGAME:
        deep.append(negamax(ConnectFour(moves), NEGAMAX_DEPTH + 4))
    d_nodes = sum(r.nodes for r in deep)
    d_secs = sum(r.time for r in deep)
    print(
        f"   plies negamax to depth {NEGAMAX_DEPTH + 4}          {d_nodes / d_secs:>10,.0f} nodes/s"
        f"  ({d_nodes} nodes, {d_secs:.2f} s)"
    )

    print(f"2. solve() on {count} positions 12 plies from the end")
    rows = bench_solve(endgame_positions(count), repeat)
    for secs, nodes, text in rows:
        print(f"   {secs:6.3f} s {nodes:>8} nodes  {text}")
    times = [r[0] for r in rows]
    print(f"   median {statistics.median(times):.3f} s, max {max(times):.3f} s")

    print(f"3. MCTS, {iterations} iterations (one random playout each)")
    for moves, label in (("", "empty board"), ("4453", "after 4453")):
        ours = bench_mcts(moves, iterations, repeat)
        print(f"   plies MCTS, {label:<12} {ours:>10,.0f} playouts/s")
        theirs = bench_openspiel(moves, max(iterations // 10, 500), repeat)
        if theirs is None:
            print("   OpenSpiel not installed (pip install open_spiel)")
        else:
            print(
                f"   OpenSpiel MCTSBot, {label:<5} {theirs:>10,.0f} playouts/s"
                f"  -> plies is {ours / theirs:.1f}x"
            )


if __name__ == "__main__":
    main()
