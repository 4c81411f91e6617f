"""The solver's table on disk, progress reports, Ctrl-C, the memory budget, and values of
boards bigger than the oracle reaches."""

import os
import signal
import subprocess
import sys

import pytest

from fresh_process import SRC
from plies.dots.rules import Board
from plies.dots.solver import (
    SolveAborted,
    Solver,
    hash_bits_for,
    parse_memory,
    solve,
)
from plies.errors import InvalidOption

POSITION = "h0,0 h3,3 v1,2 v2,2"  # 3x4, a tie, about 2 M nodes


def test_memory_budget_sizes_the_table():
    assert parse_memory("8G") == 8 << 30 and parse_memory("512m") == 512 << 20
    assert parse_memory("1000") == 1000 and parse_memory("1.5K") == 1536
    assert hash_bits_for(8 << 30) == 29  # 2**29 slots of 11 bytes: 5.9 GB
    assert hash_bits_for(1 << 20) == 16
    for bad in ("12Q", "", "-1G", "G"):
        with pytest.raises(InvalidOption):
            parse_memory(bad)


def test_board_values_beyond_the_oracle():
    """2x4 and 2x5 by the full solver agree with the solver with every pruning off."""
    off = dict(chains=False, loony=False, equivalence=False, corners=False)
    for size, value in (("2x4", 2), ("4x2", 2)):
        assert solve(size, best_moves=False, hash_bits=20).value == value
        assert solve(size, best_moves=False, hash_bits=20, **off).value == value
    assert solve("2x5", best_moves=False, hash_bits=22).value == -2


@pytest.mark.slow
def test_3x4_is_a_tie():
    """About 9 M nodes (4.5 s of CPU): the value every version of the solver found."""
    assert solve("3x4", best_moves=False, hash_bits=23).value == 0


def test_saved_table_resumes_an_aborted_solve(tmp_path):
    board = Board(3, 3)
    first = Solver(3, 3, hash_bits=18)
    with pytest.raises(SolveAborted):
        first.solve(board, nodes=60_000)
    path = str(tmp_path / "t.npz")
    first.save(path, board)
    resumed = Solver(3, 3, hash_bits=4)
    resumed.load(path, board)
    assert resumed.tt_key.shape == first.tt_key.shape
    result = resumed.solve(board, best_moves=False)
    fresh = Solver(3, 3, hash_bits=18).solve(board, best_moves=False)
    assert result.value == fresh.value == -3
    assert result.nodes < fresh.nodes  # the table it read saved work
    with pytest.raises(InvalidOption):
        Solver(2, 3, hash_bits=4).load(path, Board(2, 3))
    (tmp_path / "bad.npz").write_text("not a table")
    with pytest.raises(InvalidOption):
        Solver(3, 3, hash_bits=4).load(str(tmp_path / "bad.npz"), board)


def test_progress_reports_nodes_fill_and_bounds():
    board = Board(3, 4)
    for m in POSITION.split():
        board.play(m)
    reports = []
    result = Solver(3, 4, hash_bits=20).solve(
        board, best_moves=False, progress=reports.append, interval=0.05
    )
    assert result.value == 0 and reports
    last = reports[-1]
    assert 0 < last["nodes"] <= result.nodes and 0 < last["fill"] <= 1
    assert -12 <= last["lower"] <= 0 <= last["upper"] <= 12


def test_ctrl_c_writes_the_table_and_a_second_run_resumes(tmp_path):
    state = str(tmp_path / "s.npz")
    cmd = [sys.executable, "-m", "plies.cli", "solve", "dots", "3x4", "--moves", POSITION,
           "--state", state, "--progress", "0.05", "--hash-bits", "20"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    first = proc.stderr.readline()  # the first progress line: the search is running
    assert "nodes" in first, first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert "written to" in err and os.path.exists(state)
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "resumed from" in again.stderr and "value: +0" in again.stdout
