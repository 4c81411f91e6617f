"""The ``plies`` command: one sub-command per verb; each parses, calls the library, prints.

Bad input (any :class:`plies.errors.PliesError`) is handled once, in :func:`main`: one line
``error: ...`` on stderr and exit status 2.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from plies import __version__
from plies.errors import InvalidOption, InvalidRecord, PliesError
from plies.gomoku.board import Board
from plies.gomoku.records import FORMATS, GameRecord, example_record, load_record
from plies.gomoku.rules import RULE_NAMES

if TYPE_CHECKING:
    from plies.search.bench import BenchReport

_STONE_STYLES = {"X": "bold cyan", "O": "bold magenta", "*": "bold red"}


PIPE_WIDTH = 200  # columns of output that is not a terminal, unless COLUMNS says otherwise


def _console(width: int | None = None) -> Console:
    """The console commands print to: ``width`` columns when given; on a terminal its own
    width; otherwise (a pipe, a file) the COLUMNS variable, else :data:`PIPE_WIDTH`, so that
    tables such as the review's are not squeezed into 80 columns."""
    # created per call so that it writes to the current sys.stdout (CliRunner swaps it)
    console = Console(highlight=False, soft_wrap=True, width=width)
    if width is None and not console.is_terminal and not os.environ.get("COLUMNS"):
        console.width = PIPE_WIDTH
    return console


def _width_option(func: Callable) -> Callable:
    """``--width N``: the columns of the output (tables wrap to fit)."""
    return click.option(
        "--width",
        type=click.IntRange(min=40),
        metavar="N",
        help=f"Output width in columns (default: the terminal's; {PIPE_WIDTH} when the output "
        "is not a terminal, or COLUMNS when set).",
    )(func)


def _squares(board: Board, moves) -> str:
    return " ".join(m.algebraic(board.height) for m in moves)


def render_board(board: Board, forbidden: bool = False) -> Text:
    """The board as rich text: stones coloured, the winning line reversed, ``*`` forbidden."""
    plain = board.to_text(labels=True, forbidden=forbidden)
    text = Text()
    win = {(m.x, m.y) for m in board.winning_line or []}
    for row, line in enumerate(plain.split("\n")):
        if row:
            text.append("\n")
        y = row - 1
        for col, ch in enumerate(line):
            style = _STONE_STYLES.get(ch, "")
            if 0 <= y < board.height and col >= 3 and (col - 3) % 3 == 1:
                x = (col - 3) // 3
                if (x, y) in win:
                    style = f"{style} reverse".strip()
            text.append(ch, style=style or None)
    return text


def describe_result(board: Board) -> str:
    """One line saying how the replayed game stands."""
    if board.lost_by_forbidden:
        last = board.last_move
        assert last is not None
        why = board.forbidden_loss_reason
        reason = f" ({why})" if why else ""
        return f"white wins: black's move {last.algebraic(board.height)} is forbidden{reason}"
    if board.winner:
        colour = "black" if board.winner == 1 else "white"
        line = board.winning_line or []
        shape = "five" if len(line) == 5 else f"{len(line)} in a row"
        return f"{colour} wins with {shape}: {_squares(board, line)}"
    if board.is_full:
        return "draw: the board is full"
    colour = "black" if board.to_move == 1 else "white"
    return f"not finished ({colour} to move)"


def print_game(
    record: GameRecord, board: Board, show_forbidden: bool, out: Console | None = None
) -> None:
    """Print a replayed record: board, rule, players, result, forbidden points."""
    out = out or _console()
    out.print(render_board(board, forbidden=show_forbidden and board.rule == "renju"))
    out.print(
        Text(f"rule: {board.rule}   size: {board.width}x{board.height}   moves: {len(board)}")
    )
    black, white = record.players
    if black or white:
        out.print(Text(f"black: {black or '?'}   white: {white or '?'}"))
    if record.event:
        out.print(Text(f"event: {record.event}"))
    out.print(Text(f"result: {describe_result(board)}"))
    expected = {1: "black", 2: "white"}.get(board.winner, "draw" if board.is_full else None)
    if record.result and record.result != expected:
        out.print(Text(f"the record's result: {record.result}"))
    if show_forbidden:
        if board.rule != "renju":
            out.print(Text(f"forbidden points: none ({board.rule} has no forbidden moves)"))
        else:
            points = board.forbidden_points()
            listed = _squares(board, points) if points else "none"
            out.print(Text(f"forbidden points for black (*): {listed}"))


def _ensure_kernels(game: str) -> None:
    """Compile the kernels ``game``'s commands need if numba's cache lacks them, saying so
    and showing progress on stderr (silent when the cache holds them; plies.warmup)."""
    from plies.warmup import KERNELS, ensure_compiled

    ensure_compiled(KERNELS[game])


def _rule_option(help_text: str, **kwargs: Any) -> Callable:
    """The ``--rule`` option: a Gomoku rule name, in any case."""
    return click.option(
        "--rule", type=click.Choice(RULE_NAMES, case_sensitive=False), help=help_text, **kwargs
    )


def _opening_option(help_text: str) -> Callable:
    """The ``--opening`` option: a Gomoku opening rule (free, pro, long-pro; docs/rules.md)."""
    from plies.gomoku.opening_rule import OPENING_NAMES

    return click.option(
        "--opening",
        "opening_rule",
        type=click.Choice(OPENING_NAMES, case_sensitive=False),
        help=help_text,
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="plies")
def cli() -> None:
    """Play, solve and review two-player board games at compiled speed."""


@cli.command()
@click.option("--html", "html_out", metavar="OUT", help="Also review the game; write the report.")
@_width_option
def demo(html_out: str | None, width: int | None) -> None:
    """Replay the bundled sample game (Renju, 15x15) and show how it ends; with --html, review
    it (a small fixed budget) and write the HTML report."""
    _ensure_kernels("gomoku" if html_out else "gomoku-rules")
    record = example_record()
    board = record.to_board(forbidden="loses")
    out = _console(width)
    title = record.properties.get("GN")
    out.print(Text(f"sample game: {record.source}" + (f" ({title})" if title else "")))
    print_game(record, board, show_forbidden=board.rule == "renju", out=out)
    comment = record.properties.get("C")
    if comment:
        out.print(Text("\n" + " ".join(comment.split())), soft_wrap=False)
    if html_out:
        from plies.analysis.gomoku import review_demo

        review_demo(record, html_out, out)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@_rule_option("Replay under this rule instead of the record's (default freestyle).")
@click.option("--size", metavar="N|WxH", help="Board size, replacing the record's.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS, case_sensitive=False),
    help="Record format (default: from the extension, else the content).",
)
@click.option("--forbidden", is_flag=True, help="Mark black's forbidden points (Renju).")
@_opening_option("Replay under this opening rule (default: the record's, else free).")
def show(
    file: str,
    rule: str | None,
    size: str | None,
    fmt: str | None,
    forbidden: bool,
    opening_rule: str | None,
) -> None:
    """Print the final position and result of a game record (.psq, .sgf or a move list; -
    reads stdin)."""
    record = load_record(file, fmt, rule=rule, size=size)
    board = record.to_board(forbidden="loses", opening=opening_rule)
    print_game(record, board, show_forbidden=forbidden)


@cli.command()
def pbrain() -> None:
    """Run the Gomocup brain on stdin/stdout (the same as pbrain-plies; docs/pbrain.md)."""
    from plies.gomoku.pbrain import main as pbrain_main

    pbrain_main()


@cli.command()
def uci() -> None:
    """Run the chess engine on stdin/stdout with the UCI protocol (docs/chess.md)."""
    from plies.chess.uci import main as uci_main

    uci_main()


@cli.command()
def warmup() -> None:
    """Compile (or load from the numba cache) every kernel."""
    from plies.warmup import WARMUPS, ensure_compiled, run_warmups

    out = _console()
    start = time.perf_counter()
    compiled = dict(ensure_compiled(WARMUPS))  # on a cold cache, over several processes
    loaded = dict(run_warmups([e for e in WARMUPS if e not in compiled]))
    for entry in WARMUPS:
        seconds = compiled.get(entry, loaded.get(entry, 0.0))
        how = "compiled" if entry in compiled else "loaded"
        out.print(Text(f"{entry:<40} {seconds:7.2f} s  {how}"))
    out.print(Text(f"total compile time: {time.perf_counter() - start:.2f} s"))


def _size_option(size: str | None) -> tuple[int, int]:
    from plies.gomoku.records import parse_size

    return parse_size(size) if size else (15, 15)


@cli.command()
@_rule_option("The rule.", default="freestyle", show_default=True)
@click.option("--size", metavar="N|WxH", help="Board size (default 15).")
@click.option(
    "--engine",
    "engine_side",
    type=click.Choice(["white", "black", "both", "none"]),
    default="white",
    show_default=True,
    help="Which colour(s) the engine plays.",
)
@click.option(
    "--movetime", type=float, default=1.0, show_default=True, help="Engine seconds per move."
)
@click.option("--depth", type=int, help="Engine depth per move (instead of --movetime).")
@click.option(
    "--level",
    type=click.IntRange(1, 6),
    help="Playing level, 1 (beginner: misses threats) to 6 (full strength at 60,000 nodes), "
    "instead of --movetime (docs/serve.md).",
)
@click.option("--threads", type=int, default=1, show_default=True, help="Search threads.")
@click.option(
    "--hash",
    "hash_mb",
    type=float,
    default=64,
    show_default=True,
    help="Transposition table size in MB.",
)
@click.option("--moves", default="", help="Opening moves to start from, e.g. 'h8 h9 i10'.")
@click.option("--save", type=click.Path(dir_okay=False), help="Save the game (.psq, .sgf, .txt).")
@_opening_option("Opening rule (default: pro for caro and caro5, else free).")
@click.option(
    "--book",
    "book_spec",
    default="default",
    show_default=True,
    metavar="default|off|FILE",
    help="Opening book the engine plays from (default: the one shipped for the game).",
)
@click.option(
    "--swap",
    type=click.Choice(["swap1", "swap2"]),
    help="Start with a swap opening: the first player (black at first) places three stones "
    "and the colours are chosen (--engine black: the engine opens).",
)
def play(
    rule: str,
    size: str | None,
    engine_side: str,
    movetime: float,
    depth: int | None,
    level: int | None,
    threads: int,
    hash_mb: float,
    moves: str,
    save: str | None,
    opening_rule: str | None,
    book_spec: str,
    swap: str | None,
) -> None:
    """Play a game in the terminal: you against the engine, or engine against engine."""
    if level is not None and depth is not None:
        raise InvalidOption("--level replaces --depth and --movetime: give one")
    from plies.gomoku.engine import Engine
    from plies.gomoku.notation import parse_moves
    from plies.gomoku.play import HELP, PlayLimits, play_game, swap_opening
    from plies.gomoku.records import GameRecord, save_record

    width, height = _size_option(size)
    from plies.gomoku.opening_rule import opening_name

    opening = opening_name(opening_rule, rule)
    if swap:
        if opening_rule not in (None, "free"):
            raise InvalidOption(f"--swap replaces the opening rule: leave out --opening {opening}")
        if moves.strip():
            raise InvalidOption("--swap starts from the empty board: leave out --moves")
        opening = "free"
    board = Board(width=width, height=height, rule=rule, opening=opening)
    board.play_moves(parse_moves(moves, width, height) if moves.strip() else [])
    _ensure_kernels("gomoku")
    from plies.gomoku.book import resolve_book

    book = resolve_book(book_spec, board.rule, width, height, opening)
    engine = Engine(rule, width=width, height=height, hash_mb=hash_mb, threads=threads, book=book)
    colors = {"white": {2}, "black": {1}, "both": {1, 2}, "none": set()}[engine_side]
    out = _console()
    if colors != {1, 2}:
        out.print(Text(HELP))
    limits = PlayLimits(movetime=None if depth else movetime, depth=depth, level=level)
    show = lambda b: out.print(render_board(b, forbidden=b.rule == "renju"))  # noqa: E731
    if swap:
        roles = {"white": {"second"}, "black": {"first"}, "both": {"first", "second"}}
        colors = swap_opening(
            board, engine, swap, roles.get(engine_side, set()), limits, ask=input,
            say=lambda line: out.print(Text(line)), show=show,
        )  # fmt: skip
        if colors is None:
            return
    final = play_game(
        board,
        engine,
        colors,
        limits,
        ask=input,
        say=lambda line: out.print(Text(line)),
        show=lambda b: out.print(render_board(b, forbidden=b.rule == "renju")),
    )
    out.print(Text(f"result: {describe_result(final)}"))
    if save:
        save_record(GameRecord.from_board(final), save)
        out.print(Text(f"saved {save}"))


class _LazyHelpOption(click.Option):
    """An option whose help text is built when help is shown (``help_from()``), so that it can
    quote defaults from modules the command imports only when it runs."""

    def __init__(self, *args: Any, help_from: Callable[[], str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_from = help_from

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = self.help_from()
        return super().get_help_record(ctx)


def _bench_depth_help() -> str:
    from plies.chess.engine.bench import DEFAULT_DEPTH as CHESS
    from plies.gomoku.engine.bench import DEFAULT_DEPTH as GOMOKU

    return (
        f"Depth per position (default: gomoku {GOMOKU}, chess {CHESS}; dots solves its "
        "positions exactly and takes no limit)."
    )


@cli.command()
@click.argument("game", type=click.Choice(["gomoku", "chess", "dots"]))
@click.option("--depth", type=int, default=None, cls=_LazyHelpOption, help_from=_bench_depth_help)
@click.option(
    "--nodes", type=int, default=None, help="Nodes per position instead of a depth (not dots)."
)
def bench(game: str, depth: int | None, nodes: int | None) -> None:
    """Search a fixed position set: total nodes, nodes per second and a signature."""
    if game == "dots" and (depth is not None or nodes is not None):
        raise InvalidOption("bench dots solves its positions exactly: no --depth or --nodes")
    _ensure_kernels(game)
    if game == "chess":
        _bench_chess(depth, nodes)
        return
    if game == "dots":
        return _bench_dots()
    from plies.gomoku.engine.bench import DEFAULT_DEPTH, run_bench

    def line_text(line) -> str:
        r = line.result
        return (
            f"{line.rule:<10} {line.size}x{line.size} after {line.moves:>2} moves: "
            f"{r.move.algebraic(line.size) if r.move else '-':<4} {r.score_text:>12} "
            f"depth {r.depth:>2}  {r.nodes:>10} nodes  {r.nps:>8} nodes/s"
        )

    _run_engine_bench(run_bench, DEFAULT_DEPTH, depth, nodes, line_text)


def _bench_chess(depth: int | None, nodes: int | None) -> None:
    """``plies bench chess`` (plies.chess.engine.bench)."""
    from plies.chess.engine.bench import DEFAULT_DEPTH, run_bench

    def line_text(line) -> str:
        r = line.result
        return (
            f"{r.move.uci() if r.move else '-':<6} {r.score_text:>9} depth {r.depth:>2} "
            f"{r.nodes:>10} nodes {r.nps:>9} nodes/s  {line.fen}"
        )

    _run_engine_bench(run_bench, DEFAULT_DEPTH, depth, nodes, line_text)


def _run_engine_bench(
    run_bench: Callable[..., BenchReport],
    default_depth: int,
    depth: int | None,
    nodes: int | None,
    line_text: Callable[[Any], str],
) -> None:
    """Run an engine's bench (``default_depth`` unless a depth or node limit is given),
    printing ``line_text(line)`` per position, then the report."""
    out = _console()
    report = run_bench(
        depth=depth or (None if nodes else default_depth),
        nodes=nodes,
        progress=lambda line: out.print(Text(line_text(line))),
    )
    _print_bench_report(report, lambda text: out.print(Text(text)))


def _print_bench_report(report: BenchReport, say: Callable[[str], object]) -> None:
    """The three lines every ``plies bench`` ends with: nodes, nodes/s, signature."""
    say(f"{report.nodes} nodes")
    say(f"{report.nps} nodes/s")
    say(f"signature {report.signature}")


@cli.command()
@click.argument("game", type=click.Choice(["gomoku", "dots"]))
@click.argument("file", required=False, metavar="FILE|RxC")
@click.option("--json", "as_json", is_flag=True, help="Dots: print the result as JSON.")
@click.option("--hash-bits", type=int, help="Dots: table size (2**N slots; default by size).")
@click.option("--memory", help="Dots: table size from a memory budget (8G, 512M).")
@click.option("--state", help="Dots: table file: resumed from if it exists, written on Ctrl-C.")
@click.option("--progress", type=float, help="Dots: print progress every N seconds.")
@click.option("--moves", default=None, help="The position as a move list instead of a FILE.")
@_rule_option("The rule.")
@click.option("--size", metavar="N|WxH", help="Board size.")
@click.option("--vct", "use_vct", is_flag=True, help="Search threes too (VCT), not only fours.")
@click.option("--depth", type=int, default=None, help="Most attacker moves (VCF 64, VCT 12).")
@click.option("--movetime", type=float, default=10.0, show_default=True, help="Seconds (VCT).")
def solve(
    game: str,
    file: str | None,
    moves: str | None,
    rule: str | None,
    size: str | None,
    use_vct: bool,
    depth: int | None,
    movetime: float,
    as_json: bool,
    hash_bits: int | None,
    memory: str | None,
    state: str | None,
    progress: float | None,
) -> None:
    """Gomoku: find a forced win (VCF, or VCT with --vct) for the side to move. Dots: solve
    the R x C boxes board (or the position after --moves) exactly."""
    if game == "dots":
        from plies.dots.bench import solve_command

        return solve_command(
            file or "3x3", as_json, hash_bits, moves, click.echo, memory, state, progress
        )
    from plies.errors import InvalidOption
    from plies.gomoku.engine import Engine
    from plies.gomoku.notation import parse_moves
    from plies.gomoku.records import GameRecord, load_record

    if file:
        record = load_record(file, rule=rule, size=size)
    elif moves is not None:
        width, height = _size_option(size)
        record = GameRecord(
            width=width,
            height=height,
            rule=rule or "freestyle",
            moves=parse_moves(moves, width, height),
        )
    else:
        raise InvalidOption("give a FILE or --moves")
    board = record.to_board(rule=rule)
    engine = Engine(board.rule, width=board.width, height=board.height, hash_mb=1)
    if use_vct:
        line = engine.vct(board, max_depth=depth or 12, movetime=movetime)
    else:
        line = engine.vcf(board, max_depth=depth or 64)
    out = _console()
    who = "black" if board.to_move == 1 else "white"
    kind = "VCT" if use_vct else "VCF"
    if line is None:
        out.print(Text(f"no {kind} found for {who}"))
        return
    out.print(
        Text(f"{who} wins by {kind} in {(len(line) + 1) // 2} moves: {_squares(board, line)}")
    )


# --- Dots and Boxes (plies bench dots; plies solve dots is a branch of `solve`) -------------
def _bench_dots() -> None:
    from plies.dots.bench import run_bench

    def progress(line) -> None:
        r = line.result
        click.echo(
            f"{line.size} {line.moves or '(empty)':<28} value {r.value:+d} "
            f"{r.nodes:>10} nodes {r.seconds:8.3f} s"
        )

    _print_bench_report(run_bench(progress=progress), click.echo)


@cli.command()
@click.argument("game", type=click.Choice(["dots"]))
@click.option("--out", default="plies-charts", show_default=True, help="Output folder.")
@click.option(
    "--agents",
    default="dots-chains,dots-mcts?iterations=500,dots-alphabeta?depth=2",
    show_default=True,
    help="Comma-separated agent specs whose win rates against dots-random are charted.",
)
@click.option(
    "--sizes",
    default="2x2,2x3,3x3",
    show_default=True,
    help="Boards (RxC boxes) of the win-rate games and of the alpha-beta timings.",
)
@click.option("--games", type=int, default=20, show_default=True, help="Games per agent/size.")
@click.option(
    "--depths",
    default="1,2,3,4",
    show_default=True,
    help="Alpha-beta depths timed (one move from the empty board) on each of --sizes.",
)
@click.option(
    "--solve-sizes",
    default="2x2,2x3,3x3,2x4",
    show_default=True,
    help="Boards (RxC boxes) the exact solver is timed on, from the empty board.",
)
def charts(game, out, agents, sizes, games, depths, solve_sizes) -> None:
    """PNG charts: win rates by agent and board size, search time by depth and board size."""
    from plies.dots.charts import make_charts

    paths = make_charts(
        out, agents.split(","), sizes.split(","), games, [int(d) for d in depths.split(",")],
        solve_sizes.split(","), progress=click.echo,
    )  # fmt: skip
    for path in paths:
        click.echo(f"wrote {path}")


def _arena_options(func):
    """The options `plies match` and `plies tournament` share."""
    from plies.arena.output import GOMOKU_FORMATS
    from plies.arena.runners import BACKENDS
    from plies.arena.timecontrol import DEFAULT_MARGIN, DEFAULT_STARTUP

    options = [
        click.option(
            "--engine",
            "engines",
            multiple=True,
            required=True,
            metavar="SPEC",
            help="An engine: plies:gomoku?depth=3 or 'cmd=/path/to/engine proto=pbrain|uci' "
            "(see docs/arena.md). Repeat for each engine.",
        ),
        click.option(
            "--game",
            type=click.Choice(["gomoku", "chess", "dots"]),
            help="Default: chess for UCI engines, else gomoku.",
        ),
        _rule_option("Gomoku rule.", default="freestyle", show_default=True),
        _opening_option("Gomoku opening rule (default: pro for caro and caro5, else free)."),
        click.option(
            "--size", metavar="N|WxH", help="Board size (Gomoku default 15; dots RxC boxes, 3x3)."
        ),
        click.option(
            "--games",
            type=int,
            default=2,
            show_default=True,
            help="Games per pairing, played in colour-swapped pairs.",
        ),
        click.option(
            "--rounds", type=int, default=1, show_default=True, help="Repeat the schedule."
        ),
        click.option("--tc", help="Clock: [MOVES/]SECONDS[+INC], e.g. 10+0.1 (cutechess style)."),
        click.option("--st", type=float, help="Fixed seconds per move."),
        click.option(
            "--timemargin",
            type=float,
            help=f"Seconds of grace before a time loss (default {DEFAULT_MARGIN:g}).",
        ),
        click.option(
            "--startup",
            type=float,
            help="Extra seconds an engine's first move of a game may take "
            f"(default {DEFAULT_STARTUP:g}).",
        ),
        click.option(
            "--openings",
            metavar="FILE",
            help="Openings: renju26, balanced (the shipped set for the rule and size), a Gomoku "
            "offset file, .psq/.sgf, or .epd/.pgn for chess.",
        ),
        click.option(
            "--openings-order",
            type=click.Choice(["sequential", "random"]),
            default="sequential",
            show_default=True,
            help="Take the openings in file order or shuffled (see --seed).",
        ),
        click.option("--seed", type=int, help="Seed for --openings-order random."),
        click.option(
            "--opening-plies", type=int, help="Use only the first N moves of record/PGN openings."
        ),
        click.option("--maxmoves", type=int, help="Adjudicate a draw after N moves."),
        click.option(
            "--resign",
            metavar="movecount=N,score=CP[,twosided=true]",
            help="Resign adjudication on engine scores.",
        ),
        click.option(
            "--draw",
            metavar="movenumber=N,movecount=N,score=CP",
            help="Draw adjudication on engine scores.",
        ),
        click.option("--concurrency", type=int, help="Games at once (default: cores - 1)."),
        click.option(
            "--backend",
            type=click.Choice(BACKENDS),
            default="local",
            show_default=True,
            help="Where games run: a local process pool, or a Ray cluster.",
        ),
        click.option("--ray-address", help="Ray cluster address (default: a local instance)."),
        click.option(
            "--out",
            "out_dir",
            metavar="DIR",
            help="Where games and summary.json go (default: plies-<verb>-<date>-<time>).",
        ),
        click.option(
            "--game-format",
            type=click.Choice(GOMOKU_FORMATS),
            default="psq",
            show_default=True,
            help="File format of saved Gomoku games.",
        ),
        click.option("--json", "json_out", metavar="OUT", help="Also write the JSON summary here."),
        click.option(
            "--live/--no-live", default=None, help="Live display (default: on a terminal)."
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _run_arena(verb: str, fmt: str, kw: dict, sprt: dict | None = None) -> None:
    import datetime as dt

    from plies.arena import build_config, run_match
    from plies.arena.display import MatchDisplay, score_lines
    from plies.arena.match import repeat_notice
    from plies.arena.output import GameWriter, write_json

    out_dir = kw.pop("out_dir") or f"plies-{verb}-{dt.datetime.now():%Y%m%d-%H%M%S}"
    game_format, json_out, live = kw.pop("game_format"), kw.pop("json_out"), kw.pop("live")
    kw["max_moves"] = kw.pop("maxmoves")
    kw["opening"] = kw.pop("opening_rule")
    config = build_config(list(kw.pop("engines")), fmt=fmt, **kw, **(sprt or {}))
    writer = GameWriter(out_dir, game_format, event=f"plies {verb}")
    out = _console()
    out.print(
        Text(
            f"{verb}: {' vs '.join(e.name for e in config.engines)}, "
            f"{config.setup.describe()}, tc {config.tc.describe()}, "
            f"concurrency {config.concurrency} ({config.backend})"
        )
    )
    notice = repeat_notice(config)
    if notice:
        out.print(Text(notice))
    with MatchDisplay(out, live) as display:

        def on_result(report, result) -> None:
            writer.write(result)
            display.update(report, result)

        report = run_match(config, on_result)
    if report.interrupted:
        out.print(Text("interrupted: keeping the finished games"))
    for line in score_lines(report):
        out.print(Text(line))
    summary = report.to_json(writer.files)
    write_json(summary, f"{out_dir}/summary.json")
    if json_out:
        write_json(summary, json_out)
    out.print(Text(f"games and summary.json in {out_dir}"))
    if report.interrupted:
        raise SystemExit(130)


@cli.command()
@_arena_options
@click.option("--sprt", metavar="ELO0,ELO1", help="Stop early once the SPRT decides.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT alpha.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT beta.")
@click.option(
    "--sprt-model",
    type=click.Choice(["normalized", "logistic"]),
    default="normalized",
    show_default=True,
    help="SPRT bounds in normalized Elo (as fishtest) or logistic Elo.",
)
def match(sprt, alpha, beta, sprt_model, **kw) -> None:
    """Play a match between two engines: Elo, LOS, pentanomial counts and the SPRT."""
    _run_arena(
        "match", "match", kw, {"sprt": sprt, "alpha": alpha, "beta": beta, "sprt_model": sprt_model}
    )


@cli.command()
@_arena_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["round-robin", "gauntlet"]),
    default="round-robin",
    show_default=True,
    help="Every pair, or the first engine against each other one.",
)
def tournament(fmt, **kw) -> None:
    """Play a round robin or gauntlet between two or more engines: standings and crosstable."""
    _run_arena("tournament", fmt, kw)


# --- plies analyze (game review) ---------------------------------------------------------------
def _analyze_movetime_help() -> str:
    from plies.analysis.session import DEFAULT_MOVETIME

    return f"Seconds per position (default {DEFAULT_MOVETIME:g} without --depth or --nodes)."


@cli.command()
@click.argument("file", type=str)
@_rule_option("The rule.")
@click.option("--size", metavar="N|WxH", help="Board size, replacing the record's.")
@click.option("--movetime", type=float, cls=_LazyHelpOption, help_from=_analyze_movetime_help)
@click.option("--depth", type=int, help="Search depth per position instead of a time.")
@click.option("--nodes", type=int, help="Nodes per position instead of a time (deterministic).")
@click.option("--threads", type=int, default=1, show_default=True, help="Threads per search.")
@click.option("--workers", type=int, help="Positions analysed at once (default: cores - 1).")
@click.option(
    "--lang",
    type=click.Choice(["en", "vi"]),
    default="en",
    show_default=True,
    help="Language of the explanations.",
)
@click.option("--json", "json_out", metavar="OUT", help="Write the review as JSON.")
@click.option("--html", "html_out", metavar="OUT", help="Write the HTML report.")
@click.option(
    "--book", metavar="FILE", help="An opening book: one line of moves per line (- reads stdin)."
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the analysis cache.")
@click.option("--all-moves/--notable", default=True, help="Table of all moves or notable ones.")
@click.option(
    "--game",
    "game_number",
    type=click.IntRange(min=1),
    metavar="N",
    help="PGN: review only game N (from 1). Default: every game of the file, the reports "
    "of game N going to OUT-N.json / OUT-N.html when there are several.",
)
@_opening_option("Gomoku opening rule (default: the record's, else free).")
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where positions run: local processes, or Ray actors (--workers of them).",
)
@click.option("--ray-address", help="Ray cluster address (default: a local Ray instance).")
@_width_option
def analyze(file, rule, size, movetime, depth, nodes, threads, workers, lang, json_out,
            html_out, book, no_cache, all_moves, game_number, opening_rule, backend,
            ray_address, width) -> None:  # fmt: skip
    """Review a game: every move judged, mistakes and missed wins explained. FILE is .psq,
    .sgf or a move list (Gomoku), or .pgn (chess: every game of the file, or --game N);
    - reads stdin, a PGN when it starts with a tag pair or has move numbers or SAN moves
    (Nf3, exd5, O-O), else a Gomoku record. A file of another extension holding a PGN is
    reviewed as chess too. A folder reviews every .psq, .sgf, .pgn and .txt file in it
    (--json and --html then name folders: one report per game file)."""
    from plies.analysis.session import AnalyzeRequest

    request = AnalyzeRequest(
        movetime=movetime,
        depth=depth,
        nodes=nodes,
        threads=threads,
        workers=workers,
        lang=lang,
        json_out=json_out,
        html_out=html_out,
        use_cache=not no_cache,
        notable_only=not all_moves,
        backend=backend,
        ray_address=ray_address,
    )
    if os.path.isdir(file):
        _analyze_folder(Path(file), request, rule, size, book, game_number, width, opening_rule)
        return
    _analyze_one(file, request, rule, size, book, game_number, width, opening_rule)


GAME_SUFFIXES = (".psq", ".sgf", ".pgn", ".txt")


def _analyze_folder(
    folder: Path, request, rule, size, book, game_number, width, opening_rule=None
) -> None:
    """``plies analyze DIR/``: every game file of the folder, in name order, one Ray session
    for them all with ``--backend ray``; a bad file is reported (one line) and skipped, and
    the exit status is then 2."""
    from contextlib import nullcontext
    from dataclasses import replace

    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in GAME_SUFFIXES)
    if not files:
        raise InvalidRecord(f"no game files ({', '.join(GAME_SUFFIXES)}) in {folder}")
    for out in (request.json_out, request.html_out):
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
    session = nullcontext()
    if request.backend == "ray":
        from plies.ray_session import ray_session

        session = ray_session(request.ray_address, request.pool_size())
    failed = 0
    with session:
        for path in files:
            one = replace(
                request,
                json_out=request.json_out and str(Path(request.json_out) / f"{path.stem}.json"),
                html_out=request.html_out and str(Path(request.html_out) / f"{path.stem}.html"),
            )
            _console(width).rule(path.name)
            try:
                _analyze_one(str(path), one, rule, size, book, game_number, width, opening_rule)
            except PliesError as exc:
                failed += 1
                click.echo(f"error: {' '.join(str(exc).split())}", err=True)
    if failed:
        sys.exit(2)


def _analyze_one(file, request, rule, size, book, game_number, width, opening_rule=None) -> None:
    """Review one game file (or ``-``, stdin) as ``plies analyze FILE`` does (``opening_rule``:
    the Gomoku opening rule, else the record's)."""
    import io

    from plies.analysis.chess import looks_like_pgn

    text = None
    if file == "-" and book == "-":
        raise InvalidOption("the game and --book cannot both be read from standard input")
    if file == "-":
        text = sys.stdin.read()
        is_chess = looks_like_pgn(text)
    elif file.lower().endswith(".pgn"):
        is_chess = True
    elif file.lower().endswith((".psq", ".sgf")):
        is_chess = False
    else:
        try:
            is_chess = looks_like_pgn(Path(file).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            is_chess = False  # the Gomoku reader reports the file
    if is_chess:
        from plies.analysis import chess as chess_review

        chess_review.check_options(rule, size, book)
        if opening_rule:
            raise InvalidOption("--opening does not apply to a chess game (.pgn)")
        chess_review.review_file(
            file,
            request,
            console=_console(width),
            game=game_number,
            text=text,
            on_loaded=lambda: _ensure_kernels("chess"),
        )
        return
    if game_number is not None:
        raise InvalidOption("--game applies to PGN (chess) files only")
    from plies.analysis.gomoku import review_file
    from plies.gomoku.records import read_record

    if text is None:
        record = load_record(file, rule=rule, size=size)
    else:
        record = read_record(text, rule=rule, size=size, source="<stdin>")
    if not record.moves:
        raise InvalidRecord("no moves to review", source=record.source)

    _ensure_kernels("gomoku")
    saved = sys.stdin
    if text is not None:
        sys.stdin = io.StringIO(text)  # the Gomoku reader reads "-" from stdin
    try:
        review_file(
            file,
            request,
            rule=rule,
            size=size,
            book=book,
            opening=opening_rule,
            console=_console(width),
        )
    finally:
        sys.stdin = saved


# --- plies serve (the HTTP service) ------------------------------------------------------------
@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to bind.")
@click.option("--db", metavar="PATH", help="The SQLite store (default: the cache directory's "
              "serve.sqlite).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Positions of a review analysed at once (processes).")  # fmt: skip
@click.option("--token", help="API token required for writes (or $PLIES_SERVE_TOKEN); "
              "required when --host is not a loopback address.")  # fmt: skip
@click.option("--max-queue", type=click.IntRange(min=1), default=100, show_default=True,
              help="Unfinished reviews held before answering 429.")  # fmt: skip
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Where the positions of a review run: local "
              "processes, or --workers Ray actors.")  # fmt: skip
@click.option("--ray-address", help="Ray cluster address (default: a local Ray instance).")
def serve(host: str, port: int, db: str | None, workers: int, token: str | None,
          max_queue: int, backend: str, ray_address: str | None) -> None:  # fmt: skip
    """Serve reviews and play over HTTP, and the browser board at / (docs/serve.md)."""
    try:
        import uvicorn

        from plies.service.app import TOKEN_ENV, Settings, create_app
    except ImportError as exc:
        extra = "pip install 'plies[serve]'"
        raise InvalidOption(f"plies serve needs its extra: {extra} ({exc})") from None
    from plies.analysis.cache import cache_dir

    token = token or os.environ.get(TOKEN_ENV) or None
    if token is None and host not in ("127.0.0.1", "localhost", "::1"):
        raise InvalidOption(f"--host {host} needs an API token: --token or ${TOKEN_ENV}")
    path = db or str(cache_dir() / "serve.sqlite")
    settings = Settings(db=path, workers=workers, token=token, max_queue=max_queue,
                        backend=backend, ray_address=ray_address)  # fmt: skip
    app = create_app(settings)
    click.echo(f"plies serve: http://{host}:{port}/ (store {path})", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


@cli.group()
def openings() -> None:
    """Balanced Gomoku opening sets (docs/openings.md)."""


@openings.command("generate")
@_rule_option("The rule.", default="freestyle", show_default=True)
@click.option("--size", metavar="N|WxH", help="Board size (default 15).")
@_opening_option("Opening rule the openings obey (default: pro for caro and caro5, else free).")
@click.option("--count", type=int, default=100, show_default=True, help="Openings to keep.")
@click.option(
    "--max-eval",
    type=int,
    default=120,
    show_default=True,
    help="Keep an opening when its search score is within this many centi-units of 0.",
)
@click.option(
    "--nodes", type=int, default=20000, show_default=True, help="Nodes of each judging search."
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first try.")
@click.option("--workers", type=int, help="Processes (default: cores - 1).")
@click.option(
    "--exclude",
    "excludes",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Leave out any opening whose position (any symmetry) is in this opening file or "
    "game file (JSON Lines, .gz or not: training data, games against a peer). Repeatable.",
)
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="The offset file.")
def openings_generate(
    rule, size, opening_rule, count, max_eval, nodes, seed, workers, excludes, out
):
    """Write COUNT random openings that plies judges balanced, as a Gomocup offset file."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from plies.gomoku import balanced
    from plies.gomoku.opening_rule import opening_name

    width, height = _size_option(size)
    settings = balanced.BalanceSettings(
        rule, width, height, opening_name(opening_rule, rule), nodes, max_eval, seed
    )
    seen = _seen_positions(excludes, (3, 4), width, height) if excludes else None
    _ensure_kernels("gomoku")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=_console(), transient=True) as progress:
        task = progress.add_task("balanced openings", total=count)

        def on_progress(kept: int, tried: int) -> None:
            progress.update(task, completed=kept, description=f"{tried} tried")

        lines = balanced.generate(
            settings,
            count,
            workers or max(1, (os.cpu_count() or 2) - 1),
            on_progress,
            seen=seen,
        )
    excluded = seen.sources if seen is not None else ()
    text = balanced.header(settings, len(lines), excluded) + "\n" + "\n".join(lines) + "\n"
    Path(out).write_text(text)
    _console().print(Text(f"{len(lines)} openings -> {out}"))


def _seen_positions(paths, lengths, width: int, height: int):
    """The positions of ``paths`` (opening and game files) with these stone counts."""
    from plies.gomoku.seen import SeenPositions

    seen = SeenPositions(lengths, width, height)
    for path in paths:
        seen.add_file(path)
    return seen


@openings.command("filter")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("--size", metavar="N|WxH", help="Board size (default 15).")
@click.option(
    "--exclude",
    "excludes",
    multiple=True,
    required=True,
    type=click.Path(dir_okay=False),
    help="An opening file or game file (JSON Lines, .gz or not) whose positions to leave "
    "out, in any symmetry. Repeatable.",
)
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="The offset file.")
def openings_filter(source, size, excludes, out):
    """Copy the openings of SOURCE (an offset file) that no --exclude file has seen.

    A game file has seen every position its games went through; an opening file, its lines.
    Positions compare by each side's stones, whatever their order, under the eight
    symmetries: an opening set kept apart from a net's training data this way measures the
    net on positions it was not fitted on (docs/openings.md).
    """
    from plies.arena.openings import parse_offsets
    from plies.gomoku.seen import read_lines

    width, height = _size_option(size)
    lines = read_lines(Path(source))
    parsed = []
    for number, line in enumerate(lines, 1):
        if not line.split("#", 1)[0].strip():
            continue
        try:
            parsed.append((line, parse_offsets(line)))
        except ValueError as exc:
            raise InvalidOption(f"{source}, line {number}: {exc}") from None
    seen = _seen_positions(excludes, {len(m) for _, m in parsed}, width, height)
    kept = [line for line, moves in parsed if moves not in seen]
    header = (
        f"# {len(kept)} of the {len(parsed)} openings of {Path(source).name}: "
        f"none seen in {', '.join(seen.sources)}"
    )
    Path(out).write_text(header + "\n" + "\n".join(kept) + "\n")
    dropped = len(parsed) - len(kept)
    _console().print(Text(f"{len(kept)} of {len(parsed)} openings kept ({dropped} seen) -> {out}"))


@openings.command("list")
def openings_list() -> None:
    """The balanced sets that ship with plies (for --openings balanced)."""
    from plies.gomoku import balanced

    for name in balanced.shipped_sets():
        _console().print(Text(name[:-4]))


@cli.group()
def book() -> None:
    """Opening books built by plies' own searches (docs/openings.md)."""


@book.command("build")
@click.argument("path", type=click.Path(dir_okay=False))
@_rule_option("The rule.", default="freestyle", show_default=True)
@click.option("--size", metavar="N|WxH", help="Board size (default 15).")
@_opening_option("Opening rule (default: pro for caro and caro5, else free).")
@click.option("--plies", type=int, default=4, show_default=True, help="Book moves per line.")
@click.option("--nodes", type=int, default=20000, show_default=True, help="Nodes per search.")
@click.option("--multipv", type=int, default=3, show_default=True, help="Moves per position.")
@click.option(
    "--window",
    type=int,
    default=60,
    show_default=True,
    help="Expand the moves within this many centi-units of the best.",
)
@click.option("--workers", type=int, help="Searches at once (default: cores - 1).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--ray-address", help="Ray cluster address (default: a local instance).")
@click.option("--max-positions", type=int, help="Stop after this many searches (resume later).")
@click.option(
    "--search",
    type=click.Choice(["best", "multipv"]),
    help="best: each best move from a single-line search, then a MultiPV search for the "
    "alternatives (a new book's default); multipv: one MultiPV search (books before session "
    "40). A resume keeps the book's own.",
)
@click.option(
    "--roots",
    metavar="OPENINGS",
    help="Grow the tree from these openings instead of the empty board: renju26, balanced or "
    "a file, as the arena's --openings.",
)
def book_build(path, rule, size, opening_rule, plies, nodes, multipv, window, workers, backend,
               ray_address, max_positions, search, roots) -> None:  # fmt: skip
    """Build or resume the opening book PATH (SQLite) by searching the opening tree."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from plies.gomoku.opening_rule import opening_name
    from plies.tune.book import BookSettings, build, roots_from_openings

    width, height = _size_option(size)
    settings = BookSettings(rule, width, height, opening_name(opening_rule, rule), plies, nodes,
                            multipv, window, search)  # fmt: skip
    root_positions = None if roots is None else roots_from_openings(roots, settings)
    _ensure_kernels("gomoku")
    out = _console()
    columns = (TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    try:
        with Progress(*columns, console=out, transient=True) as progress:
            task = progress.add_task("book", total=None)

            def on_progress(done: int, left: int) -> None:
                progress.update(task, description=f"{done} searched, {left} queued")

            stats = build(
                path, settings, workers=workers or max(1, (os.cpu_count() or 2) - 1),
                backend=backend, ray_address=ray_address, max_positions=max_positions,
                on_progress=on_progress, roots=root_positions,
            )  # fmt: skip
    except KeyboardInterrupt:
        out.print(Text(f"interrupted: the searches finished are in {path}; run again to resume"))
        raise SystemExit(130) from None
    size_kb = Path(path).stat().st_size / 1024
    out.print(Text(
        f"{path}: {stats['positions']} positions, {stats['moves']} moves, "
        f"{stats['queued']} queued, {size_kb:.0f} KB"
    ))  # fmt: skip


@book.command("show")
@click.argument("path", type=click.Path(dir_okay=False))
def book_show(path: str) -> None:
    """The game, settings and size of the book PATH."""
    from plies.gomoku.book import Book

    b = Book(path)
    out = _console()
    out.print(Text(f"{path}: {b.describe()}"))
    hidden = ("rule", "width", "height", "format", "roots", "root_plies")
    settings = {k: v for k, v in b.meta.items() if k not in hidden}
    out.print(Text("settings: " + ", ".join(f"{k} {v}" for k, v in sorted(settings.items()))))
    roots = b.root_keys()
    out.print(
        Text(f"grown from {len(roots)} root positions" if roots else "grown from the empty board")
    )
    stats = b.stats()
    out.print(Text(
        f"{stats['positions']} positions, {stats['moves']} moves, "
        f"{stats['queued']} positions queued, "
        f"{Path(path).stat().st_size / 1024:.0f} KB"
    ))  # fmt: skip


@book.command("probe")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--moves", default="", help="The position, e.g. 'h8 h9' (default: empty board).")
def book_probe(path: str, moves: str) -> None:
    """The book moves of a position, best first, and the time the probe took."""
    import time

    from plies.gomoku.book import Book
    from plies.gomoku.notation import parse_moves

    b = Book(path)
    board = Board(width=b.width, height=b.height, rule=b.rule, opening=b.opening)
    board.play_moves(parse_moves(moves, b.width, b.height) if moves.strip() else [])
    t0 = time.perf_counter()
    found = b.probe(board)
    ms = (time.perf_counter() - t0) * 1000
    out = _console()
    if not found:
        out.print(Text(f"not in the book ({ms:.2f} ms)"))
        return
    for m in found:
        out.print(Text(
            f"{m.move.algebraic(b.height):<4} score {m.score:+d}  depth {m.depth}  "
            f"visits {m.visits}"
        ))  # fmt: skip
    out.print(Text(f"{len(found)} book moves ({ms:.2f} ms)"))


@cli.group()
def train() -> None:
    """Train what plies learns from its own games (docs/training.md)."""


@train.command("gomoku")
@_rule_option("Rule of the games and the table.", default="freestyle", show_default=True)
@click.option("--size", type=int, default=15, show_default=True, help="Board size of the games.")
@click.option("--games", type=int, default=2000, show_default=True, help="Self-play games.")
@click.option("--nodes", type=int, default=8000, show_default=True, help="Nodes per move.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--workers", type=int, default=1, show_default=True, help="Processes (local).")
@click.option(
    "--data", metavar="FILE", required=True, help="Games file (JSON Lines), resumed if present."
)
@click.option(
    "--extra-data", metavar="FILE", multiple=True, help="More games files to fit on (repeat)."
)
@click.option("--out", metavar="FILE.npy", help="Where the table goes (required unless --no-fit).")
@click.option(
    "--eval",
    "evaluation",
    default="classic",
    show_default=True,
    help="Evaluation of the self-play engine: classic, learned or a table's path.",
)
@click.option(
    "--net",
    default="learned",
    show_default=True,
    help="Pattern network of the self-play engine: learned (the rule's shipped net), off, "
    "or a net's path (a candidate, before it ships).",
)
@click.option(
    "--random-moves",
    type=int,
    default=4,
    show_default=True,
    help="Most random opening stones (after an opening of --openings: 0 and up).",
)
@click.option(
    "--openings",
    metavar="SOURCE",
    help="Start self-play games from these openings, under a random symmetry (renju26, "
    "balanced or a file, as plies match takes them) instead of random stones alone.",
)
@click.option(
    "--unique",
    is_flag=True,
    help="Fit each game once: leave out games whose moves repeat an earlier one's (self-play "
    "from a few openings repeats itself).",
)
@click.option(
    "--balance",
    type=int,
    default=300,
    show_default=True,
    help="Draw a game's start again while its search score is beyond this either way "
    "(centi-units).",
)
@click.option(
    "--lambda",
    "lam",
    type=float,
    default=0.5,
    show_default=True,
    help="Weight of the game result in the label (the rest: the search score).",
)
@click.option(
    "--td",
    type=float,
    default=0.7,
    show_default=True,
    help="--target threat and net: the TD(lambda) of the labels (1: the game result alone).",
)
@click.option(
    "--coarse",
    is_flag=True,
    help="--target threat: fit only the coarse part (what each side has, 64 numbers).",
)
@click.option(
    "--gain",
    type=float,
    default=1.0,
    show_default=True,
    help="--target threat and net: multiply the fitted term (threat: 2 played best in "
    "freestyle, training.md).",
)
@click.option(
    "--steps", type=int, help="Fit iterations (default: 400; 600 for threat; 800 for net)."
)
@click.option(
    "--prior",
    type=float,
    help="Pull toward the hand-written values (default: 1e-7 for eval, 1e-4 for order and "
    "choice); for threat and net, toward no term (default 10 and 1e-3).",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where self-play games run: local processes, or a Ray cluster.",
)
@click.option("--ray-address", help="Ray cluster address (default: a local instance).")
@click.option("--fit/--no-fit", default=True, help="Fit a table after the games (default on).")
@click.option(
    "--far-cells/--no-far-cells",
    default=True,
    help="--target net: count the cells with nothing on their lines (default on, referred "
    "to an empty 15x15 board as the engine counts them, NET_SIZE; off: their embedding stays "
    "zero).",
)
@click.option(
    "--init",
    metavar="NET",
    help="--target net: start the fit from this net (learned: the rule's shipped net, or a "
    "net's path) instead of a random start: fine-tuning, e.g. on games from deeper searches.",
)
@click.option(
    "--threat",
    metavar="TABLE",
    help="--target net: the threat table in the net's base, the one it will play with "
    "(learned: the rule's shipped table, off, or a table's path; default learned).",
)
@click.option(
    "--learning-rate",
    type=float,
    help="--target eval and net: the optimiser's step (default 4.0 for eval, 0.01 for net; "
    "training.md suggests a smaller one with --init).",
)
@click.option(
    "--target",
    type=click.Choice(["eval", "order", "choice", "threat", "net"]),
    default="eval",
    show_default=True,
    help="What to fit: the evaluation's table to results and scores (eval), the search's "
    "move order to the moves the self-play search chose (order), the evaluation's table "
    "to those moves (choice: the chosen move's position should evaluate best), or the "
    "evaluation's threat term to the principal variations' leaves (threat, TD-leaf), or "
    "the evaluation's pattern network to those leaves (net).",
)
def train_gomoku(**kw) -> None:
    """Self-play games at a fixed node budget, then fit the learned evaluation's table of
    pattern-combination values to their results and search scores (or, with --target order,
    the search's move order to the moves it chose; with --target choice, the evaluation to
    those moves; with --target threat, the evaluation's threat term by TD-leaf; with
    --target net, the evaluation's pattern network by TD-leaf)."""
    from plies.tune.train import TrainRequest
    from plies.tune.train import train_gomoku as run

    if kw["fit"] and not kw["out"]:
        raise InvalidOption("--out FILE.npy is required to fit a table (or use --no-fit)")
    if kw["games"] < 1:
        raise InvalidOption(f"--games must be at least 1, not {kw['games']}")
    kw["extra_data"] = tuple(kw["extra_data"])
    kw["rule"] = kw["rule"].lower()
    if not 0.0 <= kw["td"] <= 1.0:
        raise InvalidOption(f"--td must be within 0..1, not {kw['td']}")
    if not 0.0 < kw["gain"] <= 10.0:
        raise InvalidOption(f"--gain must be within (0, 10], not {kw['gain']}")
    if kw["steps"] is None:
        kw["steps"] = {"threat": 600, "net": 800}.get(kw["target"], 400)
    if kw["init"] is not None and kw["target"] != "net":
        raise InvalidOption("--init needs --target net")
    if kw["threat"] is not None and kw["target"] != "net":
        raise InvalidOption("--threat needs --target net")
    if kw["threat"] is None:
        kw["threat"] = "learned"
    if kw["learning_rate"] is not None and kw["target"] not in ("eval", "net"):
        raise InvalidOption("--learning-rate needs --target eval or net")
    if kw["learning_rate"] is not None and not kw["learning_rate"] > 0.0:
        raise InvalidOption(f"--learning-rate must be positive, not {kw['learning_rate']}")
    run(TrainRequest(**kw), _console())


@train.command("annotate")
@click.argument("games", metavar="GAMES.jsonl")
@_rule_option("Rule of the games.", default="freestyle", show_default=True)
@click.option("--size", type=int, default=15, show_default=True, help="Board size of the games.")
@click.option("--nodes", type=int, default=50000, show_default=True, help="Nodes per position.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--workers", type=int, default=1, show_default=True, help="Processes.")
@click.option(
    "--out", metavar="FILE", required=True, help="Training games file (JSON Lines), resumed."
)
@click.option(
    "--eval",
    "evaluation",
    default="classic",
    show_default=True,
    help="Evaluation plies searches with: classic, learned or a table's path.",
)
@click.option(
    "--net",
    default="learned",
    show_default=True,
    help="Pattern network plies searches with: learned (the rule's shipped net), off, or a "
    "net's path.",
)
def train_annotate(games: str, **kw) -> None:
    """Search every position of arena games (e.g. plies against Rapfi) again with plies, for
    the TD-leaf fits' --extra-data (docs/training.md)."""
    from plies.tune.gomoku_annotate import AnnotateSettings, annotate, arena_games
    from plies.tune.train import _bar

    settings = AnnotateSettings(
        games,
        kw["rule"].lower(),
        kw["size"],
        kw["nodes"],
        kw["seed"],
        kw["evaluation"],
        kw["net"],
    )
    settings.check()
    with _bar(_console()) as bar:
        task = bar.add_task("games", total=len(arena_games(games)))
        done = annotate(
            settings,
            kw["out"],
            workers=kw["workers"],
            progress=lambda d, t: bar.update(task, completed=d, total=t),
        )
    _console().print(f"{done} games annotated in {kw['out']}")


@train.command("chess")
@click.option("--games", type=int, default=2000, show_default=True, help="Self-play games.")
@click.option("--nodes", type=int, default=4000, show_default=True, help="Nodes per move.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--workers", type=int, default=1, show_default=True, help="Processes.")
@click.option(
    "--data", metavar="FILE", required=True, help="Games file (JSON Lines), resumed if present."
)
@click.option(
    "--extra-data", metavar="FILE", multiple=True, help="More games files to fit on (repeat)."
)
@click.option(
    "--out", metavar="FILE.json", help="Where the parameters go (required unless --no-fit)."
)
@click.option(
    "--params",
    metavar="FILE.json",
    default="",
    help="Parameters to play with and to start the fit from (default: the built-in values).",
)
@click.option(
    "--random-moves", type=int, default=8, show_default=True, help="Most random opening plies."
)
@click.option(
    "--method",
    type=click.Choice(["gradient", "coordinate"]),
    default="gradient",
    show_default=True,
    help="Fit: Adam on a linearised evaluation, or coordinate descent (small data).",
)
@click.option("--rounds", type=int, default=3, show_default=True, help="Gradient rounds.")
@click.option(
    "--iterations", type=int, default=300, show_default=True, help="Adam steps a gradient round."
)
@click.option("--passes", type=int, default=8, show_default=True, help="Coordinate-descent passes.")
@click.option("--step", type=int, default=4, show_default=True, help="First step (centipawns).")
@click.option(
    "--prior",
    type=float,
    default=1e-7,
    show_default=True,
    help="Pull toward the starting values: prior * (value - start)^2 a number.",
)
@click.option(
    "--score-weight",
    type=float,
    default=0.0,
    show_default=True,
    help="Labels: this share from the games' search scores, the rest from the results.",
)
@click.option("--only", metavar="NAME", multiple=True, help="Tune only these parameters (repeat).")
@click.option("--fit/--no-fit", default=True, help="Fit the parameters after the games.")
def train_chess(**kw) -> None:
    """Self-play chess games at a fixed node budget, then Texel-tune the evaluation's
    parameters to their results (docs/chess.md)."""
    from plies.tune.chess_train import ChessTrainRequest
    from plies.tune.chess_train import train_chess as run

    if kw["fit"] and not kw["out"]:
        raise InvalidOption("--out FILE.json is required to fit (or use --no-fit)")
    if kw["games"] < 1:
        raise InvalidOption(f"--games must be at least 1, not {kw['games']}")
    if kw["workers"] < 1:
        raise InvalidOption(f"--workers must be at least 1, not {kw['workers']}")
    if not 0 <= kw["score_weight"] <= 1:
        raise InvalidOption(f"--score-weight must be within 0..1, not {kw['score_weight']}")
    if kw["prior"] < 0:
        raise InvalidOption(f"--prior must not be negative, not {kw['prior']}")
    for name in ("rounds", "iterations", "passes", "step"):
        if kw[name] < 1:
            raise InvalidOption(f"--{name} must be at least 1, not {kw[name]}")
    if kw["score_weight"] and kw["method"] != "gradient":
        raise InvalidOption("--score-weight needs --method gradient")
    if kw["params"]:
        from plies.tune.chess_fit import load_params

        load_params(kw["params"])
    kw["extra_data"] = tuple(kw["extra_data"])
    kw["only"] = tuple(kw["only"])
    run(ChessTrainRequest(**kw), _console())


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``plies`` console script."""
    try:
        rv = cli.main(args=argv, prog_name="plies", standalone_mode=False)
    except PliesError as exc:
        message = " ".join(str(exc).split())
        click.echo(f"error: {message}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    if isinstance(rv, int) and rv:
        sys.exit(rv)


if __name__ == "__main__":
    main()
