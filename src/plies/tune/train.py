"""``plies train gomoku``: self-play games, then the fit of the learned evaluation (or of the
search's move order), with progress bars; the games file makes the run resumable and the seeds
make it reproducible."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.tune import (
    gomoku_choice,
    gomoku_data,
    gomoku_fit,
    gomoku_net,
    gomoku_policy,
    gomoku_threat,
)

# the pull toward the hand-written values (threat: toward no term), per target
PRIORS = {"eval": 1e-7, "order": 1e-4, "choice": 1e-4, "threat": 10.0, "net": 1e-3}


@dataclass(frozen=True)
class TrainRequest:
    """Everything ``plies train gomoku`` was asked to do."""

    rule: str
    size: int
    games: int
    nodes: int
    data: str
    out: str
    seed: int = 1
    workers: int = 1
    random_moves: int = 4
    evaluation: str = "classic"
    lam: float = 0.5
    td: float = 0.7
    coarse: bool = False
    gain: float = 1.0
    steps: int = 400
    learning_rate: float | None = None  # None: the target's default (eval 4.0, net 0.01)
    prior: float | None = None  # None: the target's default (PRIORS)
    backend: str = "local"
    ray_address: str | None = None
    extra_data: tuple[str, ...] = ()
    fit: bool = True
    target: str = "eval"
    net: str = "learned"
    far_cells: bool = True
    init: str | None = None  # --target net: the net the fit starts from (learned or a path)
    threat: str = "learned"  # --target net: the threat table of the net's base
    openings: str = ""  # where self-play games start: random stones, or these openings
    balance: int = 300  # the most centi-units either way a game's start may score
    unique: bool = False  # fit each sequence of moves once (a repeated game adds only weight)


def _bar(console: Any):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


def train_gomoku(request: TrainRequest, console: Any) -> dict | None:
    """Run ``request``; returns the fit's report (None when only games were played)."""
    settings = gomoku_data.SelfPlaySettings(
        request.rule,
        request.size,
        request.nodes,
        request.random_moves,
        request.evaluation,
        balance=request.balance,
        net=request.net,
        openings=request.openings or "",
    )
    settings.check()  # before the progress bar, so that a bad option is all the user sees
    # the net a fit starts from, loaded before any game is played (a bad path is named now)
    start = None
    if request.fit and request.target == "net" and request.init is not None:
        start = gomoku_net.load_start(request.init, request.rule)
    if request.fit and request.target == "net":
        gomoku_net.check_threat(request.threat)
    with _bar(console) as bar:
        task = bar.add_task("self-play games", total=request.games)

        def games_done(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        gomoku_data.generate(
            settings,
            request.games,
            request.data,
            seed=request.seed,
            workers=request.workers,
            backend=request.backend,
            ray_address=request.ray_address,
            progress=games_done,
        )
    if not request.fit:
        return None
    wanted = set(range(request.seed, request.seed + request.games))
    games = [g for g in gomoku_data.load_games([request.data]) if g["seed"] in wanted]
    games += gomoku_data.load_games(list(request.extra_data))
    if request.unique:
        kept = gomoku_data.unique_games(games)
        console.print(f"{len(games) - len(kept)} repeated games left out, {len(kept)} kept")
        games = kept
    if request.target == "order":
        return _train_order(request, games, console)
    if request.target == "choice":
        return _train_choice(request, games, console)
    if request.target == "threat":
        return _train_threat(request, games, console)
    if request.target == "net":
        return _train_net(request, games, console, start)
    with _bar(console) as bar:
        task = bar.add_task("positions", total=len(games))
        data = gomoku_fit.features(
            games,
            request.rule,
            lam=request.lam,
            progress=lambda d, t: bar.update(task, completed=d, total=t),
        )
        task = bar.add_task("fit", total=request.steps)
        result = gomoku_fit.fit(
            data,
            request.rule,
            steps=request.steps,
            learning_rate=4.0 if request.learning_rate is None else request.learning_rate,
            prior=PRIORS["eval"] if request.prior is None else request.prior,
            progress=lambda d, t: bar.update(task, completed=d, total=t),
        )
    result.report.update(games=len(games), nodes=request.nodes, lam=request.lam, seed=request.seed)
    path = gomoku_fit.save(result, request.rule, request.out)
    before, after = result.report["loss_before"], result.report["loss_after"]
    console.print(
        f"{data.size} positions from {len(games)} games; held-out loss "
        f"{before['test']:.4f} -> {after['test']:.4f} (train {before['train']:.4f} -> "
        f"{after['train']:.4f})"
    )
    console.print(f"table written to {path} (report: {Path(path).with_suffix('.json')})")
    return result.report


def _data_and_fit(
    request: TrainRequest,
    games: list[dict],
    console: Any,
    build: Callable[..., Any],
    fit: Callable[..., Any],
    target: str,
) -> tuple[Any, Any]:
    """``build(games, rule, progress=...)`` the candidates' data, then ``fit`` it (the
    request's steps and prior, else the target's), each with a progress bar; the fit's
    report gets the games, nodes and seed."""
    with _bar(console) as bar:
        task = bar.add_task("positions", total=len(games))
        data = build(
            games, request.rule, progress=lambda d, t: bar.update(task, completed=d, total=t)
        )
        task = bar.add_task("fit", total=request.steps)
        result = fit(
            data,
            request.rule,
            steps=request.steps,
            prior=PRIORS[target] if request.prior is None else request.prior,
            progress=lambda d, t: bar.update(task, completed=d, total=t),
        )
    result.report.update(games=len(games), nodes=request.nodes, seed=request.seed)
    return data, result


def _train_order(request: TrainRequest, games: list[dict], console: Any) -> dict:
    """Fit the search's move order to the moves of ``games`` and save it with its report."""

    import numpy as np

    data, result = _data_and_fit(
        request, games, console, gomoku_policy.policy_data, gomoku_policy.fit, "order"
    )
    path = gomoku_fit.save_with_report(
        request.out, result.tables.astype(np.int32), result.report, "order table"
    )
    hand, fitted = result.report["hand_test"], result.report["fit_test"]
    if hand and fitted:
        console.print(
            f"{data.positions} positions from {len(games)} games; held-out: chosen move first "
            f"{hand['top1']:.1%} -> {fitted['top1']:.1%}, in the first three "
            f"{hand['top3']:.1%} -> {fitted['top3']:.1%}, cross-entropy "
            f"{hand['cross_entropy']:.3f} -> {fitted['cross_entropy']:.3f}"
        )
    console.print(f"move order written to {path} (report: {path.with_suffix('.json')})")
    return result.report


def _train_choice(request: TrainRequest, games: list[dict], console: Any) -> dict:
    """Fit the evaluation's table to the moves the self-play search chose
    (:mod:`plies.tune.gomoku_choice`) and save it with its report."""
    data, result = _data_and_fit(
        request, games, console, gomoku_choice.choice_data, gomoku_choice.fit, "choice"
    )
    path = gomoku_fit.save(result, request.rule, request.out)
    hand, fitted = result.report["hand_test"], result.report["fit_test"]
    if hand and fitted:
        console.print(
            f"{data.positions} positions from {len(games)} games; held-out: chosen move's "
            f"child evaluated best {hand['top1']:.1%} -> {fitted['top1']:.1%}, cross-entropy "
            f"{hand['cross_entropy']:.3f} -> {fitted['cross_entropy']:.3f}"
        )
    console.print(f"table written to {path} (report: {path.with_suffix('.json')})")
    return result.report


def _train_threat(request: TrainRequest, games: list[dict], console: Any) -> dict:
    """Fit the evaluation's threat term to the principal variations' leaves of ``games``
    (:mod:`plies.tune.gomoku_threat`) and save it with its report."""
    from functools import partial

    if not any(g.get("pvs") for g in games):
        console.print(
            "note: these games carry no principal variations (written before session 13): "
            "the searched positions themselves are fitted"
        )
    build = partial(gomoku_threat.threat_data, td=request.td)
    fit = partial(gomoku_threat.fit, coarse=request.coarse)
    return _train_leaves(request, games, console, (build, fit, gomoku_threat.save), "threat")


def _train_net(request: TrainRequest, games: list[dict], console: Any, start: Any = None) -> dict:
    """Fit the evaluation's pattern network to the principal variations' leaves of ``games``
    (:mod:`plies.tune.gomoku_net`), from the net ``start`` when given (``--init``), and save
    it with its report."""
    from functools import partial

    build = partial(
        gomoku_net.net_data, td=request.td, far_cells=request.far_cells, threat=request.threat
    )
    options: dict[str, Any] = {"seed": request.seed}
    if start is not None:
        options["init"] = start
    if request.learning_rate is not None:
        options["learning_rate"] = request.learning_rate
    fit = partial(gomoku_net.fit, **options)
    steps = (build, fit, gomoku_net.save)
    return _train_leaves(
        request,
        games,
        console,
        steps,
        "net",
        far_cells=request.far_cells,
        init=request.init,
        threat=request.threat,
    )


def _train_leaves(
    request: TrainRequest,
    games: list[dict],
    console: Any,
    steps: tuple[Callable, Callable, Callable],
    target: str,
    **report: Any,
) -> dict:
    """The TD-leaf fits' common path (``target`` "threat" or "net"): ``steps`` = (build the
    leaves' data from ``games``, fit it, save the fit at ``request.gain``), then a summary;
    ``report``: more entries for the fit's report."""
    build, fit, save = steps
    data, result = _data_and_fit(request, games, console, build, fit, target)
    result.report.update(td=request.td, **report)
    path = save(result, request.out, gain=request.gain)
    before, after = result.report["loss_before"], result.report["loss_after"]
    console.print(
        f"{data.size} leaves from {len(games)} games; held-out loss {before['test']:.4f} -> "
        f"{after['test']:.4f} (train {before['train']:.4f} -> {after['train']:.4f}), "
        f"scale {result.scale:.3f}"
    )
    noun = {"threat": "threat table", "net": "pattern net"}[target]
    console.print(f"{noun} written to {path} (report: {path.with_suffix('.json')})")
    return result.report
