"""The live view of a running match or tournament (rich), and its final text summary."""

from __future__ import annotations

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from plies.arena.match import MatchReport
from plies.arena.play import GameResult


def _fmt(x: float | None, digits: int = 1, sign: float = 1.0) -> str:
    """A figure; None stands for an infinite one (JSON has no infinity), negative when
    ``sign`` is. A figure that rounds to zero is ``0.0``, never ``-0.0``."""
    if x is None:
        return "-inf" if sign < 0 else "inf"
    if round(x, digits) == 0:
        x = 0.0
    return f"{x:.{digits}f}"


HUGE_ELO_ERROR = 1000.0  # an interval this wide says nothing yet


def elo_text(elo: float | None, error: float | None, points: float, games: int) -> str:
    """An Elo difference and its 95% error for people: ``+35.2 +- 60.1`` (``0.0``, never
    ``-0.0``); ``n/a`` before any game; ``+inf (every game won)`` / ``-inf (every game
    lost)`` when no finite estimate exists; the error ``inf`` or ``huge (too few games)`` when
    the interval is unbounded or too wide to mean anything."""
    if games == 0:
        return "n/a (no games)"
    if elo is None:
        if points >= games:
            return "+inf (every game won)"
        if points <= 0:
            return "-inf (every game lost)"
        return "n/a"
    value = "0.0" if round(elo, 1) == 0 else f"{elo:+.1f}"
    if error is None:
        spread = "inf"
    elif error >= HUGE_ELO_ERROR:
        spread = "huge (too few games)"
    else:
        spread = f"{error:.1f}"
    return f"{value} +- {spread}"


def crosstable_lines(report: MatchReport, order: list[str]) -> list[str]:
    """The crosstable: a row per engine (in ``order``), a column per opponent (numbered as
    the rows), each cell the pair's score from the row's side, e.g. ``1.5-0.5``; pairs that
    do not meet (gauntlet) are blank, the diagonal ``-``."""
    names = report.names
    index = {name: i for i, name in enumerate(names)}
    cells: dict[tuple[int, int], str] = {}
    for sc in report.scores.values():
        a_pts, b_pts = sc.wins + sc.draws / 2, sc.losses + sc.draws / 2
        if sc.games:
            cells[(sc.a, sc.b)] = f"{a_pts:g}-{b_pts:g}"
            cells[(sc.b, sc.a)] = f"{b_pts:g}-{a_pts:g}"
    width = max([7, *(len(c) for c in cells.values())])
    name_width = max(len(n) for n in names)
    header = f"{'':>3} {'':<{name_width}} " + " ".join(
        f"{k:>{width}}" for k in range(1, len(order) + 1)
    )
    lines = ["Crosstable (row's score against column):", header.rstrip()]
    for k, row in enumerate(order, 1):
        i = index[row]
        row_cells = ["-" if i == index[col] else cells.get((i, index[col]), "") for col in order]
        lines.append(
            f"{k:>3} {row:<{name_width}} " + " ".join(f"{c:>{width}}" for c in row_cells).rstrip()
        )
    return lines


def game_line(report: MatchReport, result: GameResult) -> str:
    """``Finished game 3 (A vs B): 1-0 {five in a row}``, as cutechess prints it."""
    black, white = result.names
    return (
        f"Finished game {result.job.index + 1} ({black} vs {white}): "
        f"{result.outcome.result_text()} {{{result.outcome.reason}}}"
    )


def score_lines(report: MatchReport) -> list[str]:
    """The running score: W/D/L, Elo +- error, LOS, pentanomial and the SPRT's LLR."""
    data = report.to_json()
    if report.config.format != "match":
        rows = data["standings"]
        width = max(24, *(len(row["engine"]) for row in rows))
        lines = [f"{'Rank':<4} {'Engine':<{width}} {'Points':>6} {'Games':>5}  Elo (95%)"]
        lines += [
            f"{k:<4} {row['engine']:<{width}} {row['points']:>6.1f} {row['games']:>5}  "
            + elo_text(row["elo"], row["elo_error"], row["points"], row["games"])
            for k, row in enumerate(rows, 1)
        ]
        return lines + crosstable_lines(report, [row["engine"] for row in rows])
    a, b = data["engines"]
    sign = (0.5 if data["score"] is None else data["score"]) - 0.5
    lines = [
        f"Score of {a} vs {b}: {data['wins']} - {data['losses']} - {data['draws']}  "
        f"[{_fmt(data['score'], 3)}] {data['games']}/{report.planned}",
        f"Elo: {_fmt(data['elo'], 2, sign)} "
        f"+/- {_fmt(data['elo_error'], 2)}, "
        f"nElo: {_fmt(data['nelo'], 2, sign)} +/- {_fmt(data['nelo_error'], 2)}, "
        f"LOS: {100 * (data['los'] or 0):.2f} %",
        "Ptnml(0-2): [" + ", ".join(str(n) for n in data["pentanomial"]) + "]",
    ]
    if "sprt" in data:
        s = data["sprt"]
        lines.append(
            f"SPRT ({s['model']}) [{s['elo0']:g}, {s['elo1']:g}]: LLR {s['llr']:.2f} "
            f"({s['lower']:.2f}, {s['upper']:.2f}) {s['result']}"
        )
    return lines


class MatchDisplay:
    """Live table while games run (on a terminal), or a line per game otherwise."""

    def __init__(self, console: Console, live: bool | None = None) -> None:
        self.console = console
        self.live_enabled = console.is_terminal if live is None else live
        self._live: Live | None = None
        self._recent: list[str] = []

    def __enter__(self) -> MatchDisplay:
        if self.live_enabled:
            self._live = Live(Text("starting games..."), console=self.console, refresh_per_second=4)
            self._live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.__exit__(*exc)
            self._live = None

    def update(self, report: MatchReport, result: GameResult) -> None:
        line = game_line(report, result)
        if self._live is None:
            self.console.print(Text(line))
            return
        self._recent = [*self._recent[-5:], line]
        table = Table.grid()
        for text in score_lines(report):
            table.add_row(Text(text, style="bold"))
        self._live.update(Group(*(Text(t, style="dim") for t in self._recent), table))
