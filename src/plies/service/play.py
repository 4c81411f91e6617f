"""What a game client needs: the state of a position (whose move, the result, Renju's
forbidden points, chess's legal moves) and the engine's move at a level or within a limit.

The rules are the game packages' (the Gomoku :class:`~plies.gomoku.board.Board` kernels,
python-chess), so the browser board draws what the server says and holds no rules of its own.
Engines are kept per game, rule and board size (a few, least recently used first out), each
behind its own lock: a search at a time per engine.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from typing import Any

from plies.errors import InvalidMove, InvalidOption
from plies.search.levels import MAX_LEVEL, level

MAX_ENGINES = 6
ENGINE_HASH_MB = 16


def _moves_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise InvalidOption("moves must be a string ('h8 h9 i10') or a list of move strings")


# --- Gomoku ------------------------------------------------------------------------------------


def gomoku_board(body: dict[str, Any]):
    """The Gomoku position of a request (``rule``, ``size``, ``moves``); forbidden moves are
    illegal for black under Renju, as on a real board."""
    from plies.gomoku.board import Board
    from plies.gomoku.records import parse_size
    from plies.gomoku.records.model import parse_rule

    rule_text = str(body.get("rule") or "freestyle")
    rule = parse_rule(rule_text)
    if rule is None:
        raise InvalidOption(
            f"unknown rule {rule_text!r}: expected freestyle, standard, renju, caro or caro5"
        )
    width, height = parse_size(str(body.get("size") or 15))
    board = Board(width=width, height=height, rule=rule)
    for i, text in enumerate(_moves_list(body.get("moves")), 1):
        try:
            board.play(text)
        except InvalidMove as exc:
            raise InvalidMove(f"move {i} ({text}): {exc}") from None
    return board


def gomoku_state(board) -> dict[str, Any]:
    """The position as the board client draws it."""
    winner = {1: "black", 2: "white"}.get(board.winner) if board.is_over else None
    line = board.winning_line
    return {
        "game": "gomoku",
        "rule": board.rule,
        "width": board.width,
        "height": board.height,
        "moves": [m.algebraic(board.height) for m in board.history],
        "to_move": "black" if board.to_move == 1 else "white",
        "over": board.is_over,
        "winner": winner,
        "draw": board.is_over and winner is None,
        "winning_line": [m.algebraic(board.height) for m in line] if line else [],
        "forbidden": [m.algebraic(board.height) for m in board.forbidden_points()]
        if board.to_move == 1
        else [],
    }


# --- chess -------------------------------------------------------------------------------------


def chess_board(body: dict[str, Any]):
    """The chess position of a request (``fen``, default the start; ``moves`` in UCI or SAN)."""
    import chess

    fen = body.get("fen") or chess.STARTING_FEN
    try:
        board = chess.Board(str(fen))
    except ValueError as exc:
        raise InvalidOption(f"bad FEN: {exc}") from None
    for i, text in enumerate(_moves_list(body.get("moves")), 1):
        try:
            move = board.parse_uci(text)
        except ValueError:
            try:
                move = board.parse_san(text)
            except ValueError:
                raise InvalidMove(f"move {i} ({text}) is not legal here") from None
        board.push(move)
    return board


def chess_state(board) -> dict[str, Any]:
    outcome = board.outcome(claim_draw=True)
    winner = None
    if outcome is not None and outcome.winner is not None:
        winner = "white" if outcome.winner else "black"
    return {
        "game": "chess",
        "fen": board.fen(),
        "moves": [m.uci() for m in board.move_stack],
        "to_move": "white" if board.turn else "black",
        "legal": [m.uci() for m in board.legal_moves],
        "check": board.is_check(),
        "over": outcome is not None,
        "winner": winner,
        "draw": outcome is not None and winner is None,
    }


# --- the engine's move -------------------------------------------------------------------------


class Engines:
    """The engines of the service, per (game, rule, width, height), each with its lock."""

    def __init__(self, capacity: int = MAX_ENGINES) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._engines: OrderedDict[tuple, tuple[Any, threading.Lock]] = OrderedDict()

    def get(self, key: tuple) -> tuple[Any, threading.Lock]:
        with self._lock:
            if key in self._engines:
                self._engines.move_to_end(key)
                return self._engines[key]
        engine = self._build(key)  # outside the lock: it may compile or load kernels
        with self._lock:
            entry = self._engines.setdefault(key, (engine, threading.Lock()))
            while len(self._engines) > self.capacity:
                self._engines.popitem(last=False)
            return entry

    @staticmethod
    def _build(key: tuple) -> Any:
        if key[0] == "chess":
            from plies.chess.engine.api import Engine as ChessEngine

            return ChessEngine(hash_mb=ENGINE_HASH_MB)
        from plies.gomoku.engine import Engine

        _, rule, width, height = key
        return Engine(rule, width=width, height=height, hash_mb=ENGINE_HASH_MB)


def _limits(body: dict[str, Any], max_nodes: int, max_movetime: float) -> dict[str, Any]:
    """The search limits of a move request: ``level`` (default the top level), or
    ``movetime`` seconds or ``nodes``."""
    given = [k for k in ("level", "movetime", "nodes") if body.get(k) is not None]
    if len(given) > 1:
        raise InvalidOption("give one of level, movetime and nodes")
    key = given[0] if given else "level"
    value = body.get(key, MAX_LEVEL)
    if key == "level":
        level(value)  # checked
        return {"number": int(value)}
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise InvalidOption(f"{key} must be a positive number")
    if key == "nodes" and not (value == int(value) and value <= max_nodes):
        raise InvalidOption(f"nodes must be an integer of at most {max_nodes}")
    if key == "movetime" and value > max_movetime:
        raise InvalidOption(f"movetime must be at most {max_movetime:g} seconds")
    return {key: int(value) if key == "nodes" else float(value)}


def position(body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/position``: the state of the position in ``body``."""
    if _game(body) == "chess":
        return chess_state(chess_board(body))
    return gomoku_state(gomoku_board(body))


def _game(body: Any) -> str:
    if not isinstance(body, dict):
        raise InvalidOption("the request must be a JSON object")
    game = body.get("game") or ("chess" if body.get("fen") else "gomoku")
    if game not in ("gomoku", "chess"):
        raise InvalidOption(f"unknown game {game!r}: expected gomoku or chess")
    return game


def engine_move(
    body: dict[str, Any], engines: Engines, max_nodes: int = 2_000_000, max_movetime: float = 10.0
) -> dict[str, Any]:
    """``POST /api/move``: the engine's move in the position of ``body``, its evaluation and
    line, and the position after it. At a ``level`` (:mod:`plies.search.levels`; ``seed``
    makes its choice repeatable) the move may not be the engine's best; with ``movetime`` or
    ``nodes`` it is."""
    game = _game(body)
    limits = _limits(body, max_nodes, max_movetime)
    number = limits.pop("number", None)
    seed = body.get("seed")
    rng = random.Random(seed if isinstance(seed, int) and not isinstance(seed, bool) else None)
    if game == "chess":
        return _chess_move(body, engines, limits, number, rng)
    from plies.gomoku.engine.api import win_probability
    from plies.gomoku.levels import level_move

    board = gomoku_board(body)
    if board.is_over:
        raise InvalidMove("the game is over")
    engine, lock = engines.get(("gomoku", board.rule, board.width, board.height))
    with lock:
        if number is not None:
            chosen = level_move(engine, board, number, rng)
            move, score, pv, result = chosen.move, chosen.score, chosen.pv, chosen.result
        else:
            result = engine.search(board, **limits)
            move, score, pv = result.move, result.score, result.pv
    board.play(move)
    return {
        "move": move.algebraic(board.height),
        "pbrain": move.pbrain(),
        "score": score,
        "win_probability": None if score is None else round(win_probability(score), 4),
        "pv": [m.algebraic(board.height) for m in pv],
        "depth": result.depth,
        "nodes": result.nodes,
        "level": number,
        "position": gomoku_state(board),
    }


def _chess_move(body, engines: Engines, limits: dict, number: int | None, rng) -> dict[str, Any]:
    from plies.chess.engine.api import win_probability
    from plies.chess.levels import level_move

    board = chess_board(body)
    if board.is_game_over(claim_draw=True):
        raise InvalidMove("the game is over")
    engine, lock = engines.get(("chess",))
    with lock:
        if number is not None:
            chosen = level_move(engine, board, number, rng)
            move, score, pv, result = chosen.move, chosen.score, chosen.pv, chosen.result
        else:
            result = engine.search(board, **limits)
            move, score, pv = result.move, result.score, result.pv
    line, san = _san_line(board, pv), board.san(move)
    board.push(move)
    return {
        "move": move.uci(),
        "san": san,
        "score": score,
        "win_probability": None if score is None else round(win_probability(score), 4),
        "pv": line,
        "depth": result.depth,
        "nodes": result.nodes,
        "level": number,
        "position": chess_state(board),
    }


def _san_line(board, moves) -> list[str]:
    out = []
    b = board.copy(stack=False)
    for m in moves:
        if m not in b.legal_moves:
            break
        out.append(b.san(m))
        b.push(m)
    return out
