"""Game review, game-agnostic: evaluations -> classifications -> summary.

A game adapter (``plies.analysis.gomoku``; chess later) turns a game into positions, analyses
each in a worker (:func:`analyse_positions` runs them on a process pool, through the cache)
and judges every move from the evaluations before and after it, with exact facts from its
threat solvers. This module holds what does not depend on the game: the budget, the records
(:class:`PositionEval`, :class:`MoveReview`, :class:`Review`), the thresholds that turn a
win-probability loss into a class, the accuracy formula and the summary. See docs/review.md.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from multiprocessing import get_context
from typing import Any

from plies.errors import InvalidOption
from plies.pool import ignore_interrupt

SCHEMA_VERSION = 1

# classes, from the best to the worst; "lost": the position was already lost by force
CLASSIFICATIONS = (
    "book",
    "forced",
    "best",
    "excellent",
    "good",
    "inaccuracy",
    "mistake",
    "blunder",
    "missed_win",
    "lost",
)
CATEGORIES = ("missed_win", "missed_threat", "failed_defence", "passive_play", "edge_play")
BAD_CLASSES = ("inaccuracy", "mistake", "blunder", "missed_win")
_SEVERITY = {"inaccuracy": 1, "mistake": 2, "blunder": 3, "missed_win": 4}


@dataclass(frozen=True)
class Thresholds:
    """Upper bounds (exclusive) of the win-probability loss of each class, on a 0..1 scale:
    a loss below ``excellent`` is excellent, below ``good`` good, ..., from ``mistake`` up a
    blunder."""

    excellent: float = 0.02
    good: float = 0.05
    inaccuracy: float = 0.10
    mistake: float = 0.20


DEFAULT_THRESHOLDS = Thresholds()


def classify_loss(loss: float, is_best: bool, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> str:
    """The class of a move from its win-probability loss (``is_best``: the engine's choice)."""
    if is_best or loss <= 0.0:
        return "best"
    if loss < thresholds.excellent:
        return "excellent"
    if loss < thresholds.good:
        return "good"
    if loss < thresholds.inaccuracy:
        return "inaccuracy"
    if loss < thresholds.mistake:
        return "mistake"
    return "blunder"


def worse(a: str, b: str) -> str:
    """The more severe of two classes among inaccuracy, mistake, blunder, missed_win."""
    return a if _SEVERITY.get(a, 0) >= _SEVERITY.get(b, 0) else b


def move_accuracy(loss: float) -> float:
    """Accuracy (0-100) of one move from its win-probability loss (0..1), lichess-style:
    ``103.1668 * exp(-4.354 * loss) - 3.1669``, clipped to 0..100."""
    value = 103.1668 * math.exp(-4.354 * max(0.0, loss)) - 3.1669
    return max(0.0, min(100.0, value))


def player_accuracy(accuracies: Sequence[float]) -> float | None:
    """A player's accuracy: the mean of the arithmetic and the harmonic mean of their move
    accuracies (each at least 1 in the harmonic mean), so one blunder weighs more than in a
    plain average. None without moves."""
    if not accuracies:
        return None
    mean = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(1.0, a) for a in accuracies)
    return (mean + harmonic) / 2


@dataclass(frozen=True)
class Budget:
    """The analysis budget per position: ``movetime`` seconds, ``depth`` or ``nodes`` for the
    search (``multipv`` lines), and ``solver_time`` seconds or ``solver_nodes`` for the threat
    solvers. With nodes or depth (and one thread) the review is deterministic.
    ``engine_params``: ``(NAME, VALUE)`` pairs for the analysing engine (``Engine(params=)``,
    e.g. ``(("NET", "off"),)``), part of the cache key; empty for the shipped engine."""

    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    multipv: int = 3
    threads: int = 1
    solver_time: float | None = None
    solver_nodes: int | None = None
    # with movetime, an uncertain position is searched a second time (scoring.search_position)
    retry: bool = True
    engine_params: tuple[tuple[str, int | str], ...] = ()

    def __post_init__(self) -> None:
        limits = [v for v in (self.movetime, self.depth, self.nodes) if v is not None]
        if len(limits) != 1:
            raise InvalidOption("give exactly one of movetime, depth and nodes")
        if any(v <= 0 for v in limits):
            raise InvalidOption("the analysis budget must be positive")
        if self.multipv < 1 or self.threads < 1:
            raise InvalidOption("multipv and threads must be at least 1")

    @property
    def deterministic(self) -> bool:
        return self.movetime is None and self.threads == 1 and self.solver_time is None

    def key(self) -> str:
        """A string naming the budget (part of the cache key)."""
        return (
            f"t{self.movetime}:d{self.depth}:n{self.nodes}:pv{self.multipv}:"
            f"th{self.threads}:st{self.solver_time}:sn{self.solver_nodes}"
            + ("" if self.retry else ":r0")
            + "".join(f":{name}={value}" for name, value in self.engine_params)
        )

    def params(self) -> dict[str, int | str] | None:
        """``engine_params`` as the engine's ``params`` argument (None: the shipped engine)."""
        return dict(self.engine_params) or None

    def scaled(self, factor: int) -> Budget:
        """The same budget ``factor`` times larger (time and nodes times ``factor``, depth
        deeper by log2 of it), without the second search of uncertain positions (the larger
        budget is that already): the budget a verdict is confirmed with."""
        grow = max(1, int(factor))
        return replace(
            self,
            movetime=None if self.movetime is None else self.movetime * grow,
            depth=None if self.depth is None else self.depth + max(1, grow.bit_length() - 1),
            nodes=None if self.nodes is None else self.nodes * grow,
            solver_time=None if self.solver_time is None else self.solver_time * grow,
            solver_nodes=None if self.solver_nodes is None else self.solver_nodes * grow,
            retry=False,
        )

    def describe(self) -> str:
        if self.movetime is not None:
            return f"{self.movetime:g} s per position"
        if self.depth is not None:
            return f"depth {self.depth} per position"
        return f"{self.nodes} nodes per position"


@dataclass
class LineEval:
    """One engine line: first move, score (centi-units, side to move's view), its win
    probability and the principal variation (move texts)."""

    move: str
    score: int
    win_probability: float
    pv: list[str]


@dataclass
class PositionEval:
    """The analysis of one position (before move ``ply``; ``ply`` = number of moves played).

    ``lines`` are the engine's best moves, best first; ``score`` and ``win_probability`` are
    the best line's (side to move's view); ``terminal`` is set when the game is over
    (``"loss"``: the side to move has lost, ``"draw"``). ``facts`` holds the game adapter's
    exact findings (threats, solver lines), JSON values only.
    """

    ply: int
    lines: list[LineEval] = field(default_factory=list)
    score: int = 0
    win_probability: float = 0.5
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    terminal: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("cached")
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PositionEval:
        lines = [LineEval(**line) for line in data.get("lines", [])]
        rest = {k: v for k, v in data.items() if k != "lines"}
        return cls(lines=lines, **rest)


@dataclass
class MoveReview:
    """The verdict on one move."""

    ply: int  # 1-based move number
    player: str
    move: str
    classification: str
    categories: list[str]
    win_probability_before: float  # the mover's, with the best move
    win_probability_after: float  # the mover's, after the move played
    loss: float
    accuracy: float
    score_before: int
    score_after: int
    best_move: str | None
    best_line: list[str]
    lines: list[LineEval]
    facts: dict[str, Any]
    explanation: str
    depth: int = 0
    nodes: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["win_probability_before"] = round(self.win_probability_before, 4)
        data["win_probability_after"] = round(self.win_probability_after, 4)
        data["loss"] = round(self.loss, 4)
        data["accuracy"] = round(self.accuracy, 1)
        for line in data["lines"]:
            line["win_probability"] = round(line["win_probability"], 4)
        return data


@dataclass
class Summary:
    """Per-player accuracy and class counts, the critical moments, the turning point."""

    players: dict[str, dict[str, Any]]
    critical_moments: list[int]
    turning_point: int | None
    opening: str | None
    result: str | None
    moves_reviewed: int
    # the same moves as the reports name them ("15. h7", chess "3. Qh5", "3... Nf6")
    critical_moment_labels: list[str] = field(default_factory=list)
    turning_point_label: str | None = None
    # with a winner and no turning point: the winner's winning chances were above 1/2 in
    # every position of the game
    winner_ahead_throughout: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Review:
    """A whole review: the game, the settings, one :class:`MoveReview` per move, the summary.
    ``complete`` is False when the review was interrupted (the moves are the finished ones)."""

    game: dict[str, Any]
    settings: dict[str, Any]
    moves: list[MoveReview]
    summary: Summary
    complete: bool = True
    language: str = "en"

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "game": self.game,
            "settings": self.settings,
            "complete": self.complete,
            "language": self.language,
            "summary": self.summary.to_dict(),
            "moves": [m.to_dict() for m in self.moves],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        """The review that :meth:`to_dict` wrote (the JSON of ``plies analyze --json``)."""
        moves = [
            MoveReview(**{**m, "lines": [LineEval(**line) for line in m["lines"]]})
            for m in data["moves"]
        ]
        return cls(
            data["game"],
            data["settings"],
            moves,
            Summary(**data["summary"]),
            complete=data.get("complete", True),
            language=data.get("language", "en"),
        )


def summarise(
    moves: Sequence[MoveReview],
    players: Sequence[str],
    *,
    result: str | None,
    opening: str | None,
    critical: int = 3,
    label: Callable[[MoveReview], str] | None = None,
) -> Summary:
    """The summary of reviewed moves.

    Critical moments: the ``critical`` moves with the largest win-probability loss (a loss of
    at least ``Thresholds.good``), in game order. Turning point, from the one series of
    values (a position's value is the win probability before the move played from it, and the
    last move's after for the final position): with a winner, the move played from the last
    position where the winner's chances were at most 1/2 (None when they never were: the
    winner was ahead throughout, ``winner_ahead_throughout``; when the winner is not ahead
    even at the end, the loser's largest loss); without a winner, the largest loss, if any.
    ``label(move)`` names a move as the reports do (default: ``"12. h8"``).
    """
    label = label or (lambda m: f"{m.ply}. {m.move}")
    stats: dict[str, dict[str, Any]] = {}
    for name in players:
        mine = [m for m in moves if m.player == name]
        counts = {c: sum(1 for m in mine if m.classification == c) for c in CLASSIFICATIONS}
        judged = [m for m in mine if m.classification not in ("book", "lost")]
        stats[name] = {
            "accuracy": _round(player_accuracy([m.accuracy for m in judged])),
            "average_loss": _round(sum(m.loss for m in judged) / len(judged), 4)
            if judged
            else None,
            "moves": len(mine),
            "counts": counts,
        }
    swings = sorted((m for m in moves if m.loss >= DEFAULT_THRESHOLDS.good), key=lambda m: -m.loss)[
        :critical
    ]
    swings.sort(key=lambda m: m.ply)
    turning: MoveReview | None = None
    ahead = False
    if result in players and moves:

        def winner(wp: float, player: str) -> float:
            return wp if player == result else 1 - wp

        series = [winner(m.win_probability_before, m.player) for m in moves]
        series.append(winner(moves[-1].win_probability_after, moves[-1].player))
        behind = [k for k, w in enumerate(series) if w <= 0.5]
        if not behind:
            ahead = True
        elif behind[-1] < len(moves):
            turning = moves[behind[-1]]
        else:  # the engine never sees the winner ahead at the end: the loser's largest loss
            losers = [m for m in moves if m.player != result and m.loss > 0]
            turning = max(losers, key=lambda m: m.loss) if losers else None
    elif swings:
        turning = max(swings, key=lambda m: m.loss)
    return Summary(
        players=stats,
        critical_moments=[m.ply for m in swings],
        turning_point=turning.ply if turning else None,
        opening=opening,
        result=result,
        moves_reviewed=len(moves),
        critical_moment_labels=[label(m) for m in swings],
        turning_point_label=label(turning) if turning else None,
        winner_ahead_throughout=ahead,
    )


def _round(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)


# --- running the analysis ---------------------------------------------------------------------

Job = Any
WorkerFactory = Callable[[], Callable[[Job], dict[str, Any]]]

_worker: Callable[[Job], dict[str, Any]] | None = None


def _init_worker(factory: WorkerFactory) -> None:
    global _worker
    ignore_interrupt()
    _worker = factory()


def _run_job(job: Job) -> dict[str, Any]:
    assert _worker is not None
    return _worker(job)


def default_workers() -> int:
    """Worker processes by default: the cores minus one, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def analyse_positions(
    jobs: Sequence[tuple[str | None, Job]],
    factory: WorkerFactory,
    *,
    workers: int = 1,
    cache: Any = None,
    on_result: Callable[[int, dict[str, Any], bool], None] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> tuple[dict[int, dict[str, Any]], bool]:
    """Analyse ``jobs`` (``(cache_key, job)`` pairs) and return ``({index: result}, complete)``.

    Cached results are taken from ``cache`` (anything with ``get(key)``/``put(key, value)``);
    the rest run in this process (``workers == 1``) or on a pool of ``workers`` processes,
    each building its analyser once with ``factory()`` (which must be picklable); with
    ``backend="ray"``, on ``workers`` Ray actors (on the cluster at ``ray_address``, else a
    local Ray instance), each building its analyser once. Every result
    is stored in the cache as soon as it is done, and reported to ``on_result(index, result,
    cached)``. Ctrl-C stops the analysis: the finished results are returned with
    ``complete=False``.
    """
    if workers < 1:
        raise InvalidOption(f"workers must be at least 1, not {workers}")
    results: dict[int, dict[str, Any]] = {}
    todo: list[int] = []
    for i, (key, _) in enumerate(jobs):
        hit = cache.get(key) if (cache is not None and key is not None) else None
        if hit is not None:
            results[i] = hit
            if on_result:
                on_result(i, hit, True)
        else:
            todo.append(i)

    def done(i: int, value: dict[str, Any]) -> None:
        key = jobs[i][0]
        if cache is not None and key is not None:
            kept = cache.put(key, value)  # the cache may hold a deeper analysis: use it
            if isinstance(kept, dict):
                value = kept
        results[i] = value
        if on_result:
            on_result(i, value, False)

    if not todo:
        return results, True
    if backend == "ray":
        return results, _analyse_on_ray(jobs, todo, factory, workers, ray_address, done)
    if backend != "local":
        raise InvalidOption(f"unknown backend {backend!r}: expected local or ray")
    if workers == 1 or len(todo) == 1:
        analyser = factory()
        try:
            for i in todo:
                done(i, analyser(jobs[i][1]))
        except KeyboardInterrupt:
            return results, False
        return results, True
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(todo)),
        mp_context=get_context("spawn"),
        initializer=_init_worker,
        initargs=(factory,),
    )
    pending: dict[Future, int] = {}
    try:
        for i in todo:
            pending[pool.submit(_run_job, jobs[i][1])] = i
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                done(pending.pop(fut), fut.result())
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)
        return results, False
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results, True


class _RayAnalyser:
    """A Ray actor holding one analyser (built once, as a pool worker builds its own)."""

    def __init__(self, factory: WorkerFactory) -> None:
        self.analyse = factory()

    def run(self, job: Job) -> dict[str, Any]:
        return self.analyse(job)


# Ray actors kept between analysis passes (the positions, then the alternatives; the next
# review of the same rule, size and budget) while the Ray session lasts: those of one analyser
# factory only, since each holds a CPU (actors of another factory waiting for a CPU that kept
# actors hold would wait forever)
_ray_actors: dict[Any, list[Any]] = {}


def _actors(ray: Any, factory: WorkerFactory, count: int) -> list[Any]:
    """``count`` actors holding ``factory()``'s analyser, reused when they exist; the actors
    of another factory are ended first."""
    from plies.ray_session import on_shutdown

    on_shutdown(_ray_actors.clear)
    for other in [f for f in _ray_actors if f != factory]:
        for actor in _ray_actors.pop(other):
            ray.kill(actor)
    actors = _ray_actors.setdefault(factory, [])
    remote = ray.remote(num_cpus=1, max_restarts=0)(_RayAnalyser)
    actors += [remote.remote(factory) for _ in range(count - len(actors))]
    return actors[:count]


def _analyse_on_ray(
    jobs: Sequence[tuple[str | None, Job]],
    todo: list[int],
    factory: WorkerFactory,
    workers: int,
    address: str | None,
    done: Callable[[int, dict[str, Any]], None],
) -> bool:
    """Run the ``todo`` jobs on ``workers`` Ray actors (kept for the next pass), one job per
    actor at a time; False after Ctrl-C (the finished results are kept)."""
    from plies.ray_session import ray_session

    with ray_session(address, workers) as ray:
        free = list(_actors(ray, factory, min(workers, len(todo))))
        queue = list(todo)
        pending: dict[Any, tuple[int, Any]] = {}
        try:
            while queue or pending:
                while queue and free:
                    a = free.pop()
                    i = queue.pop(0)
                    pending[a.run.remote(jobs[i][1])] = (i, a)
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    i, a = pending.pop(ref)
                    free.append(a)
                    done(i, ray.get(ref))
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            return False
    return True
