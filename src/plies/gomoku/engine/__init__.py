"""The Gomoku-family engine: compiled pattern evaluation, PVS search, VCF and VCT solvers."""

from plies.gomoku.engine.api import Engine, PVLine, SearchResult, describe_score, win_probability

__all__ = ["Engine", "PVLine", "SearchResult", "describe_score", "win_probability"]
