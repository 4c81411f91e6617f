"""The agent registry: spec parsing, errors, built-in names, and whole games between agents."""

from __future__ import annotations

import pytest

from plies.errors import InvalidOption
from plies.search.agents import (
    INT,
    Agent,
    RandomAgent,
    agent_names,
    game_names,
    make_agent,
    make_game,
    parse_spec,
    register_agent,
)


def play_out(game, first, second, limit=200):
    agents = (first, second)
    while not game.is_terminal() and limit:
        before = game.hash_key() if hasattr(game, "hash_key") else None
        move = agents[game.current_player()].select_move(game)
        if before is not None:
            assert game.hash_key() == before  # select_move leaves the game unchanged
        assert move in game.legal_moves()
        game.play(move)
        limit -= 1
    return game.returns()


def test_names_and_specs():
    names = agent_names()
    for game in ("tictactoe", "connect4", "nim", "gomoku"):
        for algo in ("random", "minimax", "alphabeta", "negamax", "solver", "montecarlo", "mcts"):
            assert f"{game}-{algo}" in names
    assert {"tictactoe", "connect4", "nim", "gomoku"} <= set(game_names())
    assert parse_spec("plies:Connect4-MCTS?iterations=20&seed=1") == (
        "connect4-mcts",
        {"iterations": "20", "seed": "1"},
    )
    agent = make_agent("connect4-mcts?iterations=2000")
    assert isinstance(agent, Agent) and agent.name == "connect4-mcts?iterations=2000"
    assert agent.mcts.iterations == 2000
    assert make_agent("connect4-negamax?movetime=0.5").options == {"movetime": 0.5}
    assert make_agent("tictactoe-alphabeta?depth=9").options["depth"] == 9
    assert isinstance(make_agent("nim-random"), RandomAgent)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("chess-mcts", "unknown agent 'chess-mcts'"),
        ("connect4-mcts?iters=3", "unknown option 'iters'"),
        ("connect4-mcts?iterations=abc", "bad value iterations='abc'"),
        ("connect4-mcts?solver=maybe", "not a boolean"),
        ("connect4-negamax?movetime=-1", "must not be negative"),
        ("connect4-mcts?seed", "expected key=value"),
    ],
)
def test_bad_specs_raise_one_line_errors(spec, words):
    with pytest.raises(InvalidOption) as err:
        make_agent(spec)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_register_a_new_agent():
    class FirstMove:
        def __init__(self, name, offset=0):
            self.name = name
            self.offset = offset

        def select_move(self, game):
            moves = game.legal_moves()
            return moves[min(self.offset, len(moves) - 1)]

    register_agent("nim-first", FirstMove, {"offset": INT})
    assert "nim-first" in agent_names()
    assert make_agent("nim-first?offset=1").select_move(make_game("nim?heaps=1,2")) == (1, 1)


def test_tictactoe_perfect_agents_draw_and_beat_random():
    for spec in ("tictactoe-alphabeta?depth=9", "tictactoe-negamax", "tictactoe-solver"):
        assert play_out(make_game("tictactoe"), make_agent(spec), make_agent(spec)) == (0, 0)
    for seed in range(3):
        perfect = make_agent("tictactoe-solver")
        rand = make_agent(f"tictactoe-random?seed={seed}")
        assert play_out(make_game("tictactoe"), rand, perfect)[1] >= 0  # never loses


def test_nim_winner_with_the_nim_sum_wins():
    result = play_out(
        make_game("nim?heaps=3,4,5"), make_agent("nim-negamax"), make_agent("nim-random?seed=2")
    )
    assert result == (1, -1)


def test_connect_four_mcts_beats_random_and_resets():
    mcts_agent = make_agent("connect4-mcts?iterations=300&seed=1")
    for seed in range(2):
        result = play_out(
            make_game("connect4"), mcts_agent, make_agent(f"connect4-random?seed={seed}")
        )
        assert result == (1, -1)
        mcts_agent.reset()
        assert mcts_agent.mcts._root is None
    mcts_agent.select_move(make_game("connect4"))
    mcts_agent.new_game()  # the name plies.arena calls
    assert mcts_agent.mcts._root is None
    quick = make_agent("connect4-negamax?depth=2")
    assert quick.select_move(make_game("connect4")) in range(7)
