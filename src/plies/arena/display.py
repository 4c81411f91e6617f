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
    ``sign`` is."""
    if x is None:
        return "-inf" if sign < 0 else "inf"
    return f"{x:.{digits}f}"


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
        return [
            f"{row['engine']:<24} {row['points']:>6.1f}/{row['games']:<4} "
            f"{_fmt(row['elo'], sign=row['points'] / max(1, row['games']) - 0.5)} "
            f"+- {_fmt(row['elo_error'])}"
            for row in data["standings"]
        ]
    a, b = data["engines"]
    lines = [
        f"Score of {a} vs {b}: {data['wins']} - {data['losses']} - {data['draws']}  "
        f"[{_fmt(data['score'], 3)}] {data['games']}/{report.planned}",
        f"Elo: {_fmt(data['elo'], 2, data['score'] - 0.5)} +/- {_fmt(data['elo_error'], 2)}, "
        f"nElo: {_fmt(data['nelo'], 2, data['score'] - 0.5)} +/- {_fmt(data['nelo_error'], 2)}, "
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
