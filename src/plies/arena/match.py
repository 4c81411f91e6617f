"""Matches and tournaments: scheduling game pairs, running them, and the running score."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from plies.arena.adjudication import Adjudication
from plies.arena.game import GameSetup, Opening
from plies.arena.play import GameJob, GameResult
from plies.arena.runners import default_concurrency, run_games
from plies.arena.spec import EngineSpec
from plies.arena.stats import SPRT, pentanomial_elo, trinomial_elo
from plies.arena.timecontrol import TimeControl
from plies.errors import InvalidOption

SCHEMA_VERSION = 1
FORMATS = ("match", "round-robin", "gauntlet")


@dataclass
class MatchConfig:
    """Everything a match or tournament needs. ``games`` is the number of games per pairing
    (played in colour-swapped pairs on the same opening); ``rounds`` repeats the schedule."""

    engines: list[EngineSpec]
    setup: GameSetup = field(default_factory=GameSetup)
    games: int = 2
    rounds: int = 1
    tc: TimeControl = field(default_factory=TimeControl)
    openings: list[Opening] = field(default_factory=lambda: [Opening()])
    adjudication: Adjudication = field(default_factory=Adjudication)
    sprt: SPRT | None = None
    concurrency: int = field(default_factory=default_concurrency)
    backend: str = "local"
    ray_address: str | None = None
    format: str = "match"
    plugins: tuple[str, ...] = ()


def prepare_engines(specs: list[EngineSpec], setup: GameSetup, tc: TimeControl) -> list[EngineSpec]:
    """Check the engines against the game (InvalidOption with a one-line reason), give them
    distinct names and their protocol default (pbrain for Gomoku, uci for chess)."""
    out: list[EngineSpec] = []
    seen: dict[str, int] = {}
    for spec in specs:
        if spec.is_process and setup.game == "dots":
            raise InvalidOption(f"{spec.name}: dots games are played by built-in engines only")
        if spec.is_process and spec.proto is None:
            spec = spec.with_proto("pbrain" if setup.game == "gomoku" else "uci")
        if spec.is_process:
            wanted = "pbrain" if setup.game == "gomoku" else "uci"
            if spec.proto != wanted:
                raise InvalidOption(
                    f"{spec.name}: {setup.game} engines speak {wanted}, not {spec.proto}"
                )
            limited = (spec.tc or tc).is_limited or spec.depth is not None or spec.nodes is not None
            if not limited:
                raise InvalidOption(
                    f"{spec.name}: give a time control (--tc, or tc=/st= in the spec) "
                    "or a depth/nodes limit"
                )
        player = spec.create()  # validates a built-in engine's options
        if setup.game not in player.games:
            raise InvalidOption(f"{spec.name} does not play {setup.game}")
        player.close()
        seen[spec.name] = seen.get(spec.name, 0) + 1
        if seen[spec.name] > 1:
            spec = spec.with_name(f"{spec.name}#{seen[spec.name]}")
        out.append(spec)
    return out


def pairings(count: int, fmt: str) -> list[tuple[int, int]]:
    """Engine index pairs: all pairs (round robin) or the first engine against each other."""
    if fmt == "match":
        if count != 2:
            raise InvalidOption(f"a match needs exactly 2 engines, not {count}")
        return [(0, 1)]
    if count < 2:
        raise InvalidOption("a tournament needs at least 2 engines")
    if fmt == "round-robin":
        return list(itertools.combinations(range(count), 2))
    if fmt == "gauntlet":
        return [(0, i) for i in range(1, count)]
    raise InvalidOption(f"unknown tournament format {fmt!r}: expected round-robin or gauntlet")


def schedule(config: MatchConfig) -> Iterator[GameJob]:
    """The games in playing order: for each opening, each pairing plays a pair of games with
    colours swapped; openings cycle when there are fewer than pairs."""
    if config.games < 1 or config.rounds < 1:
        raise InvalidOption("games and rounds must be at least 1")
    pairs = pairings(len(config.engines), config.format)
    per_pairing = (config.games + 1) // 2
    index = pair_no = opening_no = 0
    for _ in range(config.rounds):
        for k in range(per_pairing):
            opening = config.openings[opening_no % len(config.openings)]
            opening_no += 1
            for a, b in pairs:
                for colours in ((a, b), (b, a)):
                    if 2 * k + (colours != (a, b)) >= config.games:
                        continue
                    specs = (config.engines[colours[0]], config.engines[colours[1]])
                    yield GameJob(
                        index=index,
                        pair=pair_no,
                        setup=config.setup,
                        opening=opening,
                        specs=specs,
                        engine_ids=colours,
                        tcs=(specs[0].tc or config.tc, specs[1].tc or config.tc),
                        adjudication=config.adjudication,
                    )
                    index += 1
                pair_no += 1


def repeat_notice(config: MatchConfig) -> str | None:
    """A one-line notice when the schedule plays an opening more than once a pairing (None
    otherwise): engines with a fixed node or depth limit on one thread then replay the same
    games, which the Elo, its error bars and the SPRT would count as new ones."""
    pairs = (config.games + 1) // 2 * config.rounds
    n = len(config.openings)
    if pairs <= n:
        return None
    if n == 1 and not config.openings[0].moves and config.openings[0].fen is None:
        where = "all from the starting position (no --openings)"
    else:
        where = f"over {n} opening{'s' if n > 1 else ''}: openings repeat"
    return (
        f"note: {pairs} game pairs a pairing, {where}, and deterministic engines (a fixed "
        "node or depth limit, one thread) replay the same games, which the Elo, error bars "
        "and SPRT count as new ones"
    )


def total_games(config: MatchConfig) -> int:
    return config.games * config.rounds * len(pairings(len(config.engines), config.format))


@dataclass
class PairingScore:
    """The running score of engine ``a`` against engine ``b`` (from ``a``'s point of view)."""

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("LL", "LD", "WL", "DD", "WD", "WW"), 0)
    )
    _open: dict[int, float] = field(default_factory=dict, repr=False)

    def add(self, result: GameResult) -> None:
        score = result.score_of(self.a)
        assert score is not None
        if score == 1.0:
            self.wins += 1
        elif score == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        first = self._open.pop(result.job.pair, None)
        if first is None:
            self._open[result.job.pair] = score
            return
        key = "".join(sorted(("L" if s == 0 else "D" if s == 0.5 else "W") for s in (first, score)))
        key = {"DL": "LD", "LW": "WL", "DW": "WD"}.get(key, key)
        self.pairs[key] += 1

    @property
    def pentanomial(self) -> list[int]:
        p = self.pairs
        return [p["LL"], p["LD"], p["WL"] + p["DD"], p["WD"], p["WW"]]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def summary(self, names: list[str], sprt: SPRT | None = None) -> dict:
        """The JSON summary of this pairing (wins, losses, draws, elo, elo_error...)."""
        tri = trinomial_elo(self.wins, self.draws, self.losses)
        penta = pentanomial_elo(self.pentanomial)
        out = {
            "engines": [names[self.a], names[self.b]],
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "score": _num(tri.score),
            "elo": _num(tri.elo),
            "elo_error": _num(tri.elo_error),
            "los": _num(tri.los),
            "nelo": _num(tri.nelo),
            "nelo_error": _num(tri.nelo_error),
            "pentanomial": self.pentanomial,
            "pairs": dict(self.pairs),
            "penta_elo": _num(penta.elo),
            "penta_elo_error": _num(penta.elo_error),
            "penta_nelo": _num(penta.nelo),
            "penta_nelo_error": _num(penta.nelo_error),
        }
        if sprt is not None:
            llr = sprt.llr(self.pentanomial) if sum(self.pentanomial) else 0.0
            out["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "model": sprt.model,
                "llr": round(llr, 4),
                "lower": round(sprt.lower, 4),
                "upper": round(sprt.upper, 4),
                "result": sprt.decision(llr),
            }
        return out


def _num(x: float) -> float | None:
    """JSON-safe rounding: infinities become None."""
    if x != x or x in (float("inf"), float("-inf")):
        return None
    return round(x, 4)


@dataclass
class MatchReport:
    """Results so far: the games, the score of each pairing, and whether the run was cut
    short (``interrupted`` by Ctrl-C, ``sprt_result`` H0/H1 when the SPRT stopped it)."""

    config: MatchConfig
    results: list[GameResult] = field(default_factory=list)
    scores: dict[tuple[int, int], PairingScore] = field(default_factory=dict)
    interrupted: bool = False
    planned: int = 0

    def __post_init__(self) -> None:
        for a, b in pairings(len(self.config.engines), self.config.format):
            self.scores[(a, b)] = PairingScore(a, b)
        self.planned = total_games(self.config)

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.config.engines]

    def add(self, result: GameResult) -> None:
        self.results.append(result)
        a, b = sorted(result.job.engine_ids)
        self.scores[(a, b)].add(result)

    def sprt_decision(self) -> str | None:
        sprt = self.config.sprt
        if sprt is None or self.config.format != "match":
            return None
        penta = self.scores[(0, 1)].pentanomial
        return sprt.decision(sprt.llr(penta)) if sum(penta) else "continue"

    def should_stop(self) -> bool:
        return self.sprt_decision() in ("H0", "H1")

    def standings(self) -> list[dict]:
        """Per engine: games, W/D/L, points, score and Elo against the field, best first."""
        rows = []
        for i, name in enumerate(self.names):
            w = d = lo = 0
            for s in self.scores.values():
                if i == s.a:
                    w, d, lo = w + s.wins, d + s.draws, lo + s.losses
                elif i == s.b:
                    w, d, lo = w + s.losses, d + s.draws, lo + s.wins
            est = trinomial_elo(w, d, lo)
            rows.append(
                {
                    "engine": name,
                    "games": w + d + lo,
                    "wins": w,
                    "draws": d,
                    "losses": lo,
                    "points": w + d / 2,
                    "score": _num(est.score),
                    "elo": _num(est.elo),
                    "elo_error": _num(est.elo_error),
                }
            )
        rows.sort(key=lambda r: (-r["points"], r["engine"]))
        return rows

    def crosstable(self) -> dict[str, dict[str, float]]:
        """Points scored by each engine (row) against each other (column)."""
        table: dict[str, dict[str, float]] = {n: {} for n in self.names}
        for s in self.scores.values():
            na, nb = self.names[s.a], self.names[s.b]
            table[na][nb] = s.wins + s.draws / 2
            table[nb][na] = s.losses + s.draws / 2
        return table

    def to_json(self, files: dict[int, str] | None = None) -> dict:
        """The JSON summary: for a match, the pairing's figures at the top level."""
        files = files or {}
        out: dict = {
            "schema_version": SCHEMA_VERSION,
            "format": self.config.format,
            "game": self.config.setup.describe(),
            "time_control": self.config.tc.describe(),
            "planned_games": self.planned,
            "games_played": len(self.results),
            "interrupted": self.interrupted,
        }
        if self.config.format == "match":
            out.update(self.scores[(0, 1)].summary(self.names, self.config.sprt))
        else:
            out["engines"] = self.names
            out["standings"] = self.standings()
            out["crosstable"] = self.crosstable()
            out["pairings"] = [s.summary(self.names) for s in self.scores.values()]
        out["game_results"] = [_game_json(r, files.get(r.job.index)) for r in self.results]
        return out


def _game_json(r: GameResult, path: str | None) -> dict:
    entry = {
        "index": r.job.index + 1,
        "pair": r.job.pair + 1,
        "opening": r.job.opening.name,
        "players": list(r.names),
        "result": r.outcome.result_text(),
        "reason": r.outcome.reason,
        "moves": len(r.moves),
        "seconds": round(r.seconds, 3),
        "file": path,
    }
    if r.failure is not None:
        entry["failure"] = {
            "engine": r.failure.engine,
            "kind": r.failure.kind,
            "message": r.failure.message,
            "output": r.failure.output,
        }
    return entry


def run_match(
    config: MatchConfig,
    on_result: Callable[[MatchReport, GameResult], None] | None = None,
) -> MatchReport:
    """Play the match or tournament; ``on_result`` is called after each game. Ctrl-C stops
    it and returns the report of the games finished so far (``interrupted`` set)."""
    report = MatchReport(config)
    results = run_games(
        schedule(config),
        config.concurrency,
        config.backend,
        report.should_stop,
        config.ray_address,
        config.plugins,
    )
    try:
        for result in results:
            report.add(result)
            if on_result is not None:
                on_result(report, result)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return report
