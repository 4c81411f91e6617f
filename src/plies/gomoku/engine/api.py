"""The Gomoku engine's Python API: ``Engine(...).search(board, ...) -> SearchResult``.

Iterative deepening with aspiration windows runs here, in Python, around the compiled ``pvs``
kernel (one call per iteration). Time limits are enforced by a watchdog thread that raises the
shared stop flag at the deadline; every kernel polls the flag at each node, so a search never
runs past its limit by more than one node's work. Lazy SMP: helper threads run the same
iterative deepening on their own state copies over the shared transposition table; the kernels
release the GIL, so the threads run in parallel.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from plies.errors import InvalidOption
from plies.gomoku import opening_rule, rules
from plies.gomoku.board import Board, rule_code
from plies.gomoku.engine import combos
from plies.gomoku.engine import params as engine_params
from plies.gomoku.engine import search as S
from plies.gomoku.engine import state as ST
from plies.gomoku.engine import vcf as V
from plies.gomoku.engine import vct as VT
from plies.gomoku.notation import Move
from plies.gomoku.rules import PAD

DEFAULT_HASH_MB = 64
MAX_DEPTH = 100
# the root VCT's tables: 2**18 proof-number entries (the solver's default is 2**20; a root
# VCT within a share of one move's time visits far fewer nodes) and 2**14 cached expansions
ROOT_VCT_TT_BITS = 18
ROOT_VCT_EXP_BITS = 14


def root_vct_bytes(rule: str | int, width: int, height: int) -> int:
    """Memory of an engine's root VCT context for ``rule`` on a ``width`` x ``height`` board
    (its own arrays; the rule's potential tables are shared by every context of the process,
    and built here if they were not yet)."""
    cells = (width + 2 * PAD) * (height + 2 * PAD)
    ctx = VT.new_context(cells, rule_code(rule), None, 0, 0)  # one-entry tables: sizes scale
    fixed = sum(a.nbytes for a in ctx if isinstance(a, np.ndarray))
    fixed -= ctx.tt_keys.nbytes + ctx.tt_val.nbytes + ctx.exp_keys.nbytes + ctx.exp_data.nbytes
    fixed -= ctx.pot.nbytes + ctx.pwin.nbytes
    tt = (1 << ROOT_VCT_TT_BITS) * (ctx.tt_keys.itemsize + ctx.tt_val[0].nbytes)
    exp = (1 << ROOT_VCT_EXP_BITS) * (ctx.exp_keys.itemsize + ctx.exp_data[0].nbytes)
    return fixed + tt + exp


def win_probability(score: int) -> float:
    """The documented sigmoid from a score (side to move's view) to its win probability."""
    if score > S.WIN_BOUND:
        return 1.0
    if score < -S.WIN_BOUND:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / engine_params.WIN_PROB_SCALE))


def describe_score(score: int) -> str:
    """``+123``, or ``win in 7`` / ``loss in 4`` (plies) for decided positions."""
    if score > S.WIN_BOUND:
        return f"win in {S.WIN - score}"
    if score < -S.WIN_BOUND:
        return f"loss in {S.WIN + score}"
    return f"{score:+d}"


@dataclass
class PVLine:
    """One line of a MultiPV search."""

    move: Move
    score: int
    pv: list[Move]


@dataclass
class SearchResult:
    """What a search found: the best move, its score (side to move's view, centi-units or a
    win/loss in N plies), win probability, principal variation and statistics."""

    move: Move | None
    score: int
    win_probability: float
    pv: list[Move]
    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: float
    lines: list[PVLine] = field(default_factory=list)
    book: bool = False  # the move came from the opening book (no search)

    @property
    def score_text(self) -> str:
        return describe_score(self.score)


class Engine:
    """A Gomoku-family engine: PVS with a transposition table, threat-aware pruning and VCF.

    ``Engine(rule="renju", size=15, hash_mb=64, threads=1)``; the transposition table persists
    across searches (call :meth:`new_game` to clear it). ``features`` switches search features
    off by name (see ``search.FEATURE_NAMES``), for tests and for measuring their effect;
    ``params`` overrides evaluation parameters of :mod:`plies.gomoku.engine.params` (tuning).
    ``book`` (a :class:`~plies.gomoku.book.Book` or its path): positions in it are answered
    with a book move, no search (:meth:`set_book`; docs/openings.md).
    """

    def __init__(
        self,
        rule: str | int = "freestyle",
        size: int = 15,
        *,
        width: int | None = None,
        height: int | None = None,
        hash_mb: float = DEFAULT_HASH_MB,
        threads: int = 1,
        features: dict[str, bool] | None = None,
        params: dict | None = None,
        prefault: bool = True,
        book=None,
    ) -> None:
        self.rule_code = rule_code(rule)
        self.width = width or size
        self.height = height or size
        if threads < 1:
            raise InvalidOption(f"threads must be at least 1, not {threads}")
        if hash_mb <= 0:
            raise InvalidOption(f"hash_mb must be positive, not {hash_mb}")
        self.threads = int(threads)
        self.hash_mb = hash_mb
        self.features = np.zeros(S.F_COUNT, dtype=np.int8)
        self.features[: len(S.DEFAULT_FEATURES)] = S.DEFAULT_FEATURES
        for name, on in (features or {}).items():
            if name not in S.FEATURE_NAMES:
                known = ", ".join(S.FEATURE_NAMES)
                raise InvalidOption(f"unknown search feature {name!r}: expected one of {known}")
            self.features[S.FEATURE_NAMES.index(name)] = 1 if on else 0
        try:
            self.tables = ST.make_tables(self.rule_code, params)
        except KeyError as exc:
            raise InvalidOption(str(exc.args[0])) from None
        except ValueError as exc:
            raise InvalidOption(str(exc)) from None
        p = params or {}
        self._search_params = {
            name: int(p.get(name, engine_params.rule_value(name, self.rule_code)))
            for name in engine_params.SEARCH_NUMBERS
        }
        try:
            self._order = combos.move_order(
                self.rule_code, str(p.get("ORDER", engine_params.ORDER))
            )
        except (OSError, ValueError) as exc:
            raise InvalidOption(f"move order: {exc}") from None
        self._lmr = S.lmr_table(
            float(p.get("LMR_BASE", engine_params.rule_value("LMR_BASE", self.rule_code))),
            float(p.get("LMR_DIVISOR", engine_params.rule_value("LMR_DIVISOR", self.rule_code))),
        )
        # the table's pages are written now (off any clock) unless the caller builds its
        # engine on a clock (the brain: its first TURN), where faulting in only the pages a
        # search touches costs less
        self._prefault = prefault
        self.tt = S.new_tt(hash_mb, prefault)
        self.stop_flag = np.zeros(1, dtype=np.int64)
        # the root VCT's own stop flag: raised by stop() with stop_flag, and by its share's
        # watchdog (which must not stop the search after it)
        self._vct_stop = np.zeros(1, dtype=np.int64)
        self._vct_ctx: VT.VctContext | None = None
        self._vct_ctl = np.zeros(0, dtype=np.int64)
        self._vct_last: tuple[int, int] | None = None  # the last solver run's attacker and ply
        # the stop contract (see stop()): searches are numbered; _stop_for is the number of the
        # last search a stop() was meant for, _running the one running (0: none)
        self._stop_lock = threading.Lock()
        self._generation = 0
        self._announced = False
        self._stop_for = 0
        self._running = 0
        self._age = 0
        self._contexts: list[S.SearchContext] = []
        # the moves of the last searched position and its score (the root VCT's hot share)
        self._last_root: tuple[list[Move], int] | None = None
        self.vct_stats: dict[str, int] = {}
        self.vct_free: int | None = None
        # the last search's root VCT: df-pn nodes, CPU seconds, whether it proved a win
        self.root_vct_stats: dict[str, float] = {}
        # the last search's defence checks (see _refuted_by_threats): solver runs, root moves
        # refuted, solver nodes, the gate's nodes
        self.defence_stats: dict[str, int] = {}
        self._refuted: list[int] = []
        self._defence: tuple[int | None, float | None] | None = None
        self._verify: tuple[int | None, float | None] | None = None  # the reply check's share
        self._verify_ctx: S.SearchContext | None = None
        # the opening book whose moves are played at the root (plies.gomoku.book.Book)
        self.book = None
        self.set_book(book)
        # the opening rule of the current search and the root cells it forbids (padded)
        self._opening_name = "free"
        self._banned = np.zeros(0, dtype=np.int32)
        self._warm(("search", "vct"))

    def _warm(self, parts: tuple[str, ...]) -> None:
        """Load (or compile) every kernel the search uses before any clock starts: the
        search's (``"search"``) and the root VCT's (``"vct"``; :func:`compile_kernels` asks
        for one part at a time)."""
        board = Board(width=self.width, height=self.height, rule=self.rule_code)
        cx, cy = self.width // 2, self.height // 2
        board.play_moves([(cx, cy), (cx + 1, cy), (cx, cy + 1)])
        st, tb = ST.state_from_board(board, self.tables)
        if "search" in parts:
            board.moves()  # MultiPV's count of the root moves
            ctx = S.new_context(st.cells.shape[0], S.new_tt(0.01), np.zeros(1, dtype=np.int64))
            S.pvs(st, tb, ctx, -S.INF, S.INF, 2, 0, -1)
            self._store_root(st, ctx, PVLine(Move(cx, cy + 2), 0, []), 1)  # MultiPV's call
        if "vct" in parts and self._search_params["ROOT_VCT_SHARE"] > 0:
            vctx = self._vct_context(st.cells.shape[0])
            vctx.ctl[VT.K_NODE_LIMIT] = 200
            VT.solve(st, tb, vctx, max_depth=2)
            # the kernels that read a proven line from the table
            n = max(0, int(VT.expand_node(st, tb, vctx, 0)))
            VT.child_entries(st, tb, vctx, n, np.zeros((VT.MAX_CHILDREN, 3), dtype=np.int64))
            VT.vcf_line(st, tb, vctx)
            VT.tt_forget(vctx, st.hashes[st.info[ST.I_PLY]])
            vctx.stop[0] = 1  # free_move's VCF probes return at once
            VT.free_move(st, tb, vctx)
            vctx.stop[0] = 0

    # --- housekeeping -----------------------------------------------------------------------
    def set_book(self, book) -> None:
        """Play book moves at the root from ``book`` (a :class:`~plies.gomoku.book.Book` or
        the path of one; None: no book). A book for another rule or size is an error."""
        if book is not None and not hasattr(book, "probe"):
            from plies.gomoku.book import Book

            book = Book(book)
        if book is not None and (book.rule, book.width, book.height) != (
            self._rule_name(),
            self.width,
            self.height,
        ):
            raise InvalidOption(
                f"book {book.path.name} is for {book.describe()}, the engine plays "
                f"{self._rule_name()} {self.width}x{self.height}"
            )
        self.book = book

    def _book_result(self, board: Board, multipv: int) -> SearchResult | None:
        """The best book move of this root as a result (score and depth of the book's
        search), or None: no book, not in it, or no book move the rules allow here."""
        if self.book is None or multipv != 1:
            return None
        banned = {int(p) for p in self._banned}
        moves = [m for m in self.book.probe(board) if self._to_pos(m.move) not in banned]
        if not moves:
            return None
        best = max(moves, key=lambda m: (m.score, m.visits))
        line = PVLine(best.move, best.score, [best.move])
        return SearchResult(
            best.move, best.score, win_probability(best.score), [best.move], best.depth,
            best.depth, 0, 0, 0.0, [line], book=True,
        )  # fmt: skip

    @property
    def leaf_vcf_nodes(self) -> int:
        """The last search's nodes in the horizon's VCF probes (main thread; counted in its
        ``nodes`` too): how much of the budget the leaves' threat checks took."""
        return int(self._contexts[0].stats[S.S_VCF_NODES]) if self._contexts else 0

    def new_game(self) -> None:
        """Forget everything learned (transposition table, histories). An engine built with
        ``prefault=False`` gets a fresh table of lazily zeroed pages instead of writing zeros
        over the old one, which would fault every page in at once (100 MB: 0.36 s, on the
        brain's first move of a game) and make the whole table resident."""
        if self._prefault:
            self.tt[:] = 0
        else:
            self.tt = S.new_tt(self.hash_mb, False)
        self._contexts = []
        self._last_root = None
        self._vct_last = None

    def begin(self) -> int:
        """Announce the next :meth:`search` and return its token.

        Call it where the search is decided, before handing it to another thread: a
        :meth:`stop` from then on stops that search, even one that lands before ``search()``
        has started (``search()`` alone forgets a stop that came before it, as a stray stop
        must not cut the next search short). Thread-safe.
        """
        with self._stop_lock:
            self._generation += 1
            self._announced = True
            return self._generation

    def stop(self, token: int | None = None) -> None:
        """Ask the running search to return its best move now, or the announced one (see
        :meth:`begin`) to return at once when it starts; with ``token``, only if that is the
        search's token. When no search is running or announced, nothing happens. Thread-safe.
        """
        with self._stop_lock:
            if token is None or token == self._generation:
                self._stop_for = self._generation
            if self._running and (token is None or token == self._running):
                self.stop_flag[0] = 1
                self._vct_stop[0] = 1

    def _claim(self) -> None:
        """Start the announced search, or number a new one: its stop flag is raised when a
        stop() came for it already."""
        with self._stop_lock:
            if not self._announced:
                self._generation += 1
            self._announced = False
            self._running = self._generation
            self.stop_flag[0] = 1 if self._stop_for == self._generation else 0
            self._vct_stop[0] = self.stop_flag[0]

    def _release(self) -> None:
        with self._stop_lock:
            self._running = 0
            self.stop_flag[0] = 0
            self._vct_stop[0] = 0

    def _check_board(self, board: Board) -> None:
        if board.rule_code != self.rule_code:
            raise InvalidOption(f"engine plays {self._rule_name()}, board is {board.rule}")
        if (board.width, board.height) != (self.width, self.height):
            raise InvalidOption(
                f"engine is set up for {self.width}x{self.height}, "
                f"board is {board.width}x{board.height}"
            )

    def _rule_name(self) -> str:
        from plies.gomoku.rules import RULE_NAMES

        return RULE_NAMES[self.rule_code]

    def _context(self, i: int, cells: int) -> S.SearchContext:
        while len(self._contexts) <= i:
            self._contexts.append(S.new_context(cells, self.tt, self.stop_flag))
        ctx = self._contexts[i]
        if ctx.history.shape[1] != cells:
            ctx = S.new_context(cells, self.tt, self.stop_flag)
            self._contexts[i] = ctx
        return ctx

    def _to_move(self, pos: int) -> Move:
        stride = self.width + 2 * PAD
        return Move(int(pos) % stride - PAD, int(pos) // stride - PAD)

    def _to_pos(self, m: Move) -> int:
        return (m.y + PAD) * (self.width + 2 * PAD) + m.x + PAD

    # --- threat solvers ---------------------------------------------------------------------
    def vcf(
        self,
        board: Board,
        max_depth: int = 64,
        max_nodes: int = 2_000_000,
        *,
        attacker: int | None = None,
    ) -> list[Move] | None:
        """A victory by continuous fours for the side to move, or None.

        The sequence alternates attacker and defender moves and ends with the five, or with a
        four whose only block the defender may not play (Renju forbidden point).
        ``attacker`` (1 black, 2 white) asks for that colour instead, as if it were to move:
        the threat the side to move faces.
        """
        self._check_board(board)
        if attacker not in (None, 1, 2):
            raise InvalidOption(f"attacker must be 1 (black) or 2 (white), not {attacker!r}")
        st, tb = ST.state_from_board(board, self.tables, attacker)
        keys, depth = V.new_vcf_tt()
        seq = np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64)
        stop = np.zeros(1, dtype=np.int64)
        counter = np.zeros(1, dtype=np.int64)
        n = V.vcf(st, tb, max_depth, max_nodes, keys, depth, seq, stop, counter)
        if n <= 0:
            return None
        return [self._to_move(p) for p in seq[:n]]

    def vct(
        self,
        board: Board,
        max_depth: int = 12,
        max_nodes: int = 5_000_000,
        movetime: float | None = None,
    ) -> list[Move] | None:
        """A victory by continuous threats (fours and threes) for the side to move, or None.

        Depth-first proof-number search (:mod:`plies.gomoku.engine.vct`) with at most
        ``max_depth`` attacker moves before the final VCF, within ``max_nodes`` nodes and
        ``movetime`` seconds. The line returned alternates attacker and defender moves, the
        defender's longest resistance, ending with the five (or with a four the defender may
        not block). ``self.vct_stats`` holds the node counts of the last call and
        ``self.vct_free`` the index in the line of a *free* defender move (the attacker's
        threat left no playable defence, so the defender's move there is any cell, a
        placeholder before the final VCF), else None.
        """
        self._check_board(board)
        st, tb = ST.state_from_board(board, self.tables)
        stop = np.zeros(1, dtype=np.int64)
        watchdog = None
        if movetime is not None:
            watchdog = _Watchdog(stop, time.perf_counter() + movetime)
            watchdog.start()
        try:
            ctx = VT.new_context(st.cells.shape[0], self.rule_code, stop)
            ctx.ctl[VT.K_NODE_LIMIT] = max_nodes
            self._set_vct_numbers(ctx.ctl)
            info: dict = {}
            line = VT.solve(st, tb, ctx, max_depth=max_depth, info=info)
            self.vct_free = info.get("free")
            self.vct_stats = {
                "nodes": int(ctx.ctl[VT.K_NODES]),
                "vcf_nodes": int(ctx.ctl[VT.K_VCF_NODES]),
            }
            if line is None:
                return None
            return [self._to_move(p) for p in line]
        finally:
            if watchdog is not None:
                watchdog.cancel()

    # --- search -----------------------------------------------------------------------------
    def search(
        self,
        board: Board,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: float | None = None,
        multipv: int = 1,
        *,
        time_left: float | None = None,
        increment: float = 0.0,
        info=None,
        target: float | None = None,
        full_time: bool = False,
        opening: str | None = None,
    ) -> SearchResult:
        """Search ``board`` for the side to move within the given limits.

        ``depth`` plies, ``nodes``, ``movetime`` seconds, or a clock (``time_left`` seconds and
        ``increment``); with no limit, depth 8. ``info`` is called with a :class:`SearchResult`
        after each completed iteration. ``target``: the seconds the caller means to spend when
        ``movetime`` is only its deadline (it stops the search itself); the root threat
        solver's share is taken from it. With ``multipv`` > 1, ``result.lines`` holds the best
        lines, best first (``result.move`` is line 1's move). :meth:`stop` ends it early; to
        stop it from another thread before it has started, announce it with :meth:`begin`.
        ``full_time``: search until ``movetime`` is up rather than stop when the next iteration
        looks too long to finish (a fixed time per move, where unused time is lost: an
        unfinished iteration still counts once its first root move is searched).
        ``opening``: the opening rule the move must obey (:mod:`plies.gomoku.opening_rule`),
        the board's own when None; the engine never names a move it forbids.
        """
        self._claim()
        try:
            if self._contexts:  # a book move or a root VCT win searches no tree
                self._contexts[0].stats[S.S_VCF_NODES] = 0
            self._opening_name = (
                board.opening if opening is None else opening_rule.opening_name(opening)
            )
            self._banned = self._opening_banned(board)
            if not board.is_over:
                hit = self._book_result(board, multipv)
                if hit is not None:
                    if info is not None:
                        info(hit)
                    return hit
            result = self._search(
                board, depth, nodes, movetime, multipv, time_left, increment, info, target,
                full_time,
            )  # fmt: skip
            self._last_root = (board.history, result.score)
            return result
        finally:
            self._release()

    def _opening_banned(self, board: Board) -> np.ndarray:
        """The padded cells the opening rule forbids at this root (empty array: none)."""
        name = self._opening_name
        if name == board.opening:
            banned = board.opening_banned()
        else:
            view = board.copy()
            view.opening = name
            banned = view.opening_banned()
        return np.array([self._to_pos(m) for m in banned], dtype=np.int32)

    def _open_ring(self, board: Board, st) -> None:
        """Make the cells the opening rule allows nearest to the centre root candidates (the
        search generates only cells near a stone; ``long-pro``'s move 3 may have none)."""
        if len(self._banned) == 0 or board.stones != 2:
            return
        c = opening_rule.centre(board.width, board.height)
        dist = opening_rule.min_distance(self._opening_name)
        for y in range(board.height):
            for x in range(board.width):
                if max(abs(x - c.x), abs(y - c.y)) == dist:
                    st.near[self._to_pos(Move(x, y))] += 1

    def _exclude_banned(self, ctx: S.SearchContext) -> int:
        """Reset the root exclusions to the opening's banned cells and the moves the defence
        check refuted; return their count (MultiPV lines are excluded after them)."""
        ctx.excluded[:] = -1
        nb = len(self._banned)
        ctx.excluded[:nb] = self._banned
        for p in self._refuted:
            ctx.excluded[nb] = p
            nb += 1
        return nb

    def _refuted_by_threats(self, board: Board, ctx: S.SearchContext, move: Move, deadline):
        """The defence check (``DEFENCE_VCT_SHARE``): whether the threat solver proves a win
        for the opponent after ``move``. A refuted move joins the root's exclusions (True);
        after ``DEFENCE_VCT_TRIES`` of them the position counts as lost, the exclusions are
        lifted and no more checks are made (False). The solver's nodes come out of the
        search's node limit, its time out of the search's."""
        if (self._defence is None and self._verify is None) or self.stop_flag[0] != 0:
            return False
        after = board.copy()
        after.play(move)
        if after.is_over:
            return False
        lost = False
        stats = self.defence_stats
        for budget, check in (
            (self._defence, self._opponent_wins),
            (self._verify, self._reply_wins),
        ):
            if budget is None or lost:
                continue
            nodes, seconds = budget
            left = int(ctx.stats[S.S_NODE_LIMIT] - ctx.stats[S.S_NODES])
            limit = max(1, min(nodes, left // 3)) if nodes is not None else None
            stop_at = None
            if seconds is not None:
                stop_at = time.perf_counter() + seconds
                if deadline is not None:
                    stop_at = min(stop_at, deadline)
            lost, used = check(after, limit, stop_at)
            if nodes is not None:
                ctx.stats[S.S_NODE_LIMIT] -= used
            stats["checks"] += 1
            stats["nodes"] += used
        if not lost:
            return False
        stats["refuted"] += 1
        if stats["refuted"] >= self._search_params["DEFENCE_VCT_TRIES"]:
            self._refuted = []
            self._defence = self._verify = None
            return False
        self._refuted.append(self._to_pos(move))
        return True

    def _threatened(self, st, tb, budget) -> int:
        """The defence check's gate: whether the opponent wins by threats if the side to move
        passes (the threat solver with a share's nodes and time); if so, the root moves are
        checked (``self._defence`` set). Returns the solver's nodes."""
        nodes, seconds = budget
        VT._null_flip(st, tb)
        try:
            line, used = self._solver_line(
                st, tb, nodes, None if seconds is None else time.perf_counter() + seconds
            )
        finally:
            VT._null_flip(st, tb)
        self.defence_stats["gate_nodes"] = used
        if line:  # unreplayed: a pass has no board
            self._defence = budget
        return used

    def _reply_wins(self, after: Board, nodes: int | None, stop_at: float | None):
        """The reply check (``DEFENCE_SEARCH_SHARE``): whether a search of ``after`` on its own
        (iterative deepening, the shared table, its own context and stop flag) proves a win
        for its side to move within ``nodes`` nodes and by ``stop_at``; and its nodes."""
        st, tb = ST.state_from_board(after, self.tables)
        self._open_ring(after, st)
        cells = st.cells.shape[0]
        vctx = self._verify_ctx
        if vctx is None or vctx.history.shape[1] != cells:
            vctx = self._verify_ctx = S.new_context(cells, self.tt, np.zeros(1, dtype=np.int64))
        self._prepare(vctx, nodes)
        vctx.excluded[:] = -1  # the root's banned cells and refuted moves are not this node's
        vctx.stop[0] = 0
        watchdog = None
        if stop_at is not None:
            watchdog = _Watchdog(vctx.stop, stop_at)
            watchdog.start()
        won = False
        try:
            for depth in range(1, 64):
                if self.stop_flag[0] != 0:
                    break
                score = int(S.pvs(st, tb, vctx, -S.INF, S.INF, depth, 0, -1))
                if vctx.stop[0] != 0:
                    break
                if abs(score) > S.WIN_BOUND:
                    won = score > S.WIN_BOUND
                    break
        finally:
            if watchdog is not None:
                watchdog.cancel()
        return won, int(vctx.stats[S.S_NODES])

    def _opponent_wins(self, after: Board, nodes: int | None, stop_at: float | None):
        """Whether the threat solver proves a win for the side to move of ``after`` (its line
        replayed) within ``nodes`` nodes and by ``stop_at``; and its nodes."""
        st, tb = ST.state_from_board(after, self.tables)
        line, used = self._solver_line(st, tb, nodes, stop_at)
        moves = [self._to_move(p) for p in line] if line else []
        return bool(moves) and _replays_as_win(after, moves), used

    def _solver_line(
        self, st, tb, nodes: int | None, stop_at: float | None, info: dict | None = None
    ):
        """The threat solver's line for the side to move of ``st`` (None: none found) within
        ``nodes`` nodes and by ``stop_at`` (perf_counter seconds), and its nodes; a stop by
        the caller ends it at once. Its own stop flag is raised by ``stop()`` and by a
        watchdog at ``stop_at``, which must not stop a search after it. ``info``: see
        :func:`vct.solve`."""
        ctx = self._vct_context(st.cells.shape[0], st)
        if nodes is not None:
            ctx.ctl[VT.K_NODE_LIMIT] = nodes
        with self._stop_lock:
            if self._stop_for == self._running:
                return None, 0  # the caller stopped the search
            self._vct_stop[0] = 0  # raised by the root VCT's watchdog, perhaps
        watchdog = None
        if stop_at is not None:
            watchdog = _Watchdog(self._vct_stop, stop_at)
            watchdog.start()
        try:
            line = VT.solve(st, tb, ctx, max_depth=self._search_params["ROOT_VCT_DEPTH"], info=info)
        finally:
            if watchdog is not None:
                watchdog.cancel()
            with self._stop_lock:
                if self._stop_for != self._running:
                    self._vct_stop[0] = 0  # the share's watchdog, not the caller's stop
        return line, int(ctx.ctl[VT.K_NODES])

    def _search(
        self, board, depth, nodes, movetime, multipv, time_left, increment, info, target, full_time
    ):
        self._check_board(board)
        if board.is_over:
            raise InvalidOption("the game is over: nothing to search")
        if multipv < 1:
            raise InvalidOption(f"multipv must be at least 1, not {multipv}")
        if target is not None and not target >= 0:
            raise InvalidOption(f"target must be a non-negative number of seconds, not {target}")
        if movetime is None and time_left is not None:
            movetime = self.allocate_time(board, time_left, increment)
        if depth is None and nodes is None and movetime is None:
            depth = 8
        max_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
        self._age = (self._age + 1) & 0xFF
        start = time.perf_counter()
        deadline = start + movetime if movetime is not None else None
        watchdog = None
        if deadline is not None:
            watchdog = _Watchdog(self.stop_flag, deadline)
            watchdog.start()
        helpers = []
        vct_nodes = 0
        self._refuted = []
        self.defence_stats = {"checks": 0, "refuted": 0, "nodes": 0}
        self._defence = self._verify = None
        try:
            st, tb = ST.state_from_board(board, self.tables)
            result = None
            if multipv == 1 and len(self._banned) == 0:
                vct_time = movetime if target is None or movetime is None else min(target, movetime)
                result = self._root_vct(board, st, tb, start, vct_time, nodes)
                vct_nodes = int(self.root_vct_stats.get("nodes", 0))
            if result is not None:
                if info is not None:
                    info(result)
                return result
            if nodes is not None:
                nodes = max(1, nodes - vct_nodes)
            share = self._search_params["DEFENCE_VCT_SHARE"]
            if share > 0 and multipv == 1 and (nodes is not None or movetime is not None):
                budget = (
                    None if nodes is None else max(1, nodes * share // 100),
                    None if movetime is None else movetime * share / 100,
                )
                # the gate: only a side that would win by threats if it moved now can do so
                # after our move (a stone of ours takes nothing from us and adds nothing to the
                # opponent's lines), so the moves are checked only when passing loses
                used = self._threatened(st, tb, budget)
                vct_nodes += used
                if nodes is not None:
                    nodes = max(1, nodes - used)
            share = self._search_params["DEFENCE_SEARCH_SHARE"]
            if share > 0 and multipv == 1 and (nodes is not None or movetime is not None):
                self._verify = (
                    None if nodes is None else max(1, nodes * share // 100),
                    None if movetime is None else movetime * share / 100,
                )
            for i in range(1, self.threads):
                hst, _ = ST.state_from_board(board, self.tables)
                self._open_ring(board, hst)
                hctx = self._context(i, hst.cells.shape[0])
                self._prepare(hctx, None)
                t = threading.Thread(
                    target=self._helper_loop, args=(hst, tb, hctx, max_depth, i), daemon=True
                )
                helpers.append((t, hctx))
                t.start()
            self._open_ring(board, st)
            ctx = self._context(0, st.cells.shape[0])
            self._prepare(ctx, nodes)
            pvs_start = time.perf_counter() if vct_nodes else start
            result = self._iterate(
                board, st, tb, ctx, max_depth, multipv, pvs_start, deadline, info, full_time
            )
        finally:
            self.stop_flag[0] = 1
            for t, _ in helpers:
                t.join()
            if watchdog is not None:
                watchdog.cancel()
        vct_nodes += self.defence_stats["nodes"]
        total_nodes = result.nodes + vct_nodes + sum(int(h.stats[S.S_NODES]) for _, h in helpers)
        elapsed = time.perf_counter() - start
        result.nodes = total_nodes
        result.time = elapsed
        result.nps = int(total_nodes / elapsed) if elapsed > 0 else 0
        return result

    def _set_vct_numbers(self, ctl: np.ndarray) -> None:
        """The engine numbers that tune its own threat-solver runs (``VCT_*``)."""
        ctl[VT.K_LOOKAHEAD] = self._search_params["VCT_LOOKAHEAD"]
        ctl[VT.K_VCF_BUDGET] = self._search_params["VCT_VCF_BUDGET"]

    def _vct_context(self, cells: int, st=None) -> VT.VctContext:
        """The root VCT's context, allocated once; its tables are cleared for each solver run
        unless ``VCT_KEEP`` is on and the run (for the side to move of ``st``) continues the
        last one: the same attacker, no fewer stones (:meth:`_keeps_vct_tables`)."""
        ctx = self._vct_ctx
        if ctx is None or ctx.marks.shape[0] != cells:
            ctx = VT.new_context(
                cells, self.rule_code, self._vct_stop, ROOT_VCT_TT_BITS, ROOT_VCT_EXP_BITS
            )
            self._set_vct_numbers(ctx.ctl)
            self._vct_ctx = ctx
            self._vct_ctl = ctx.ctl.copy()
        else:
            ctx.ctl[:] = self._vct_ctl
            if self._keeps_vct_tables(st):
                VT.forget_disproofs(ctx)
            else:
                ctx.tt_keys[:] = 0
                ctx.tt_val[:] = 0
                ctx.exp_keys[:] = 0
                ctx.vcf_keys[:] = 0
            ctx.marks[:] = 0
            ctx.marks2[:] = 0
            ctx.seen[:] = 0
        self._vct_last = None if st is None else (int(st.info[ST.I_SIDE]), int(st.info[ST.I_PLY]))
        return ctx

    def _keeps_vct_tables(self, st) -> bool:
        """Whether a solver run for the side to move of ``st`` keeps what the last run learned
        (``VCT_KEEP``): the same attacker and no fewer stones. Fewer stones (a new game), the
        other side attacking (a defence check) or ``new_game`` clear the tables: a position is
        an OR node for its attacker and an AND node for the defender, and the tables do not
        say which. Proofs are facts of the position, so a kept one is never wrong."""
        if not self._search_params["VCT_KEEP"] or st is None or self._vct_last is None:
            return False
        side, ply = self._vct_last
        return side == int(st.info[ST.I_SIDE]) and ply <= int(st.info[ST.I_PLY])

    def _root_vct_share(self, board: Board) -> int:
        """The root VCT's percent of the budget: ``ROOT_VCT_HOT_SHARE`` when this engine's
        last search was of the same game two plies earlier (the same side to move) and scored
        at least ``ROOT_VCT_HOT_SCORE``, else ``ROOT_VCT_SHARE``."""
        p = self._search_params
        last = self._last_root
        if p["ROOT_VCT_HOT_SHARE"] > 0 and last is not None:
            moves, score = last
            now = board.history
            if score >= p["ROOT_VCT_HOT_SCORE"] and len(now) == len(moves) + 2:
                if now[: len(moves)] == moves:
                    return p["ROOT_VCT_HOT_SHARE"]
        return p["ROOT_VCT_SHARE"]

    def _root_vct(self, board, st, tb, start, movetime, nodes) -> SearchResult | None:
        """The threat solver at the root: a proven win of the side to move within
        ``ROOT_VCT_SHARE`` percent of the time (or node) budget, as a search result, or None.
        A depth-only search has no budget to share and runs no VCT."""
        self.root_vct_stats = {}
        share = self._root_vct_share(board)
        if share <= 0 or (movetime is None and nodes is None) or self.stop_flag[0] != 0:
            return None
        t0 = time.process_time()
        info: dict = {}
        line, used = self._solver_line(
            st,
            tb,
            None if nodes is None else max(1, nodes * share // 100),
            None if movetime is None else start + movetime * share / 100,
            info,
        )
        moves = [self._to_move(p) for p in line] if line else []
        won = bool(moves) and _replays_as_win(board, moves)
        self.root_vct_stats = {
            "nodes": used,
            "cpu": time.process_time() - t0,
            "proved": int(won),
            "rejected": int(bool(moves) and not won),
            # the index of a free defender move in the line (a placeholder, vct.solve), or -1
            "free": -1 if info.get("free") is None else int(info["free"]),
        }
        if not won:
            return None
        score = S.WIN - len(moves)
        elapsed = time.perf_counter() - start
        line1 = PVLine(moves[0], score, moves)
        return SearchResult(
            moves[0],
            score,
            win_probability(score),
            moves,
            len(moves),
            len(moves),
            used,
            int(used / elapsed) if elapsed > 0 else 0,
            elapsed,
            [line1],
        )

    def allocate_time(self, board: Board, time_left: float, increment: float = 0.0) -> float:
        """Seconds to spend on this move from a clock: a share of the time left (more in the
        opening and middle game, whose positions decide Gomoku games) plus most of the
        increment, never more than a third of what is left."""
        empties = board.width * board.height - len(board)
        moves_to_go = max(10, min(40, empties // 4))
        budget = time_left / moves_to_go + 0.8 * increment
        return max(0.0, min(budget, time_left / 3))

    def _prepare(self, ctx: S.SearchContext, nodes: int | None) -> None:
        ctx.stats[:] = 0
        ctx.stats[S.S_NODE_LIMIT] = nodes if nodes is not None else (1 << 62)
        ctx.stats[S.S_AGE] = self._age
        for slot, name in S.STAT_PARAMS:
            ctx.stats[slot] = self._search_params[name]
        if self._order is not None:
            ctx.order[:] = self._order
            ctx.stats[S.S_ORDER] = 1
        ctx.killers[:] = -1
        self._exclude_banned(ctx)
        ctx.features[:] = self.features
        ctx.lmr[:] = self._lmr
        ctx.history[:] //= 4

    def _helper_loop(self, st, tb, ctx, max_depth: int, index: int) -> None:
        depth = 1 + (index & 1)
        while self.stop_flag[0] == 0 and depth <= max_depth:
            S.pvs(st, tb, ctx, -S.INF, S.INF, depth, 0, -1)
            depth += 1

    def _iterate(self, board, st, tb, ctx, max_depth, multipv, start, deadline, info, full_time):
        result = SearchResult(None, 0, 0.5, [], 0, 0, 0, 0, 0.0)
        multipv = min(multipv, max(1, len(board.moves())))
        checked: set = set()
        d = 0
        while d < max_depth:
            d += 1
            lines: list[PVLine] = []
            nb = self._exclude_banned(ctx)
            aborted = False
            for k in range(multipv):
                if k > 0:
                    self._seed_root(st, ctx, result.lines, nb + k, d - 1)
                self._aspiration(st, tb, ctx, d, result.score if k == 0 else None)
                best = int(ctx.stats[S.S_ROOT_BEST])
                if self.stop_flag[0] != 0:
                    aborted = True
                    # a partial iteration counts only for the first line, and only once the
                    # first root move (the previous best) has been searched in full
                    if k > 0 or ctx.stats[S.S_ROOT_DONE] == 0 or best < 0:
                        break
                if best < 0 or best in ctx.excluded[: nb + k]:
                    break  # no move left; or a five at the root, which ignores the exclusions
                pv = [self._to_move(p) for p in ctx.pv[0, : ctx.pvlen[0]]]
                if not pv or pv[0] != self._to_move(best):
                    pv = [self._to_move(best)]
                lines.append(PVLine(self._to_move(best), int(ctx.stats[S.S_ROOT_SCORE]), pv))
                ctx.excluded[nb + k] = best
                if aborted:
                    break
            if len(lines) > 1:
                # each line's score is exact at this depth, but a later line's move was only
                # searched reduced or with a null window while an earlier line was found; its
                # own full-window search can score it higher: best first (stable, like the
                # root-move sort of Stockfish), so the best move is always line 1
                lines.sort(key=lambda line: -line.score)
                if not aborted:
                    # the root's table entry holds the last line's move (each line's search
                    # stores it): put the best back, the first move of the next iteration
                    self._store_root(st, ctx, lines[0], d)
            if lines and (not aborted or len(lines) >= len(result.lines)):
                top = lines[0]
                result = SearchResult(
                    top.move,
                    top.score,
                    win_probability(top.score),
                    top.pv,
                    d if not aborted else result.depth,
                    int(ctx.stats[S.S_SELDEPTH]),
                    int(ctx.stats[S.S_NODES]),
                    0,
                    0.0,
                    lines,
                )
            if aborted:
                break
            if (
                multipv == 1
                and lines
                and d >= self._search_params["DEFENCE_VCT_DEPTH"]
                and result.move not in checked
                and ctx.stats[S.S_ROOT_MOVES] > 1
            ):
                if self._refuted_by_threats(board, ctx, result.move, deadline):
                    d -= 1  # the same depth again without the refuted move
                    continue
                checked.add(result.move)
            elapsed = time.perf_counter() - start
            result.time = elapsed
            result.nps = int(result.nodes / elapsed) if elapsed > 0 else 0
            if info is not None:
                info(result)
            if result.score > S.WIN_BOUND:
                break  # a proven win: nothing to gain from searching on
            if ctx.stats[S.S_ROOT_MOVES] == 1 and multipv == 1 and deadline is not None:
                break  # a single candidate (a forced block): answer at once on a clock
            if (
                not full_time
                and deadline is not None
                and deadline - time.perf_counter() < 0.6 * elapsed
            ):
                break
        result.nodes = int(ctx.stats[S.S_NODES])
        banned = {int(p) for p in self._banned} | set(self._refuted)
        if result.move is not None and self._to_pos(result.move) in banned:
            # a move the defence check refuted, kept because the search of the same depth
            # without it was stopped before its first root move: the fallback below instead
            result.move = None
            result.pv = []
            result.lines = []
        if result.move is None:
            # stopped before the first iteration finished: a five to make, else the opponent's
            # five to block, else the first ordered move
            urgent = self._urgent_cell(st)
            if urgent >= 0 and urgent not in banned:
                m = self._to_move(urgent)
                result.move = m
                result.pv = [m]
        if result.move is None:
            n = S.generate(st, ctx, 0, -1, False, -1)
            for i in range(n):
                S.pick_next(ctx, 0, i, n)
                if int(ctx.moves[0, i]) not in banned:
                    m = self._to_move(ctx.moves[0, i])
                    result.move = m
                    result.pv = [m]
                    break
        if result.move is None:
            # no candidate near the stones at all: any move the side to move may play
            playable = [
                m
                for m in board.moves()
                if not board.is_forbidden(m) and self._to_pos(m) not in banned
            ]
            if playable:
                result.move = playable[0]
                result.pv = [playable[0]]
        return result

    @staticmethod
    def _urgent_cell(st) -> int:
        """The cell where the side to move makes five, else the one where it blocks the
        opponent's five (when it may play there), else -1."""
        s = int(st.info[ST.I_SIDE]) - 1
        own = int(V.first_cell_of_class(st, s, ST.C_FIVE))
        if own >= 0:
            return own
        block = int(V.first_cell_of_class(st, 1 - s, ST.C_FIVE))
        if block >= 0 and not V.forbidden_for(st, s + 1, block):
            return block
        return -1

    def _seed_root(self, st, ctx, previous: list[PVLine], k: int, depth: int) -> None:
        """Before line ``k`` of a MultiPV iteration: the first of the previous iteration's
        lines not yet taken becomes the root's table move, searched first."""
        taken = {int(p) for p in ctx.excluded[:k]}
        for line in previous:
            if self._to_pos(line.move) not in taken:
                self._store_root(st, ctx, line, depth)
                return

    def _store_root(self, st, ctx, line: PVLine, depth: int) -> None:
        """Make ``line`` the root's table entry (its move is then searched first)."""
        key = st.hashes[st.info[ST.I_PLY]]
        S.tt_store(ctx, key, self._to_pos(line.move), line.score, depth, S.BOUND_EXACT)

    def _aspiration(self, st, tb, ctx, depth: int, prev: int | None) -> int:
        ctx.stats[S.S_ROOT_BEST] = -1
        ctx.stats[S.S_ROOT_DONE] = 0
        if prev is None or depth < 5 or abs(prev) > S.WIN_BOUND:
            return int(S.pvs(st, tb, ctx, -S.INF, S.INF, depth, 0, -1))
        delta = 50
        alpha = prev - delta
        beta = prev + delta
        while True:
            score = int(S.pvs(st, tb, ctx, alpha, beta, depth, 0, -1))
            if self.stop_flag[0] != 0:
                return score
            if score <= alpha:
                alpha = score - delta
            elif score >= beta:
                beta = score + delta
            else:
                return score
            delta *= 2
            if delta > 1000:
                alpha, beta = -S.INF, S.INF


def _replays_as_win(board: Board, line: list[Move]) -> bool:
    """Whether ``line`` (attacker first) is legal from ``board`` and ends with the attacker's
    five, or with its four that the defender cannot block (two winning points, or the only one
    forbidden to Renju black): a guard against a line read from a table cut short by a stop."""
    attacker = board.to_move
    replay = board.copy()
    try:
        for m in line:
            if replay.is_over or not replay.is_legal(m):
                return False
            replay.play(m)
    except Exception:  # noqa: BLE001 - any illegal move: not a win
        return False
    if replay.is_over:
        return replay.winner == attacker
    if len(line) % 2 == 0:
        return False  # the defender moved last
    stride = rules.padded_stride(replay.width)
    cells = replay.cells
    fives = []
    for y in range(replay.height):
        for x in range(replay.width):
            p = int(rules.to_pos(x, y, stride))
            if cells[p] == rules.EMPTY and rules.makes_five(
                cells, stride, p, attacker, replay.rule_code
            ):
                fives.append(p)
    if len(fives) >= 2:
        return True
    return (
        len(fives) == 1
        and replay.rule_code == rules.RENJU
        and attacker == rules.WHITE
        and bool(rules.is_forbidden(cells, stride, fives[0]))
    )


class _Watchdog(threading.Thread):
    """Raises the stop flag at the deadline (or never, if cancelled first)."""

    def __init__(self, flag: np.ndarray, deadline: float) -> None:
        super().__init__(daemon=True)
        self.flag = flag
        self.deadline = deadline
        self._cancel = threading.Event()

    def run(self) -> None:
        remaining = self.deadline - time.perf_counter()
        if remaining > 0 and self._cancel.wait(remaining):
            return
        self.flag[0] = 1

    def cancel(self) -> None:
        self._cancel.set()


class _PartEngine(Engine):
    """An engine that warms one part of the kernels only (see :func:`compile_kernels`)."""

    def __init__(self, part: str) -> None:
        self._part = part
        super().__init__("renju", 15, hash_mb=0.25)

    def _warm(self, parts: tuple[str, ...]) -> None:
        super()._warm((self._part,))


def compile_kernels(part: str) -> None:
    """Compile (or load from the numba cache) one part of the engine's kernels: ``"common"``
    (the state, make/undo, the evaluation and the VCF: what the other two call), ``"search"``
    (the search) or ``"vct"`` (the threat solver). After ``"common"``, two processes may
    compile the other two at once (``plies.warmup`` does on a cold cache); an engine built
    afterwards loads them all from the cache."""
    if part not in ("common", "search", "vct"):
        raise InvalidOption(f"unknown kernel part {part!r}: expected common, search or vct")
    board = Board.from_moves(["h8", "h9", "i8", "i9", "j7"], 15, "renju")
    if part == "common":
        # what both parts call: the tables, the state, make/undo, the evaluation and the VCF;
        # compiled first, so that the two parts compiled at once do not both compile them
        tables = ST.make_tables(rule_code("renju"), None)
        st, tb = ST.state_from_board(board, tables)
        ST.make(st, tb, int(rules.to_pos(10, 10, st.info[ST.I_STRIDE])))
        ST.evaluate(st, tb)
        ST.undo(st, tb)
        keys, depth = V.new_vcf_tt()
        seq = np.zeros(2 * V.MAX_VCF_DEPTH + 4, dtype=np.int64)
        V.vcf(st, tb, 64, 1000, keys, depth, seq, np.zeros(1, np.int64), np.zeros(1, np.int64))
        return
    engine = _PartEngine(part)
    if part == "search":
        engine.vcf(board, max_nodes=1000)
    else:
        engine.vct(board, max_depth=2, max_nodes=2000)


def compile_common() -> None:
    """:func:`compile_kernels` ``("common")`` (an entry of ``plies.warmup``)."""
    compile_kernels("common")


def compile_search() -> None:
    """:func:`compile_kernels` ``("search")`` (an entry of ``plies.warmup``)."""
    compile_kernels("search")


def compile_vct() -> None:
    """:func:`compile_kernels` ``("vct")`` (an entry of ``plies.warmup``)."""
    compile_kernels("vct")


def warmup() -> None:
    """Compile (or load from the numba cache) the engine's kernels: search, VCF and VCT."""
    engine = Engine("renju", 15, hash_mb=1)
    board = Board.from_moves(["h8", "h9", "i8", "i9", "j7"], 15, "renju")
    engine.search(board, depth=3)
    engine.vcf(board)
    engine.vct(board, max_depth=2, max_nodes=2000)
