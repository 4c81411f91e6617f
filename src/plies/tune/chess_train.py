"""``plies train chess``: self-play games at a fixed node budget, then the Texel fit of the
evaluation's parameters to their results; the games file makes the run resumable and the seeds
make it reproducible."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.errors import InvalidOption
from plies.tune import chess_data, chess_fit, gomoku_data
from plies.tune.train import _bar

PRIOR = 1e-7  # the fit's pull toward the starting values (chess_fit.texel_fit)


@dataclass(frozen=True)
class ChessTrainRequest:
    """Everything ``plies train chess`` was asked to do."""

    games: int
    nodes: int
    data: str
    out: str | None
    seed: int = 1
    workers: int = 1
    random_moves: int = 8
    params: str = ""
    extra_data: tuple[str, ...] = ()
    method: str = "gradient"  # or "coordinate"
    rounds: int = 3
    iterations: int = 300
    passes: int = 8
    step: int = 4
    only: tuple[str, ...] = ()
    prior: float = PRIOR
    score_weight: float = 0.0
    fit: bool = True


def train_chess(request: ChessTrainRequest, console: Any) -> dict | None:
    """Run ``request``; returns the fit's report (None when only games were played)."""
    settings = chess_data.ChessSelfPlay(
        nodes=request.nodes, random_moves=request.random_moves, params=request.params
    )
    with _bar(console) as bar:
        task = bar.add_task("self-play games", total=request.games)
        gomoku_data.generate(
            settings,
            request.games,
            request.data,
            seed=request.seed,
            workers=request.workers,
            play=chess_data.play,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if not request.fit:
        return None
    wanted = set(range(request.seed, request.seed + request.games))
    games = [g for g in chess_fit.load_games([request.data]) if g["seed"] in wanted]
    games += chess_fit.load_games(list(request.extra_data))
    games.sort(key=lambda g: g["seed"])  # the fit's split follows the order: make it the seeds'
    positions = chess_fit.quiet_positions(games)
    base = chess_fit.load_params(request.params) if request.params else None
    gradient = request.method == "gradient"
    if request.score_weight and not gradient:
        raise InvalidOption("--score-weight needs --method gradient")
    with _bar(console) as bar:
        task = bar.add_task(
            "fit rounds" if gradient else "fit passes",
            total=request.rounds if gradient else request.passes,
        )
        common = dict(
            seed=request.seed,
            base=base,
            names=request.only,
            prior=request.prior,
            progress=lambda done, _loss: bar.update(task, completed=done),
        )
        if gradient:
            changed, report = chess_fit.gradient_fit(
                positions,
                rounds=request.rounds,
                iterations=request.iterations,
                score_weight=request.score_weight,
                **common,
            )
        else:
            changed, report = chess_fit.texel_fit(
                positions, step=request.step, passes=request.passes, **common
            )
    assert request.out is not None
    chess_fit.write_params(changed, request.out, base)
    result = {
        **report.as_dict(),
        "games": len(games),
        "nodes": request.nodes,
        "seed": request.seed,
        "method": request.method,
        "score_weight": request.score_weight,
        "prior": request.prior,
    }
    Path(request.out).with_suffix(".report.json").write_text(json.dumps(result, indent=1) + "\n")
    console.print(
        f"{report.positions + report.held_out} quiet positions from {len(games)} games, K = "
        f"{report.k:.1f}; held-out loss {report.held_out_before:.5f} -> "
        f"{report.held_out_after:.5f} (train {report.train_before:.5f} -> "
        f"{report.train_after:.5f}); {len(changed)} parameters changed"
    )
    console.print(f"parameters written to {request.out}")
    return result
