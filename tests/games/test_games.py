"""The example games: rules against a naive grid oracle, undo, keys and copies."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.errors import InvalidMove, InvalidOption
from plies.games import ConnectFour, Nim, TicTacToe
from plies.search import EvaluableGame, Game, HashableGame, OrderedGame, PlayoutGame


def naive_connect_four_winner(columns: list[int], width: int, height: int) -> int | None:
    """Replay on a plain grid and scan every window of four: the rules oracle."""
    grid = [[None] * height for _ in range(width)]
    for i, c in enumerate(columns):
        grid[c][grid[c].index(None)] = i % 2
    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    owners = {grid[x][y] for x, y in cells}
                    if len(owners) == 1 and None not in owners:
                        return owners.pop()
    return None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(7, 6), (4, 4), (5, 4), (8, 7)]), st.randoms(use_true_random=False))
def test_connect_four_matches_the_oracle(size, rng):
    width, height = size
    game = ConnectFour(width=width, height=height)
    keys = {}
    while not game.is_terminal():
        col = rng.choice(game.legal_moves())
        game.play(col)
        expected = naive_connect_four_winner(game.history, width, height)
        assert game.winner == expected
        keys.setdefault(game.hash_key(), list(game.history))
    full = len(game.history) == width * height
    assert game.returns() == (
        (0, 0) if game.winner is None else (1, -1) if game.winner == 0 else (-1, 1)
    )
    assert full or game.winner is not None
    # undo all the way back restores every field
    while game.history:
        game.undo()
    assert game.bb == [0, 0] and game.material == [0, 0] and game.winner is None


def test_connect_four_keys_identify_positions():
    rng = random.Random(5)
    seen: dict[int, tuple] = {}
    for _ in range(300):
        game = ConnectFour()
        for _ in range(rng.randrange(1, 20)):
            if game.is_terminal():
                break
            game.play(rng.choice(game.legal_moves()))
            state = (tuple(game.bb), len(game.history) & 1)
            assert seen.setdefault(game.hash_key(), state) == state


def test_connect_four_notation_moves_and_errors():
    game = ConnectFour("4453")
    assert game.history == [3, 3, 4, 2] and game.moves_text() == "4453"
    assert game.ordered_moves()[0] == 3
    assert sorted(game.ordered_moves()) == game.legal_moves()
    assert "X" in str(game)
    with pytest.raises(InvalidMove):
        game.play(7)
    full = ConnectFour("111111")
    with pytest.raises(InvalidMove):
        full.play(0)
    assert 0 not in full.legal_moves()
    with pytest.raises(InvalidOption):
        ConnectFour(width=3)
    won = ConnectFour("1212121")
    assert won.winner == 0 and won.is_terminal()
    with pytest.raises(InvalidMove):
        won.play(3)
    # the winning move is ordered first
    assert ConnectFour("121212").ordered_moves()[0] == 0


def test_connect_four_evaluation_is_symmetric():
    game = ConnectFour("4")
    assert game.evaluate() < 0  # the opponent holds the centre
    game.undo()
    assert game.evaluate() == 0


def test_tictactoe_rules():
    game = TicTacToe("012")
    assert game.current_player() == 1 and game.legal_moves() == [3, 4, 5, 6, 7, 8]
    game = TicTacToe("03142")  # X on 0 1 2
    assert game.is_terminal() and game.returns() == (1, -1)
    game.undo()
    assert not game.is_terminal()
    with pytest.raises(InvalidMove):
        game.play(0)
    draw = TicTacToe("013425768")
    assert draw.is_terminal() and draw.returns() == (0, 0)
    assert str(draw).count("X") == 5


def test_tictactoe_keys_follow_undo():
    game = TicTacToe()
    keys = [game.hash_key()]
    for m in (4, 0, 8, 2):
        game.play(m)
        keys.append(game.hash_key())
    assert len(set(keys)) == 5
    for _ in range(4):
        game.undo()
    assert game.hash_key() == keys[0]
    assert TicTacToe("40").hash_key() != TicTacToe("04").hash_key()


def test_nim_rules():
    game = Nim([1, 2])
    assert game.legal_moves() == [(0, 1), (1, 1), (1, 2)]
    assert game.ordered_moves()[0] == (1, 1)  # leaves 1, 1: nim-sum 0
    game.play((1, 2))
    game.play((0, 1))
    assert game.is_terminal() and game.returns() == (-1, 1)  # player 1 took the last token
    with pytest.raises(InvalidMove):
        Nim([1]).play((0, 2))
    with pytest.raises(InvalidMove):
        Nim([-1])


@pytest.mark.parametrize("game", [TicTacToe(), ConnectFour(), Nim()])
def test_games_satisfy_the_protocols(game):
    assert isinstance(game, Game) and isinstance(game, HashableGame)
    assert isinstance(game, OrderedGame)
    copy = game.copy()
    copy.play(copy.legal_moves()[0])
    assert game.legal_moves() != copy.legal_moves() or game.hash_key() != copy.hash_key()
    assert isinstance(ConnectFour(), EvaluableGame) and isinstance(ConnectFour(), PlayoutGame)
