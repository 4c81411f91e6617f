"""Soak test of the plies brains under a manager: ``pbrain-plies`` (Gomoku) or ``plies uci``.

    python benchmarks/brain_soak.py [--games 1000] [--protocol pbrain|uci] [--st 0.1]
        [--tc 3+0.03] [--rules freestyle,standard,renju,caro] [--sizes 15,19,20]
        [--garbage 0.5] [--max-memory BYTES] [--rapfi PATH] [--brain CMD] [--out soak.json]

Two brain processes play ``--games`` games against each other (or one plays Rapfi, given
``--rapfi``) through the arena's own referee, clocks and protocol adapters
(``plies.arena.play_game`` with its ``PbrainPlayer`` / ``UciPlayer``): every rule and board
size in turn (pbrain), the time control alternating between a time per move (``--st``) and a
game clock (``--tc``; for UCI fastchess-like ``wtime btime winc binc``), the arena's time
margin 0 by default (a reply one millisecond over the limit is a forfeit; ``--timemargin``).

Between moves, while the opponent thinks, a share of the brain's moves (``--garbage``) is
followed by a burst of protocol garbage, each line's answer checked:

* pbrain: unknown commands (``UNKNOWN``), malformed and off-board coordinates, moves on
  occupied cells, ``BEGIN`` on a board with stones, ``TAKEBACK`` of an empty cell, ``INFO``
  with negative or non-numeric values (``ERROR`` each), empty and blank lines, over-long lines,
  ignored ``INFO`` keys and an idle ``YXSTOP`` (no answer), ``about`` (its ``name=`` line);
* UCI: unknown commands, bad ``go``/``setoption``/``position`` arguments (``info string
  error`` each), idle ``stop``/``ponderhit``, then ``isready`` (``readyok``, no stray
  ``bestmove``); go/stop races (``go movetime`` or clocks, ``stop`` 0-30 ms later: exactly one
  legal ``bestmove``) and ``ucinewgame`` in the middle of a ``go infinite`` (refused, the search
  still answers once).

Reported: forfeits, illegal moves, crashes, protocol failures (a wrong answer to garbage
included), the reply time minus the limit (p50/p99/max in ms, from sending the request to
reading the move, as the arena measures it) and the peak RSS of the brain processes (Linux
``VmHWM`` of each process and its children, sampled after every move) against
``--max-memory``, also as it stood after each game (``peak_rss_mb_by_game``). The summary is
written to ``--out`` after every game, so Ctrl-C (or a kill) leaves the partial results.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
sys.path.insert(0, str(SRC))
os.environ["PYTHONPATH"] = str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")

from plies.arena import GameJob, GameSetup, Opening, parse_engine_spec  # noqa: E402
from plies.arena.adjudication import Adjudication  # noqa: E402
from plies.arena.engines.base import EngineFailure, Limits, Reply  # noqa: E402
from plies.arena.engines.pbrain import PbrainPlayer  # noqa: E402
from plies.arena.engines.uci import UciPlayer  # noqa: E402
from plies.arena.game import Referee  # noqa: E402
from plies.arena.openings import load_openings  # noqa: E402
from plies.arena.play import GameResult, failed_colours, play_game  # noqa: E402
from plies.arena.timecontrol import TimeControl, parse_tc  # noqa: E402
from plies.errors import PliesError  # noqa: E402

CHESS_OPENINGS = Path(__file__).resolve().parent / "data" / "chess" / "openings.pgn"
REPLY_WAIT = 10.0  # seconds a garbage line's answer may take (the brain is idle)
CHATTER = ("MESSAGE", "DEBUG", "SUGGEST")

# --- process memory ----------------------------------------------------------------------


def tree_peak_rss(pid: int) -> int:
    """The sum of ``VmHWM`` (peak resident set) over process ``pid`` and its descendants, in
    bytes; 0 where /proc cannot be read (not Linux, or the process is gone)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        total += int(line.split()[1]) * 1024
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


# --- garbage -------------------------------------------------------------------------------


def pbrain_garbage(
    rng: random.Random, width: int, height: int, occupied: list[str]
) -> list[tuple[str, str | None]]:
    """A burst of 1-4 garbage lines for an idle pbrain brain (the opponent to move), each with
    the start of the answer it must get (None: no answer)."""
    taken = rng.choice(occupied) if occupied else "0,0"
    empty = next(  # None on a full board (a drawn game's last move)
        (f"{x},{y}" for y in range(height) for x in range(width) if f"{x},{y}" not in occupied),
        None,
    )
    pool: list[tuple[str, str | None]] = [
        ("", None),
        ("   ", None),
        ("FROBNICATE 3,4", "UNKNOWN"),
        ("YXNOSUCHTHING", "UNKNOWN"),
        ("\x01\x02 binary \xff", "UNKNOWN"),
        ("X" * 70_000, "UNKNOWN"),
        ("TURN x,y", "ERROR"),
        ("TURN 3;4", "ERROR"),
        ("TURN 3,", "ERROR"),
        ("TURN", "ERROR"),
        (f"TURN {width},{rng.randrange(height)}", "ERROR"),
        (f"TURN -1,{rng.randrange(height)}", "ERROR"),
        (f"TURN {rng.randrange(width)},{height + rng.randrange(5)}", "ERROR"),
        (f"TURN {taken}", "ERROR"),
        ("BEGIN", "ERROR"),
        (f"TAKEBACK {empty}" if empty else "TAKEBACK", "ERROR"),
        ("INFO timeout_turn -5", "ERROR"),
        ("INFO timeout_match -1000", "ERROR"),
        ("INFO time_left soon", "ERROR"),
        ("INFO time_left -300", "ERROR"),
        ("INFO max_memory -73400320", "ERROR"),
        ("INFO max_memory 70MB", "ERROR"),
        ("INFO thread_num 0", "ERROR"),
        ("INFO rule -1", "ERROR"),
        ("INFO max_node 1e9", "ERROR"),
        ("INFO", "ERROR"),
        ("INFO folder C:\\brains\\tmp", None),
        ("INFO evaluate 3,4", None),
        ("YXSTOP", None),
        ("about", "name="),
    ]
    return rng.sample(pool, rng.randint(1, 4))


UCI_GARBAGE: list[tuple[str, bool]] = [  # (line, whether it gets "info string error")
    ("", False),
    ("xyzzy 1 2", True),
    ("go wtime abc", True),
    ("go searchmoves e2e4", True),
    ("go depth", True),
    ("setoption name Hash value -5", True),
    ("setoption name Threads value many", True),
    ("setoption name NoSuchOption value 1", True),
    ("setoption", True),
    ("position fen not/a/fen w - - 0 1", True),
    ("position startpos moves e2e5", True),
    ("position sideways", True),
    ("stop", False),
    ("ponderhit", False),
    ("debug on", False),
]


# --- players -------------------------------------------------------------------------------


class Soaker:
    """What the soak adds to an arena adapter: the reply time minus the limit of every move,
    the peak RSS of its process tree, and work between moves (garbage, races) done in a
    thread while the opponent thinks; its problem, if any, fails the brain's next request."""

    def _soak_init(self, rng: random.Random, garbage: float) -> None:
        self.rng = rng
        self.garbage = garbage
        self.over_ms: list[float] = []
        self.peak_rss = 0
        self.garbage_lines = 0
        self.races = 0
        self._between: threading.Thread | None = None
        self._problem: str | None = None

    def _proc_pid(self) -> int | None:
        proc = getattr(self, "_proc", None)
        return proc.proc.pid if proc is not None and proc.alive else None

    def sample_rss(self) -> None:
        pid = self._proc_pid()
        if pid is not None:
            self.peak_rss = max(self.peak_rss, tree_peak_rss(pid))

    def prepare_move(self) -> None:
        """The arena's hook before this brain's clock starts: the work between moves ends."""
        self.settle()

    def settle(self) -> None:
        """Wait for the work between moves; its problem becomes a protocol failure."""
        if self._between is not None:
            self._between.join()
            self._between = None
        if self._problem is not None:
            problem, self._problem = self._problem, None
            raise EngineFailure("protocol", problem, self.last_output())  # type: ignore[attr-defined]

    def between_moves(self, work: Callable[[], None]) -> None:
        def run() -> None:
            try:
                work()
            except EngineFailure as exc:
                self._problem = f"between moves: {exc}"
            except Exception as exc:  # noqa: BLE001 - reported as the brain's failure
                self._problem = f"between moves: {type(exc).__name__}: {exc}"

        self._between = threading.Thread(target=run, daemon=True)
        self._between.start()

    def timed(self, think: Callable[[], Reply], limits: Limits) -> Reply:
        """``think()`` with its reply time minus the limit recorded, then the RSS sampled."""
        start = time.monotonic()
        reply = think()
        elapsed = time.monotonic() - start
        bounds = [b for b in (limits.movetime, limits.time_left) if b is not None]
        if bounds:
            self.over_ms.append(1000 * (elapsed - min(bounds)))
        self.sample_rss()
        return reply


class SoakPbrainPlayer(Soaker, PbrainPlayer):
    """The arena's pbrain adapter with the soak's garbage and measurements."""

    def __init__(self, *args, rng: random.Random, garbage: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._soak_init(rng, garbage)

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        self.settle()
        self.setup = setup
        super().new_game(setup, tc)
        self.sample_rss()

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        self.settle()
        reply = self.timed(
            lambda: super(SoakPbrainPlayer, self).think(referee, limits, deadline), limits
        )
        if self.rng.random() < self.garbage:
            burst = pbrain_garbage(
                self.rng, self.setup.width, self.setup.height, [*referee.moves, reply.move]
            )
            self.between_moves(lambda: self._garble(burst))
        return reply

    def _garble(self, burst: list[tuple[str, str | None]]) -> None:
        proc = self._running()
        for line, _ in burst:
            proc.send(line)
            self.garbage_lines += 1
        for line, expected in burst:
            if expected is None:
                continue
            deadline = time.monotonic() + REPLY_WAIT
            while True:
                answer = proc.readline(deadline)
                if answer.split(" ", 1)[0].upper() not in CHATTER:
                    break
            if not answer.startswith(expected):
                shown = line if len(line) < 60 else line[:30] + f"... ({len(line)} chars)"
                raise EngineFailure(
                    "protocol", f"{shown!r} answered {answer[:80]!r}, expected {expected}..."
                )


class SoakUciPlayer(Soaker, UciPlayer):
    """The arena's UCI adapter with the soak's garbage, go/stop races and measurements."""

    def __init__(self, *args, rng: random.Random, garbage: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._soak_init(rng, garbage)

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        self.settle()
        super().new_game(setup, tc)
        self.sample_rss()

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        self.settle()
        reply = self.timed(
            lambda: super(SoakUciPlayer, self).think(referee, limits, deadline), limits
        )
        if self.rng.random() < self.garbage:
            import chess

            board = chess.Board(referee.start_fen) if referee.start_fen else chess.Board()
            for move in [*referee.moves, reply.move]:
                board.push_uci(move)
            start = f"fen {referee.start_fen}" if referee.start_fen else "startpos"
            moves = " ".join([*referee.moves, reply.move])
            position = f"position {start} moves {moves}"
            kind = self.rng.choice(("garbage", "race", "newgame"))
            if board.is_game_over():
                kind = "garbage"
            self.between_moves(lambda: self._uci_between(kind, position, board))
        return reply

    def _read_until(self, word: str, wait: float = REPLY_WAIT) -> list[str]:
        """Lines up to the first one starting with ``word`` (included)."""
        proc = self._running()
        deadline = time.monotonic() + wait
        seen = []
        while True:
            line = proc.readline(deadline)
            seen.append(line)
            if line.split(" ", 1)[0] == word:
                return seen

    def _ready(self, errors: int) -> None:
        """``isready`` answered ``readyok`` with ``errors`` error lines and no bestmove before."""
        self._running().send("isready")
        lines = self._read_until("readyok")
        if any(line.startswith("bestmove") for line in lines):
            raise EngineFailure("protocol", f"a stray {lines[0]!r} before readyok")
        got = sum(1 for line in lines if line.startswith("info string error"))
        if got != errors:
            raise EngineFailure("protocol", f"{got} error lines for {errors} bad commands")

    def _uci_between(self, kind: str, position: str, board) -> None:
        proc = self._running()
        if kind == "garbage":
            burst = self.rng.sample(UCI_GARBAGE, self.rng.randint(1, 4))
            for line, _ in burst:
                proc.send(line)
                self.garbage_lines += 1
            self._ready(sum(1 for _, error in burst if error))
            return
        self.races += 1
        proc.send(position)
        if kind == "race":
            ms = self.rng.randint(1, 30)
            go = self.rng.choice(
                (f"go movetime {ms}", f"go wtime {ms * 20} btime 900 winc 5 binc 5")
            )
        else:
            go = "go infinite"
        proc.send(go)
        time.sleep(self.rng.uniform(0.0, 0.03))
        errors = 0
        if kind == "newgame":
            proc.send("ucinewgame")  # refused during a search: one error line
            errors = 1
        proc.send("stop")
        lines = self._read_until("bestmove")
        move = lines[-1].split()[1] if len(lines[-1].split()) > 1 else ""
        if move not in {m.uci() for m in board.legal_moves}:
            raise EngineFailure("protocol", f"{go} then stop: {lines[-1]!r} is not legal")
        got = sum(1 for line in lines if line.startswith("info string error"))
        self._ready(errors - got)


# --- the plan ------------------------------------------------------------------------------


def plan(args: argparse.Namespace) -> list[tuple[GameSetup, TimeControl, Opening]]:
    """One (setup, time control, opening) per colour-swapped pair of games: for pbrain, size
    by size and rule by rule (a brain restarts when the size changes), the time controls
    alternating on each round of setups; openings cycle."""
    tcs = []
    if args.st:
        tcs.append(parse_tc(None, args.st, args.timemargin))
    if args.tc:
        tcs.append(parse_tc(args.tc, None, args.timemargin))
    if args.protocol == "uci":
        setups = [GameSetup("chess")]
    else:
        from plies.gomoku.opening_rule import default_opening

        setups = [
            GameSetup("gomoku", rule, size, size, default_opening(rule))
            for size in args.sizes
            for rule in args.rules
        ]
    openings: dict[GameSetup, list[Opening]] = {}
    for setup in setups:
        try:
            source = str(CHESS_OPENINGS) if setup.game == "chess" else "renju26"
            openings[setup] = load_openings(source, setup, 8 if setup.game == "chess" else None)
        except PliesError:
            openings[setup] = [Opening()]  # the opening rule admits none of them: empty board
    pairs = []
    for k in range((args.games + 1) // 2):
        setup = setups[k % len(setups)]
        tc = tcs[(k // len(setups)) % len(tcs)]
        found = openings[setup]
        pairs.append((setup, tc, found[(k * 7) % len(found)]))
    return pairs


def brain_argv(args: argparse.Namespace) -> list[str]:
    if args.brain:
        return shlex.split(args.brain)
    module = "plies.chess.uci" if args.protocol == "uci" else "plies.gomoku.pbrain"
    return [sys.executable, "-m", module]


def make_player(args: argparse.Namespace, name: str, seed: int) -> Soaker:
    rng = random.Random(seed)
    if name == "rapfi":
        rapfi = Path(args.rapfi).resolve()
        return SoakPbrainPlayer(
            [str(rapfi)], name, str(rapfi.parent), None, args.max_memory, rng=rng, garbage=0.0
        )
    options = dict(option.split("=", 1) for option in args.option)
    if args.protocol == "uci":
        return SoakUciPlayer(brain_argv(args), name, None, options, rng=rng, garbage=args.garbage)
    return SoakPbrainPlayer(
        brain_argv(args), name, None, options, args.max_memory, rng=rng, garbage=args.garbage
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(
    args: argparse.Namespace,
    results: list[GameResult],
    everyone: list[tuple[str, Soaker]],
    started: float,
    late: list[str],
) -> dict:
    """The soak's figures so far (see the module docstring)."""
    failures: dict[str, int] = {}
    details = []
    for r in results:
        if r.failure is not None:
            failures[r.failure.kind] = failures.get(r.failure.kind, 0) + 1
            if len(details) < 20:
                details.append(
                    {
                        "game": r.job.index,
                        "setup": r.job.setup.describe(),
                        "engine": r.failure.engine,
                        "kind": r.failure.kind,
                        "message": r.failure.message,
                        "output": [line[:200] for line in r.failure.output[-12:]],
                    }
                )
    brains = [p for name, p in everyone if name != "rapfi"]
    rapfi = [p for name, p in everyone if name == "rapfi"]
    over = [x for p in brains for x in p.over_ms]
    out: dict = {
        "protocol": args.protocol,
        "games": len(results),
        "games_asked": args.games,
        "setups": sorted({r.job.setup.describe() for r in results}),
        "time_controls": sorted({r.job.tcs[0].describe() for r in results}),
        "forfeits": failures.get("timeout", 0),
        "illegal_moves": failures.get("illegal", 0),
        "crashes": failures.get("crash", 0),
        "protocol_failures": failures.get("protocol", 0) + len(late),
        "start_failures": failures.get("start", 0),
        "failures": details + [{"after_last_game": text} for text in late],
        "reasons": {},
        "garbage_lines": sum(p.garbage_lines for p in brains),
        "races": sum(p.races for p in brains),
        "max_memory": args.max_memory if args.protocol == "pbrain" else None,
        "peak_rss_mb": round(max((p.peak_rss for p in brains), default=0) / 2**20, 1),
        "seconds": round(time.monotonic() - started, 1),
        "load_average": os.getloadavg()[0],
    }
    for r in results:
        out["reasons"][r.outcome.reason] = out["reasons"].get(r.outcome.reason, 0) + 1
    if rapfi:
        out["rapfi_peak_rss_mb"] = round(max(p.peak_rss for p in rapfi) / 2**20, 1)
        out["plies_score_vs_rapfi"] = sum(r.score_of(0) or 0 for r in results)
    if over:
        out["reply_minus_limit_ms"] = {
            "moves": len(over),
            "over_limit": sum(1 for x in over if x > 0),
            "p50": round(statistics.median(over), 1),
            "p99": round(percentile(over, 0.99), 1),
            "max": round(max(over), 1),
        }
    return out


def save(path: str, data: dict) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    Path(tmp).write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> dict:
    names = ["plies-A", "rapfi" if args.rapfi else "plies-B"]
    specs = {
        name: parse_engine_spec(f"cmd={shlex.quote(sys.executable)} name={name}") for name in names
    }
    players: dict[str, Soaker] = {}
    everyone: list[tuple[str, Soaker]] = []  # every player started, failed ones included
    late: list[str] = []  # problems found after the last game
    seeds = {name: args.seed * 1000 + i for i, name in enumerate(names)}
    results: list[GameResult] = []
    peaks: list[float] = []  # the brains' peak RSS after each game
    started = time.monotonic()
    adjudication = (
        Adjudication(max_moves=args.max_moves) if args.protocol == "uci" else Adjudication()
    )
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[status]}"),
        disable=args.quiet,
    )
    games = plan(args)
    if not args.brain:  # the kernels on disk first, so that no brain compiles on a clock
        from plies.warmup import KERNELS, ensure_compiled

        ensure_compiled(KERNELS["chess" if args.protocol == "uci" else "gomoku"], quiet=args.quiet)
    try:
        with progress:
            task = progress.add_task(f"soak {args.protocol}", total=args.games, status="")
            for index in range(args.games):
                setup, tc, opening = games[index // 2]
                colours = (names[index % 2], names[1 - index % 2])
                for name in colours:
                    if name not in players:
                        seeds[name] += 1
                        players[name] = make_player(args, name, seeds[name])
                        everyone.append((name, players[name]))
                job = GameJob(
                    index=index,
                    pair=index // 2,
                    setup=setup,
                    opening=opening,
                    specs=(specs[colours[0]], specs[colours[1]]),
                    engine_ids=(names.index(colours[0]), names.index(colours[1])),
                    tcs=(tc, tc),
                    adjudication=adjudication,
                )
                result = play_game(job, (players[colours[0]], players[colours[1]]))  # type: ignore[arg-type]
                for colour in failed_colours(result):
                    players.pop(colours[colour]).close()  # type: ignore[attr-defined]
                results.append(result)
                data = summary(args, results, everyone, started, late)
                peaks.append(data["peak_rss_mb"])  # so far: a brain growing from game to game
                data["peak_rss_mb_by_game"] = peaks
                save(args.out, data)
                bad = sum(
                    data[k]
                    for k in (
                        "forfeits",
                        "illegal_moves",
                        "crashes",
                        "protocol_failures",
                        "start_failures",
                    )
                )
                progress.update(task, advance=1, status=f"failures {bad}")
                if result.failure is not None and not args.quiet:
                    f = result.failure
                    progress.console.print(f"game {index}: {f.engine} {f.kind}: {f.message}")
    except KeyboardInterrupt:
        print(f"interrupted after {len(results)} games: partial results in {args.out}")
    finally:
        for player in players.values():
            try:
                player.settle()  # the last move's garbage answers
            except EngineFailure as exc:
                late.append(f"{player.name}: {exc}")  # type: ignore[attr-defined]
            player.close()  # type: ignore[attr-defined]
    data = summary(args, results, everyone, started, late)
    data["peak_rss_mb_by_game"] = peaks
    data["interrupted"] = len(results) < args.games
    save(args.out, data)
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--protocol", choices=("pbrain", "uci"), default="pbrain")
    ap.add_argument("--st", type=float, default=0.1, help="seconds a move (0: none)")
    ap.add_argument("--tc", default="3+0.03", help="game clock, e.g. 3+0.03 ('' : none)")
    ap.add_argument(
        "--timemargin", type=float, default=0.0, help="seconds over the limit before a forfeit"
    )
    ap.add_argument("--rules", default="freestyle,standard,renju,caro", help="pbrain rules")
    ap.add_argument("--sizes", default="15,19,20", help="pbrain board sizes")
    ap.add_argument("--garbage", type=float, default=0.5, help="share of moves followed by garbage")
    ap.add_argument("--max-memory", type=int, default=350 * 2**20, help="pbrain INFO max_memory")
    ap.add_argument("--max-moves", type=int, default=150, help="UCI: a draw after this many moves")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a brain option: UCI setoption, pbrain INFO (repeatable)",
    )
    ap.add_argument("--rapfi", default=None, help="a Rapfi binary: plies plays it (pbrain)")
    ap.add_argument("--brain", default=None, help="the brain's command (default: this checkout)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="soak.json", help="the summary (JSON), after every game")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    args.rules = [r for r in args.rules.split(",") if r]
    args.sizes = [int(n) for n in args.sizes.split(",") if n]
    if args.games < 1 or not (args.st or args.tc):
        ap.error("need at least one game and a time control (--st or --tc)")
    if any("=" not in option for option in args.option):
        ap.error("--option takes NAME=VALUE")
    if args.rapfi and args.protocol != "pbrain":
        ap.error("--rapfi plays Gomoku: use it with --protocol pbrain")
    data = run(args)
    shown = {k: v for k, v in data.items() if k != "failures"}
    print(json.dumps(shown, indent=2))
    for failure in data["failures"]:
        print("FAILURE", json.dumps(failure)[:2000])
    bad = ("forfeits", "illegal_moves", "crashes", "protocol_failures", "start_failures")
    return 1 if any(data[k] for k in bad) else 0


if __name__ == "__main__":
    sys.exit(main())
