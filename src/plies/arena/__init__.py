"""The arena: matches and tournaments between plies engines and any pbrain or UCI engine,
with Elo, pentanomial statistics and the SPRT, locally or on Ray (see docs/arena.md)."""

from plies.arena.adjudication import Adjudication
from plies.arena.config import build_config
from plies.arena.engines.base import EngineFailure, Limits, Player, Reply
from plies.arena.engines.inprocess import AgentPlayer
from plies.arena.engines.registry import register_engine, registered_engines
from plies.arena.game import GameSetup, Opening, Outcome
from plies.arena.match import MatchConfig, MatchReport, run_match
from plies.arena.openings import load_openings
from plies.arena.play import GameJob, GameResult, play_game
from plies.arena.spec import EngineSpec, parse_engine_spec
from plies.arena.stats import SPRT, pentanomial_elo, sprt_llr, trinomial_elo
from plies.arena.timecontrol import TimeControl, parse_tc

__all__ = [
    "SPRT",
    "Adjudication",
    "AgentPlayer",
    "EngineFailure",
    "EngineSpec",
    "GameJob",
    "GameResult",
    "GameSetup",
    "Limits",
    "MatchConfig",
    "MatchReport",
    "Opening",
    "Outcome",
    "Player",
    "Reply",
    "TimeControl",
    "build_config",
    "load_openings",
    "parse_engine_spec",
    "parse_tc",
    "pentanomial_elo",
    "play_game",
    "register_engine",
    "registered_engines",
    "run_match",
    "sprt_llr",
    "trinomial_elo",
]
