"""The chess engine's Python API: ``Engine(...).search(board, ...) -> SearchResult``.

Iterative deepening with aspiration windows runs here, in Python, around the compiled ``pvs``
kernel (one call per iteration and window). A watchdog thread raises the shared stop flag at
the hard deadline (which a ``ponderhit`` may set later); every node polls the flag. Lazy SMP:
helper threads run iterative deepening on their own copies of the position over the shared
transposition table; the kernels release the GIL. With SyzygyPath set, positions with few
enough pieces are answered from the tablebases at the root (``plies.chess.tablebases``, WDL
and DTZ through python-chess), and the search probes the WDL tables itself
(``plies.chess.syzygy_tables`` loads them for the compiled prober).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess
import numpy as np

from plies.chess.engine import params as engine_params
from plies.chess.engine import search as S
from plies.chess.position import Position
from plies.chess.syzygy_tables import DEFAULT_MAX_PIECES, empty_tables, load_wdl
from plies.errors import InvalidOption

DEFAULT_HASH_MB = 64
MAX_DEPTH = 100
# with one legal move on a clock, iterate only this deep: a score worth reporting (depth 1
# differed from depth 8 by over 100 cp in 37 of the 72 forced positions of the Sunfish match
# games, depth 6 in 4) for a median 2.4 ms of CPU instead of 0.6 ms
FORCED_MOVE_DEPTH = 6


def win_probability(score: int) -> float:
    """The documented sigmoid from centipawns (side to move) to a win probability; mates
    map to 1 and 0."""
    if score > S.MATE_BOUND:
        return 1.0
    if score < -S.MATE_BOUND:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / engine_params.WIN_PROB_SCALE))


def mate_in(score: int) -> int | None:
    """Moves to mate (negative: being mated) for a mate score, else None."""
    if score > S.MATE_BOUND:
        return (S.MATE - score + 1) // 2
    if score < -S.MATE_BOUND:
        return -((S.MATE + score) // 2)
    return None


def describe_score(score: int) -> str:
    m = mate_in(score)
    if m is not None:
        return f"mate {m}"
    return f"{score:+d}"


@dataclass
class PVLine:
    move: chess.Move
    score: int
    pv: list[chess.Move]


@dataclass
class SearchResult:
    """The best move, its score (centipawns or a mate score, side to move's view), win
    probability, principal variation and statistics."""

    move: chess.Move | None
    score: int
    win_probability: float
    pv: list[chess.Move]
    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: float
    lines: list[PVLine] = field(default_factory=list)
    hashfull: int = 0
    tablebase: bool = False
    tbhits: int = 0  # WDL probes inside the search that gave a value

    @property
    def mate(self) -> int | None:
        return mate_in(self.score)

    @property
    def score_text(self) -> str:
        return describe_score(self.score)


def allocate_time(
    time_left: float,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    overhead: float = 0.0,
    default_moves_to_go: int = engine_params.TIME_MOVES_TO_GO,
) -> tuple[float, float]:
    """(soft, hard) seconds for one move from a clock. The soft limit stops iterative
    deepening between iterations; the hard one stops the search. Without ``moves_to_go`` the
    clock is shared as if ``default_moves_to_go`` moves were left."""
    left = max(0.005, time_left - overhead)
    mtg = max(1, min(moves_to_go or default_moves_to_go, 40))
    soft = left / mtg + 0.75 * increment
    cap = left * (0.9 if mtg == 1 else 0.6)
    hard = min(soft * 4.0, cap)
    soft = min(soft, hard)
    return soft, hard


def time_scale(
    stable: int,
    drop: int,
    table=engine_params.TIME_STABLE,
    drop_cp: int = engine_params.TIME_DROP_CP,
) -> float:
    """The factor on the soft time limit after an iteration: ``table[min(stable, last)]``
    for ``stable`` iterations in a row with the same best move, times ``1 + drop / drop_cp``
    (at most 2) when the score fell by ``drop`` centipawns in the iteration."""
    factor = float(table[min(max(stable, 0), len(table) - 1)])
    if drop > 0:
        factor *= 1.0 + min(1.0, drop / drop_cp)
    return factor


class Engine:
    """The plies chess engine. ``Engine(hash_mb=64, threads=1, syzygy_path=None)``; the
    transposition table persists across searches (:meth:`new_game` clears it). ``features``
    switches search features off by name (``search.FEATURE_NAMES``) for tests and for
    measuring their effect; ``params`` overrides values of :mod:`params` (tuning).
    ``syzygy_probe_limit``: the most pieces of the WDL tables loaded for the search (they are
    read into memory: 5-man WDL tables take 378 MiB)."""

    def __init__(
        self,
        hash_mb: float = DEFAULT_HASH_MB,
        threads: int = 1,
        *,
        features: dict[str, bool] | None = None,
        params: dict | None = None,
        syzygy_path: str | None = None,
        syzygy_probe_limit: int = DEFAULT_MAX_PIECES,
    ) -> None:
        if threads < 1:
            raise InvalidOption(f"threads must be at least 1, not {threads}")
        if hash_mb <= 0:
            raise InvalidOption(f"hash_mb must be positive, not {hash_mb}")
        self.threads = int(threads)
        self.features = np.ones(S.F_COUNT, dtype=np.int64)
        for name, on in (features or {}).items():
            if name not in S.FEATURE_NAMES:
                known = ", ".join(S.FEATURE_NAMES)
                raise InvalidOption(f"unknown search feature {name!r}: expected one of {known}")
            self.features[S.FEATURE_NAMES.index(name)] = 1 if on else 0
        p = params or {}
        search_names = engine_params.SEARCH_NAMES
        try:
            self.pst, self.weights = engine_params.eval_arrays(
                {k: v for k, v in p.items() if k not in search_names}
            )
        except KeyError as exc:
            raise InvalidOption(str(exc)) from None
        self.knobs = S.search_knobs(p)
        self.lmr = S.lmr_table(
            float(p.get("LMR_BASE", engine_params.LMR_BASE)),
            float(p.get("LMR_DIVISOR", engine_params.LMR_DIVISOR)),
        )
        self.aspiration_delta = int(p.get("ASPIRATION_DELTA", engine_params.ASPIRATION_DELTA))
        self.aspiration_growth = int(p.get("ASPIRATION_GROWTH", engine_params.ASPIRATION_GROWTH))
        self.time_stability = bool(p.get("TIME_STABILITY", engine_params.TIME_STABILITY))
        self.time_stable = tuple(p.get("TIME_STABLE", engine_params.TIME_STABLE))
        self.time_drop_cp = int(p.get("TIME_DROP_CP", engine_params.TIME_DROP_CP))
        self.moves_to_go = int(p.get("TIME_MOVES_TO_GO", engine_params.TIME_MOVES_TO_GO))
        if not 1 <= self.moves_to_go <= 40:
            raise InvalidOption(f"TIME_MOVES_TO_GO must be within 1..40, not {self.moves_to_go}")
        self.hash_mb = hash_mb
        self.tt = S.new_tt(hash_mb)
        self.stop_flag = np.zeros(1, dtype=np.int64)
        self._age = 0
        self._contexts: list[S.SearchContext] = []
        self._hard_deadline: float | None = None
        self._soft_deadline: float | None = None
        self._lock = threading.Lock()
        self.tablebase = None
        self.tables = empty_tables()
        self.syzygy_path: str | None = None
        self.set_syzygy_probe_limit(syzygy_probe_limit)
        if syzygy_path:
            self.set_syzygy_path(syzygy_path)
        self._warm()

    def _warm(self) -> None:
        pos = Position.from_board(chess.Board(), self.pst)
        ctx = S.new_context(S.new_tt(0.01), np.zeros(1, dtype=np.int64), self.pst, self.weights)
        S.pvs(pos.bd, pos.st, pos.hist, ctx, -S.INF, S.INF, 2, 0)

    # --- options ----------------------------------------------------------------------------

    def set_hash(self, megabytes: float) -> None:
        if megabytes <= 0:
            raise InvalidOption(f"hash must be positive, not {megabytes}")
        self.hash_mb = megabytes
        self.tt = S.new_tt(megabytes)
        self._contexts = []

    def set_threads(self, threads: int) -> None:
        if threads < 1:
            raise InvalidOption(f"threads must be at least 1, not {threads}")
        self.threads = int(threads)

    def set_syzygy_path(self, path: str | None) -> None:
        """Open the tables of ``path`` (None: none): python-chess's for the root, and the WDL
        tables of at most ``syzygy_probe_limit`` pieces in memory for the search."""
        from plies.chess import tablebases

        if self.tablebase is not None:
            self.tablebase.close()
            self.tablebase = None
        self.tables = empty_tables()
        self.syzygy_path = None
        self._contexts = []
        if path:
            tables = load_wdl(path, self.syzygy_probe_limit)  # a bad file: nothing changes
            self.tablebase = tablebases.open_tablebase(path)
            self.tables = tables
            self.syzygy_path = path

    def set_syzygy_probe_limit(self, pieces: int) -> None:
        """Probe in the search only tables of at most ``pieces`` pieces (0: none)."""
        if not 0 <= pieces <= 7:
            raise InvalidOption(f"SyzygyProbeLimit must be 0..7, not {pieces}")
        self.syzygy_probe_limit = int(pieces)
        if self.syzygy_path:
            self.tables = load_wdl(self.syzygy_path, self.syzygy_probe_limit)
            self._contexts = []

    def set_syzygy_probe_depth(self, depth: int) -> None:
        """Probe the WDL tables at nodes of at least ``depth`` plies of remaining depth."""
        if not 1 <= depth <= 100:
            raise InvalidOption(f"SyzygyProbeDepth must be 1..100, not {depth}")
        self.knobs[S.K_TB_DEPTH] = depth
        self._contexts = []

    def new_game(self) -> None:
        self.tt[:] = 0
        self._contexts = []

    def stop(self) -> None:
        """Stop a running search now (thread-safe)."""
        self.stop_flag[0] = 1

    def set_deadline(self, soft: float | None, hard: float | None) -> None:
        """Limit a running search (an infinite or pondering one) to ``soft`` / ``hard``
        seconds from now (``ponderhit``)."""
        now = time.perf_counter()
        with self._lock:
            self._soft_deadline = None if soft is None else now + soft
            self._hard_deadline = None if hard is None else now + hard

    def hashfull(self) -> int:
        """Per mille of the first 1000 TT entries written in the current search."""
        data = self.tt[1:2000:2]
        used = np.count_nonzero((data != 0) & (((data >> 46) & 0xFF) == self._age))
        return int(used * 1000 // max(1, data.shape[0]))

    def _context(self, i: int) -> S.SearchContext:
        shared = (self.tt, self.stop_flag, self.pst, self.weights, self.knobs, self.lmr)
        while len(self._contexts) <= i:
            self._contexts.append(S.new_context(*shared, tables=self.tables))
        return self._contexts[i]

    def _prepare(self, ctx: S.SearchContext, nodes: int | None) -> None:
        ctx.stats[:] = 0
        ctx.stats[S.S_NODE_LIMIT] = nodes if nodes is not None else (1 << 62)
        ctx.stats[S.S_AGE] = self._age
        ctx.killers[:] = 0
        ctx.excluded[:] = -1
        ctx.features[:] = self.features
        ctx.history[:] //= 2
        if ctx.knobs[S.K_CONT_HIST]:
            ctx.mem[S.M_CONT : S.M_CONT + 1024 * 1024] >>= 1
        if ctx.knobs[S.K_CAPT_HIST]:
            ctx.mem[S.M_CAPTHIST : S.M_CAPTHIST + 1024 * 8] >>= 1

    # --- search -----------------------------------------------------------------------------

    def search(
        self,
        board: chess.Board,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
        multipv: int = 1,
        *,
        time_left: float | None = None,
        increment: float = 0.0,
        moves_to_go: int | None = None,
        mate: int | None = None,
        infinite: bool = False,
        overhead: float = 0.0,
        info: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Search ``board`` for the side to move. Limits: ``depth`` plies, ``nodes``,
        ``movetime`` seconds, a clock (``time_left``, ``increment``, ``moves_to_go``), ``mate``
        (stop once a mate in that many moves is found) or ``infinite`` (until :meth:`stop`);
        with none of them, depth 8. ``info`` receives a :class:`SearchResult` after every
        completed iteration."""
        if not any(board.generate_legal_moves()):
            raise InvalidOption("no legal move: the game is over")
        if multipv < 1:
            raise InvalidOption(f"multipv must be at least 1, not {multipv}")
        start = time.perf_counter()
        self.stop_flag[0] = 0
        self._age = (self._age + 1) & 0xFF
        soft = hard = None
        if movetime is not None:
            hard = max(0.001, movetime - overhead)
        elif time_left is not None:
            soft, hard = allocate_time(
                time_left, increment, moves_to_go, overhead, self.moves_to_go
            )
        if depth is None and nodes is None and hard is None and mate is None and not infinite:
            depth = 8
        if mate is not None and depth is None:
            depth = min(MAX_DEPTH, 2 * mate + 8) if not infinite and hard is None else None
        max_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
        with self._lock:
            self._soft_deadline = None if soft is None else start + soft
            self._hard_deadline = None if hard is None else start + hard
        if self.tablebase is not None and multipv == 1:
            from plies.chess import tablebases

            tb = tablebases.probe_root(self.tablebase, board)
            if tb is not None:
                move, score = tb
                result = SearchResult(move, score, win_probability(score), [move], 1, 1, 0, 0,
                                      0.0, [PVLine(move, score, [move])], 0, True)  # fmt: skip
                if info is not None:
                    info(result)
                if infinite:
                    self._wait_for_stop()
                return result
        # only a clock or an infinite search (whose ponderhit may set one) needs the watchdog
        watchdog = _Watchdog(self) if hard is not None or infinite else None
        if watchdog is not None:
            watchdog.start()
        helpers = []
        try:
            pos = Position.from_board(board, self.pst)
            for i in range(1, self.threads):
                hpos = pos.copy()
                hctx = self._context(i)
                self._prepare(hctx, None)
                t = threading.Thread(
                    target=self._helper_loop, args=(hpos, hctx, max_depth, i), daemon=True
                )
                helpers.append((t, hctx))
                t.start()
            ctx = self._context(0)
            self._prepare(ctx, nodes)
            result = self._iterate(board, pos, ctx, max_depth, multipv, start, mate, info)
            if infinite:
                self._wait_for_stop()
        finally:
            self.stop_flag[0] = 1
            for t, _ in helpers:
                t.join()
            if watchdog is not None:
                watchdog.cancel()
            self.stop_flag[0] = 0
        total = result.nodes + sum(int(h.stats[S.S_NODES]) for _, h in helpers)
        result.tbhits = int(ctx.stats[S.S_TBHITS]) + sum(
            int(h.stats[S.S_TBHITS]) for _, h in helpers
        )
        elapsed = time.perf_counter() - start
        result.nodes = total
        result.time = elapsed
        result.nps = int(total / elapsed) if elapsed > 0 else 0
        result.hashfull = self.hashfull()
        return result

    def _wait_for_stop(self) -> None:
        """An infinite (or pondering) search answers only on stop (or its ponderhit clock)."""
        while self.stop_flag[0] == 0:
            with self._lock:
                hard = self._hard_deadline
            if hard is not None and time.perf_counter() >= hard:
                break
            time.sleep(0.002)

    def _helper_loop(self, pos: Position, ctx: S.SearchContext, max_depth: int, i: int) -> None:
        d = 1 + (i & 1)
        while self.stop_flag[0] == 0 and d <= max_depth:
            S.pvs(pos.bd, pos.st, pos.hist, ctx, -S.INF, S.INF, d, 0)
            d += 1

    def _soft_expired(self, start: float, elapsed: float, scale: float = 1.0) -> bool:
        with self._lock:
            soft = self._soft_deadline
        # a fixed movetime (no soft limit) uses all of its time: an unfinished iteration
        # still counts once its first move (the previous best) has been searched
        return soft is not None and time.perf_counter() - start >= 0.55 * scale * (soft - start)

    def _iterate(self, board, pos, ctx, max_depth, multipv, start, mate, info) -> SearchResult:
        result = SearchResult(None, 0, 0.5, [], 0, 0, 0, 0, 0.0)
        legal = board.legal_moves.count()
        multipv = min(multipv, legal)
        stable = 0  # iterations in a row with the same best move (time management)
        scale = 1.0
        for d in range(1, max_depth + 1):
            previous = result.move, result.score
            lines: list[PVLine] = []
            ctx.excluded[:] = -1
            aborted = False
            for k in range(multipv):
                prev = None
                if k < len(result.lines):
                    prev = result.lines[k].score
                self._aspiration(pos, ctx, d, prev)
                best = int(ctx.stats[S.S_ROOT_BEST])
                if self.stop_flag[0] != 0:
                    aborted = True
                    if k > 0 or ctx.stats[S.S_ROOT_DONE] == 0 or best == 0:
                        break
                if best == 0:
                    break
                pv = [pos.move(int(m)) for m in ctx.pv[0, : ctx.pvlen[0]]]
                if not pv or pv[0] != pos.move(best):
                    pv = [pos.move(best)]
                lines.append(PVLine(pv[0], int(ctx.stats[S.S_ROOT_SCORE]), pv))
                ctx.excluded[k] = best
                if aborted:
                    break
            if lines and (not aborted or len(lines) >= len(result.lines)):
                lines.sort(key=lambda line: -line.score)
                top = lines[0]
                result = SearchResult(
                    top.move, top.score, win_probability(top.score), top.pv,
                    d if not aborted else result.depth,
                    int(ctx.stats[S.S_SELDEPTH]), int(ctx.stats[S.S_NODES]), 0, 0.0, lines,
                )  # fmt: skip
            if aborted:
                break
            elapsed = time.perf_counter() - start
            result.time = elapsed
            result.nodes = int(ctx.stats[S.S_NODES])
            result.nps = int(result.nodes / elapsed) if elapsed > 0 else 0
            result.tbhits = int(ctx.stats[S.S_TBHITS])
            if info is not None:
                result.hashfull = self.hashfull()
                info(_legal_lines(board, result))
            if mate is not None and result.mate is not None and 0 < result.mate <= mate:
                break
            if legal == 1 and self._hard_deadline is not None and d >= FORCED_MOVE_DEPTH:
                break
            if self.time_stability and previous[0] is not None:
                stable = stable + 1 if result.move == previous[0] else 0
                scale = time_scale(stable, previous[1] - result.score, self.time_stable,
                                   self.time_drop_cp)  # fmt: skip
            if self._soft_expired(start, elapsed, scale):
                break
        result.nodes = int(ctx.stats[S.S_NODES])
        if result.move is None:
            move = next(iter(board.legal_moves))
            result.move = move
            result.pv = [move]
            result.lines = [PVLine(move, 0, [move])]
        return _legal_lines(board, result)

    def _aspiration(self, pos: Position, ctx: S.SearchContext, depth: int, prev) -> int:
        ctx.stats[S.S_ROOT_BEST] = 0
        ctx.stats[S.S_ROOT_DONE] = 0
        if prev is None or depth < 4 or abs(prev) > S.MATE_BOUND:
            return int(S.pvs(pos.bd, pos.st, pos.hist, ctx, -S.INF, S.INF, depth, 0))
        delta = self.aspiration_delta
        alpha = max(-S.INF, prev - delta)
        beta = min(S.INF, prev + delta)
        while True:
            ctx.stats[S.S_ROOT_BEST] = 0
            ctx.stats[S.S_ROOT_DONE] = 0
            score = int(S.pvs(pos.bd, pos.st, pos.hist, ctx, alpha, beta, depth, 0))
            if self.stop_flag[0] != 0:
                return score
            if score <= alpha:
                beta = (alpha + beta) // 2
                alpha = max(-S.INF, score - delta)
            elif score >= beta:
                beta = min(S.INF, score + delta)
            else:
                return score
            delta += max(1, delta * self.aspiration_growth // 100)
            if delta > 1500:
                alpha, beta = -S.INF, S.INF


def _legal_lines(board: chess.Board, result: SearchResult) -> SearchResult:
    """``result`` with every line cut to its legal prefix (checked only when a result is
    reported: python-chess's move checks would cost a few percent of a short search if done
    at every iteration)."""
    if result.lines:
        result.lines = [
            PVLine(ln.move, ln.score, _legal_prefix(board, ln.pv)) for ln in result.lines
        ]
        result.pv = result.lines[0].pv
    return result


def _legal_prefix(board: chess.Board, pv: list[chess.Move]) -> list[chess.Move]:
    """The longest prefix of ``pv`` that is legal from ``board`` (a TT line may not be)."""
    b = board.copy(stack=False)
    out = []
    for m in pv:
        if m not in b.legal_moves:
            break
        out.append(m)
        b.push(m)
    return out or pv[:1]


class _Watchdog(threading.Thread):
    """Raises the stop flag at the engine's hard deadline, which may change while it runs."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(daemon=True)
        self.engine = engine
        self._cancel = threading.Event()

    def run(self) -> None:
        while not self._cancel.is_set():
            with self.engine._lock:
                hard = self.engine._hard_deadline
            now = time.perf_counter()
            if hard is not None and now >= hard:
                self.engine.stop_flag[0] = 1
                return
            # sleep to the deadline, looking again every 10 ms (``set_deadline`` may move it);
            # without one (pondering) every millisecond, so a ponderhit's clock starts at once
            self._cancel.wait(0.001 if hard is None else min(0.01, hard - now))

    def cancel(self) -> None:
        self._cancel.set()
        self.join()


def warmup() -> None:
    """Compile (or load from the cache) every chess kernel."""
    engine = Engine(hash_mb=1)
    engine.search(chess.Board(), depth=3)
    Position.from_board(chess.Board()).perft(2)
