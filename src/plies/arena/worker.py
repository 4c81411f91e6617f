"""The work done for one game in whichever process runs it: players are kept between games
(an engine process is started once per worker, not once per game) and restarted after they
fail."""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import signal
import sys

from plies.arena.engines.base import Player
from plies.arena.play import GameJob, GameResult, failed_colours, play_game
from plies.arena.spec import EngineSpec
from plies.pool import ignore_interrupt

_PLAYERS: dict[str, Player] = {}


def _player(spec: EngineSpec) -> Player:
    key = repr(spec)
    player = _PLAYERS.get(key)
    if player is None:
        player = spec.create()
        _PLAYERS[key] = player
    return player


def _drop(spec: EngineSpec) -> None:
    player = _PLAYERS.pop(repr(spec), None)
    if player is not None:
        player.close()


def close_players() -> None:
    """Close every player this process holds (stops engine processes)."""
    while _PLAYERS:
        _, player = _PLAYERS.popitem()
        with contextlib.suppress(Exception):  # shutting down: nothing more to do
            player.close()


atexit.register(close_players)


def run_job(job: GameJob) -> GameResult:
    """Play one game with this process's players; restart those that failed."""
    players = (_player(job.specs[0]), _player(job.specs[1]))
    try:
        result = play_game(job, players)
    except BaseException:
        for spec in job.specs:
            _drop(spec)
        raise
    for colour in failed_colours(result):
        _drop(job.specs[colour])
    return result


def _terminate(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    close_players()
    os._exit(1)


def init_worker(plugins: tuple[str, ...] = ()) -> None:
    """Pool worker start-up: leave Ctrl-C to the parent, close engines when terminated, and
    import ``plugins`` (modules whose import registers engines with ``register_engine``)."""
    ignore_interrupt()
    signal.signal(signal.SIGTERM, _terminate)
    for name in plugins:
        importlib.import_module(name)
    sys.stdout.flush()
