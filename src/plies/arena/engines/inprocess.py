"""In-process players: the plies Gomoku engine, a random mover (any game) and an adapter for
game-agnostic agents with ``select_move(game)``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from plies.arena.engines.base import MATE_SCORE, Limits, Player, Reply, mate_score
from plies.arena.game import GAMES, GameSetup, Referee
from plies.arena.timecontrol import TimeControl
from plies.errors import InvalidOption


def _int(options: dict[str, str], key: str, low: int = 1) -> int | None:
    if key not in options:
        return None
    try:
        value = int(options[key])
    except ValueError:
        raise InvalidOption(f"option {key} must be an integer, not {options[key]!r}") from None
    if value < low:
        raise InvalidOption(f"option {key} must be at least {low}, not {value}")
    return value


def _float(options: dict[str, str], key: str) -> float | None:
    if key not in options:
        return None
    try:
        value = float(options[key])
    except ValueError:
        raise InvalidOption(f"option {key} must be a number, not {options[key]!r}") from None
    if value <= 0:
        raise InvalidOption(f"option {key} must be positive, not {value}")
    return value


def check_options(options: dict[str, str], known: tuple[str, ...], what: str) -> None:
    """Raise InvalidOption naming the first option not in ``known``."""
    for key in options:
        if key not in known:
            raise InvalidOption(
                f"unknown option {key!r} for {what}: expected one of {', '.join(known)}"
            )


class _EnginePlayer(Player):
    """A plies engine in this process. Options: ``depth``, ``nodes``, ``movetime`` (seconds)
    limit each move; without them the engine plays on the match clock. ``level`` (1 to
    :data:`plies.search.levels.MAX_LEVEL`) plays at that level instead, its choices drawn
    from ``seed`` when given. ``hash`` (MB, default 16) and ``threads`` (default 1)."""

    OPTIONS = ("depth", "nodes", "movetime", "level", "seed", "hash", "threads")
    SPEC = "plies:engine"

    def __init__(self, options: dict[str, str], name: str) -> None:
        check_options(options, self.OPTIONS, self.SPEC)
        self.name = name
        self.depth = _int(options, "depth")
        self.nodes = _int(options, "nodes")
        self.movetime = _float(options, "movetime")
        self.hash_mb = _float(options, "hash") or 16.0
        self.threads = _int(options, "threads") or 1
        self.level = _int(options, "level")
        if self.level is not None:
            from plies.search.levels import level

            level(self.level)  # checked now
            if any(v is not None for v in (self.depth, self.nodes, self.movetime)):
                raise InvalidOption(f"{self.SPEC}: level replaces depth, nodes and movetime")
        self._rng = random.Random(_int(options, "seed", low=0))
        self._engine: Any = None

    @property
    def self_limited(self) -> bool:
        return any(v is not None for v in (self.depth, self.nodes, self.movetime, self.level))

    def _clock(self, limits: Limits) -> dict[str, Any]:
        """The clock arguments of the engine's ``search``."""
        return {"time_left": limits.time_left, "increment": limits.increment}

    def _search(self, referee: Referee, limits: Limits) -> Any:
        """The engine's search result for the referee's position: within the player's own
        limits if it has any, else the arena's limits and clock."""
        kwargs: dict[str, Any] = {}
        if self.self_limited:
            kwargs.update(depth=self.depth, nodes=self.nodes, movetime=self.movetime)
        else:
            kwargs.update(depth=limits.depth, nodes=limits.nodes, movetime=limits.movetime)
            if limits.time_left is not None and limits.movetime is None:
                kwargs.update(self._clock(limits))
        return self._engine.search(referee.board, **kwargs)


def _tunable_params(options: dict[str, str]) -> dict[str, float]:
    """The engine's scalar tunable numbers named in ``options`` (upper-case names of
    :mod:`plies.gomoku.engine.params`, e.g. ``LMR_BASE=0.75``), as numbers."""
    if not options:
        return {}
    from plies.gomoku.engine import params

    values: dict[str, float] = {}
    for name, text in options.items():
        try:
            values[name] = params.parse_number(name, text)
        except KeyError:
            raise InvalidOption(
                f"unknown engine parameter {name!r} for plies:gomoku: expected one of "
                + ", ".join(params.number_names())
            ) from None
        except ValueError as exc:
            raise InvalidOption(str(exc)) from None
    return values


class GomokuEnginePlayer(_EnginePlayer):
    """The plies Gomoku engine (:class:`plies.gomoku.engine.Engine`) in this process (options:
    see :class:`_EnginePlayer`, and ``eval``: ``learned`` (the default), ``classic`` or the path
    of a learned table, see :mod:`plies.gomoku.engine.combos`; ``order``, the search's move
    order, the same three choices; ``threat``, the evaluation's threat term: ``learned`` (the
    default), ``off`` or the path of a table, see :mod:`plies.gomoku.engine.threat_eval`;
    ``book``: ``off`` (the default: measurements), ``default``
    (the book shipped for the game) or a book file, :mod:`plies.gomoku.book`; and any scalar
    tunable number of :mod:`plies.gomoku.engine.params` by its name, e.g. ``LMR_BASE=0.75``,
    for tuning matches)."""

    OPTIONS = (*_EnginePlayer.OPTIONS, "eval", "order", "threat", "net", "book")
    SPEC = "plies:gomoku"
    games = frozenset({"gomoku"})
    _key: tuple | None = None

    def __init__(self, options: dict[str, str], name: str) -> None:
        self.params = _tunable_params({k: v for k, v in options.items() if k.isupper()})
        super().__init__({k: v for k, v in options.items() if not k.isupper()}, name)
        from plies.gomoku.engine import params

        tables = {}
        for option, name in (
            ("eval", "EVAL"),
            ("order", "ORDER"),
            ("threat", "THREAT"),
            ("net", "NET"),
        ):
            try:
                tables[name] = params.check_table(name, options.get(option, "learned"))
            except ValueError as exc:
                raise InvalidOption(f"option {option}: {exc}") from None
        self.tables = tables  # EVAL, ORDER, THREAT and NET for the engine
        self.book_spec = options.get("book", "off")
        if self.book_spec not in ("off", "default"):
            from plies.gomoku.book import Book

            Book(self.book_spec)  # a one-line error now rather than in a game

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        from plies.gomoku.engine import Engine

        key = (setup.rule, setup.width, setup.height)
        if self._engine is None or self._key != key:
            self._engine = Engine(
                setup.rule,
                width=setup.width,
                height=setup.height,
                hash_mb=self.hash_mb,
                threads=self.threads,
                params={**self.tables, **self.params},
            )
            self._key = key
        else:
            self._engine.new_game()
        from plies.gomoku.book import resolve_book

        self._engine.set_book(
            resolve_book(self.book_spec, setup.rule, setup.width, setup.height, setup.opening)
        )

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        from plies.gomoku.engine.search import WIN, WIN_BOUND

        if self.level is not None:
            from plies.gomoku.levels import level_move

            chosen = level_move(self._engine, referee.board, self.level, self._rng)
            return Reply(chosen.move.pbrain(), None, chosen.result.depth)
        result = self._search(referee, limits)
        score = int(result.score)
        if score > WIN_BOUND:
            score = MATE_SCORE - (WIN - score)
        elif score < -WIN_BOUND:
            score = -(MATE_SCORE - (WIN + score))
        return Reply(result.move.pbrain(), score, result.depth)


class ChessEnginePlayer(_EnginePlayer):
    """The plies chess engine (:class:`plies.chess.engine.api.Engine`) in this process
    (options: see :class:`_EnginePlayer`, and ``params``: a JSON file of evaluation and
    search parameters, as ``plies train chess`` writes)."""

    OPTIONS = (*_EnginePlayer.OPTIONS, "params")
    SPEC = "plies:chess"
    games = frozenset({"chess"})

    def __init__(self, options: dict[str, str], name: str) -> None:
        super().__init__(options, name)
        self.params = None
        if "params" in options:
            from plies.tune.chess_fit import load_params

            self.params = load_params(options["params"])

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        from plies.chess.engine.api import Engine

        if self._engine is None:
            self._engine = Engine(hash_mb=self.hash_mb, threads=self.threads, params=self.params)
        else:
            self._engine.new_game()

    def _clock(self, limits: Limits) -> dict[str, Any]:
        return {**super()._clock(limits), "moves_to_go": limits.moves_to_go, "overhead": 0.01}

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        from plies.chess.engine.api import mate_in

        if self.level is not None:
            from plies.chess.levels import level_move

            chosen = level_move(self._engine, referee.board, self.level, self._rng)
            return Reply(chosen.move.uci(), None, chosen.result.depth)
        result = self._search(referee, limits)
        score = int(result.score)
        m = mate_in(score)
        if m is not None:
            score = mate_score(m)
        return Reply(result.move.uci(), score, result.depth)


class RandomPlayer(Player):
    """Plays a uniformly random legal move (any game); ``seed`` makes it repeatable."""

    OPTIONS = ("seed",)
    games = frozenset(GAMES)

    def __init__(self, options: dict[str, str], name: str) -> None:
        check_options(options, self.OPTIONS, "plies:random")
        self.name = name
        seed = _int(options, "seed", low=0)
        self._rng = random.Random(seed)

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        pass

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        return Reply(self._rng.choice(referee.legal_moves()))


class Agent(Protocol):
    """A game-agnostic agent, as ``plies.search.agents.make_agent(spec)`` returns."""

    def select_move(self, game: Any) -> Any: ...


class AgentPlayer(Player):
    """Adapts an :class:`Agent` to the arena: ``to_game(referee)`` builds the agent's
    Game-protocol object from the referee's position and ``move_text(move)`` turns its
    answer into protocol text (``x,y`` or UCI). This is the seam for ``plies.search``."""

    def __init__(
        self,
        agent: Agent,
        name: str,
        games: frozenset[str],
        to_game: Callable[[Referee], Any],
        move_text: Callable[[Any], str] = str,
    ) -> None:
        self.agent = agent
        self.name = name
        self.games = games
        self._to_game = to_game
        self._move_text = move_text

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        reset = getattr(self.agent, "reset", None)  # optional in plies.search's Agent protocol
        if callable(reset):
            reset()

    def think(self, referee: Referee, limits: Limits, deadline: float | None) -> Reply:
        return Reply(self._move_text(self.agent.select_move(self._to_game(referee))))
