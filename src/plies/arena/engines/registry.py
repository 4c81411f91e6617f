"""The registry of built-in engines (``plies:NAME?options``), open to later games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plies.arena.engines.base import Player
from plies.arena.game import Referee
from plies.errors import InvalidOption

EngineFactory = Callable[[dict[str, str], str], Player]
"""``factory(options, name) -> Player``; raises InvalidOption for an unknown or bad option."""

_FACTORIES: dict[str, EngineFactory] = {}


def register_engine(prefix: str, factory: EngineFactory) -> None:
    """Make ``plies:PREFIX?key=value&...`` create players with ``factory(options, name)``.

    Later games plug in here: ``register_engine("chess", ...)``,
    ``register_engine("dots-mcts", ...)``, or an adapter over ``plies.search.agents.make_agent``
    wrapped in :class:`~plies.arena.engines.inprocess.AgentPlayer`. Registering a prefix again
    replaces the factory.
    """
    if not prefix or any(c in prefix for c in "?&= "):
        raise InvalidOption(f"bad engine prefix {prefix!r}")
    _FACTORIES[prefix] = factory


def engine_factory(prefix: str) -> EngineFactory:
    """The factory registered for ``prefix`` (InvalidOption naming the known ones if none)."""
    _register_builtins()
    try:
        return _FACTORIES[prefix]
    except KeyError:
        known = ", ".join(f"plies:{p}" for p in sorted(_FACTORIES))
        raise InvalidOption(f"unknown built-in engine plies:{prefix}: expected {known}") from None


def registered_engines() -> list[str]:
    """The registered prefixes, sorted."""
    _register_builtins()
    return sorted(_FACTORIES)


def _register_builtins() -> None:
    from plies.arena.engines.inprocess import ChessEnginePlayer, GomokuEnginePlayer, RandomPlayer

    _FACTORIES.setdefault("gomoku", GomokuEnginePlayer)
    _FACTORIES.setdefault("chess", ChessEnginePlayer)
    _FACTORIES.setdefault("random", RandomPlayer)
    # the generic search library's Gomoku agents: plies:gomoku-mcts?iterations=500, ...
    for algorithm in ("minimax", "alphabeta", "negamax", "montecarlo", "mcts"):
        _FACTORIES.setdefault(f"gomoku-{algorithm}", _gomoku_agent_factory(f"gomoku-{algorithm}"))
    # Dots and Boxes agents: plies:dots-mcts?iterations=2000, plies:dots-chains, ...
    for algorithm in DOTS_AGENTS:
        _FACTORIES.setdefault(f"dots-{algorithm}", _dots_agent_factory(f"dots-{algorithm}"))


DOTS_AGENTS = ("random", "minimax", "alphabeta", "negamax", "montecarlo", "mcts", "chains")
DOTS_AGENTS += ("solver", "perfect", "pro")


def _agent_factory(
    agent_name: str,
    game: str,
    to_game: Callable[[Referee], Any],
    move_text: Callable[[Any], str],
) -> EngineFactory:
    """A factory wrapping ``plies.search.agents.make_agent(agent_name?options)`` in an
    :class:`~plies.arena.engines.inprocess.AgentPlayer` for ``game``."""

    def factory(options: dict[str, str], name: str) -> Player:
        from plies.arena.engines.inprocess import AgentPlayer
        from plies.search.agents import make_agent

        query = "&".join(f"{key}={value}" for key, value in options.items())
        agent = make_agent(agent_name + (f"?{query}" if query else ""))
        return AgentPlayer(agent, name, frozenset({game}), to_game, move_text)

    return factory


def _dots_agent_factory(agent_name: str) -> EngineFactory:
    """A factory for a Dots agent: it gets a copy of the referee's board."""
    return _agent_factory(agent_name, "dots", lambda referee: referee.board.copy(), referee_text)


def referee_text(move) -> str:
    """A Dots agent's move (a line index) as text: the index itself, which the referee reads."""
    return str(int(move))


def _gomoku_game(referee: Referee) -> Any:
    """The Gomoku agents' Game object over a copy of the referee's board."""
    from plies.gomoku.game import GomokuGame

    return GomokuGame(referee.board.copy())


def _gomoku_agent_factory(agent_name: str) -> EngineFactory:
    """A factory for a Gomoku agent (moves as pbrain ``x,y``)."""
    return _agent_factory(agent_name, "gomoku", _gomoku_game, lambda move: move.pbrain())
