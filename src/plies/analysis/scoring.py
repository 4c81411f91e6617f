"""What every game adapter of the review does the same way: a position's engine lines as a
:class:`PositionEval`, the scores of a played move, and the :class:`MoveReview` built from them.

The adapters (:mod:`plies.analysis.gomoku`, :mod:`plies.analysis.chess`) pass their game's
move notation and win-probability sigmoid; the exact facts and the notes stay theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from plies.analysis.i18n import Translator
from plies.analysis.review import (
    Budget,
    LineEval,
    MoveReview,
    PositionEval,
    Thresholds,
    classify_loss,
    move_accuracy,
)

WinProbability = Callable[[int], float]


def search_position(
    engine: Any,
    board: Any,
    budget: Budget,
    ply: int,
    *,
    move_text: Callable[[Any], str],
    pv_text: Callable[[Sequence[Any]], list[str]],
    win_probability: WinProbability,
    facts: Callable[[], dict[str, Any]],
) -> PositionEval:
    """A MultiPV search of ``board`` within ``budget`` (from a fresh table when the budget is
    deterministic): the lines best first, but the engine's own choice first when a secondary
    line's bound looks higher; ``facts()`` (the adapter's exact findings) runs after it."""
    if budget.deterministic:
        engine.new_game()
    result = engine.search(
        board, depth=budget.depth, nodes=budget.nodes, movetime=budget.movetime,
        multipv=budget.multipv,
    )  # fmt: skip
    lines = [
        LineEval(move_text(ln.move), int(ln.score), win_probability(ln.score), pv_text(ln.pv))
        for ln in result.lines
    ]
    lines.sort(key=lambda ln: -ln.score)
    if result.move is not None and lines and lines[0].move != move_text(result.move):
        chosen = next((ln for ln in lines if ln.move == move_text(result.move)), None)
        if chosen is not None:
            lines.remove(chosen)
            lines.insert(0, chosen)
    best = lines[0] if lines else None
    return PositionEval(
        ply,
        lines=lines,
        score=best.score if best else 0,
        win_probability=best.win_probability if best else 0.5,
        depth=result.depth,
        nodes=result.nodes,
        seconds=round(result.time, 3),
        facts=facts(),
    )


def sides(before: PositionEval, ply: int, players: Sequence[str]) -> tuple[str, str]:
    """The mover of the ``ply``-th move and its opponent, by the colour names ``players``."""
    mover = before.facts.get("to_move", players[(ply - 1) % 2])
    return mover, players[1 - players.index(mover)]


@dataclass
class MoveScore:
    """A played move against the engine's best line: ``top`` (the best line, None without
    lines), the ``played`` and ``best`` scores (the mover's view), their win probabilities,
    the ``loss`` between them and the class it gives. Adapters may correct the scores with
    exact facts (:meth:`rescore`)."""

    top: LineEval | None
    played: int
    best: int
    is_best: bool
    wp_before: float
    wp_after: float
    loss: float
    classification: str

    def rescore(self, played: int, win_probability: WinProbability) -> None:
        """Set the played score (the best score stays at least as high) and recompute the
        win probabilities and the loss."""
        self.played = played
        self.best = max(self.best, played)
        self.wp_after = win_probability(self.played)
        self.wp_before = win_probability(self.best)
        self.loss = max(0.0, self.wp_before - self.wp_after)


def score_move(
    move: str,
    before: PositionEval,
    after: PositionEval | None,
    win_probability: WinProbability,
    thresholds: Thresholds,
) -> MoveScore:
    """The scores of ``move``: its own line before it, or the negated evaluation after it,
    whichever is higher, against the best line's."""
    lines = before.lines
    top = lines[0] if lines else None
    candidates = [ln.score for ln in lines if ln.move == move]
    if after is not None:
        candidates.append(-after.score)
    played = max(candidates) if candidates else (top.score if top else 0)
    best = max(top.score if top else played, played)
    is_best = top is None or move == top.move or played >= top.score
    wp_before = win_probability(best)
    wp_after = win_probability(played)
    loss = max(0.0, wp_before - wp_after)
    classification = classify_loss(loss, is_best, thresholds)
    return MoveScore(top, played, best, is_best, wp_before, wp_after, loss, classification)


def better_note(t: Translator, score: MoveScore) -> str:
    """The note naming the better move, its line and the win probabilities (in %)."""
    best = score.top.move if score.top else None
    return t(
        "note_better",
        best=best,
        line=" ".join(score.top.pv if score.top else [best]),
        before=round(100 * score.wp_before),
        after=round(100 * score.wp_after),
    )


def move_review(
    ply: int,
    player: str,
    move: str,
    score: MoveScore,
    classification: str,
    categories: list[str],
    facts: dict[str, Any],
    notes: Sequence[str],
    before: PositionEval,
) -> MoveReview:
    """The verdict record of one move (a book move loses nothing)."""
    loss = 0.0 if classification == "book" else score.loss
    top = score.top
    return MoveReview(
        ply=ply,
        player=player,
        move=move,
        classification=classification,
        categories=categories,
        win_probability_before=score.wp_before,
        win_probability_after=score.wp_after,
        loss=loss,
        accuracy=move_accuracy(loss),
        score_before=int(score.best),
        score_after=int(score.played),
        best_move=top.move if top else None,
        best_line=list(top.pv) if top else [],
        lines=list(before.lines),
        facts=facts,
        explanation=" ".join(notes),
        depth=before.depth,
        nodes=before.nodes,
    )
