"""Playing one game between two players: clocks, referee, failures and adjudication."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from plies.arena.adjudication import Adjudication, Adjudicator
from plies.arena.engines.base import EngineFailure, Limits, Player
from plies.arena.game import GameSetup, Opening, Outcome
from plies.arena.referees import make_referee
from plies.arena.spec import EngineSpec
from plies.arena.timecontrol import Clock, TimeControl
from plies.errors import InvalidMove, PliesError

_FAILURE_REASONS = {
    "timeout": "time forfeit",
    "crash": "engine crashed",
    "protocol": "protocol error",
    "start": "engine failed to start",
}


@dataclass(frozen=True)
class GameJob:
    """One game to play: ``specs[c]`` plays colour ``c`` (0 moves first), ``engine_ids[c]`` is
    its index in the match's engine list; ``index`` and ``pair`` number the game and its
    colour-swapped pair."""

    index: int
    pair: int
    setup: GameSetup
    opening: Opening
    specs: tuple[EngineSpec, EngineSpec]
    engine_ids: tuple[int, int]
    tcs: tuple[TimeControl, TimeControl]
    adjudication: Adjudication = Adjudication()


@dataclass
class Failure:
    """An engine's failure that ended a game: which colour, what kind, its last output."""

    colour: int
    engine: str
    kind: str
    message: str
    output: list[str] = field(default_factory=list)


@dataclass
class GameResult:
    """A finished game: the outcome, the moves (opening first), per-move times and comments,
    and the failure that ended it, if any."""

    job: GameJob
    outcome: Outcome
    moves: list[str]
    start_fen: str | None
    opening_length: int
    times_ms: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    failure: Failure | None = None
    seconds: float = 0.0

    @property
    def names(self) -> tuple[str, str]:
        return self.job.specs[0].name, self.job.specs[1].name

    def score_of(self, engine_id: int) -> float | None:
        """1, 0.5 or 0 for engine ``engine_id`` (None if it did not play this game)."""
        if engine_id not in self.job.engine_ids:
            return None
        if self.outcome.winner is None:
            return 0.5
        return 1.0 if self.job.engine_ids[self.outcome.winner] == engine_id else 0.0


def play_game(job: GameJob, players: tuple[Player, Player]) -> GameResult:
    """Play ``job`` with ``players[c]`` on colour ``c``; every way an engine can fail ends the
    game as a loss for it (recorded with its last output). Players that failed are left for
    the caller to close: see :func:`failed_colours`."""
    started = time.monotonic()
    referee = make_referee(job.setup, job.opening)
    result = GameResult(
        job, Outcome(None, "unfinished"), [], referee.start_fen, referee.opening_length
    )

    def lose(colour: int, kind: str, message: str, output: list[str]) -> None:
        result.failure = Failure(colour, job.specs[colour].name, kind, message, output)
        result.outcome = Outcome(1 - colour, _FAILURE_REASONS.get(kind, kind))

    for colour in (0, 1):
        try:
            players[colour].new_game(job.setup, job.tcs[colour])
        except EngineFailure as exc:
            lose(colour, exc.kind if exc.kind != "timeout" else "start", str(exc), exc.output)
        except PliesError as exc:
            lose(colour, "start", str(exc), players[colour].last_output())
        if result.failure:
            break
    if result.failure is None and referee.outcome() is None:
        referee.legal_moves()  # compile or load the rules kernels before any clock runs
    clocks = (Clock(job.tcs[0]), Clock(job.tcs[1]))
    adjudicator = Adjudicator(job.adjudication)
    while result.failure is None:
        outcome = referee.outcome()
        if outcome is not None:
            result.outcome = outcome
            break
        side = referee.to_move()
        player, clock, other = players[side], clocks[side], clocks[1 - side]
        spec = job.specs[side]
        try:
            player.prepare_move()
        except EngineFailure as exc:
            lose(side, exc.kind, str(exc), exc.output)
            break
        limits = Limits(
            time_left=clock.remaining,
            opponent_time=other.remaining,
            increment=clock.tc.increment,
            opponent_increment=other.tc.increment,
            moves_to_go=clock.moves_to_go,
            movetime=clock.tc.movetime,
            depth=spec.depth,
            nodes=spec.nodes,
        )
        allowance = clock.allowance()
        now = time.monotonic()
        if allowance is not None:
            deadline = now + allowance + 0.05
        else:
            deadline = now + spec.start_timeout if spec.is_process else None
        try:
            reply = player.think(referee, limits, deadline)
        except EngineFailure as exc:
            lose(side, exc.kind, str(exc), exc.output)
            break
        except PliesError as exc:
            lose(side, "crash", f"{spec.name}: {exc}", player.last_output())
            break
        elapsed = time.monotonic() - now
        if not clock.punch(elapsed):
            lose(
                side,
                "timeout",
                f"{spec.name} took {elapsed:.3f} s, allowed {allowance:.3f} s",
                player.last_output(),
            )
            break
        try:
            referee.play(reply.move)
        except InvalidMove as exc:
            lose(side, "illegal", f"{spec.name} played {reply.move!r}: {exc}", player.last_output())
            result.outcome = Outcome(1 - side, f"illegal move {reply.move[:20]}")
            break
        result.times_ms.append(int(elapsed * 1000))
        comment = reply.comment()
        result.comments.append(f"{comment} {elapsed:.3f}s".strip())
        played = len(referee.moves) - referee.opening_length
        if referee.outcome() is None:
            adjudicated = adjudicator.after_move(side, reply.score, played)
            if adjudicated is not None:
                result.outcome = adjudicated
                break
    result.moves = list(referee.moves)
    result.seconds = time.monotonic() - started
    return result


def failed_colours(result: GameResult) -> list[int]:
    """The colours whose player should be restarted before its next game."""
    f = result.failure
    if f is None or f.kind == "illegal":
        return []
    return [f.colour]
