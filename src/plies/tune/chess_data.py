"""Self-play chess games for tuning the evaluation (``plies train chess``).

Each game starts from a seeded random opening: 2 to ``random_moves`` uniformly random legal
plies from the start position, drawn again (up to 50 times) while the engine's search score
at the game's budget is beyond ``balance`` centipawns either way, so games start from varied
positions that are still open. Then the engine plays both sides at a fixed node budget (fast
and reproducible, one thread). A game ends as python-chess decides (mate, stalemate,
insufficient material, the fifty-move rule, threefold repetition) or as a draw after
``max_plies`` plies.

Records (one JSON object a line, written as games finish by :func:`gomoku_data.generate`,
which also resumes an interrupted file and runs the games over processes): ``seed``, the
settings, ``opening`` = the number of random plies, ``moves`` in UCI, ``scores`` (the search
score of each engine move, side to move's view; ``null`` for the random plies) and
``result`` (1, 0.5 or 0 from white's view).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from plies.errors import InvalidOption

OPENING_TRIES = 50
_ENGINES: dict[tuple, object] = {}


@dataclass(frozen=True)
class ChessSelfPlay:
    """What a self-play game is: the node budget per move, the most random opening plies,
    the opening's largest search score, the longest game, and the parameter overrides
    (a JSON file, see :mod:`plies.tune.chess_fit`) the engine plays with (``""``: defaults)."""

    nodes: int = 3000
    random_moves: int = 8
    balance: int = 150
    max_plies: int = 400
    params: str = ""

    def check(self) -> None:
        if self.nodes < 100:
            raise InvalidOption(f"nodes must be at least 100, not {self.nodes}")
        if not 2 <= self.random_moves <= 20:
            raise InvalidOption(f"random moves must be 2..20, not {self.random_moves}")
        if self.balance <= 0:
            raise InvalidOption(f"balance must be positive, not {self.balance}")
        if self.max_plies < 20:
            raise InvalidOption(f"max plies must be at least 20, not {self.max_plies}")


def _engine(settings: ChessSelfPlay):
    from plies.chess.engine.api import Engine
    from plies.tune.chess_fit import load_params

    key = (settings.params,)
    if key not in _ENGINES:
        _ENGINES.clear()
        params = load_params(settings.params) if settings.params else None
        _ENGINES[key] = Engine(hash_mb=8, params=params)
    return _ENGINES[key]


def _random_opening(rng: random.Random, plies: int):
    import chess

    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def balanced_opening(settings: ChessSelfPlay, seed: int):
    """The opening of ``seed``: a ``chess.Board`` after 2 to ``random_moves`` random plies
    whose search score at ``settings.nodes`` is within ``balance`` (the last one drawn when
    none of 50 is)."""
    rng = random.Random(seed)
    engine = _engine(settings)
    board = None
    for _ in range(OPENING_TRIES):
        board = _random_opening(rng, rng.randint(2, settings.random_moves))
        if board.is_game_over():
            continue
        engine.new_game()
        if abs(engine.search(board, nodes=settings.nodes).score) <= settings.balance:
            break
    assert board is not None
    return board


def play_game(settings: ChessSelfPlay, seed: int) -> dict:
    """One self-play game from the opening of ``seed``, as the record described above."""
    engine = _engine(settings)
    board = balanced_opening(settings, seed)
    opening = len(board.move_stack)
    engine.new_game()
    scores: list[int | None] = [None] * opening
    result = 0.5
    while len(board.move_stack) < settings.max_plies:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = 0.5 if outcome.winner is None else float(outcome.winner)
            break
        found = engine.search(board, nodes=settings.nodes)
        scores.append(int(found.score))
        board.push(found.move)
    return {
        "seed": seed,
        **asdict(settings),
        "opening": opening,
        "moves": [m.uci() for m in board.move_stack],
        "scores": scores,
        "result": result,
    }


def play(job: tuple[ChessSelfPlay, int]) -> dict:
    """``play_game`` for :func:`plies.tune.gomoku_data.generate` (one picklable argument)."""
    return play_game(*job)
