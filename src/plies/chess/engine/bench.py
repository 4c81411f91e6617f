"""``plies bench chess``: search a fixed position set to a fixed depth; report nodes, speed and
a signature (CRC32 of the node counts). Every position starts from a cleared transposition
table with one thread, so node counts are deterministic and the signature changes only when
search behaviour changes."""

from __future__ import annotations

import time
from dataclasses import dataclass

import chess

from plies.chess.engine.api import Engine, SearchResult
from plies.search.bench import BenchReport

DEFAULT_DEPTH = 11

BENCH_FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R1BQ1RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "4r1k1/1p3ppp/p1p5/2Pb4/1P1Pq3/P3P1Q1/5PPP/2R3K1 b - - 0 1",
]


@dataclass
class BenchLine:
    fen: str
    result: SearchResult


def run_bench(
    depth: int | None = DEFAULT_DEPTH, nodes: int | None = None, hash_mb: float = 16, progress=None
) -> BenchReport:
    engine = Engine(hash_mb=hash_mb)
    lines = []
    total_nodes = 0
    total_time = 0.0
    for fen in BENCH_FENS:
        engine.new_game()
        start = time.perf_counter()
        result = engine.search(
            chess.Board(fen), depth=depth if nodes is None else None, nodes=nodes
        )
        total_time += time.perf_counter() - start
        total_nodes += result.nodes
        line = BenchLine(fen, result)
        lines.append(line)
        if progress is not None:
            progress(line)
    return BenchReport(lines, total_nodes, total_time)
