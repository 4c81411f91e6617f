"""``plies uci``: the chess engine behind the Universal Chess Interface on stdin/stdout.

Commands: uci, debug, isready, setoption (Hash, Threads, MultiPV, SyzygyPath, SyzygyProbeDepth,
SyzygyProbeLimit, Move Overhead, Ponder, UCI_Chess960, Clear Hash), ucinewgame, position
startpos|fen ... [moves ...], go (wtime btime winc binc movestogo depth nodes movetime mate
infinite ponder searchmoves-free), stop, ponderhit, quit. A reader thread owns stdin; each
``go`` runs in a worker thread so ``stop`` and ``ponderhit`` act at once. Every line the engine
cannot use gets ``info string error ...`` and the engine keeps running. A ``position`` command
that cannot be used whole sets a safe position, as Stockfish does: the moves up to the first
illegal one, or the start position for a bad FEN; the ``info string`` says which. With
``UCI_Chess960`` on, FENs are read as Chess960 (X-FEN or Shredder-FEN castling fields) and
castling moves in and out are king-takes-rook. The kernels are loaded in the background from
start-up, and ``isready`` waits for them, so no clock pays for numba.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

import chess

from plies import __version__
from plies.errors import InvalidOption

OPTIONS = [
    "option name Hash type spin default 64 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 256",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name SyzygyPath type string default <empty>",
    "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
    "option name SyzygyProbeLimit type spin default 5 min 0 max 7",
    "option name Move Overhead type spin default 30 min 0 max 5000",
    "option name Ponder type check default false",
    "option name UCI_Chess960 type check default false",
    "option name Clear Hash type button",
]


class UCIError(Exception):
    pass


def _parse_go(tokens: list[str]) -> dict:
    ints = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate"}
    out: dict = {}
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in ints:
            if i + 1 >= len(tokens):
                raise UCIError(f"go {t} needs a number")
            try:
                out[t] = int(tokens[i + 1])
            except ValueError:
                raise UCIError(f"go {t}: not a number: {tokens[i + 1]!r}") from None
            i += 2
        elif t in ("infinite", "ponder"):
            out[t] = True
            i += 1
        elif t == "searchmoves":
            raise UCIError("go searchmoves is not supported")
        else:
            raise UCIError(f"unknown go parameter {t!r}")
    return out


def _parse_position(tokens: list[str], chess960: bool = False) -> tuple[chess.Board, str | None]:
    """The board of a ``position`` command and None, or, for a command that cannot be used
    whole, a safe board and the problem: as Stockfish does, the moves are played up to the
    first illegal or unreadable one; a bad FEN (or a command naming neither startpos nor fen)
    falls back to the start position."""
    start = chess.Board(chess960=chess960)
    if not tokens:
        return start, "position needs startpos or fen"
    if tokens[0] == "startpos":
        board = start
        rest = tokens[1:]
    elif tokens[0] == "fen":
        if "moves" in tokens:
            k = tokens.index("moves")
            fen, rest = " ".join(tokens[1:k]), tokens[k:]
        else:
            fen, rest = " ".join(tokens[1:]), []
        try:
            board = chess.Board(fen, chess960=chess960)
        except ValueError as exc:
            return start, f"bad FEN {fen!r}: {exc}"
        if not board.is_valid():
            return start, f"illegal position {fen!r}"
    else:
        return start, f"position: expected startpos or fen, not {tokens[0]!r}"
    if rest:
        if rest[0] != "moves":
            return board, f"position: expected moves, not {rest[0]!r}"
        for text in rest[1:]:
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                return board, f"bad move {text!r} in position command"
            if move not in board.legal_moves:
                return board, f"illegal move {text} in position command"
            board.push(move)
    return board, None


def format_info(result, multipv: int, elapsed_ms: int, hashfull: int) -> list[str]:
    """``info ...`` lines, one per MultiPV line, for a search result."""
    from plies.chess.engine.api import mate_in

    lines = []
    for k, line in enumerate(result.lines or [], start=1):
        m = mate_in(line.score)
        score = f"mate {m}" if m is not None else f"cp {line.score}"
        parts = [
            f"info depth {max(1, result.depth)} seldepth {max(result.seldepth, 1)}",
            f"multipv {k}" if multipv > 1 else "",
            f"score {score} nodes {result.nodes} nps {result.nps}",
            f"hashfull {hashfull}",
            f"tbhits {result.tbhits}" if getattr(result, "tbhits", 0) else "",
            f"time {elapsed_ms}",
            "pv " + " ".join(mv.uci() for mv in line.pv),
        ]
        lines.append(" ".join(p for p in parts if p))
    return lines


class UCIEngine:
    """The protocol state machine; ``handle(line)`` returns False on quit."""

    def __init__(self, out: TextIO = sys.stdout) -> None:
        self.out = out
        self._out_lock = threading.Lock()
        self.board = chess.Board()
        self.hash_mb = 64
        self.threads = 1
        self.multipv = 1
        self.overhead_ms = 30
        self.syzygy_path: str | None = None
        self.chess960 = False
        self._engine = None
        self._engine_ready = threading.Event()
        self._engine_error: str | None = None
        self._worker: threading.Thread | None = None
        # set by the search thread just before it sends bestmove: from then on the GUI may send
        # the next position although the thread has not exited yet
        self._answered = threading.Event()
        self._pondering = False
        self._ponder_clock: dict | None = None
        threading.Thread(target=self._load_engine, daemon=True).start()

    # --- output ------------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._out_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        self.send(f"info string error {message}")

    # --- engine ------------------------------------------------------------------------------

    def _load_engine(self) -> None:
        try:
            from plies.chess.engine.api import Engine

            self._engine = Engine(hash_mb=self.hash_mb, threads=self.threads)
        except Exception as exc:  # reported on isready/go
            self._engine_error = str(exc)
        finally:
            self._engine_ready.set()

    @property
    def engine(self):
        self._engine_ready.wait()
        if self._engine is None:
            raise UCIError(f"engine failed to start: {self._engine_error}")
        return self._engine

    def _searching(self) -> bool:
        """Whether a search is running and has not answered ``bestmove`` yet."""
        return self._worker is not None and self._worker.is_alive() and not self._answered.is_set()

    def _wait_search(self) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    # --- commands ----------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        tokens = line.split()
        if not tokens:
            return True
        cmd, args = tokens[0], tokens[1:]
        handler: Callable[[list[str]], None] | None = getattr(self, f"cmd_{cmd}", None)
        if cmd == "quit":
            if self._searching():
                self.engine.stop()
                self._wait_search()
            return False
        if handler is None:
            self.error(f"unknown command {cmd!r}")
            return True
        try:
            handler(args)
        except (UCIError, InvalidOption) as exc:
            self.error(str(exc))
        return True

    def cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name plies {__version__}")
        self.send("id author the plies developers")
        for option in OPTIONS:
            self.send(option)
        self.send("uciok")

    def cmd_debug(self, args: list[str]) -> None:
        pass

    def cmd_isready(self, args: list[str]) -> None:
        self.engine  # noqa: B018 - waits for the kernels
        self.send("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise UCIError("setoption name <id> [value <x>]")
        if "value" in args:
            k = args.index("value")
            name, value = " ".join(args[1:k]), " ".join(args[k + 1 :])
        else:
            name, value = " ".join(args[1:]), ""
        if self._searching():
            raise UCIError("setoption during a search")
        key = name.lower()
        if key == "hash":
            self.hash_mb = self._int(name, value, 1, 65536)
            self.engine.set_hash(self.hash_mb)
        elif key == "threads":
            self.threads = self._int(name, value, 1, 256)
            self.engine.set_threads(self.threads)
        elif key == "multipv":
            self.multipv = self._int(name, value, 1, 256)
        elif key == "move overhead":
            self.overhead_ms = self._int(name, value, 0, 5000)
        elif key == "syzygypath":
            path = value.strip()
            self.syzygy_path = None if path in ("", "<empty>") else path
            self.engine.set_syzygy_path(self.syzygy_path)
        elif key == "syzygyprobedepth":
            self.engine.set_syzygy_probe_depth(self._int(name, value, 1, 100))
        elif key == "syzygyprobelimit":
            self.engine.set_syzygy_probe_limit(self._int(name, value, 0, 7))
        elif key == "ponder":
            pass
        elif key == "uci_chess960":
            if value.strip().lower() not in ("true", "false"):
                raise UCIError(f"option {name}: expected true or false, not {value!r}")
            self.chess960 = value.strip().lower() == "true"
            self.board = chess.Board(self.board.fen(), chess960=self.chess960)
        elif key == "clear hash":
            self.engine.new_game()
        else:
            raise UCIError(f"unknown option {name!r}")

    @staticmethod
    def _int(name: str, value: str, low: int, high: int) -> int:
        try:
            v = int(value)
        except ValueError:
            raise UCIError(f"option {name}: not a number: {value!r}") from None
        if not low <= v <= high:
            raise UCIError(f"option {name}: {v} is outside {low}..{high}")
        return v

    def cmd_ucinewgame(self, args: list[str]) -> None:
        if self._searching():
            raise UCIError("ucinewgame during a search")
        self.engine.new_game()
        self.board = chess.Board(chess960=self.chess960)

    def cmd_position(self, args: list[str]) -> None:
        if self._searching():
            raise UCIError("position during a search")
        self.board, problem = _parse_position(args, self.chess960)
        if problem is not None:
            # keep a safe position, never the previous one: a GUI's next "go" must not search
            # a board the GUI no longer shows
            self.error(f"{problem}; position set to {self.board.fen()}")

    def cmd_go(self, args: list[str]) -> None:
        if self._searching():
            raise UCIError("go during a search")
        params = _parse_go(args)
        if not any(self.board.generate_legal_moves()):
            self.send("info string error no legal move in this position")
            self.send("bestmove 0000")
            return
        engine = self.engine
        board = self.board.copy()
        white = board.turn == chess.WHITE
        clock = {}
        if ("wtime" if white else "btime") in params:
            clock = {
                "time_left": params["wtime" if white else "btime"] / 1000.0,
                "increment": params.get("winc" if white else "binc", 0) / 1000.0,
                "moves_to_go": params.get("movestogo"),
                "overhead": self.overhead_ms / 1000.0,
            }
        kwargs: dict = {
            "depth": params.get("depth"),
            "nodes": params.get("nodes"),
            "mate": params.get("mate"),
            "multipv": self.multipv,
        }
        if "movetime" in params:
            kwargs["movetime"] = params["movetime"] / 1000.0
            kwargs["overhead"] = self.overhead_ms / 1000.0
        self._pondering = bool(params.get("ponder"))
        self._ponder_clock = clock if self._pondering else None
        if params.get("infinite") or self._pondering:
            kwargs["infinite"] = True
        elif clock:
            kwargs.update(clock)
        self._wait_search()  # a search that has answered may still be on its way out
        self._answered.clear()
        self._worker = threading.Thread(
            target=self._run_search, args=(engine, board, kwargs), daemon=True
        )
        self._worker.start()

    def _run_search(self, engine, board: chess.Board, kwargs: dict) -> None:
        import time

        start = time.perf_counter()

        def info(result) -> None:
            ms = int((time.perf_counter() - start) * 1000)
            for line in format_info(result, self.multipv, ms, result.hashfull):
                self.send(line)

        try:
            result = engine.search(board, info=info, **kwargs)
        except Exception as exc:  # never die in a search thread: report and answer
            self.error(f"search failed: {exc}")
            move = next(iter(board.legal_moves))
            self._answered.set()
            self.send(f"bestmove {move.uci()}")
            return
        if result.tablebase:
            self.send("info string tablebase move")
        ms = int(result.time * 1000)
        for line in format_info(result, self.multipv, ms, result.hashfull):
            self.send(line)
        text = f"bestmove {result.move.uci()}"
        if len(result.pv) > 1:
            text += f" ponder {result.pv[1].uci()}"
        self._answered.set()
        self.send(text)

    def cmd_stop(self, args: list[str]) -> None:
        if self._searching():
            self.engine.stop()
            self._wait_search()

    def cmd_ponderhit(self, args: list[str]) -> None:
        if not self._searching() or not self._pondering:
            return
        self._pondering = False
        clock = self._ponder_clock or {}
        if clock:
            from plies.chess.engine.api import allocate_time

            soft, hard = allocate_time(**clock, default_moves_to_go=self.engine.moves_to_go)
            self.engine.set_deadline(soft, hard)
        # without a clock the search goes on until stop, as an infinite one


def main(stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Run the UCI loop until quit or end of input."""
    stdin = stdin or sys.stdin
    uci = UCIEngine(stdout or sys.stdout)
    for line in stdin:
        try:
            if not uci.handle(line.strip()):
                break
        except Exception as exc:  # a front end keeps running whatever the input
            uci.error(f"internal error: {exc}")
    else:
        if uci._searching():
            uci.engine.stop()
            uci._wait_search()


if __name__ == "__main__":
    main()
