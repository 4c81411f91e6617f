"""Arena games as training data: every position of games plies played against another engine
(``benchmarks/vs_rapfi.py --games-out``, the arena's game records), searched again by plies at
a fixed node budget and written as self-play records (:mod:`plies.tune.gomoku_data`), so that
the TD-leaf fits (``--target threat`` and ``net``) can learn from them with ``--extra-data``.

Self-play shows the evaluation's blind spots only when the same engine exploits them on the
other side of the board; an opponent that plays differently (a stronger one above all) walks
into other positions and wins the games that plies misjudges. The opponent's evaluation never
enters: each position's label is plies' own search score and the game's result.

Input: JSON Lines, one game a line (``.gz`` allowed), each with ``moves`` (pbrain ``x,y``, the
opening stones first), ``opening_length`` (the stones no engine chose; 0 when absent) and, for
games that did not end on the board (a forfeit, a time loss), ``winner``: the index of the
winning colour (0 black, 1 white) as the arena writes it, ``null`` for a draw. The game at
index ``i`` (from 0) gets the seed ``first_seed + i``, so a run resumes like self-play.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from plies.errors import InvalidOption
from plies.tune import gomoku_data


@dataclass(frozen=True)
class AnnotateSettings:
    """Which games (``source``), their rule and board size, the node budget of each search, the
    seed of the first game, the evaluation plies searches with and its pattern network (as in
    self-play: ``learned``, ``off`` or a net's path)."""

    source: str
    rule: str = "freestyle"
    size: int = 15
    nodes: int = 50000
    first_seed: int = 1
    evaluation: str = "classic"
    net: str = "learned"

    def check(self) -> None:
        if self.nodes < 100:
            raise InvalidOption(f"nodes must be at least 100, not {self.nodes}")
        if not 9 <= self.size <= 22:
            raise InvalidOption(f"board size must be 9..22, not {self.size}")
        if not Path(self.source).is_file():
            raise InvalidOption(f"no games file {self.source}")
        gomoku_data.check_net(self.net)


_GAMES: dict[str, list[dict]] = {}


def arena_games(path: str | Path) -> list[dict]:
    """The game records of an arena games file (JSON Lines, ``.gz`` allowed), checked for a
    list of moves; kept per process, as every worker reads the whole file once."""
    key = str(path)
    if key not in _GAMES:
        opener = gzip.open if key.endswith(".gz") else open
        games = []
        with opener(key, "rt") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    ok = isinstance(record["moves"], list)
                except (json.JSONDecodeError, KeyError, TypeError):
                    ok = False
                if not ok:
                    raise InvalidOption(f"{path}, line {n}: not a game record with moves")
                games.append(record)
        _GAMES.clear()
        _GAMES[key] = games
    return _GAMES[key]


def _winner(game: dict, board) -> int:
    """The winning colour (1 black, 2 white, 0 none) of a replayed game: the board's when it
    ended there, else the record's."""
    if board.is_over:
        return int(board.winner)
    w = game.get("winner")
    return 0 if w not in (0, 1) else w + 1


def annotate_game(settings: AnnotateSettings, seed: int) -> dict:
    """The game of ``seed`` (``settings.source``'s game ``seed - first_seed``) as a self-play
    record: each position after the opening searched by plies at ``settings.nodes``."""
    from plies.gomoku import Board

    games = arena_games(settings.source)
    index = seed - settings.first_seed
    if not 0 <= index < len(games):
        raise InvalidOption(f"{settings.source} has no game {index + 1}")
    game = games[index]
    opening = int(game.get("opening_length") or 0)
    engine = gomoku_data._engine(
        gomoku_data.SelfPlaySettings(
            settings.rule,
            settings.size,
            settings.nodes,
            evaluation=settings.evaluation,
            net=settings.net,
        )
    )
    engine.new_game()
    board = Board(settings.size, settings.rule, forbidden="loses")
    scores: list[int | None] = []
    pvs: list[list[str]] = []
    for ply, text in enumerate(game["moves"]):
        if board.is_over:
            raise InvalidOption(
                f"{settings.source}, game {index + 1}: move {ply + 1} after the end"
            )
        move = board.parse(text)
        if ply < opening:
            scores.append(None)
            pvs.append([])
        else:
            result = engine.search(board, nodes=settings.nodes)
            scores.append(int(result.score))
            pvs.append([m.pbrain() for m in result.pv])
        board.play(move)
    return {
        "seed": seed,
        "rule": settings.rule,
        "size": settings.size,
        "nodes": settings.nodes,
        "evaluation": settings.evaluation,
        "net": settings.net,
        "source": Path(settings.source).name,
        "game": index + 1,
        "opening": opening,
        "moves": [m.pbrain() for m in board.history],
        "scores": scores,
        "pvs": pvs,
        "winner": _winner(game, board),
    }


def _annotate(args: tuple[AnnotateSettings, int]) -> dict:
    return annotate_game(*args)


def annotate(
    settings: AnnotateSettings,
    path: str | Path,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Annotate every game of ``settings.source`` that ``path`` lacks, appending each as it
    finishes (resumable like self-play); returns how many the file holds."""
    settings.check()
    count = len(arena_games(settings.source))
    return gomoku_data.generate(
        settings,
        count,
        path,
        seed=settings.first_seed,
        workers=workers,
        progress=progress,
        play=_annotate,
    )
