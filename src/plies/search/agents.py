"""Agents: the algorithms behind one uniform interface, and a registry of named agents.

An agent has a ``name`` and ``select_move(game)``, which returns a legal move for the
position ``game`` is in and leaves ``game`` unchanged; ``reset()`` (optional) starts a new
game (the built-in agents also answer to ``new_game()``, the name plies.arena calls). The
registry builds agents from specs such as ``connect4-mcts?iterations=2000``,
``tictactoe-alphabeta?depth=9``, ``nim-random`` or ``connect4-negamax?movetime=0.5``: the
name is ``<game>-<algorithm>``, the options follow ``?`` as ``key=value`` pairs joined by
``&``. A leading ``plies:`` is accepted.

Built-in games register themselves from the modules in :data:`BUILTIN_MODULES`, imported on
first use; :func:`register_game` adds a game with the standard algorithms, and
:func:`register_agent` adds any other agent.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from plies.errors import InvalidOption
from plies.search.alphabeta import alphabeta
from plies.search.game import Game
from plies.search.mcts import MCTS
from plies.search.minimax import minimax
from plies.search.montecarlo import monte_carlo, random_move
from plies.search.negamax import negamax, solve
from plies.search.result import SearchResult
from plies.search.tt import TranspositionTable

BUILTIN_MODULES: list[str] = ["plies.games", "plies.gomoku.game", "plies.dots.agents"]
"""Modules imported (in order, until a name is found) to register the built-in games."""


@runtime_checkable
class Agent(Protocol):
    """Anything that picks moves: a ``name`` and ``select_move(game)``."""

    name: str

    def select_move(self, game: Any) -> Any:
        """A legal move for the player to move in ``game`` (left unchanged)."""
        ...


# --- the standard agents ---------------------------------------------------------------------
class RandomAgent:
    """Plays a uniformly random legal move."""

    def __init__(self, name: str = "random", seed: int | None = None) -> None:
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)

    def select_move(self, game: Any) -> Any:
        return random_move(game, self.rng)

    def reset(self) -> None:
        self.rng = random.Random(self.seed)

    new_game = reset  # the name plies.arena's AgentPlayer calls


class SearchAgent:
    """Plays the move of a search function called as ``search(game, **options)``.

    ``last_result`` keeps the last :class:`SearchResult` (score, PV, nodes...).
    """

    def __init__(self, name: str, search: Callable[..., SearchResult], **options: Any) -> None:
        self.name = name
        self.search = search
        self.options = options
        self.last_result: SearchResult | None = None

    def select_move(self, game: Any) -> Any:
        self.last_result = self.search(game, **self.options)
        return self.last_result.move

    def reset(self) -> None:
        self.last_result = None

    def new_game(self) -> None:
        """The name plies.arena's AgentPlayer calls: same as :meth:`reset`."""
        self.reset()


class NegamaxAgent(SearchAgent):
    """Negamax (or the solver) keeping its transposition table from move to move."""

    def __init__(
        self, name: str, search: Callable[..., SearchResult], hash_bits: int = 18, **options: Any
    ) -> None:
        super().__init__(name, search, **options)
        self.hash_bits = hash_bits
        self.tt = TranspositionTable(hash_bits)

    def select_move(self, game: Any) -> Any:
        self.last_result = self.search(game, tt=self.tt, **self.options)
        return self.last_result.move

    def reset(self) -> None:
        super().reset()
        self.tt.clear()


class MCTSAgent:
    """MCTS keeping its tree from move to move (see :class:`plies.search.mcts.MCTS`)."""

    def __init__(self, name: str, **options: Any) -> None:
        self.name = name
        self.mcts = MCTS(**options)
        self.last_result: SearchResult | None = None

    def select_move(self, game: Any) -> Any:
        self.last_result = self.mcts.search(game)
        return self.last_result.move

    def reset(self) -> None:
        self.mcts.reset()
        self.last_result = None

    new_game = reset  # the name plies.arena's AgentPlayer calls


# --- option parsing -------------------------------------------------------------------------
def _boolean(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError("not a boolean (true/false)")


def _non_negative(kind: type) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        value = kind(text)
        if value < 0:
            raise ValueError("must not be negative")
        return value

    convert.__name__ = kind.__name__
    return convert


INT = _non_negative(int)
FLOAT = _non_negative(float)
BOOL = _boolean

Factory = Callable[..., Agent]


@dataclass(frozen=True)
class _Entry:
    factory: Factory
    options: Mapping[str, Callable[[str], Any]]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""


_AGENTS: dict[str, _Entry] = {}
_GAMES: dict[str, _Entry] = {}
_loaded: list[str] = []


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name?key=value&key=value`` into the name and the raw option texts."""
    text = spec.strip()
    if text.startswith("plies:"):
        text = text[len("plies:") :]
    name, _, query = text.partition("?")
    options: dict[str, str] = {}
    for part in filter(None, query.split("&")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise InvalidOption(f"bad option {part!r} in {spec!r}: expected key=value")
        options[key.strip().lower()] = value.strip()
    return name.strip().lower(), options


def _convert(kind: str, name: str, entry: _Entry, raw: Mapping[str, str]) -> dict[str, Any]:
    values = dict(entry.defaults)
    for key, text in raw.items():
        convert = entry.options.get(key)
        if convert is None:
            known = ", ".join(sorted(entry.options)) or "none"
            raise InvalidOption(f"unknown option {key!r} for {kind} {name} (options: {known})")
        try:
            values[key] = convert(text)
        except ValueError as exc:
            type_name = getattr(convert, "__name__", "value")
            raise InvalidOption(
                f"bad value {key}={text!r} for {kind} {name}: {exc or type_name}"
            ) from None
    return values


def _ensure_loaded(name: str | None, table: dict[str, _Entry]) -> None:
    """Import the built-in modules, in order, until ``name`` is registered (all if None)."""
    for module in BUILTIN_MODULES:
        if name is not None and name in table:
            return
        if module not in _loaded:
            _loaded.append(module)
            importlib.import_module(module)


def register_agent(
    name: str,
    factory: Factory,
    options: Mapping[str, Callable[[str], Any]] | None = None,
    *,
    defaults: Mapping[str, Any] | None = None,
    description: str = "",
) -> None:
    """Register ``factory(name=spec, **options)`` under ``name`` (e.g. ``dots-chains``).

    ``options`` maps each accepted option to a converter from text (``INT``, ``FLOAT``,
    ``BOOL``, or any callable raising ValueError); ``defaults`` are passed when not given.
    Registering a name again replaces the entry.
    """
    _AGENTS[name.lower()] = _Entry(factory, dict(options or {}), dict(defaults or {}), description)


def make_agent(spec: str) -> Agent:
    """Build the agent a spec names (``connect4-mcts?iterations=2000``).

    Raises :class:`InvalidOption` naming the unknown agent, option or bad value.
    """
    name, raw = parse_spec(spec)
    _ensure_loaded(name, _AGENTS)
    entry = _AGENTS.get(name)
    if entry is None:
        raise InvalidOption(f"unknown agent {name!r} (known: {', '.join(agent_names())})")
    values = _convert("agent", name, entry, raw)
    return entry.factory(name=spec.strip(), **values)


def agent_names() -> list[str]:
    """Every registered agent name, sorted."""
    _ensure_loaded(None, _AGENTS)
    return sorted(_AGENTS)


# --- games ----------------------------------------------------------------------------------
STANDARD_ALGORITHMS = ("random", "minimax", "alphabeta", "negamax", "solver", "montecarlo", "mcts")
"""The algorithms :func:`register_game` registers for every game."""


def _standard_agents() -> dict[str, tuple[Factory, dict[str, Callable[[str], Any]], dict]]:
    limits = {"movetime": FLOAT, "nodes": INT}
    return {
        "random": (lambda name, **o: RandomAgent(name, **o), {"seed": INT}, {}),
        "minimax": (
            lambda name, **o: SearchAgent(name, minimax, **o),
            {"depth": INT},
            {"depth": 4},
        ),
        "alphabeta": (
            lambda name, **o: SearchAgent(name, alphabeta, **o),
            {"depth": INT, **limits},
            {"depth": 6},
        ),
        "negamax": (
            lambda name, **o: NegamaxAgent(name, negamax, **o),
            {"depth": INT, "hash_bits": INT, **limits},
            {},
        ),
        "solver": (
            lambda name, **o: NegamaxAgent(name, solve, **o),
            {"hash_bits": INT, **limits},
            {},
        ),
        "montecarlo": (
            lambda name, **o: SearchAgent(name, monte_carlo, **o),
            {"playouts": INT, "movetime": FLOAT, "seed": INT},
            {},
        ),
        "mcts": (
            lambda name, **o: MCTSAgent(name, **o),
            {
                "iterations": INT,
                "movetime": FLOAT,
                "exploration": FLOAT,
                "solver": BOOL,
                "reuse": BOOL,
                "seed": INT,
            },
            {},
        ),
    }


def register_game(
    name: str,
    factory: Callable[..., Game],
    options: Mapping[str, Callable[[str], Any]] | None = None,
    *,
    agent_defaults: Mapping[str, Mapping[str, Any]] | None = None,
    algorithms: tuple[str, ...] = STANDARD_ALGORITHMS,
    description: str = "",
) -> None:
    """Register a game (for :func:`make_game`) and its ``<name>-<algorithm>`` agents.

    ``factory(**options)`` builds a new game; ``agent_defaults`` gives per-algorithm default
    options (``{"negamax": {"movetime": 1.0}}``); a time limit given in a spec replaces a
    default depth.
    """
    key = name.lower()
    _GAMES[key] = _Entry(lambda **o: factory(**o), dict(options or {}), {}, description)
    standard = _standard_agents()
    for algo in algorithms:
        agent_factory, agent_options, defaults = standard[algo]
        merged = {**defaults, **(agent_defaults or {}).get(algo, {})}
        register_agent(
            f"{key}-{algo}",
            _limit_aware(agent_factory, merged),
            agent_options,
            description=f"{algo} on {name}",
        )


def _limit_aware(factory: Factory, defaults: Mapping[str, Any]) -> Factory:
    """Apply ``defaults`` unless the spec sets another limit of the same family."""
    families = ({"depth", "movetime", "nodes"}, {"iterations", "playouts", "movetime"})

    def build(name: str, **options: Any) -> Agent:
        merged = dict(options)
        for key, value in defaults.items():
            if key in merged:
                continue
            family = next((f for f in families if key in f), {key})
            if not family & merged.keys():
                merged[key] = value
        return factory(name, **merged)

    return build


def make_game(spec: str) -> Game:
    """A new game from a spec such as ``connect4``, ``nim?heaps=3,4,5`` or ``gomoku?size=9``."""
    name, raw = parse_spec(spec)
    _ensure_loaded(name, _GAMES)
    entry = _GAMES.get(name)
    if entry is None:
        raise InvalidOption(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return entry.factory(**_convert("game", name, entry, raw))


def game_names() -> list[str]:
    """Every registered game name, sorted."""
    _ensure_loaded(None, _GAMES)
    return sorted(_GAMES)
