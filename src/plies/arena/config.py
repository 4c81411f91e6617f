"""Building a :class:`MatchConfig` from command-line style values (used by ``plies match``
and ``plies tournament``; one-line InvalidOption errors for every bad value)."""

from __future__ import annotations

from plies.arena.adjudication import Adjudication, parse_draw, parse_resign
from plies.arena.game import GameSetup, Opening
from plies.arena.match import MatchConfig, pairings, prepare_engines
from plies.arena.openings import load_openings, order_openings
from plies.arena.runners import default_concurrency
from plies.arena.spec import check_command, parse_engine_spec
from plies.arena.stats import parse_sprt
from plies.arena.timecontrol import parse_tc
from plies.errors import InvalidOption


def build_config(
    engines: list[str],
    *,
    game: str | None = None,
    rule: str = "freestyle",
    opening: str | None = None,
    size: str | None = None,
    games: int = 2,
    rounds: int = 1,
    tc: str | None = None,
    st: float | None = None,
    timemargin: float | None = None,
    startup: float | None = None,
    openings: str | None = None,
    openings_order: str = "sequential",
    seed: int | None = None,
    opening_plies: int | None = None,
    max_moves: int | None = None,
    resign: str | None = None,
    draw: str | None = None,
    sprt: str | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    sprt_model: str = "normalized",
    concurrency: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    fmt: str = "match",
) -> MatchConfig:
    """A checked :class:`MatchConfig`. ``game`` defaults to chess when an engine speaks UCI,
    else Gomoku; ``opening`` (Gomoku's opening rule) to the rule's default."""
    specs = [parse_engine_spec(text) for text in engines]
    if backend == "local":  # on Ray the programs live on the cluster's machines
        for spec in specs:
            check_command(spec)
    pairings(len(specs), fmt)  # the right number of engines for the format
    if game is None:
        game = "chess" if any(s.proto == "uci" for s in specs) else "gomoku"
    if game == "gomoku":
        from plies.gomoku.board import rule_code
        from plies.gomoku.records import parse_size
        from plies.gomoku.rules import RULE_NAMES

        try:
            width, height = parse_size(size) if size else (15, 15)
        except ValueError as exc:
            raise InvalidOption(str(exc)) from None
        from plies.gomoku.opening_rule import check_board, opening_name

        name = RULE_NAMES[rule_code(rule)]
        opening_rule = opening_name(opening, name)
        check_board(opening_rule, width, height)
        setup = GameSetup("gomoku", name, width, height, opening_rule)
    elif game == "chess":
        setup = GameSetup("chess")
    elif game == "dots":
        from plies.dots.rules import parse_size as dots_size

        rows, cols = dots_size(size) if size else (3, 3)
        setup = GameSetup("dots", "standard", cols, rows)
    else:
        raise InvalidOption(f"unknown game {game!r}: expected gomoku, chess or dots")
    time_control = parse_tc(tc, st, timemargin, startup)
    opening_list = [Opening()]
    if openings:
        opening_list = order_openings(
            load_openings(openings, setup, opening_plies), openings_order, seed
        )
    adjudication: dict[str, object] = {}
    if max_moves is not None:
        if max_moves < 1:
            raise InvalidOption(f"--maxmoves must be at least 1, not {max_moves}")
        adjudication["max_moves"] = max_moves
    if resign:
        adjudication.update(parse_resign(resign))
    if draw:
        adjudication.update(parse_draw(draw))
    test = parse_sprt(sprt, alpha, beta, sprt_model) if sprt else None
    if test is not None and fmt != "match":
        raise InvalidOption("--sprt is for matches between two engines")
    return MatchConfig(
        engines=prepare_engines(specs, setup, time_control),
        setup=setup,
        games=games,
        rounds=rounds,
        tc=time_control,
        openings=opening_list,
        adjudication=Adjudication(**adjudication),  # type: ignore[arg-type]
        sprt=test,
        concurrency=concurrency or default_concurrency(),
        backend=backend,
        ray_address=ray_address,
        format=fmt,
    )
