"""Adjudication: a move cap (draw), and optional resign and draw rules on engine scores, as
cutechess defines them."""

from __future__ import annotations

from dataclasses import dataclass

from plies.arena.game import Outcome
from plies.errors import InvalidOption


@dataclass(frozen=True)
class Adjudication:
    """``max_moves``: a game still running after that many moves (opening moves excluded) is
    a draw. Resign: a side whose score is at most ``-resign_score`` for ``resign_count``
    consecutive moves of its own loses (``resign_twosided``: only if the opponent's scores
    were at least ``resign_score`` for as long). Draw: after ``draw_after`` moves, when both
    sides' scores stay within ``draw_score`` of zero for ``draw_count`` consecutive moves each.
    Scores are in centi-units from the engine's point of view; a count of 0 disables a rule."""

    max_moves: int | None = None
    resign_count: int = 0
    resign_score: int = 0
    resign_twosided: bool = False
    draw_after: int = 0
    draw_count: int = 0
    draw_score: int = 0


def _options(text: str, known: dict[str, type], what: str) -> dict[str, object]:
    values: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in text.replace(",", " ").split())):
        key, sep, value = item.partition("=")
        if not sep or key not in known:
            raise InvalidOption(
                f"cannot read {what} rule {text!r}: expected {', '.join(k + '=N' for k in known)}"
            )
        kind = known[key]
        try:
            if kind is bool:
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                values[key] = value.lower() in ("true", "1", "yes")
            else:
                values[key] = kind(value)
        except ValueError:
            raise InvalidOption(
                f"{what} rule: {key} must be a {kind.__name__}, not {value!r}"
            ) from None
        if key != "score" and kind is int and values[key] < 0:  # type: ignore[operator]
            raise InvalidOption(f"{what} rule: {key} must not be negative")
    return values


def parse_resign(text: str) -> dict[str, object]:
    """``movecount=N,score=CP[,twosided=true]`` as Adjudication fields."""
    v = _options(text, {"movecount": int, "score": int, "twosided": bool}, "resign")
    if "movecount" not in v or "score" not in v:
        raise InvalidOption("resign rule needs movecount=N and score=CP")
    return {
        "resign_count": v["movecount"],
        "resign_score": v["score"],
        "resign_twosided": v.get("twosided", False),
    }


def parse_draw(text: str) -> dict[str, object]:
    """``movenumber=N,movecount=N,score=CP`` as Adjudication fields."""
    v = _options(text, {"movenumber": int, "movecount": int, "score": int}, "draw")
    if "movecount" not in v or "score" not in v:
        raise InvalidOption("draw rule needs movecount=N and score=CP (movenumber=N optional)")
    return {
        "draw_after": v.get("movenumber", 0),
        "draw_count": v["movecount"],
        "draw_score": v["score"],
    }


class Adjudicator:
    """Follows one game's scores and says when a rule ends it."""

    def __init__(self, rules: Adjudication) -> None:
        self.rules = rules
        self._low = [0, 0]  # consecutive own moves with score <= -resign_score
        self._high = [0, 0]  # ... with score >= resign_score
        self._calm = [0, 0]  # ... with |score| <= draw_score

    def after_move(self, side: int, score: int | None, moves_played: int) -> Outcome | None:
        """Update with ``side``'s score for the move just played (``moves_played`` since the
        opening); the adjudicated outcome, if any rule now applies."""
        r = self.rules
        if score is None:
            self._low[side] = self._high[side] = self._calm[side] = 0
        else:
            self._low[side] = self._low[side] + 1 if score <= -r.resign_score else 0
            self._high[side] = self._high[side] + 1 if score >= r.resign_score else 0
            self._calm[side] = self._calm[side] + 1 if abs(score) <= r.draw_score else 0
        if r.resign_count:
            other = 1 - side
            if self._low[side] >= r.resign_count and (
                not r.resign_twosided or self._high[other] >= r.resign_count
            ):
                return Outcome(other, "adjudication: resign")
        if r.draw_count and moves_played >= r.draw_after and min(self._calm) >= r.draw_count:
            return Outcome(None, "adjudication: draw by score")
        if r.max_moves is not None and moves_played >= r.max_moves:
            return Outcome(None, f"adjudication: {r.max_moves}-move cap")
        return None
