"""What a client sends, checked: review requests and budgets, with the service's limits.

A review request is read with the readers ``plies analyze`` uses (Gomoku records: psq, SGF, a
move list; chess: PGN), so a malformed game gets the CLI's one-line message; the game text is
named ``game`` in those messages (the CLI names the file). Text is never taken for a path.
Every request becomes a :class:`ReviewSpec` whose ``job_id`` is a hash of the game as played
(the moves, not their spelling), the rule, the board, the budget and the language: the same
game under the same budget is the same job.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from plies.analysis.review import Budget
from plies.analysis.session import AnalyzeRequest
from plies.errors import InvalidOption, InvalidRecord, PliesError

SOURCE = "game"  # how error messages name the game text (the CLI names the file)
LANGUAGES = ("en", "vi")
# named budgets per position: fixed node counts, so a review is deterministic (and cached
# results agree) whatever the machine and its load
TIERS: dict[str, dict[str, float]] = {
    "quick": {"nodes": 4000},
    "standard": {"nodes": 20000},
    "deep": {"nodes": 100000},
}
DEFAULT_TIER = "standard"


class TooLarge(PliesError):
    """A request over the service's size limits (HTTP 413)."""


@dataclass(frozen=True)
class Limits:
    """What one request may ask for: body bytes, moves per game, nodes, seconds and depth
    per position."""

    max_body: int = 256 * 1024
    max_moves: int = 600
    max_nodes: int = 2_000_000
    max_movetime: float = 10.0
    max_depth: int = 30


@dataclass(frozen=True)
class ReviewSpec:
    """A checked review request: what the job runner needs, and the job's id."""

    kind: str  # "gomoku" or "chess"
    game: str  # the text as sent
    rule: str | None
    size: str | None
    budget: dict[str, float]  # one of movetime, depth, nodes
    lang: str
    pgn_game: int | None
    canonical: str  # the game as played: rule, board and moves, or start FEN and UCI moves
    positions: int  # positions to analyse (moves + 1)

    @property
    def job_id(self) -> str:
        text = f"{self.canonical}|{budget_of(self).key()}|{self.lang}"
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def analyze_request(self, workers: int = 1) -> AnalyzeRequest:
        """The ``plies analyze`` options this review stands for (no reports, no table)."""
        return AnalyzeRequest(workers=workers, lang=self.lang, **self.budget)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": self.game,
            "rule": self.rule,
            "size": self.size,
            "budget": self.budget,
            "lang": self.lang,
            "pgn_game": self.pgn_game,
        }


def _text(body: dict[str, Any], key: str, limit: int = 64) -> str | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or len(value) > limit:
        raise InvalidOption(f"{key} must be a string of at most {limit} characters")
    return value


def parse_budget(value: Any, limits: Limits) -> dict[str, float]:
    """``{"tier": name}`` or exactly one of ``{"movetime": S}``, ``{"nodes": N}``,
    ``{"depth": D}``, within the limits; None is the default tier."""
    if value is None:
        value = {"tier": DEFAULT_TIER}
    if isinstance(value, str):
        value = {"tier": value}
    if not isinstance(value, dict) or len(value) != 1:
        raise InvalidOption(
            'budget must be one of {"tier": name}, {"movetime": S}, {"nodes": N}, {"depth": D}'
        )
    ((key, amount),) = value.items()
    if key == "tier":
        if amount not in TIERS:
            raise InvalidOption(f"unknown budget tier {amount!r}: expected {', '.join(TIERS)}")
        return dict(TIERS[amount])
    caps = {"movetime": limits.max_movetime, "nodes": limits.max_nodes, "depth": limits.max_depth}
    if key not in caps:
        raise InvalidOption(f"unknown budget {key!r}: expected tier, movetime, nodes or depth")
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise InvalidOption(f"budget {key} must be a number")
    if key != "movetime" and amount != int(amount):
        raise InvalidOption(f"budget {key} must be an integer")
    if not 0 < amount <= caps[key]:
        raise InvalidOption(f"budget {key} must be above 0 and at most {caps[key]:g}")
    return {key: float(amount) if key == "movetime" else int(amount)}


def parse_review(body: Any, limits: Limits = Limits()) -> ReviewSpec:
    """Check a ``POST /api/reviews`` body; raises :class:`PliesError` (HTTP 400) or
    :class:`TooLarge` (413)."""
    if not isinstance(body, dict):
        raise InvalidOption("the request must be a JSON object")
    game = body.get("game")
    if not isinstance(game, str) or not game.strip():
        raise InvalidRecord("no game: send its text (psq, SGF, a move list or PGN) as 'game'")
    rule, size = _text(body, "rule"), _text(body, "size")
    lang = body.get("lang", body.get("language", "en"))
    if lang not in LANGUAGES:
        raise InvalidOption(f"unknown language {lang!r}: expected en or vi")
    pgn_game = body.get("pgn_game")
    if pgn_game is not None and (
        isinstance(pgn_game, bool) or not isinstance(pgn_game, int) or pgn_game < 1
    ):
        raise InvalidOption("pgn_game must be an integer from 1")
    budget = parse_budget(body.get("budget"), limits)
    from plies.analysis.chess import looks_like_pgn

    if looks_like_pgn(game):
        kind, canonical, moves = "chess", *_chess_game(game, rule, size, pgn_game)
    else:
        if pgn_game is not None:
            raise InvalidOption("--game applies to PGN (chess) files only")
        kind, canonical, moves = "gomoku", *_gomoku_game(game, rule, size)
    if moves > limits.max_moves:
        raise TooLarge(f"the game has {moves} moves; at most {limits.max_moves} are reviewed")
    return ReviewSpec(kind, game, rule, size, budget, lang, pgn_game, canonical, moves + 1)


def read_gomoku(game: str, rule: str | None, size: str | None):
    """The Gomoku record in ``game`` (never read from a path), as ``plies analyze`` reads it."""
    from plies.gomoku.records import read_record

    return read_record(game, rule=rule, size=size, source=SOURCE, allow_path=False)


def _gomoku_game(game: str, rule: str | None, size: str | None) -> tuple[str, int]:
    record = read_gomoku(game, rule, size)
    if not record.moves:
        raise InvalidRecord("no moves to review", source=SOURCE)
    board = record.to_board(rule=rule, forbidden="loses")  # the review's own replay check
    moves = " ".join(m.pbrain() for m in board.history)
    return f"gomoku|{board.rule}|{board.width}x{board.height}|{moves}", len(board.history)


def read_chess(game: str, pgn_game: int | None):
    """The chess game to review: game ``pgn_game`` of the PGN (from 1), else its first game;
    every game is checked first, as ``plies analyze`` does."""
    from plies.analysis.chess import load_pgn_games

    games = load_pgn_games(SOURCE, text=game, game=pgn_game)
    return games[0]


def _chess_game(
    game: str, rule: str | None, size: str | None, pgn_game: int | None
) -> tuple[str, int]:
    from plies.analysis.chess import check_options

    check_options(rule, size, None)
    parsed = read_chess(game, pgn_game)
    board = parsed.board()
    start = board.fen()
    ucis = []
    for move in parsed.mainline_moves():
        ucis.append(board.uci(move))
        board.push(move)
    return f"chess|{start}|{' '.join(ucis)}", len(ucis)


def budget_of(spec: ReviewSpec) -> Budget:
    """The per-position budget of a review, as ``plies analyze`` builds it for the game."""
    request = spec.analyze_request()
    if spec.kind == "gomoku":
        from plies.analysis.gomoku import SOLVER_SHARE

        return request.budget(solver_share=SOLVER_SHARE)
    return request.budget()
