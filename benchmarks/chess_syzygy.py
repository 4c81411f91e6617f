"""What Syzygy probing costs and gains (tables: tests/data/chess/syzygy, or ``--full``).

    python benchmarks/chess_syzygy.py [--positions 200] [--nodes 20000] [--games PGN ...]
        [--parts 12345] [--full DIR]

1. **Probe cost**: CPU time of one python-chess ``probe_wdl`` / ``probe_dtz`` on random legal
   KQvK and KRvK positions (median of 5 passes over the set, per probe), against the engine's
   CPU time per node (a fixed-node search of the start position and of the same endings).
2. **Root probing's value**: the strong side (plies at ``--nodes`` per move) converts random
   won KQvK / KRvK positions against the tables' best defence (longest DTZ), with and without
   ``SyzygyPath``: mates, plies to mate, and failures (50-move draw, repetition, stalemate,
   or no mate in 150 plies).
3. **How often the tables could matter in games** (``--games``): in the PGN games given
   (e.g. the Sunfish match), the positions with at most 3 and 4 pieces.
4. **The compiled prober's cost**: CPU time per probe of ``syzygy_kernel.probe_wdl`` (exact,
   with its capture search) and ``probe_table`` (the table alone), in a compiled loop over
   random positions of 3- and 4-man endings, against python-chess's ``probe_wdl``.
5. **In-search probes' value** (``--full DIR``: a directory with every 3-4-man WDL and DTZ
   table, e.g. python-chess's source distribution's data/syzygy/regular): the strong side
   (plies at ``--nodes`` per move, no root probing) converts random won KQvKR, KRvKB and KPvK
   positions against the tables' best defence, with and without the WDL probes in the search;
   then, on random positions of 4-man endings (every outcome), how often the search's score
   (at ``--nodes``) agrees with the table's value: above +150 cp a win, below -150 a loss,
   else a draw (a cursed win or blessed loss counts as a draw).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import chess  # noqa: E402
import chess.pgn  # noqa: E402
import chess.syzygy  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from plies.chess import syzygy_kernel as SK  # noqa: E402
from plies.chess import syzygy_tables as ST  # noqa: E402
from plies.chess.engine import board as B  # noqa: E402
from plies.chess.engine.api import Engine  # noqa: E402
from plies.chess.position import Position  # noqa: E402

TABLES = ROOT / "tests" / "data" / "chess" / "syzygy"


def random_positions(piece: int, count: int, rng: random.Random) -> list[chess.Board]:
    """Random legal K + ``piece`` v K positions, either side to move."""
    out = []
    while len(out) < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 3)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(squares[2], chess.Piece(piece, chess.WHITE))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_game_over():
            out.append(board)
    return out


def probe_cost(tb, boards: list[chess.Board], method: str) -> float:
    """Median over 5 passes of the CPU microseconds per probe."""
    probe = getattr(tb, method)
    for b in boards:
        probe(b)  # open and cache the tables first
    per = []
    for _ in range(5):
        t = time.process_time()
        for b in boards:
            probe(b)
        per.append((time.process_time() - t) / len(boards) * 1e6)
    return statistics.median(per)


def node_cost(engine: Engine, boards: list[chess.Board], nodes: int) -> float:
    """CPU microseconds per node over fixed-node searches of ``boards`` (median of 3)."""
    per = []
    for _ in range(3):
        total_nodes, t = 0, time.process_time()
        for b in boards:
            engine.new_game()
            total_nodes += engine.search(b, nodes=nodes).nodes
        per.append((time.process_time() - t) / total_nodes * 1e6)
    return statistics.median(per)


def defend(tb, board: chess.Board) -> chess.Move:
    """The tables' best defence: the move keeping the longest DTZ (loser's view)."""
    best, key = None, None
    for move in board.legal_moves:
        board.push(move)
        k = (-tb.probe_wdl(board), tb.probe_dtz(board))  # draw first, then the longest loss
        board.pop()
        if key is None or k > key:
            best, key = move, k
    return best


def convert(engine: Engine, tb, start: chess.Board, nodes: int) -> tuple[str, int]:
    """Play ``start`` out: plies for the winner, the tables for the loser."""
    board = start.copy()
    engine.new_game()
    for ply in range(150):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return ("mate" if outcome.termination == chess.Termination.CHECKMATE
                    else outcome.termination.name.lower()), ply  # fmt: skip
        if board.turn == start.turn:
            move = engine.search(board, nodes=nodes).move
        else:
            move = defend(tb, board)
        board.push(move)
    return ("mate" if board.is_checkmate() else "no mate in 150"), 150


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--conversions", type=int, default=20, help="won positions per ending")
    ap.add_argument("--nodes", type=int, default=20000, help="plies' nodes per move")
    ap.add_argument("--games", nargs="*", default=[], help="PGN files to count endings in")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parts", default="12345", help="which of the measurements to run")
    ap.add_argument("--full", default=None, help="every 3-4-man table (part 5)")
    ap.add_argument("--wins", type=int, default=10, help="won positions per ending (part 5)")
    ap.add_argument("--agree", type=int, default=40, help="positions per ending (part 5)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tb = chess.syzygy.open_tablebase(str(TABLES))
    endings = {"KQvK": chess.QUEEN, "KRvK": chess.ROOK}
    sets = {name: random_positions(p, args.positions, rng) for name, p in endings.items()}
    engine = Engine(hash_mb=16)
    if "1" in args.parts:
        probe_costs(tb, engine, sets)
    if "2" in args.parts:
        conversions(tb, engine, sets, args)
    if args.games and "3" in args.parts:
        count_positions(args.games)
    if "4" in args.parts:
        kernel_costs(tb, engine, args)
    if "5" in args.parts:
        if args.full is None:
            print("5. skipped: needs --full DIR (every 3-4-man WDL and DTZ table)")
        else:
            in_search_value(args)
    return 0


def random_material(name: str, count: int, rng: random.Random) -> list[chess.Board]:
    """Random legal positions of ``name`` (e.g. KQvKR), colours swapped half the time,
    either side to move."""
    parts = name.split("v")
    out = []
    while len(out) < count:
        board = chess.Board(None)
        flip = rng.random() < 0.5
        pieces = [(c ^ flip, ch) for c, part in enumerate(parts) for ch in part]
        ok = True
        for sq, (c, ch) in zip(rng.sample(range(64), len(pieces)), pieces, strict=True):
            pt = chess.Piece.from_symbol(ch).piece_type
            ok &= pt != chess.PAWN or chess.square_rank(sq) not in (0, 7)
            board.set_piece_at(sq, chess.Piece(pt, chess.WHITE if c == 0 else chess.BLACK))
        board.turn = rng.random() < 0.5
        if ok and board.is_valid() and not board.is_game_over():
            out.append(board)
    return out


@njit(cache=False, nogil=True)
def _probe_all(tb, bds, sts, hist, pst, buf, exact: bool) -> int:
    total = 0
    for i in range(bds.shape[0]):
        if exact:
            total += SK.probe_wdl(tb, bds[i], sts[i], hist, pst, buf, 0)
        else:
            total += SK.probe_table(tb, sts[i], buf[SK.SCRATCH_SIZE :])
    return total


def kernel_costs(tb, engine: Engine, args) -> None:
    print("4. compiled WDL prober (CPU microseconds per probe, median of 5 passes)")
    tables = ST.load_wdl(str(TABLES))
    start_us = node_cost(engine, [chess.Board()], 200_000)
    print(f"   engine, start position, 200k nodes: {start_us:.2f} us/node")
    rng = random.Random(args.seed)
    buf = np.zeros(SK.SCRATCH_SIZE + 8, dtype=np.int64)
    for name in ("KQvK", "KRvK", "KQvKR", "KRvKB", "KPvK", "KPvKP"):
        boards = random_material(name, args.positions, rng)
        positions = [Position.from_board(b) for b in boards]
        for p in positions:
            B.set_bitboards(p.bd, p.st)
        bds = np.stack([p.bd for p in positions])
        sts = np.stack([p.st for p in positions])
        hist = positions[0].hist
        pst = positions[0].pst
        costs = []
        for exact in (True, False):
            _probe_all(tables.blob, bds, sts, hist, pst, buf, exact)
            per = []
            for _ in range(5):
                t = time.process_time()
                for _ in range(20):
                    _probe_all(tables.blob, bds, sts, hist, pst, buf, exact)
                per.append((time.process_time() - t) / (20 * len(boards)) * 1e6)
            costs.append(statistics.median(per))
        ref = probe_cost(tb, boards, "probe_wdl")
        print(f"   {name}: kernel probe_wdl {costs[0]:.2f} us (= {costs[0] / start_us:.1f} "
              f"nodes), probe_table {costs[1]:.2f} us; python-chess probe_wdl {ref:.1f} us "
              f"({ref / costs[0]:.0f}x)")  # fmt: skip


def in_search_value(args) -> None:
    print(f"5. conversions with and without WDL probes in the search ({args.nodes} nodes/move,"
          " no root probing, the tables defend)")  # fmt: skip
    full = chess.syzygy.open_tablebase(args.full)
    plain = Engine(hash_mb=16)
    probing = Engine(hash_mb=16, syzygy_path=args.full, syzygy_probe_limit=4)
    probing.tablebase.close()
    probing.tablebase = None  # only the search's own probes
    rng = random.Random(args.seed + 5)
    for name in ("KQvKR", "KRvKB", "KPvK"):
        won = []
        while len(won) < args.wins:
            for b in random_material(name, 50, rng):
                capture = any(b.is_capture(m) for m in b.legal_moves)
                if not capture and full.probe_wdl(b) == 2 and len(won) < args.wins:
                    won.append(b)
        optimal = statistics.median(abs(full.probe_dtz(b)) for b in won)
        for label, eng in (("search only", plain), ("WDL in search", probing)):
            t = time.process_time()
            results = [convert(eng, full, b, args.nodes) for b in won]
            cpu = time.process_time() - t
            mates = [p for r, p in results if r == "mate"]
            fails: dict[str, int] = {}
            for r, _ in results:
                if r != "mate":
                    fails[r] = fails.get(r, 0) + 1
            print(f"   {name} {label:13s}: {len(mates)}/{len(won)} mated, median "
                  f"{statistics.median(mates) if mates else '-'} plies (first DTZ median "
                  f"{optimal}), failures {fails or 0}, {cpu:.0f} s CPU")  # fmt: skip
    print(f"   scores agreeing with the tables' value ({args.nodes} nodes, {args.agree} positions"
          " an ending, no capture at the root):")  # fmt: skip
    for name in ("KQvKR", "KRvKB", "KRvKN", "KPvK", "KPvKP", "KBNvK"):
        boards = [
            b
            for b in random_material(name, 4 * args.agree, rng)
            if not any(b.is_capture(m) for m in b.legal_moves)
        ][: args.agree]
        truth = [_wdl_class(full.probe_wdl(b)) for b in boards]
        line = []
        for label, eng in (("search only", plain), ("WDL in search", probing)):
            agree = hits = 0
            for b, t in zip(boards, truth, strict=True):
                eng.new_game()
                r = eng.search(b, nodes=args.nodes)
                agree += _score_class(r.score) == t
                hits += r.tbhits
            line.append(f"{label} {agree}/{len(boards)}" + (f" ({hits} tbhits)" if hits else ""))
        draws = sum(t == 0 for t in truth)
        print(f"   {name} ({draws} draws): " + ", ".join(line))


def _wdl_class(wdl: int) -> int:
    return 0 if abs(wdl) < 2 else wdl


def _score_class(score: int) -> int:
    return 2 if score > 150 else -2 if score < -150 else 0


def probe_costs(tb, engine: Engine, sets: dict) -> None:
    print("1. probe cost (CPU microseconds, median of 5 passes)")
    start_us = node_cost(engine, [chess.Board()], 200_000)
    print(f"   engine, start position, 200k nodes: {start_us:.2f} us/node")
    for name, boards in sets.items():
        wdl = probe_cost(tb, boards, "probe_wdl")
        dtz = probe_cost(tb, boards, "probe_dtz")
        node = node_cost(engine, boards[:20], 5000)
        print(f"   {name}: probe_wdl {wdl:.1f} us, probe_dtz {dtz:.1f} us, "
              f"engine {node:.2f} us/node in {name} (20 positions x 5k nodes): "
              f"one WDL probe = {wdl / start_us:.0f} start-position nodes")  # fmt: skip


def conversions(tb, engine: Engine, sets: dict, args) -> None:
    print(f"2. conversion of won positions, plies at {args.nodes} nodes/move vs the tables")
    with_tb = Engine(hash_mb=16, syzygy_path=str(TABLES))
    for name, boards in sets.items():
        won = [b for b in boards if tb.probe_wdl(b) == 2][: args.conversions]
        for label, eng in (("search only", engine), ("root probing", with_tb)):
            results = [convert(eng, tb, b, args.nodes) for b in won]
            mates = [p for r, p in results if r == "mate"]
            fails = {}
            for r, _ in results:
                if r != "mate":
                    fails[r] = fails.get(r, 0) + 1
            optimal = [abs(tb.probe_dtz(b)) for b in won]
            print(f"   {name} {label:12s}: {len(mates)}/{len(won)} mated, median "
                  f"{statistics.median(mates) if mates else '-'} plies (DTZ median "
                  f"{statistics.median(optimal)}), failures {fails or 0}")  # fmt: skip


def count_positions(paths: list[str]) -> None:
    print("3. positions in the games with few pieces")
    games = positions = three = four = 0
    reached3 = reached4 = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games += 1
                board = game.board()
                seen3 = seen4 = False
                for move in game.mainline_moves():
                    board.push(move)
                    positions += 1
                    n = chess.popcount(board.occupied)
                    three += n <= 3
                    four += n <= 4
                    seen3 |= n <= 3
                    seen4 |= n <= 4
                reached3 += seen3
                reached4 += seen4
    print(f"   {games} games, {positions} positions: {three} with <= 3 pieces "
          f"({reached3} games), {four} with <= 4 pieces ({reached4} games)")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
