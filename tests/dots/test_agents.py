import random

import pytest

from plies.dots.agents import ChainsAgent
from plies.dots.rules import Board
from plies.dots.solver import solve
from plies.search.agents import make_agent, make_game


def play(first, second, board: Board) -> int:
    """Play to the end; return the first agent's final margin (first moves first)."""
    agents = [first, second]
    for a in agents:
        if hasattr(a, "reset"):
            a.reset()
    while not board.is_over:
        board.play(agents[board.to_move].select_move(board.copy()))
    return board.margin


def test_registry_builds_every_dots_agent():
    for spec in (
        "dots-random",
        "dots-minimax?depth=2",
        "dots-alphabeta",
        "dots-negamax?movetime=0.05",
        "dots-montecarlo?playouts=20",
        "dots-mcts?iterations=2000",
        "plies:dots-mcts?iterations=50&seed=1",
        "dots-chains?seed=3",
        "dots-solver",
        "dots-perfect?seed=1",
    ):
        agent = make_agent(spec)
        board = Board(2, 2)
        if "solver" in spec or "perfect" in spec or "mcts" not in spec or "50" in spec:
            assert agent.select_move(board.copy()) in board.legal_moves()
    assert make_game("dots?size=2x3").geo.n_boxes == 6
    assert make_game("dots?rows=1&cols=2").geo.n_lines == 7


@pytest.mark.parametrize(
    "spec,games,needed",
    [("dots-chains?seed=1", 40, 38), ("dots-mcts?iterations=1000&seed=2", 4, 4)],
)
def test_agents_beat_random_on_3x3(spec, games, needed):
    wins = 0
    for g in range(games // 2):
        a, r = make_agent(spec), make_agent(f"dots-random?seed={g}")
        wins += play(a, r, Board(3, 3)) > 0
        wins += play(r, a, Board(3, 3)) < 0
    assert wins >= needed


def test_alphabeta_finds_the_double_deal():
    """3x3: a long chain of 6 and a chain of 3 remain... the player to move holds two boxes of an
    opened chain; declining them keeps control. Alpha-beta deep enough plays like the solver."""
    rng = random.Random(7)
    checked = 0
    while checked < 5:
        b = Board(3, 3)
        lines = list(range(b.geo.n_lines))
        rng.shuffle(lines)
        for line in lines:
            if len(b.moves()) <= 9:
                break
            b.play(line)
        if b.is_over:
            continue
        best = set(solve(b).best_moves)
        agent = make_agent("dots-alphabeta?depth=12")
        assert b.geo.text(agent.select_move(b.copy())) in best
        checked += 1


def test_chains_agent_declines_when_control_pays():
    """3x5: three horizontal chains of five. A opens the top one; B takes three boxes and
    then must decline the last two (all-but-two) to keep control of the other two chains."""
    b = Board(3, 5)
    for r in range(4):
        for c in range(5):
            b.play(("h", r, c))
    assert b.to_move == 0 and not b.capturable()
    b.play(("v", 0, 0))  # A opens the top chain
    agent = ChainsAgent(seed=1)
    for _ in range(3):
        assert b.to_move == 1
        b.play(agent.select_move(b))
    assert b.scores == [0, 3] and b.to_move == 1
    move = agent.select_move(b)
    assert b.geo.text(move) == "v0,5"  # the double-dealing move
    assert "v0,5" in solve(b).best_moves


def test_perfect_player_never_loses_its_value():
    """From random 3x3 positions the solver-backed player gets at least the solved value."""
    rng = random.Random(11)
    for g in range(4):
        b = Board(3, 3)
        for line in rng.sample(range(b.geo.n_lines), 6):
            if not b.drawn[line]:
                b.play(line)
        value = solve(b, best_moves=False).value
        perfect = make_agent("dots-perfect?seed=1")
        other = make_agent(["dots-chains", "dots-random", "dots-alphabeta?depth=2"][g % 3])
        agents = {b.to_move: perfect, 1 - b.to_move: other}
        side = b.to_move
        while not b.is_over:
            b.play(agents[b.to_move].select_move(b.copy()))
        margin = b.margin if side == 0 else -b.margin
        assert margin >= (value if side == 0 else -value)


def test_charts(tmp_path):
    pytest.importorskip("matplotlib")
    from plies.dots.charts import make_charts

    paths = make_charts(tmp_path, ["dots-chains"], ["1x2"], 2, [1, 2], ["1x2"])
    assert [p.name for p in paths] == ["winrates.png", "search_time.png"]
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in paths)
    assert (tmp_path / "charts.json").exists()


def test_charts_explain_a_missing_matplotlib(monkeypatch, tmp_path):
    import builtins

    from plies.dots.charts import make_charts
    from plies.errors import InvalidOption

    real = builtins.__import__

    def no_mpl(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    with pytest.raises(InvalidOption, match="matplotlib"):
        make_charts(tmp_path, ["dots-chains"], ["1x2"], 2, [1], ["1x2"])


def test_solver_agent_falls_back_when_out_of_time():
    agent = make_agent("dots-solver?movetime=0.001")
    board = Board(4, 4)
    assert agent.select_move(board.copy()) in board.legal_moves()
    assert agent.last_result is None
