import json
from pathlib import Path

import pytest

from fresh_process import run_twice
from plies.dots.rules import Board
from plies.dots.solver import SolveAborted, Solver, solve, symmetries
from plies.errors import GameOver

DATA = Path(__file__).resolve().parent.parent / "data" / "dots" / "known-values.txt"


def known_values() -> dict[str, int]:
    out = {}
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            size, value = line.split()
            out[size] = int(value)
    return out


@pytest.mark.parametrize("size", ["1x1", "1x2", "1x3", "2x2", "2x3", "3x3"])
def test_known_values(size):
    result = solve(size, hash_bits=20)
    assert result.value == known_values()[size]
    assert result.best_moves and result.nodes > 0


def test_transposed_boards_have_equal_values():
    assert solve("3x2", best_moves=False).value == known_values()["2x3"]
    assert solve("3x1", best_moves=False).value == known_values()["1x3"]


def test_symmetry_tables_are_board_symmetries():
    assert len(symmetries(2, 3)) == 4 and len(symmetries(3, 3)) == 8
    b = Board(2, 2)
    for perm in symmetries(2, 2):
        # a symmetry maps each box's four sides onto some box's four sides
        boxes = {tuple(sorted(int(x) for x in b.geo.box_lines[k])) for k in range(4)}
        assert {tuple(sorted(perm[x] for x in sides)) for sides in boxes} == boxes


def test_position_values_and_score_so_far():
    b = Board(1, 2)
    for m in ("h0,0", "h1,0", "v0,0", "v0,1"):  # B takes box (0, 0), B to move
        b.play(m)
    r = solve(b)
    # three lines left around box (0, 1): B, A, B; B takes it: B wins 2-0
    assert b.to_move == 1 and r.rest_value == 1
    assert r.value == b.margin - 1 == -2
    with pytest.raises(GameOver):
        done = Board(1, 1)
        for m in ("h0,0", "h1,0", "v0,0", "v0,1"):
            done.play(m)
        solve(done)


def test_node_limit_aborts():
    with pytest.raises(SolveAborted):
        Solver(3, 3, hash_bits=16).solve(Board(3, 3), nodes=1000)


def test_solve_json_contract():
    from click.testing import CliRunner

    from plies.cli import cli

    out = CliRunner().invoke(cli, ["solve", "dots", "2x2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data) == {"value", "best_moves", "nodes", "seconds"}
    assert data["value"] == 2 and isinstance(data["nodes"], int)
    text = CliRunner().invoke(cli, ["solve", "dots", "1x2"]).output
    assert "value: +0" in text and "best moves: v0,1" in text


def test_solver_in_two_fresh_processes():
    """The second process loads the kernels from numba's cache (DESIGN.md: the recursive
    kernel must be called only from Python for that to work)."""
    code = (
        "from plies.dots.solver import solve; r = solve('2x2', hash_bits=12); "
        "print(r.value, r.nodes, r.best_moves)"
    )
    outputs = run_twice(code, timeout=240)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("2 ")


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 2), (1, 3), (2, 2), (2, 3)])
def test_empty_boards_against_brute_force(rows, cols):
    """The whole game tree of each board up to 2x3 by the simple oracle (about 5 s for 2x3)."""
    from . import oracle

    assert solve((rows, cols), best_moves=False).value == oracle.value(rows, cols, frozenset())
