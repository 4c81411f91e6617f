"""The brain's opening rule: ``INFO opening`` (default: the rule's own, pro for Caro)."""

from __future__ import annotations

import pytest

from .pbrain_client import BrainProcess


@pytest.fixture(scope="module")
def brain():
    b = BrainProcess()
    assert b.ask("START 15") == "OK"
    yield b
    assert b.close() == 0


def setup(b: BrainProcess, rule: int, *info: str) -> None:
    assert b.ask("RESTART") == "OK"
    b.send(f"INFO rule {rule}", "INFO timeout_turn 300", "INFO max_depth 3", *info)


def dist(move: tuple[int, int]) -> int:
    return max(abs(move[0] - 7), abs(move[1] - 7))


def test_caro_brain_obeys_pro_by_default(brain):
    setup(brain, 8)
    assert brain.move("BEGIN") == (7, 7)
    assert dist(brain.move("TURN 8,8")) >= 3
    # a set-up position (BOARD) with black to move after two stones
    setup(brain, 8)
    assert dist(brain.move("BOARD", "7,7,1", "7,8,2", "DONE")) >= 3


def test_info_opening_selects_the_rule(brain):
    setup(brain, 0, "INFO opening long-pro")
    assert brain.move("BEGIN") == (7, 7)
    assert dist(brain.move("TURN 7,6")) >= 4
    setup(brain, 8, "INFO opening free")
    brain.move("BEGIN")
    brain.move("TURN 8,8")
    assert brain.ask("INFO opening swap9").startswith("ERROR INFO opening 'swap9'")


def test_the_brain_does_not_referee_the_opponent(brain):
    setup(brain, 8)
    brain.move("TURN 0,0")  # black off the centre: the manager's business, not an error
