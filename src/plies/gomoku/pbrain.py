"""``pbrain-plies``: a Gomocup brain speaking the Piskvork protocol (version 2) on stdin/stdout.

Also reachable as ``plies pbrain``. Supported: START, RECTSTART, RESTART, BEGIN, TURN, BOARD,
INFO, END, ABOUT, TAKEBACK, PLAY, SWAP2BOARD and Yixin's YXBOARD, YXSTOP, YXSHOWFORBID,
YXHASHCLEAR (docs/pbrain.md).

Threads: a reader thread turns stdin lines into a queue (so YXSTOP and END are seen while a
search runs), the main thread interprets commands, a worker thread thinks and prints the move,
and a warm-up thread loads the numba kernels from the moment the process starts. This module
imports nothing heavy at the top, so ``START`` is answered before numba has loaded.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from plies import __version__
from plies.errors import InvalidOption
from plies.gomoku import opening_rule

if TYPE_CHECKING:  # pragma: no cover
    from plies.gomoku.board import Board

NAME = "pbrain-plies"
MIN_SIZE, MAX_SIZE = 5, 22  # plies.gomoku.rules.MIN_SIZE / MAX_SIZE (checked by a test)
MAX_LINE = 65536  # longer lines are cut (the protocol allows it)

OWN, OPP, WALL = 1, 2, 3  # pbrain BOARD fields
# Gomocup defaults when a manager sends no INFO (those of the reference brain skeleton)
DEFAULT_INFO = {
    "timeout_turn": 30_000,
    "timeout_match": 1_000_000_000,
    "time_left": 1_000_000_000,
    "max_memory": 0,
    "rule": 0,
    "game_type": 1,
    "thread_num": 1,
}
INT_KEYS = frozenset(
    {
        "timeout_turn",
        "timeout_match",
        "time_left",
        "max_memory",
        "game_type",
        "rule",
        "thread_num",
        "max_depth",
        "max_node",
        "debug",
    }
)
DEFAULT_HASH_MB = 64  # with max_memory 0
MAX_THREADS = 256  # INFO thread_num above this is an ERROR (each thread holds its own buffers)
START_WAIT_S = 15.0  # START waits this long at most for the kernels (docs/pbrain.md)
FAST_MOVE_S = 0.02  # timeout_turn 0: "play as fast as possible"
# Reply latency not covered by the search's own deadline (stdin/stdout, thread hand-over,
# Python after the stop flag): base plus a share of the time limit. Measured: docs/pbrain.md.
MARGIN_BASE_S = 0.05
MARGIN_SHARE = 0.04
MARGIN_MAX_S = 0.3
# a fixed time per move (no match clock) is searched to the limit less a reserve for the reply's
# latency: every move then runs that long, so the reserve must cover the tail of that latency on
# a busy machine. It is tens of ms whatever the turn (session 25: at most 26 ms over 24,818
# replies of 0.5 s turns at load 2; a 200 ms turn searched to its deadline was answered in 205
# ms at load 4), so the reserve is FIXED_RESERVE_S, but the search gets at least FIXED_SHARE of
# the clock's hard deadline (short turns)
FIXED_SHARE = 0.8
FIXED_RESERVE_S = 0.06
MEMORY_SLACK = 24 * 1024 * 1024  # bytes kept free below max_memory (allocator, stacks, I/O)
FALLBACK_RSS = 260 * 1024 * 1024  # baseline assumed where RSS cannot be read (not Linux)

_COORD = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_INT = re.compile(r"[+-]?[0-9]{1,18}")  # INFO integers (beyond 10**18: not a sane setting)
_FIELD = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


class BrainError(Exception):
    """A malformed command or an illegal move: answered ``ERROR <message>``."""


def rule_from_info(value: int) -> tuple[str, bool]:
    """The plies rule name and the continuous-game flag of an ``INFO rule`` bit set
    (1 exactly five, 2 continuous game, 4 Renju, 8 Caro; 8|1 Caro with exactly five)."""
    if value < 0:
        raise BrainError(f"INFO rule {value}: expected a non-negative bit set")
    continuous = bool(value & 2)
    if value & 4:
        return "renju", continuous
    if value & 8:
        return ("caro5" if value & 1 else "caro"), continuous
    return ("standard" if value & 1 else "freestyle"), continuous


def engine_param(text: str) -> tuple[str, int | float | str]:
    """``NAME=VALUE`` of ``INFO param`` (plies' own key, for tuning matches against other
    brains): a tunable engine number or table choice of :mod:`plies.gomoku.engine.params`,
    checked; raises :class:`BrainError` with the reason."""
    from plies.gomoku.engine import params

    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    try:
        if not sep:
            raise KeyError(name)
        if name in params.TABLE_CHOICES:
            return name, params.check_table(name, value)
        return name, params.parse_number(name, value)
    except KeyError:
        raise BrainError(
            f"INFO param {text[:60]!r}: expected NAME=VALUE with NAME a scalar of the engine's "
            "params (e.g. THREAT=off, LMR_BASE=0.75)"
        ) from None
    except ValueError as exc:
        raise BrainError(f"INFO param {text[:60]!r}: {str(exc)[:120]}") from None


def info_int(key: str, value: str) -> int:
    """The value of an integer ``INFO`` key, or :class:`BrainError` naming the key and value:
    every such key is a non-negative integer (``thread_num`` at least 1, ``rule`` a bit set),
    and a bad value keeps the previous setting (the caller stores nothing)."""
    if not _INT.fullmatch(value):
        raise BrainError(f"INFO {key} {value[:40]!r}: expected an integer")
    number = int(value)
    if key == "rule":
        rule_from_info(number)
    lowest = 1 if key == "thread_num" else 0
    if number < lowest:
        what = "at least 1" if lowest else "a non-negative integer"
        raise BrainError(f"INFO {key} {number}: expected {what}")
    if key == "thread_num" and number > MAX_THREADS:
        raise BrainError(f"INFO thread_num {number}: expected at most {MAX_THREADS}")
    return number


def parse_xy(text: str, width: int, height: int) -> tuple[int, int]:
    """``x,y`` on a ``width`` x ``height`` board, or :class:`BrainError`."""
    m = _COORD.match(text)
    if not m:
        raise BrainError(f"cannot read coordinates {text.strip()[:40]!r}: expected x,y")
    x, y = int(m.group(1)), int(m.group(2))
    if not (0 <= x < width and 0 <= y < height):
        raise BrainError(f"{x},{y} is off the {width}x{height} board")
    return x, y


def rss_bytes() -> int | None:
    """The process's resident set size now (Linux), else None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def peak_rss_bytes() -> int | None:
    """The process's peak resident set size (Linux VmHWM), else None."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def thread_bytes(width: int, height: int) -> int:
    """Memory of one search thread's buffers beyond the shared hash: the (side, move, reply)
    continuation history dominates, ``2 * cells^2`` int16 over the padded board."""
    cells = (width + 10) * (height + 10)
    return 4 * cells * cells + 6 * 1024 * 1024


def hash_mb_for(
    max_memory: int, baseline: int, width: int, height: int, threads: int, fixed: int = 0
) -> float:
    """Hash size in MB under ``max_memory`` bytes (0 = the default), given the baseline RSS
    and ``fixed`` bytes the engine holds besides its hash and threads (the root VCT's tables)."""
    if max_memory <= 0:
        return float(DEFAULT_HASH_MB)
    free = max_memory - baseline - MEMORY_SLACK - fixed - threads * thread_bytes(width, height)
    return max(0.25, min(4096.0, free / (1024 * 1024)))


@dataclass
class Budget:
    """Time for one move: ``soft`` is the target, ``hard`` the deadline (both seconds from
    now), ``limit`` the manager's limit the reply must beat; ``fixed`` when only a time per move
    limits it (no match clock): then time not used is lost, and the search runs to ``hard``."""

    soft: float
    hard: float
    limit: float
    note: str = ""
    fixed: bool = False


def time_budget(
    info: dict[str, int],
    elapsed: float,
    allocate: Callable[[float], float],
) -> Budget:
    """The budget of a move from the INFO keys, with ``elapsed`` seconds already spent since
    the command arrived and ``allocate(seconds_left)`` the engine's share of a match clock."""
    turn_ms = info["timeout_turn"]
    match_ms = info["timeout_match"]
    limits = []
    if turn_ms > 0:
        limits.append(turn_ms / 1000)
    if match_ms > 0:
        limits.append(max(0, info["time_left"]) / 1000)
    limit = min(limits) if limits else float("inf")
    if turn_ms <= 0:
        hard = soft = FAST_MOVE_S
        note = "timeout_turn 0: fast"
    else:
        turn = turn_ms / 1000
        hard = turn - min(MARGIN_MAX_S, MARGIN_BASE_S + MARGIN_SHARE * turn)
        if match_ms <= 0:
            hard = fixed_search_time(turn, hard)
        soft = hard
        note = f"turn {turn:.3f}s"
    if match_ms > 0:
        left = max(0, info["time_left"]) / 1000
        usable = left - min(MARGIN_MAX_S, MARGIN_BASE_S + MARGIN_SHARE * left)
        share = allocate(max(0.0, usable))
        soft = min(soft, share)
        hard = min(hard, 3 * share, usable / 3 if usable > 0 else 0.0)
        note += f", left {left:.3f}s share {share:.3f}s"
    hard = max(0.0, hard - elapsed)
    soft = max(0.0, min(soft - elapsed, hard))
    return Budget(soft, hard, limit, note, fixed=turn_ms > 0 and match_ms <= 0)


def fixed_search_time(turn: float, hard: float) -> float:
    """How long a move under a fixed ``turn`` seconds a move (no match clock) is searched,
    given the clock's hard deadline ``hard``: the turn less :data:`FIXED_RESERVE_S`, or
    :data:`FIXED_SHARE` of ``hard`` when that is longer (0.5 s turns: 440 ms; 0.2 s: 140 ms;
    1 s: 940 ms)."""
    return max(hard * FIXED_SHARE, turn - FIXED_RESERVE_S)


@dataclass
class Game:
    """The position as the manager described it: stones in arrival order."""

    width: int = 0
    height: int = 0
    stones: list[tuple[int, int, int]] = field(default_factory=list)  # (x, y, field)
    own_color: int = 0  # 1 black, 2 white, 0 not known yet (empty board)
    own_next: bool = True  # whether the brain is the side to move
    used: float = 0.0  # seconds the brain spent on its moves (match clock without time_left)

    def at(self, x: int, y: int) -> int | None:
        for i, (sx, sy, _) in enumerate(self.stones):
            if sx == x and sy == y:
                return i
        return None


class Brain:
    """The protocol state machine. ``Brain(stdin, stdout).run()`` until END or end of input."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self._write_lock = threading.Lock()
        self.lines: queue.Queue[tuple[float, str] | None] = queue.Queue()
        self.info: dict[str, Any] = dict(DEFAULT_INFO)
        self.params: dict[str, Any] = {}  # INFO param: engine numbers for tuning matches
        self.info_sent: set[str] = set()
        self.debug = os.environ.get("PLIES_PBRAIN_DEBUG", "") not in ("", "0")
        self.game: Game | None = None
        self.engine: Any = None
        self._book: Any = None  # the opening book for _book_key (plies.gomoku.book.Book)
        self._book_key: tuple | None = None
        self._engine_key: tuple | None = None
        self._board_cache: Board | None = None
        self._rules_ready = threading.Event()
        self._engine_ready = threading.Event()
        self.warm_error: str | None = None
        self.warm_seconds: float | None = None
        self.baseline_rss: int | None = None
        self._worker: threading.Thread | None = None
        self._stop = threading.Event()
        self._new_game = True
        self.compiled = False  # the kernels are ahead-of-time compiled (use_compiled_kernels)

    # --- output -----------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self._write_lock:
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):
                pass  # the manager closed our stdout: nothing to tell anyone

    def message(self, text: str) -> None:
        self.send("MESSAGE " + text)

    def dbg(self, text: str) -> None:
        if self.debug:
            self.send("DEBUG " + text)

    # --- start-up ---------------------------------------------------------------------------
    def start_warmup(self) -> None:
        threading.Thread(target=self._warmup, name="pbrain-warmup", daemon=True).start()

    def _warmup(self) -> None:
        start = time.perf_counter()
        try:
            load_kernels(self._rules_ready.set, compiled=self.compiled)
            freeze_heap()
            self.baseline_rss = rss_bytes()
        except BaseException as exc:  # noqa: BLE001 - reported on the first move
            self.warm_error = f"{type(exc).__name__}: {exc}"
        finally:
            self.warm_seconds = time.perf_counter() - start
            self._rules_ready.set()
            self._engine_ready.set()

    # --- input ------------------------------------------------------------------------------
    def _reader(self) -> None:
        stream = getattr(self.inp, "buffer", None)
        try:
            while True:
                if stream is not None:
                    raw = stream.readline(MAX_LINE)
                    if raw and not raw.endswith(b"\n") and len(raw) >= MAX_LINE:
                        while True:  # drop the rest of an over-long line
                            rest = stream.readline(MAX_LINE)
                            if not rest or rest.endswith(b"\n"):
                                break
                    if not raw:
                        break
                    text = raw.decode("utf-8", errors="replace")
                else:
                    text = self.inp.readline()
                    if not text:
                        break
                self.lines.put((time.perf_counter(), text.rstrip("\r\n").strip("\r")))
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _next_line(self) -> tuple[float, str] | None:
        return self.lines.get()

    def run(self) -> int:
        """Serve until END or end of input; return the exit status."""
        threading.Thread(target=self._reader, name="pbrain-reader", daemon=True).start()
        while True:
            item = self._next_line()
            if item is None:
                self._finish_search(stop=False)
                return 0
            t0, line = item
            if not line.strip():
                continue
            word, _, rest = line.strip().partition(" ")
            cmd = word.upper()
            if cmd == "END":
                self._finish_search(stop=True, wait=0.5)
                return 0
            if cmd == "YXSTOP":
                self._finish_search(stop=True)
                continue
            if cmd != "INFO":
                self._finish_search(stop=False)
            try:
                self.handle(cmd, rest.strip(), t0, line)
            except BrainError as exc:
                self.send(f"ERROR {exc}")

    def _finish_search(self, stop: bool, wait: float | None = None) -> None:
        """Wait for the running search (stopping it first if asked).

        One stop is enough: a search the worker has announced (``Engine.begin``) keeps it even
        if it has not started yet, and one announced later sees ``self._stop`` (``_search``).
        """
        worker = self._worker
        if worker is None:
            return
        if stop:
            self._stop.set()
            engine = self.engine
            if engine is not None:
                engine.stop()
        worker.join(wait)
        if not worker.is_alive():
            self._worker = None

    def _read_block(self) -> tuple[list[str], bool]:
        """Lines up to DONE (BOARD, YXBOARD, SWAP2BOARD); the flag says END came instead."""
        block: list[str] = []
        while True:
            item = self._next_line()
            if item is None:
                return block, True
            line = item[1].strip()
            if not line:
                continue
            word = line.split(" ", 1)[0].upper()
            if word == "DONE":
                return block, False
            if word == "END":
                return block, True
            block.append(line)

    # --- commands ---------------------------------------------------------------------------
    def handle(self, cmd: str, arg: str, t0: float, line: str) -> None:
        if cmd == "START":
            try:
                size = int(arg)
            except ValueError:
                raise BrainError(f"START {arg[:40]!r}: expected a board size") from None
            self._start(size, size)
        elif cmd == "RECTSTART":
            w, h = self._pair(arg, "RECTSTART")
            self._start(w, h)
        elif cmd == "RESTART":
            game = self._game()
            self._start(game.width, game.height)
        elif cmd == "ABOUT":
            self.send(
                f'name="{NAME}", version="{__version__}", author="The plies developers", '
                'country="International", www="https://github.com/plies", '
                'email="plies@users.noreply.github.com"'
            )
        elif cmd == "INFO":
            self._info(arg)
        elif cmd == "BEGIN":
            game = self._game()
            if game.stones:
                raise BrainError("BEGIN on a board with stones: send RESTART or BOARD")
            game.own_color, game.own_next = 1, True
            self._board_cache = None
            self._think(t0)
        elif cmd == "TURN":
            game = self._game()
            x, y = parse_xy(arg, game.width, game.height)
            self._add_stone(x, y, OPP)
            self._think(t0)
        elif cmd == "PLAY":
            game = self._game()
            x, y = parse_xy(arg, game.width, game.height)
            self._add_stone(x, y, OWN)
            self.send(f"{x},{y}")
        elif cmd == "TAKEBACK":
            game = self._game()
            x, y = parse_xy(arg, game.width, game.height)
            i = game.at(x, y)
            if i is None:
                raise BrainError(f"TAKEBACK {x},{y}: no stone there")
            game.own_next = game.stones[i][2] == OWN
            del game.stones[i]
            self._board_cache = None
            self.send("OK")
        elif cmd in ("BOARD", "YXBOARD"):
            block, ended = self._read_block()
            if ended:
                self._finish_search(stop=True, wait=0.5)
                raise SystemExit(0)
            self._set_board(block)
            if cmd == "BOARD":
                self._think(t0)
        elif cmd == "SWAP2BOARD":
            block, ended = self._read_block()
            if ended:
                raise SystemExit(0)
            self._swap2(block, t0)
        elif cmd == "YXSHOWFORBID":
            self._show_forbid()
        elif cmd == "YXHASHCLEAR":
            if self.engine is not None:
                self.engine.new_game()
        else:
            self.send(f"UNKNOWN {line.strip()[:200]}")

    def _pair(self, arg: str, what: str) -> tuple[int, int]:
        m = _COORD.match(arg)
        if not m:
            raise BrainError(f"{what} {arg[:40]!r}: expected width,height")
        return int(m.group(1)), int(m.group(2))

    def _game(self) -> Game:
        if self.game is None:
            raise BrainError("no board yet: send START first")
        return self.game

    def _start(self, width: int, height: int) -> None:
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise BrainError(
                f"unsupported size {width}x{height}: plies plays {MIN_SIZE}..{MAX_SIZE} a side"
            )
        self.game = Game(width, height)
        self._board_cache = None
        self._new_game = True
        self.info_sent.discard("time_left")
        # Kernels load from numba's cache in about 1.5 s from process start: answer OK once
        # they are in, so that no move clock pays for them. A compile (empty cache, ~40 s)
        # takes longer than START_WAIT_S: then OK goes out and early moves fall back.
        self._engine_ready.wait(START_WAIT_S)
        self.send("OK")

    def _info(self, arg: str) -> None:
        key, _, value = arg.strip().partition(" ")
        key = key.lower()
        value = value.strip()
        if not key:
            raise BrainError("INFO without a key")
        if key in INT_KEYS:
            number = info_int(key, value)
            if key == "debug":
                self.debug = number != 0
            self.info[key] = number
            self.info_sent.add(key)
        elif key == "book":
            if value not in ("off", "default") and not os.path.isfile(value):
                raise BrainError(f"INFO book {value[:80]!r}: expected off, default or a book file")
            self.info[key] = value
        elif key == "opening":
            try:
                self.info[key] = opening_rule.opening_name(value)
            except InvalidOption as exc:
                raise BrainError(f"INFO opening {value[:40]!r}: {exc}") from None
        elif key == "param":  # NAME=VALUE[,NAME=VALUE...]: all checked before any is taken
            self.params.update([engine_param(item) for item in value.split(",")])
        else:
            self.info[key] = value  # folder, evaluate, and keys we do not use

    # --- the position -----------------------------------------------------------------------
    def _add_stone(self, x: int, y: int, who: int) -> None:
        game = self._game()
        if game.own_color == 0:  # the first stone says who is black
            game.own_color = 1 if who == OWN else 2
            game.own_next = who == OWN
            self._board_cache = None
        if game.own_next != (who == OWN):
            raise BrainError(f"{x},{y}: it is not {'our' if who == OWN else 'your'} move")
        board = self.board()
        try:
            board.play((x, y))
        except Exception as exc:
            raise BrainError(str(exc)) from None
        game.stones.append((x, y, who))
        game.own_next = who != OWN

    def board(self) -> Board:
        """The position as a :class:`Board` (built from the stones when they changed)."""
        if self._board_cache is None:
            game = self._game()
            self._board_cache = self._build(game.stones, game.own_color or 1, game.own_next)
        return self._board_cache

    def _build(self, stones: list[tuple[int, int, int]], own_color: int, own_next: bool) -> Board:
        """A Board from stones in arrival order, with the side to move. The stones of each
        colour keep their order (Renju positions arrive in move order); stones that cannot
        alternate (continuous games) and blocked cells (field 3) are set up outside the move
        history, which only decides the side to move."""
        self._rules_ready.wait()
        from plies.gomoku.board import Board

        game = self._game()
        rule, _ = rule_from_info(int(self.info["rule"]))
        own = [(x, y) for x, y, f in stones if f == OWN]
        opp = [(x, y) for x, y, f in stones if f == OPP]
        black, white = (own, opp) if own_color == 1 else (opp, own)
        black_next = own_next == (own_color == 1)
        if black_next:
            k = min(len(black), len(white))
            history = [m for pair in zip(black[:k], white[:k], strict=True) for m in pair]
        elif black:
            k = min(len(white), len(black) - 1)
            history = [black[0]] + [
                m for pair in zip(white[:k], black[1 : k + 1], strict=True) for m in pair
            ]
        else:
            raise BrainError("white to move on a board without black stones")
        board = Board(width=game.width, height=game.height, rule=rule)
        try:
            for i, m in enumerate(history):
                board.play(m)
                if board.is_over and i < len(history) - 1:
                    raise BrainError(f"the position already has a winner at {m[0]},{m[1]}")
            placed = set(history)
            for color, group in ((1, black), (2, white)):
                for m in group:
                    if m not in placed:
                        board.put(m, color)
            for x, y, f in stones:
                if f == WALL:
                    board.put((x, y), 3)
        except BrainError:
            raise
        except Exception as exc:
            raise BrainError(str(exc)) from None
        return board

    def _parse_block(self, block: list[str], with_field: bool) -> list[tuple[int, int, int]]:
        game = self._game()
        stones: list[tuple[int, int, int]] = []
        seen: set[tuple[int, int]] = set()
        for line in block:
            if with_field:
                m = _FIELD.match(line)
                if not m:
                    raise BrainError(f"cannot read board line {line[:40]!r}: expected x,y,field")
                x, y, f = int(m.group(1)), int(m.group(2)), int(m.group(3))
                if f not in (OWN, OPP, WALL):
                    raise BrainError(f"board line {line[:40]!r}: field must be 1, 2 or 3")
            else:
                m = _FIELD.match(line) or _COORD.match(line)
                if not m:
                    raise BrainError(f"cannot read board line {line[:40]!r}: expected x,y")
                x, y, f = int(m.group(1)), int(m.group(2)), 0
            if not (0 <= x < game.width and 0 <= y < game.height):
                raise BrainError(f"{x},{y} is off the {game.width}x{game.height} board")
            if (x, y) in seen:
                raise BrainError(f"{x},{y} appears twice")
            seen.add((x, y))
            stones.append((x, y, f))
        return stones

    def _set_board(self, block: list[str]) -> None:
        stones = self._parse_block(block, with_field=True)
        own = sum(1 for s in stones if s[2] == OWN)
        opp = sum(1 for s in stones if s[2] == OPP)
        # the brain is to move: with as many stones as the opponent it started (black)
        own_color = 1 if own >= opp else 2
        board = self._build(stones, own_color, True)
        game = self._game()
        game.stones, game.own_color, game.own_next = stones, own_color, True
        self._board_cache = board

    def _show_forbid(self) -> None:
        game = self._game()
        rule, _ = rule_from_info(int(self.info["rule"]))
        points = []
        if rule == "renju" and game.stones:
            points = self.board().forbidden_points()
        elif rule == "renju":
            points = []
        self.send("FORBID " + "".join(f"{m.x:02d}{m.y:02d}" for m in points) + ".")

    # --- thinking ---------------------------------------------------------------------------
    def _think(self, t0: float) -> None:
        self._stop.clear()
        self._worker = threading.Thread(
            target=self._think_worker, args=(t0,), name="pbrain-search", daemon=True
        )
        self._worker.start()

    def _think_worker(self, t0: float) -> None:
        try:
            x, y = self.choose_move(t0)
            game = self._game()
            game.used += time.perf_counter() - t0
            self._add_stone(x, y, OWN)
            self.send(f"{x},{y}")
            if self.engine is None or self._new_game:
                self._prepare_engine()
            if self.compiled:
                trim_heap()  # after the reply, off the clock: the lean brain counts its MB
        except BrainError as exc:
            self.send(f"ERROR {exc}")
        except Exception as exc:  # noqa: BLE001 - a brain must answer, never die
            import traceback

            traceback.print_exc()  # on stderr, which managers show or log, for a bug report
            self._answer_anyway(f"internal error: {type(exc).__name__}: {exc}")

    def _prepare_engine(self) -> None:
        """Build the engine for this game after a reply made without it (the centre of an
        empty board, at once), off the clock while the opponent thinks: built on the next
        move's clock instead (a change of rule or size rebuilds it, with a full garbage
        collection of about 0.1 s) it cost a 0.1 s move its time (session 14's soak)."""
        if not self._engine_ready.is_set() or self.warm_error is not None:
            return
        try:
            self._ensure_engine()
        except Exception as exc:  # noqa: BLE001 - the next move builds it again, and says why
            self.dbg(f"engine not built after the reply: {exc}")

    def _answer_anyway(self, problem: str) -> None:
        """After an engine failure, a legal move all the same (the fallback's) rather than an
        ``ERROR`` that forfeits the game, with the problem in a MESSAGE; ``ERROR`` only when
        there is no move to make either."""
        try:
            x, y = self._fallback(self._own_view(self.board()))
            self._add_stone(x, y, OWN)
        except Exception as exc:  # noqa: BLE001
            self.send(f"ERROR {problem}; no fallback move: {exc}")
            return
        self.message(f"{problem}: quick move {x},{y}")
        self.send(f"{x},{y}")

    def _clock(self) -> dict[str, int]:
        """The INFO time keys; without time_left this game, the match time minus our use."""
        clock = {k: int(self.info[k]) for k in ("timeout_turn", "timeout_match", "time_left")}
        if "time_left" not in self.info_sent and clock["timeout_match"] > 0 and self.game:
            clock["time_left"] = clock["timeout_match"] - int(1000 * self.game.used)
        return clock

    def _wait_engine(self, t0: float) -> bool:
        """Wait for the kernels while the move's time allows; False if they are not ready."""
        limit = time_budget(self._clock(), time.perf_counter() - t0, lambda s: s / 3).hard
        end = time.perf_counter() + limit
        while not self._engine_ready.wait(0.01):
            if self._stop.is_set() or time.perf_counter() >= end:
                return False
        if self.warm_error is not None:
            raise BrainError(f"the engine failed to load: {self.warm_error}")
        return True

    def _ensure_engine(self) -> Any:
        """The engine for the current rule, size, threads and memory (re-created on change)."""
        from plies.gomoku.engine import Engine
        from plies.gomoku.engine.api import root_vct_bytes

        game = self._game()
        rule, _ = rule_from_info(int(self.info["rule"]))
        threads = max(1, int(self.info.get("thread_num", 1)))
        key = (
            rule,
            game.width,
            game.height,
            threads,
            int(self.info["max_memory"]),
            tuple(sorted(self.params.items())),
        )
        if self.engine is None or self._engine_key != key:
            from plies.gomoku.board import rule_code
            from plies.gomoku.engine import patterns, vct

            vct.forget_potentials(rule_code(rule))  # the warm-up built every rule's: 4 MB each
            if self.engine is not None:  # (not on a first move: a full collection takes ~0.1 s)
                self.engine = None
                import gc

                gc.collect()
                trim_heap()
            elif self.compiled:
                trim_heap()  # a few ms: the lean brain's baseline without the warm-up's garbage
            baseline = rss_bytes() or self.baseline_rss or FALLBACK_RSS
            hash_mb = hash_mb_for(
                int(self.info["max_memory"]),
                baseline,
                game.width,
                game.height,
                threads,
                root_vct_bytes(rule, game.width, game.height),
            )
            self.engine = Engine(
                rule,
                width=game.width,
                height=game.height,
                hash_mb=hash_mb,
                threads=threads,
                prefault=False,  # built on the first move's clock: fault in what is probed
                params=dict(self.params) or None,
            )
            patterns.forget_tables()  # 2 MB a rule: the engine holds its own packed copy
            self._engine_key = key
            self._new_game = False
            self.dbg(
                f"engine {rule} {game.width}x{game.height} threads {threads} hash "
                f"{hash_mb:.1f} MB (baseline RSS {baseline / 2**20:.0f} MB, "
                f"max_memory {int(self.info['max_memory']) / 2**20:.0f} MB)"
            )
        elif self._new_game:
            self.engine.new_game()
            self._new_game = False
        return self.engine

    def own_opening(self, board: Board) -> str:
        """The opening rule the brain's own moves obey: ``INFO opening``, else the rule's
        default (``pro`` for Caro); ``free`` on a board too small for it. The manager referees
        the opponent's moves: the brain never refuses them for the opening rule."""
        rule, _ = rule_from_info(int(self.info["rule"]))
        name = self.info.get("opening") or opening_rule.default_opening(rule)
        try:
            opening_rule.check_board(name, board.width, board.height)
        except InvalidOption:
            return "free"
        return name

    def _book_for(self, board: Board) -> Any:
        """The opening book for ``board``'s game: ``INFO book`` (``off``, the default: the
        shipped books come from searches far shorter than a tournament move's; ``default``,
        the one plies ships for the rule, size and opening rule; or a file), cached."""
        spec = self.info.get("book") or "off"
        if spec == "off":
            return None  # without importing the book module on the move's clock
        key = (spec, board.rule, board.width, board.height, board.opening)
        if key != self._book_key:
            from plies.gomoku.book import resolve_book

            try:
                self._book = resolve_book(spec, *key[1:])
            except InvalidOption as exc:
                self.message(f"no book: {exc}")
                self._book = None
            self._book_key = key
        return self._book

    def _own_view(self, board: Board) -> Board:
        """``board`` under the brain's own opening rule (a copy when it is not ``free``)."""
        name = self.own_opening(board)
        if name == board.opening:
            return board
        view = board.copy()
        view.opening = name
        return view

    def choose_move(self, t0: float) -> tuple[int, int]:
        board = self._own_view(self.board())
        if board.is_over:
            raise BrainError("the game is over: no move to make")
        if len(board) == 0 and not self._game().stones:
            return board.width // 2, board.height // 2  # the empty board: the centre, at once
        if not self._wait_engine(t0):
            m = self._fallback(board)
            self.message(f"kernels still loading: quick move {m[0]},{m[1]}")
            return m
        engine = self._ensure_engine()
        engine.set_book(self._book_for(board))
        budget = time_budget(
            self._clock(),
            time.perf_counter() - t0,
            lambda left: engine.allocate_time(board, left),
        )
        self.dbg(f"time soft {budget.soft:.3f}s hard {budget.hard:.3f}s ({budget.note})")
        result = self._search(engine, board, budget)
        if result.move is None:
            return self._fallback(board)
        if not board.is_legal(result.move):
            # the engine's emergency move (search stopped before its first iteration) can be
            # a Renju forbidden point: never send it
            m = self._fallback(board)
            self.message(f"engine move {result.move.x},{result.move.y} illegal: {m[0]},{m[1]}")
            return m
        return result.move.x, result.move.y

    def _search(self, engine: Any, board: Board, budget: Budget, multipv: int = 1):
        start = time.perf_counter()
        state = {"best": None, "score": None}

        def on_iteration(r) -> None:
            elapsed = time.perf_counter() - start
            self.message(self._describe(r, elapsed))
            prev_best, prev_score = state["best"], state["score"]
            unstable = prev_best is not None and (
                r.move != prev_best or (prev_score is not None and r.score < prev_score - 60)
            )
            state["best"], state["score"] = r.move, r.score
            target = budget.soft * (2.0 if unstable else 1.0)
            if self._stop.is_set() or (
                not budget.fixed and elapsed >= min(target, budget.hard) * 0.62
            ):
                engine.stop()

        depth = self.info.get("max_depth")
        nodes = self.info.get("max_node")
        engine.begin()  # a stop from now on is kept for this search...
        if self._stop.is_set():
            engine.stop()  # ...and one that came before is passed on
        result = engine.search(
            board,
            depth=depth if depth and depth > 0 else None,
            nodes=nodes if nodes and nodes > 0 else None,
            movetime=budget.hard,
            multipv=multipv,
            info=on_iteration,
            target=budget.soft,  # the root threat solver's share comes from the soft time
            full_time=budget.fixed,
        )
        if not result.book and result.nodes > 0:
            elapsed = time.perf_counter() - start
            # the iteration lines count only finished iterations: the last one's nodes can
            # be half of what the move searched
            self.message("total " + self._describe_work(result.nodes, elapsed))
        return result

    @staticmethod
    def _describe_work(nodes: int, elapsed: float) -> str:
        """``n NODES n/s RATE tm MS ms``: the work part of the MESSAGE lines."""
        nps = int(nodes / elapsed) if elapsed > 0 else 0
        return f"n {nodes} n/s {nps} tm {int(elapsed * 1000)} ms"

    @staticmethod
    def _describe(r, elapsed: float) -> str:
        pv = " ".join(f"{m.x},{m.y}" for m in r.pv[:12])
        if r.score_text.startswith(("win", "loss")):
            ev = r.score_text
        else:
            ev = f"{r.score:+d} ({100 * r.win_probability:.0f}%)"
        work = Brain._describe_work(r.nodes, elapsed)
        return f"depth {r.depth}-{r.seldepth} ev {ev} {work} pv {pv}"

    def _fallback(self, board: Board) -> tuple[int, int]:
        """A legal move without the engine: win now, else block a five, else near the centre."""
        from plies.gomoku import rules

        me = board.to_move
        moves = board.moves()
        if not moves:
            raise BrainError("no legal move")
        stride = board.stride
        for color in (me, 3 - me):
            for m in moves:
                pos = (m.y + rules.PAD) * stride + m.x + rules.PAD
                if rules.makes_five(board.cells, stride, pos, color, board.rule_code):
                    return m.x, m.y
        last = board.last_move
        cx, cy = (last.x, last.y) if last else (board.width // 2, board.height // 2)
        best = min(moves, key=lambda m: (max(abs(m.x - cx), abs(m.y - cy)), abs(m.x - cx)))
        return best.x, best.y

    # --- swap2 ------------------------------------------------------------------------------
    def _swap2(self, block: list[str], t0: float) -> None:
        from plies.gomoku.board import Board

        game = self._game()
        stones = self._parse_block(block, with_field=False)
        if len(stones) not in (0, 3, 5):
            raise BrainError(f"SWAP2BOARD with {len(stones)} stones: expected 0, 3 or 5")
        rule, _ = rule_from_info(int(self.info["rule"]))
        try:
            board = Board.from_moves(
                [(x, y) for x, y, _ in stones], width=game.width, height=game.height, rule=rule
            )
        except Exception as exc:
            raise BrainError(str(exc)) from None
        if board.is_over:
            raise BrainError("SWAP2BOARD position is already decided")
        self._stop.clear()
        self._worker = threading.Thread(
            target=self._swap2_worker, args=(board, t0), name="pbrain-swap2", daemon=True
        )
        self._worker.start()

    def _swap2_worker(self, board: Board, t0: float) -> None:
        try:
            self.send(self.swap2_answer(board, t0))
        except BrainError as exc:
            self.send(f"ERROR {exc}")
        except Exception as exc:  # noqa: BLE001
            self.send(f"ERROR internal error: {type(exc).__name__}: {exc}")

    def swap2_answer(self, board: Board, t0: float) -> str:
        """The swap2 decision with the engine's evaluation (docs/pbrain.md, SWAP2BOARD): the
        decisions of :mod:`plies.gomoku.swap`, which ``plies play`` shares, on this move's
        time."""
        from plies.gomoku import swap

        if not self._wait_engine(t0):
            raise BrainError("the engine is still loading")
        engine = self._ensure_engine()
        engine.set_book(None)  # swap positions are judged by search, not played from a book
        total = time_budget(self._clock(), time.perf_counter() - t0, lambda s: s / 10)
        n = len(board)
        if n == 0:
            share = len(swap.candidate_openings(board.width, board.height)) or 1
            each = Budget(total.soft / share, total.hard / share, total.limit)
            moves = swap.propose_opening(
                board, lambda b, k: self._search(engine, b, each, multipv=k), self._stop.is_set
            )
            opening = board.copy()
            opening.play_moves(moves)
            self._adopt(opening, [])
            return " ".join(f"{m.x},{m.y}" for m in moves)

        def search(b: Board, multipv: int):
            spent = time.perf_counter() - t0
            left = Budget(
                max(0.0, total.soft - spent) / 2,
                max(0.0, total.hard - spent) / (1.5 if multipv > 1 else 2),
                total.limit,
            )
            return self._search(engine, b, left, multipv=multipv)

        if n == 5:
            decision = swap.answer_five(board, search)
        else:
            decision = swap.answer_three(board, search, "swap2")
        if decision.kind == "swap":
            self._adopt(board, [])
            return "SWAP"
        self._adopt(board, list(decision.moves))
        return " ".join(f"{m.x},{m.y}" for m in decision.moves)

    def _adopt(self, board: Board, extra: list) -> None:
        """Make the swap2 position plus ``extra`` (our added stones) the current game, the
        brain owning the colour of the last stone (after SWAP: the colour that just moved),
        the opponent to move. Managers send BOARD next anyway."""
        game = self._game()
        final = board.copy()
        for m in extra:
            final.play(m)
        own_color = 1 if len(final) % 2 == 1 else 2
        game.stones = [
            (m.x, m.y, OWN if (1 if i % 2 == 0 else 2) == own_color else OPP)
            for i, m in enumerate(final.history)
        ]
        game.own_color, game.own_next = own_color, False
        self._board_cache = None


def load_kernels(rules_loaded: Callable[[], None] | None = None, compiled: bool = False) -> None:
    """Load (or compile, with a cold numba cache) every kernel a game uses: the rules', then
    (after calling ``rules_loaded``) the engine's, the root VCT's included. ``compiled``: the
    kernels are ahead-of-time compiled (:func:`use_compiled_kernels`): nothing to load, and
    nothing built beforehand either (the lean brain's memory is for its game: the root VCT
    tables of the game's rule are built on its first move, about 60 ms)."""
    from plies.gomoku import rules

    rules.warmup()
    if rules_loaded is not None:
        rules_loaded()
    from plies.gomoku.board import Board
    from plies.gomoku.engine import Engine

    if compiled:
        return

    engine = Engine("freestyle", 15, hash_mb=0.25)  # the constructor loads the search's kernels
    board = Board.from_moves([(7, 7), (8, 8), (7, 8)], 15)
    engine.search(board, depth=2)
    engine.vcf(board, max_nodes=100)
    # every rule's root VCT tables (4 MB and about 60 ms each, built once per process): else
    # the first move of a game in a rule not seen yet pays for them on its clock (at 100 ms a
    # move under load, the brain soak's forfeits)
    from plies.gomoku.engine import vct

    for code in range(len(rules.RULE_NAMES)):
        vct.potential_table(code)


def freeze_heap() -> None:
    """Collect the warm-up's garbage, then move every object left (numba's dispatchers, the
    compiled code's metadata: about 100,000) out of the collector's sight: a full
    collection afterwards visits only what the games made. Without it a full collection took
    about 70 ms on a 2.45 GHz host (session 38), holding the interpreter lock all that time, so
    a command that came meanwhile was stamped late and its reply missed a 150 ms turn."""
    import gc

    gc.collect()
    gc.freeze()


def use_compiled_kernels() -> bool:
    """Switch to the ahead-of-time compiled kernels (no numba at run time: docs/pbrain.md,
    Lean build) when an extension built from these sources is found: in ``$PLIES_AOT_DIR``,
    else beside :mod:`plies.gomoku.aot`. ``PLIES_AOT=0`` keeps numba's JIT."""
    if os.environ.get("PLIES_AOT", "") == "0":
        return False
    from pathlib import Path

    from plies.gomoku import aot

    where = os.environ.get("PLIES_AOT_DIR")
    return aot.install(Path(where) if where else None)


def tune_malloc() -> None:
    """glibc, for the lean brain, which counts its MB: one malloc arena for every thread (each
    thread of the brain's would otherwise get its own, each keeping the memory it freed
    resident), and a fixed mmap threshold of 128 KB. The default threshold rises to the size of
    the largest block freed: once a game's search contexts (the 3.2 MB continuation history on
    20x20) were freed, the next game's came from the heap, where ``calloc`` writes zeros over
    reused memory and makes every page resident (2-3 MB more from the second game on). With
    the threshold fixed, every large array is a fresh mapping, untouched pages not resident,
    given back whole when it is freed."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-8, 1)  # M_ARENA_MAX
        libc.mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD (also ends the dynamic threshold)
    except (OSError, AttributeError):
        pass  # not glibc: nothing to tune


def trim_heap() -> None:
    """glibc: give the heap's free pages back to the system (lowers the resident baseline)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the brain on stdin/stdout until END; the exit status is 0."""
    sys.setswitchinterval(0.001)  # the reader and search threads share the GIL politely
    compiled = use_compiled_kernels()
    if compiled:
        tune_malloc()
    brain = Brain()
    brain.compiled = compiled
    brain.start_warmup()
    try:
        status = brain.run()
    except SystemExit as exc:
        status = int(exc.code or 0)
    except KeyboardInterrupt:
        status = 130
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    os._exit(status)  # do not wait for the search or warm-up threads


if __name__ == "__main__":
    main()
