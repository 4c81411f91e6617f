"""The lean brain's kernels compiled ahead of time (``plies.gomoku.aot``): the same engine as
numba's JIT (moves, scores and node counts), run without numba, and a stale extension is not
used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from plies.gomoku import aot

from .pbrain_client import BrainProcess, brain_env

# node-limited searches in every rule: (rule, size, moves)
POSITIONS = [
    ("freestyle", 15, [(7, 7), (8, 8), (7, 8), (8, 7), (6, 9)]),
    ("standard", 20, [(10, 10), (11, 11), (10, 11), (9, 12)]),
    ("renju", 15, [(7, 7), (8, 6), (7, 5), (6, 6), (8, 8), (9, 7)]),
    ("caro", 19, [(9, 9), (10, 10), (9, 10), (10, 9), (8, 11)]),
]
SEARCH = """
import json, sys
from pathlib import Path
from plies.gomoku import aot
lean = aot.install(Path(sys.argv[1])) if sys.argv[1] != "-" else False
from plies.gomoku.board import Board
from plies.gomoku.engine import Engine
out = []
for rule, size, moves in json.loads(sys.argv[2]):
    board = Board.from_moves([tuple(m) for m in moves], size, rule)
    r = Engine(rule, size, hash_mb=2).search(board, nodes=30000)
    out.append([r.move.x, r.move.y, r.score, r.nodes, r.depth])
print(json.dumps({"lean": lean, "numba": "numba.core.registry" in sys.modules, "results": out}))
"""


def run_search(directory: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", SEARCH, directory, json.dumps(POSITIONS)],
        capture_output=True,
        text=True,
        env=brain_env(),
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("aot")
    subprocess.run(
        [sys.executable, "-m", "plies.gomoku.aot", "build", str(out)],
        env=brain_env(),
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


@pytest.mark.slow
def test_compiled_kernels_are_the_same_engine_without_numba(built: Path) -> None:
    jit = run_search("-")
    lean = run_search(str(built))
    assert not jit["lean"] and jit["numba"]
    assert lean["lean"] and not lean["numba"]
    assert lean["results"] == jit["results"]


@pytest.mark.slow
def test_lean_brain_plays_without_numba(built: Path) -> None:
    brain = BrainProcess(PLIES_AOT_DIR=str(built))
    try:
        assert brain.ask("START 20") == "OK"
        brain.send("INFO max_memory 73400320", "INFO timeout_turn 500", "INFO rule 4")
        assert brain.move("BOARD", "10,10,2", "11,11,1", "10,11,2", "DONE")
        with open(f"/proc/{brain.proc.pid}/maps") as f:
            assert "numba" not in f.read()
        assert brain.peak_rss() < 100 * 2**20  # the JIT brain's baseline alone is ~200 MB
    finally:
        assert brain.close() == 0


@pytest.mark.slow
def test_lean_brain_does_not_grow_from_game_to_game(built: Path) -> None:
    # two lean brains play the same node-limited game twice (RESTART between): the second game
    # must not leave either process holding more memory than the first (each held 2-3 MB more
    # when a new game's search contexts came from the heap: pbrain.tune_malloc)
    from plies.gomoku import Board

    brains = [BrainProcess(PLIES_AOT_DIR=str(built)) for _ in range(2)]

    def rss(brain: BrainProcess) -> int:
        with open(f"/proc/{brain.proc.pid}/statm") as f:
            return int(f.read().split()[1]) * 4096

    def game() -> list[tuple[int, int]]:
        board = Board.from_moves([(10, 10), (11, 11), (10, 11)], 20)
        move = brains[1].move("BOARD", "10,10,2", "11,11,1", "10,11,2", "DONE")
        board.play(move)
        move = brains[0].move(
            "BOARD", "10,10,1", "11,11,2", "10,11,1", f"{move[0]},{move[1]},2", "DONE"
        )
        board.play(move)
        while not board.is_over and len(board) < 80:
            move = brains[len(board) % 2].move(f"TURN {move[0]},{move[1]}")
            board.play(move)
        return [(m.x, m.y) for m in board.history]

    try:
        for brain in brains:
            assert brain.ask("START 20") == "OK"
            brain.send("INFO max_memory 73400320", "INFO max_node 5000", "INFO timeout_turn 10000")
        first = game()
        after_first = [rss(b) for b in brains]
        for brain in brains:
            assert brain.ask("RESTART") == "OK"
        assert game() == first  # node-limited: the same game
        for brain, before in zip(brains, after_first, strict=True):
            assert rss(brain) - before < 2**20, (before, rss(brain))
            assert brain.peak_rss() < 70 * 2**20  # issue 24's limit (short searches here)
            with open(f"/proc/{brain.proc.pid}/maps") as f:
                assert "libcrypto" not in f.read()  # numpy.random imports it (secrets)
    finally:
        for brain in brains:
            assert brain.close() == 0


def test_a_stale_or_missing_extension_is_not_used(tmp_path: Path) -> None:
    assert aot.available(tmp_path) is None
    (tmp_path / (aot.EXTENSION + ".cpython-311-x86_64-linux-gnu.so")).write_bytes(b"")
    (tmp_path / aot.FINGERPRINT).write_text("0" * 64 + "\n")  # other kernel sources
    assert aot.available(tmp_path) is None
    assert not aot.install(tmp_path)


def test_export_names() -> None:
    assert aot.export_name("plies.gomoku.engine.state", "rebuild") == "state__rebuild"
    assert aot.export_name("plies.gomoku.rules", "legal_moves") == "rules__legal_moves"
