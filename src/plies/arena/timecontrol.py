"""Time controls and game clocks.

``tc`` uses cutechess's notation: ``[MOVES/]TIME[+INC]`` in seconds (``60+0.6``: 60 s for the
game plus 0.6 s a move; ``40/60``: 60 s for every 40 moves; ``inf``: no clock). ``st`` is a
fixed time per move in seconds. A move that takes longer than the clock allows, plus the
margin (``timemargin``, default 0.1 s), loses on time. The first move an engine makes in a game
may take ``startup`` seconds more (default 1 s) without losing on time, as tournament managers
allow for loading: engines that clear or allocate their tables when a game starts (Rapfi takes
0.67-0.72 s for its first move at 0.5 s a move) are not forfeited for it. The time is still
charged to a clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from plies.errors import InvalidOption

DEFAULT_MARGIN = 0.1
DEFAULT_STARTUP = 1.0

_TC = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d*)?|\.\d+)(?::(\d+(?:\.\d*)?))?(?:\+(\d*\.?\d+))?$")


@dataclass(frozen=True)
class TimeControl:
    """A time control: a clock (``base`` seconds per ``moves`` moves, or for the whole game
    when ``moves`` is 0, plus ``increment``) and/or a fixed ``movetime`` per move."""

    base: float | None = None
    increment: float = 0.0
    moves: int = 0
    movetime: float | None = None
    margin: float = DEFAULT_MARGIN
    startup: float = DEFAULT_STARTUP

    @property
    def has_clock(self) -> bool:
        return self.base is not None

    @property
    def is_limited(self) -> bool:
        """Whether the engine is under any time limit at all."""
        return self.base is not None or self.movetime is not None

    def describe(self) -> str:
        """cutechess-style text: ``40/60+0.6``, ``st=0.2``, or ``inf``."""
        parts = []
        if self.base is not None:
            text = f"{self.moves}/" if self.moves else ""
            text += f"{self.base:g}"
            if self.increment:
                text += f"+{self.increment:g}"
            parts.append(text)
        if self.movetime is not None:
            parts.append(f"st={self.movetime:g}")
        return " ".join(parts) or "inf"

    def pgn_tag(self) -> str:
        """The PGN ``TimeControl`` tag value (``60+0.6``, ``40/60``, ``0.2`` per move, ``-``)."""
        if self.base is not None:
            text = f"{self.moves}/" if self.moves else ""
            return text + f"{self.base:g}" + (f"+{self.increment:g}" if self.increment else "")
        if self.movetime is not None:
            return f"*{self.movetime:g}"
        return "-"


def parse_tc(
    text: str | None,
    movetime: float | None = None,
    margin: float | None = None,
    startup: float | None = None,
) -> TimeControl:
    """A :class:`TimeControl` from ``tc`` text (``[MOVES/]TIME[+INC]``, ``inf``) and ``st``;
    ``margin`` and ``startup`` default to :data:`DEFAULT_MARGIN` and :data:`DEFAULT_STARTUP`.

    ``TIME`` may also be ``M:SS`` (minutes and seconds), as cutechess accepts.
    """
    base: float | None = None
    inc = 0.0
    moves = 0
    if text is not None and text.strip().lower() not in ("", "inf", "infinite"):
        m = _TC.match(text.strip())
        if not m:
            raise InvalidOption(
                f"cannot read time control {text!r}: expected [MOVES/]SECONDS[+INCREMENT], "
                "e.g. 60+0.6 or 40/120"
            )
        moves = int(m.group(1)) if m.group(1) else 0
        base = float(m.group(2))
        if m.group(3) is not None:
            base = base * 60 + float(m.group(3))
        inc = float(m.group(4)) if m.group(4) else 0.0
        if base <= 0 and inc <= 0:
            raise InvalidOption(f"time control {text!r} gives no time")
    if movetime is not None and movetime <= 0:
        raise InvalidOption(f"time per move must be positive, not {movetime}")
    if margin is not None and margin < 0:
        raise InvalidOption(f"time margin must not be negative, not {margin}")
    if startup is not None and not startup >= 0:
        raise InvalidOption(f"start-up allowance must not be negative, not {startup}")
    return TimeControl(
        base,
        inc,
        moves,
        movetime,
        DEFAULT_MARGIN if margin is None else margin,
        DEFAULT_STARTUP if startup is None else startup,
    )


class Clock:
    """One side's clock under a :class:`TimeControl`."""

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.remaining = tc.base if tc.base is not None else None
        self.moves_made = 0

    @property
    def moves_to_go(self) -> int | None:
        if not self.tc.moves:
            return None
        return self.tc.moves - self.moves_made % self.tc.moves

    def allowance(self) -> float | None:
        """Seconds the next move may take before it loses on time (margin included, and the
        start-up allowance on the clock's first move)."""
        limits = []
        if self.remaining is not None:
            limits.append(self.remaining)
        if self.tc.movetime is not None:
            limits.append(self.tc.movetime)
        if not limits:
            return None
        extra = self.tc.startup if self.moves_made == 0 else 0.0
        return max(0.0, min(limits)) + self.tc.margin + extra

    def punch(self, elapsed: float) -> bool:
        """Charge a move's ``elapsed`` seconds; False when the move overstepped the time."""
        allowed = self.allowance()
        if allowed is not None and elapsed > allowed:
            if self.remaining is not None:
                self.remaining -= elapsed
            return False
        self.moves_made += 1
        if self.remaining is not None:
            self.remaining = max(0.0, self.remaining - elapsed) + self.tc.increment
            if self.tc.moves and self.moves_made % self.tc.moves == 0:
                self.remaining += self.tc.base or 0.0
        return True
