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


def test_info_book_plays_from_a_book_file(brain, tmp_path):
    from plies.gomoku.book import Book
    from plies.gomoku.notation import Move

    path = tmp_path / "corner.sqlite"
    book = Book.create(path, "freestyle", 15, 15, "free")
    book.store([(7, 7, 1)], [(Move(0, 0), 999, 1)])  # a move no search would choose
    book.commit()
    assert brain.ask(f"INFO book {tmp_path / 'missing.sqlite'}").startswith("ERROR INFO book")
    setup(brain, 0, "INFO opening free", f"INFO book {path}")
    assert brain.move("TURN 7,7") in {(0, 0), (14, 0), (0, 14), (14, 14)}
    setup(brain, 0, "INFO book off")
    assert brain.move("TURN 7,7") not in {(0, 0), (14, 0), (0, 14), (14, 14)}
