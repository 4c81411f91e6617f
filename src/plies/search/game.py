"""The Game protocol: what a two-player, zero-sum, perfect-information game must provide.

Players are numbered 0 and 1. A game object holds one position and changes it in place:

* ``current_player()`` is the player to move (only asked of positions that are not over).
  Nothing assumes the players alternate: a player may move several times in a row (Dots
  and Boxes), and every algorithm asks again after each move.
* ``legal_moves()`` lists the moves (any hashable values) of a position that is not over.
* ``play(move)`` makes a move, ``undo()`` takes back the last one. Games without undo can be
  wrapped with :func:`with_undo`, which keeps copies instead.
* ``is_terminal()`` says whether the game is over; ``returns()`` then gives each player's
  utility, zero-sum (``returns()[0] == -returns()[1]``) and in whole numbers (+1/0/-1, or
  a margin such as boxes won).
* ``copy()`` returns an independent game at the same position.

Optional attribute ``max_utility``: the largest utility a player can get (1 for win/loss
games). With it, a proven win of that size (or loss) ends iterative deepening at once;
without it, only a search that reached the end of every line counts as proven, since a
deeper search might find a bigger margin.

Optional methods, used when present (see :class:`HashableGame` and friends):
``hash_key()`` (an int identifying the position *including* whose turn it is), enabling
transposition tables and MCTS tree reuse; ``evaluate()`` (a heuristic score for the player
to move, within +-``scores.HEURISTIC_LIMIT``) for depth-limited searches; ``ordered_moves()``
(the legal moves, likely best first) for move ordering; ``random_playout(rng)`` (play random
moves to the end, return ``returns()``, leave the position unchanged) to speed up Monte Carlo.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from plies.errors import GameOver

M = TypeVar("M", bound=Hashable)
G = TypeVar("G", bound="Game")


@runtime_checkable
class Game(Protocol):
    """The methods every game provides (see the module documentation)."""

    def current_player(self) -> int:
        """The player to move, 0 or 1 (only for positions that are not over)."""
        ...

    def legal_moves(self) -> Sequence[Any]:
        """The moves of the player to move (only for positions that are not over)."""
        ...

    def play(self, move: Any) -> None:
        """Make ``move`` for the player to move."""
        ...

    def undo(self) -> None:
        """Take back the last move."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def returns(self) -> Sequence[float]:
        """Each player's utility in a finished game: zero-sum whole numbers."""
        ...

    def copy(self) -> Game:
        """An independent game at the same position."""
        ...


@runtime_checkable
class HashableGame(Game, Protocol):
    """A game with a position key, for transposition tables and MCTS tree reuse."""

    def hash_key(self) -> int:
        """An int identifying the position, including the player to move."""
        ...


@runtime_checkable
class EvaluableGame(Game, Protocol):
    """A game with a heuristic evaluation, for depth-limited searches."""

    def evaluate(self) -> float:
        """A heuristic score for the player to move, within +-scores.HEURISTIC_LIMIT."""
        ...


@runtime_checkable
class OrderedGame(Game, Protocol):
    """A game that can list its moves best-first (a move ordering hint)."""

    def ordered_moves(self) -> Sequence[Any]:
        """The legal moves, the most promising first."""
        ...


@runtime_checkable
class PlayoutGame(Game, Protocol):
    """A game with a fast random playout, used by Monte Carlo and MCTS instead of the loop."""

    def random_playout(self, rng: random.Random) -> Sequence[float]:
        """Play random moves to the end; return ``returns()``; leave the position unchanged."""
        ...


def is_final(game: Any, score: float) -> bool:
    """Whether a decisive ``score`` cannot be improved on: a win or loss of ``max_utility``."""
    from plies.search.scores import is_decisive, score_value

    top = getattr(game, "max_utility", None)
    return top is not None and is_decisive(score) and abs(score_value(score)) >= top


def require_live(game: Game) -> None:
    """Raise :class:`GameOver` if there is nothing to search: the game is over."""
    if game.is_terminal():
        raise GameOver("the game is over: there is no move to choose")


def move_lister(game: Game, ordered: bool = True):
    """The bound method listing moves: ``ordered_moves`` if the game has it (and ``ordered``)."""
    if ordered:
        fn = getattr(game, "ordered_moves", None)
        if fn is not None:
            return fn
    return game.legal_moves


def random_playout(game: Game, rng: random.Random) -> Sequence[float]:
    """Play uniformly random legal moves to the end and return ``returns()``.

    Uses the game's own ``random_playout`` when it has one; otherwise plays with
    ``play`` and takes every move back with ``undo``, so the position is left unchanged.
    """
    fast = getattr(game, "random_playout", None)
    if fast is not None:
        return fast(rng)
    rand = rng.random
    played = 0
    try:
        while not game.is_terminal():
            moves = game.legal_moves()
            game.play(moves[int(rand() * len(moves))])
            played += 1
        return game.returns()
    finally:
        for _ in range(played):
            game.undo()


class UndoByCopy:
    """A wrapper giving ``undo`` to a game that only has ``play`` and ``copy``.

    ``play`` moves on a fresh copy and keeps the previous position; ``undo`` restores it, so
    the game passed in is never changed. Other methods (``hash_key``, ``evaluate``...) are
    forwarded to whichever position is current.
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self._stack: list[Any] = []

    def play(self, move: Any) -> None:
        self._stack.append(self.game)
        self.game = self.game.copy()
        self.game.play(move)

    def undo(self) -> None:
        self.game = self._stack.pop()

    def copy(self) -> UndoByCopy:
        return UndoByCopy(self.game.copy())

    def current_player(self) -> int:
        return self.game.current_player()

    def legal_moves(self) -> Sequence[Any]:
        return self.game.legal_moves()

    def is_terminal(self) -> bool:
        return self.game.is_terminal()

    def returns(self) -> Sequence[float]:
        return self.game.returns()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("game", "_stack"):
            raise AttributeError(name)
        attr = getattr(self.game, name)
        if not callable(attr):
            return attr

        def forward(*args: Any, **kwargs: Any) -> Any:
            return getattr(self.game, name)(*args, **kwargs)

        return forward


def with_undo(game: Any) -> Game:
    """``game`` itself if it has ``undo``, else an :class:`UndoByCopy` wrapper around it."""
    if callable(getattr(game, "undo", None)):
        return game
    return UndoByCopy(game)
