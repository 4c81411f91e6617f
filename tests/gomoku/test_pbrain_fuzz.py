"""Fuzz ``pbrain-plies`` with random and malformed lines between valid commands: the process
never dies, answers each line with the right kind of reply and keeps its position."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.gomoku.board import Board

from .pbrain_client import BrainProcess

COMMANDS = {
    "START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "INFO", "END", "ABOUT",
    "TAKEBACK", "PLAY", "SWAP2BOARD", "YXBOARD", "YXSTOP", "YXSHOWFORBID", "YXHASHCLEAR",
    "DONE",
}  # fmt: skip

MALFORMED = [  # each must be answered ERROR and change nothing
    "TURN", "TURN 7", "TURN a,b", "TURN 15,0", "TURN -1,3", "TURN 7,7", "TURN 1,2,3",
    "TAKEBACK 14,14", "TAKEBACK", "PLAY 0,0", "START", "START 1", "START 99", "START x",
    "RECTSTART 30,2", "RECTSTART 15", "INFO", "INFO timeout_turn soon", "INFO rule -4",
    "INFO max_memory 1.5", "INFO thread_num 0", "BEGIN",
]  # fmt: skip

unknown_word = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=12,
).filter(lambda w: w.upper() not in COMMANDS and w.strip() == w and w.strip())
unknown_line = st.tuples(
    unknown_word,
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30),
).map(lambda t: f"{t[0]} {t[1]}".rstrip())
fuzz_line = st.one_of(
    st.sampled_from(MALFORMED).map(lambda s: ("ERROR", s)),
    unknown_line.map(lambda s: ("UNKNOWN", s)),
    st.sampled_from(["INFO folder /tmp/x", "INFO evaluate 3,4", "INFO newkey 5", ""]).map(
        lambda s: (None, s)
    ),
)

POSITION = [(7, 7, 2), (8, 8, 1), (7, 8, 2), (8, 6, 1), (9, 9, 2)]  # the brain to move


@pytest.fixture(scope="module")
def brain():
    b = BrainProcess()
    assert b.ask("START 15") == "OK"
    b.send("INFO timeout_turn 100", "INFO max_depth 2", "INFO rule 0")
    yield b
    assert b.close() == 0


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(lines=st.lists(fuzz_line, min_size=1, max_size=8), seed=st.integers(0, 10**6))
def test_fuzz_lines_between_commands(brain, lines, seed):
    board_lines = [f"{x},{y},{f}" for x, y, f in POSITION]
    move = brain.move("BOARD", *board_lines, "DONE")
    # the opponent (field 2) has one stone more: it is black, in this order
    board = Board.from_moves([(7, 7), (8, 8), (7, 8), (8, 6), (9, 9)], 15)
    board.play(move)
    for kind, line in lines:
        if kind is None:
            brain.send(line)
            continue
        reply = brain.ask(line, timeout=10)
        assert reply.split(" ", 1)[0] == kind, (line, reply)
    assert brain.silent(0.05) == []
    rng = random.Random(seed)
    reply = rng.choice([m for m in board.moves() if abs(m.x - 8) < 4 and abs(m.y - 8) < 4])
    board.play(reply)
    if board.is_over:
        return
    board.play(brain.move(f"TURN {reply.x},{reply.y}", timeout=10))  # legal in the kept state
