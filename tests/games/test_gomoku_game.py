"""The Gomoku Board adapter for plies.search."""

from __future__ import annotations

from plies.gomoku import Board, Move
from plies.gomoku.game import GomokuGame
from plies.search import HashableGame, mcts, negamax, solve
from plies.search.agents import make_agent, make_game


def test_adapter_follows_the_board():
    game = GomokuGame(Board(7, "freestyle"))
    assert isinstance(game, HashableGame)
    assert game.current_player() == 0 and len(game.legal_moves()) == 49
    game.play(Move(3, 3))
    assert game.current_player() == 1 and game.board.to_move == 2
    assert game.hash_key() == game.board.hash
    assert game.ordered_moves()[0] in {Move(x, y) for x in (2, 3, 4) for y in (2, 3, 4)}
    game.undo()
    assert len(game.board) == 0 and game.hash_key() == 0


def test_searches_find_the_five():
    # black has four in a row on row 3 (x = 1..4), open at x = 0 and x = 5: black to move
    board = Board.from_moves(["1,3", "1,0", "2,3", "2,0", "3,3", "3,0", "4,3", "6,6"], 9)
    game = GomokuGame(board)
    assert game.current_player() == 0
    for result in (negamax(game, 1), solve(game), mcts(game, 200, seed=0)):
        assert result.move in (Move(0, 3), Move(5, 3))
    assert len(board) == 8  # unchanged


def test_gomoku_agents_and_game_spec():
    game = make_game("gomoku?size=7&rule=standard")
    assert game.board.width == 7 and game.board.rule == "standard"
    agent = make_agent("gomoku-alphabeta?depth=1")
    assert agent.select_move(game) in game.legal_moves()
