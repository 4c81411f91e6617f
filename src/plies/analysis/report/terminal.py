"""The review as rich terminal output: a table of moves and the summary."""

from __future__ import annotations

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from plies.analysis.i18n import translator
from plies.analysis.report import move_number, shown_categories, summary_moments
from plies.analysis.review import Review

CLASS_STYLES = {
    "book": "dim",
    "forced": "cyan",
    "best": "green",
    "excellent": "green",
    "good": "",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
    "missed_win": "bold magenta",
    "lost": "dim",
}


def review_table(review: Review, notable_only: bool = False) -> Group:
    """A table of the moves (all, or only inaccuracies and worse, forced and missed wins)
    followed by the summary lines."""
    t = translator(review.language)
    table = Table(title=t("title"), show_lines=False, expand=False)
    for key in ("move", "player", "classification", "win_chance", "best_move", "explanation"):
        table.add_column(t(key), overflow="fold")
    for m in review.moves:
        if notable_only and m.classification in ("book", "best", "excellent", "good", "lost"):
            continue
        label = t(f"cls_{m.classification}")
        shown = shown_categories(m)
        if shown:
            label += "\n" + ", ".join(t(f"cat_{c}") for c in shown)
        table.add_row(
            f"{move_number(review.game, m.ply)} {m.move}",
            t(m.player),
            Text(label, style=CLASS_STYLES.get(m.classification) or None),
            f"{100 * m.win_probability_before:.0f}% → {100 * m.win_probability_after:.0f}%",
            m.best_move or "",
            m.explanation,
        )
    return Group(table, *summary_lines(review))


def summary_lines(review: Review) -> list[Text]:
    """The summary as lines of text."""
    t = translator(review.language)
    s = review.summary
    lines = []
    result = t(f"result_{s.result}") if s.result else t("result_none")
    lines.append(Text(f"{t('result')}: {result}"))
    if s.opening:
        lines.append(Text(f"{t('opening')}: {s.opening}"))
    for player, stats in s.players.items():
        acc = "-" if stats["accuracy"] is None else f"{stats['accuracy']:.1f}"
        counts = ", ".join(f"{t('cls_' + c)} {n}" for c, n in stats["counts"].items() if n)
        lines.append(Text(f"{t(player)}: {t('accuracy')} {acc}  ({counts})"))
    moments, turning = summary_moments(review, t)
    lines.append(Text(f"{t('critical_moments')}: {moments}"))
    lines.append(Text(f"{t('turning_point')}: {turning}"))
    if not review.complete:
        lines.append(Text(t("interrupted"), style="bold yellow"))
    return lines


def print_review(review: Review, console: Console | None = None, notable_only=False) -> None:
    """Print the table and summary."""
    (console or Console()).print(review_table(review, notable_only))


class ReviewProgress:
    """A rich progress bar for :func:`plies.analysis.gomoku.review_record`'s ``on_progress``."""

    def __init__(self, console: Console, label: str = "reviewing") -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self.progress = Progress(
            Text(label).markup,
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self.task = None
        self.cached = 0

    def __enter__(self) -> ReviewProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)

    def __call__(self, done: int, total: int, cached: bool) -> None:
        if self.task is None:
            self.task = self.progress.add_task("positions", total=total)
        self.cached += int(cached)
        self.progress.update(self.task, completed=done)
