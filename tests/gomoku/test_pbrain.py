"""``pbrain-plies`` driven as a subprocess exactly as a manager drives it (docs/pbrain.md).

Time limits are tiny and depths small (INFO max_depth) so that the whole file stays short.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from plies.gomoku import pbrain, rules
from plies.gomoku.board import Board

from .pbrain_client import BrainProcess, brain_env

RULES = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8, "caro5": 9}


@pytest.fixture(scope="module")
def brain():
    b = BrainProcess()
    assert b.ask("START 15") == "OK"
    yield b
    assert b.close() == 0


def start(b: BrainProcess, width: int, height: int, rule: int = 0, turn_ms: int = 300, depth=3):
    cmd = f"START {width}" if width == height else f"RECTSTART {width},{height}"
    assert b.ask(cmd) == "OK"
    b.send(
        f"INFO rule {rule}",
        f"INFO timeout_turn {turn_ms}",
        "INFO timeout_match 0",
        f"INFO max_depth {depth}",
        "INFO max_memory 0",
    )


def play_game(b, rule: str, width: int, height: int, brain_first: bool, seed: int) -> Board:
    """A whole game: the brain against a random mover (legal moves near the stones)."""
    rng = random.Random(seed)
    start(b, width, height, RULES[rule])
    board = Board(width=width, height=height, rule=rule)
    if brain_first:
        board.play(b.move("BEGIN"))
    while not board.is_over:
        near = [
            m
            for m in board.moves()
            if any(abs(m.x - s.x) <= 2 and abs(m.y - s.y) <= 2 for s in board.history)
        ] or board.moves()
        reply = rng.choice(near)
        board.play(reply)
        if board.is_over:
            break
        board.play(b.move(f"TURN {reply.x},{reply.y}"))  # raises if illegal
    return board


@pytest.mark.parametrize(
    "rule,width,height,brain_first",
    [
        ("freestyle", 15, 15, True),
        ("standard", 20, 20, False),
        ("renju", 15, 15, True),
        ("renju", 15, 15, False),
        ("caro", 20, 15, True),
        ("caro5", 12, 12, False),
    ],
)
def test_full_games_against_a_random_mover(brain, rule, width, height, brain_first):
    board = play_game(brain, rule, width, height, brain_first, seed=len(rule) + width)
    assert board.winner == (1 if brain_first else 2), brain.tail()


def test_start_sizes_about_and_unknown(brain):
    assert brain.ask("START 4").startswith("ERROR")
    assert brain.ask("START 23").startswith("ERROR")
    assert brain.ask("START twenty").startswith("ERROR")
    assert brain.ask("RECTSTART 20").startswith("ERROR")
    assert brain.ask("RECTSTART 22,5") == "OK"
    about = brain.ask("ABOUT")
    assert about.startswith('name="pbrain-plies"') and 'version="' in about
    assert brain.ask("FROBNICATE 1,2") == "UNKNOWN FROBNICATE 1,2"
    assert brain.ask("DONE") == "UNKNOWN DONE"
    assert brain.ask("START 20") == "OK"
    assert brain.ask("RESTART") == "OK"
    assert (pbrain.MIN_SIZE, pbrain.MAX_SIZE) == (rules.MIN_SIZE, rules.MAX_SIZE)


def test_errors_keep_the_state(brain):
    start(brain, 15, 15)
    assert brain.move("BEGIN") == (7, 7)
    for bad in ("TURN 7,7", "TURN 15,3", "TURN x,y", "TURN", "TAKEBACK 3,3", "INFO rule abc"):
        assert brain.ask(bad).startswith("ERROR "), bad
    assert brain.ask("INFO").startswith("ERROR")
    assert brain.silent(0.1) == []
    brain.send("INFO some_future_key 12")  # unknown keys are ignored: no reply
    assert brain.silent(0.1) == []
    board = Board.from_moves([(7, 7), (8, 8)], 15)
    board.play(brain.move("TURN 8,8"))


@pytest.mark.parametrize(
    "key,value",
    [
        ("timeout_turn", "-5"),
        ("timeout_match", "-1"),
        ("time_left", "-300"),
        ("max_memory", "-73400320"),
        ("max_depth", "-2"),
        ("max_node", "-1"),
        ("timeout_turn", "soon"),
        ("timeout_turn", "1e3"),
        ("time_left", "1.5"),
        ("max_memory", "70MB"),
        ("thread_num", "0"),
        ("thread_num", "100000"),
        ("max_node", "9" * 30),
        ("rule", "-4"),
    ],
)
def test_bad_info_values_answer_error_and_keep_the_setting(key, value):
    info = dict(pbrain.DEFAULT_INFO, max_depth=3, timeout_turn=1234)
    brain = pbrain.Brain()
    brain.info = dict(info)
    with pytest.raises(pbrain.BrainError) as err:
        brain.handle("INFO", f"{key} {value}", 0.0, f"INFO {key} {value}")
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"INFO {key} ") and value[:20] in message
    assert brain.info == info and key not in brain.info_sent


def test_negative_turn_time_keeps_the_previous_one(brain):
    """``INFO timeout_turn -5`` used to be taken, and the next move was played in 19 ms."""
    start(brain, 15, 15, turn_ms=300, depth=0)
    reply = brain.ask("INFO timeout_turn -5")
    assert reply.startswith("ERROR INFO timeout_turn -5"), reply
    brain.send("INFO debug 1")
    brain.chatter.clear()
    brain.move("BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE")
    brain.send("INFO debug 0")
    times = [c for c in brain.chatter if c.startswith("DEBUG time")]
    assert times and "turn 0.300s" in times[-1], brain.chatter


def test_board_restart_takeback_and_play(brain):
    start(brain, 15, 15, RULES["freestyle"])
    # black (the brain) has an open four's worth: it must complete five
    position = ["5,7,1", "6,7,1", "7,7,1", "8,7,1", "5,8,2", "6,8,2", "7,8,2", "9,9,2"]
    assert brain.ask("RESTART") == "OK"
    assert brain.move("BOARD", *position, "DONE") in {(4, 7), (9, 7)}
    assert brain.ask("RESTART") == "OK"
    # the brain is white here (opponent has one more stone) and must block the four
    position = ["5,7,2", "6,7,2", "7,7,2", "8,7,2", "4,7,1", "6,8,1", "7,9,1", "1,1,2"]
    assert brain.move("BOARD", *position, "DONE") == (9, 7)
    assert brain.ask("TAKEBACK 9,7") == "OK"
    assert brain.ask("TAKEBACK 1,1") == "OK"
    # the opponent plays again, elsewhere; the brain still blocks
    assert brain.move("TURN 0,14") == (9, 7)
    assert brain.ask("PLAY 3,3").startswith("ERROR")  # not the brain's move
    assert brain.ask("TAKEBACK 9,7") == "OK"
    assert brain.ask("PLAY 3,3") == "3,3"
    assert brain.move("TURN 0,13") == (9, 7)


def test_continuous_game_field_3(brain):
    start(brain, 15, 15, RULES["freestyle"] | 2)
    walls = [f"{x},7,3" for x in range(3, 8)]
    move = brain.move("BOARD", *walls, "8,7,2", "2,7,2", "7,8,1", "DONE")
    assert move not in {(x, 7) for x in range(2, 9)} | {(7, 8)}


def test_yxboard_yxshowforbid_and_renju(brain):
    start(brain, 15, 15, RULES["renju"])
    black = ["5,7,1", "6,7,1", "7,7,1", "9,7,1", "10,7,1"]  # 8,7 would be an overline
    white = ["0,0,2", "0,2,2", "0,4,2", "0,6,2", "14,14,2"]
    lines = [line for pair in zip(black, white, strict=True) for line in pair]
    brain.send("YXBOARD", *lines, "DONE")
    assert brain.silent(0.2) == []  # YXBOARD sets the position and does not move
    forbid = brain.ask("YXSHOWFORBID")
    assert forbid.startswith("FORBID ") and forbid.endswith(".")
    assert "0807" in forbid
    assert brain.move("BOARD", *lines, "DONE") != (8, 7)
    start(brain, 15, 15, RULES["freestyle"])
    assert brain.ask("YXSHOWFORBID") == "FORBID ."


def test_swap2board(brain):
    start(brain, 15, 15, RULES["standard"], turn_ms=600, depth=4)
    opening = brain.ask("SWAP2BOARD", "DONE").split()
    assert len(opening) == 3
    board = Board.from_moves([tuple(map(int, m.split(","))) for m in opening], 15, "standard")
    assert not board.is_over
    answer = brain.ask("SWAP2BOARD", "7,7", "8,7", "9,9", "DONE")
    parts = answer.split()
    if answer != "SWAP":
        board = Board.from_moves([(7, 7), (8, 7), (9, 9)], 15, "standard")
        assert len(parts) in (1, 2)
        board.play_moves([tuple(map(int, m.split(","))) for m in parts])
    answer = brain.ask("SWAP2BOARD", "7,7", "8,7", "9,9", "8,8", "8,6", "DONE")
    if answer != "SWAP":
        board = Board.from_moves([(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)], 15, "standard")
        board.play(tuple(map(int, answer.split(","))))
    assert brain.ask("SWAP2BOARD", "7,7", "8,7", "DONE").startswith("ERROR")
    assert brain.ask("SWAP2BOARD", "7,7", "7,7", "9,9", "DONE").startswith("ERROR")


def test_messages_and_debug(brain):
    start(brain, 15, 15, turn_ms=400, depth=4)
    brain.chatter.clear()
    brain.move("BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE")
    messages = [c for c in brain.chatter if c.startswith("MESSAGE depth")]
    assert messages and " pv " in messages[-1] and " n/s " in messages[-1]
    # then one line with the whole search's work, at least the last finished iteration's
    totals = [c for c in brain.chatter if c.startswith("MESSAGE total n ")]
    assert len(totals) == 1
    assert brain.chatter.index(totals[0]) > brain.chatter.index(messages[-1])
    assert int(totals[0].split()[3]) >= int(messages[-1].split(" n ")[1].split()[0])
    assert not any(c.startswith("DEBUG") for c in brain.chatter)
    brain.send("INFO debug 1", "INFO max_depth 0")
    brain.chatter.clear()
    brain.move("TURN 9,9")
    assert any(c.startswith("DEBUG time") for c in brain.chatter)
    # searched to its fixed time, the move ends inside an unfinished iteration: the total
    # counts that iteration's nodes too, so it exceeds the last finished one's
    messages = [c for c in brain.chatter if c.startswith("MESSAGE depth")]
    totals = [c for c in brain.chatter if c.startswith("MESSAGE total n ")]
    assert messages and len(totals) == 1
    assert int(totals[0].split()[3]) > int(messages[-1].split(" n ")[1].split()[0])
    brain.send("INFO debug 0")


def test_time_limit_never_exceeded(brain):
    """Reply time minus timeout_turn over a game at 150 ms a move (no depth limit)."""
    start(brain, 20, 20, RULES["freestyle"], turn_ms=150, depth=0)
    board = Board(20)
    rng = random.Random(5)
    worst = 0.0
    sent = brain.send("BEGIN")
    for _ in range(20):
        when, line = brain.reply()
        worst = max(worst, when - sent)
        board.play(tuple(map(int, line.split(","))))
        if board.is_over:
            break
        reply = rng.choice([m for m in board.moves() if abs(m.x - 10) < 4 and abs(m.y - 10) < 4])
        board.play(reply)
        if board.is_over:
            break
        sent = brain.send(f"TURN {reply.x},{reply.y}")
    assert worst < 0.150, f"slowest reply {worst:.3f}s"


def test_the_warm_up_leaves_the_garbage_collector_little_to_visit():
    """A full collection holds the interpreter lock, so that the reader thread stamps a command
    that comes meanwhile late: with the warm-up's objects frozen, the collector visits only
    what the games made (the collection the engine's build runs took about 70 ms without)."""
    code = (
        "import gc; from plies.gomoku.pbrain import Brain; b = Brain(); b._warmup(); "
        "assert b.warm_error is None, b.warm_error; "
        "print(gc.get_freeze_count(), len(gc.get_objects()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=brain_env()
    )
    assert out.returncode == 0, out.stderr[-2000:]
    frozen, visible = map(int, out.stdout.split())
    assert frozen > 50_000 and visible < frozen // 20, (frozen, visible)


def test_yxstop_answers_at_once(brain):
    start(brain, 15, 15, turn_ms=30_000, depth=0)
    brain.send("BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE")
    time.sleep(0.3)
    sent = brain.send("YXSTOP")
    when, line = brain.reply(timeout=5)
    assert when - sent < 0.5 and "," in line


def test_end_exits_promptly_mid_search():
    b = BrainProcess()
    assert b.ask("START 15") == "OK"
    b.send("INFO timeout_turn 60000", "BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE")
    time.sleep(1.5)
    t = time.perf_counter()
    b.send("END")
    assert b.proc.wait(3) == 0
    assert time.perf_counter() - t < 1.0


def test_memory_limit_respected():
    # Gomocup's limit: room for a real table above the baseline (197-243 MB with every kernel
    # loaded, depending on how much of llvmlite's library the page cache holds: a fresh venv's
    # files are all cached, and the kernel maps their pages around each fault), so the sizing
    # itself is what keeps the peak under the limit
    limit = 350 * 1024 * 1024
    # the limit is for a brain whose kernels are compiled (as after `plies warmup`): the
    # brain's own kernel loading runs to the end in a first process, so that a compilation's
    # peak (the measured brain compiling in its warm-up) is not counted
    code = "from plies.gomoku.pbrain import load_kernels; load_kernels()"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=900, env=brain_env())
    b = BrainProcess(PLIES_PBRAIN_DEBUG="1")
    assert b.ask("START 20") == "OK"
    b.send(f"INFO max_memory {limit}", "INFO timeout_turn 400", "INFO thread_num 2")
    b.move("BOARD", "10,10,2", "11,11,1", "10,11,2", "DONE")
    b.move("TURN 9,12")
    sizing = [c for c in b.chatter if c.startswith("DEBUG engine") and " hash " in c]
    assert sizing
    peak = b.peak_rss()
    b.close()
    assert peak <= limit, f"peak RSS {peak / 2**20:.0f} MB ({sizing[0]})"
    hash_mb = float(sizing[0].split(" hash ")[1].split()[0])
    assert hash_mb > 8, sizing[0]  # a table that fills the room left, not the floor


def test_plies_pbrain_verb_and_console_script():
    code = "import sys; from plies.cli import main; sys.argv = ['plies', 'pbrain']; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        input="START 15\nABOUT\nEND\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=brain_env(),
    )
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "OK"
    assert proc.stdout.splitlines()[1].startswith('name="pbrain-plies"')


def test_start_waits_for_the_kernels_then_moves_fast():
    b = BrainProcess()
    t = b.send("START 15")
    when, line = b.reply()
    assert line == "OK" and when - t < pbrain.START_WAIT_S
    b.send("INFO timeout_turn 200")
    t = b.send("TURN 7,7")
    when, line = b.reply()
    assert when - t < 0.2 and line != "ERROR"
    b.close()


def test_rule_bits():
    assert pbrain.rule_from_info(0) == ("freestyle", False)
    assert pbrain.rule_from_info(1) == ("standard", False)
    assert pbrain.rule_from_info(2) == ("freestyle", True)
    assert pbrain.rule_from_info(4) == ("renju", False)
    assert pbrain.rule_from_info(8) == ("caro", False)
    assert pbrain.rule_from_info(9) == ("caro5", False)
    assert pbrain.rule_from_info(3) == ("standard", True)


def test_time_budget():
    info = {"timeout_turn": 1000, "timeout_match": 0, "time_left": 0}
    b = pbrain.time_budget(info, 0.0, lambda s: s / 10)
    assert 0.9 < b.hard < 1.0 and b.soft == b.hard and b.limit == 1.0
    info = {"timeout_turn": 0, "timeout_match": 0, "time_left": 0}
    assert pbrain.time_budget(info, 0.0, lambda s: s).hard == pbrain.FAST_MOVE_S
    info = {"timeout_turn": 5000, "timeout_match": 60000, "time_left": 3000}
    b = pbrain.time_budget(info, 0.0, lambda s: s / 10)
    assert b.soft < 0.3 and b.hard < 1.0 and b.limit == 3.0
    info = {"timeout_turn": 5000, "timeout_match": 60000, "time_left": 0}
    assert pbrain.time_budget(info, 0.0, lambda s: s / 10).hard == 0.0


def test_a_fixed_time_per_move_is_searched_to_the_limit_less_a_reserve():
    """The reserve for the reply's latency is a constant (tens of ms whatever the turn), capped
    at a share of the clock's deadline for short turns; the search never runs past the turn."""
    for turn_ms in (50, 100, 200, 500, 1000, 5000, 30000):
        turn = turn_ms / 1000
        clock = turn - min(pbrain.MARGIN_MAX_S, pbrain.MARGIN_BASE_S + pbrain.MARGIN_SHARE * turn)
        info = {"timeout_turn": turn_ms, "timeout_match": 0, "time_left": 0}
        budget = pbrain.time_budget(info, 0.0, lambda s: s)
        assert budget.fixed and budget.soft == budget.hard
        assert budget.hard == max(0.0, pbrain.FIXED_SHARE * clock, turn - pbrain.FIXED_RESERVE_S)
        assert budget.hard <= turn - min(pbrain.FIXED_RESERVE_S, turn / 2)
        later = pbrain.time_budget(info, 0.01, lambda s: s)  # time already spent is charged
        assert later.hard == max(0.0, budget.hard - 0.01)
    info = {"timeout_turn": 500, "timeout_match": 0, "time_left": 0}
    assert abs(pbrain.time_budget(info, 0.0, lambda s: s).hard - 0.44) < 1e-9  # was 0.39


def test_a_time_per_move_without_a_match_clock_is_a_fixed_budget():
    info = {"timeout_turn": 500, "timeout_match": 0, "time_left": 0}
    assert pbrain.time_budget(info, 0.0, lambda s: s / 10).fixed
    info = {"timeout_turn": 500, "timeout_match": 60000, "time_left": 30000}
    assert not pbrain.time_budget(info, 0.0, lambda s: s / 10).fixed
    info = {"timeout_turn": 0, "timeout_match": 0, "time_left": 0}
    assert not pbrain.time_budget(info, 0.0, lambda s: s / 10).fixed


def test_hash_sizing():
    assert pbrain.hash_mb_for(0, 200 << 20, 15, 15, 1) == pbrain.DEFAULT_HASH_MB
    mb = pbrain.hash_mb_for(350 << 20, 180 << 20, 20, 20, 1)
    assert 100 < mb < 350 - 180
    assert pbrain.hash_mb_for(100 << 20, 180 << 20, 20, 20, 1) == 0.25
    # the engine's fixed tables (the root VCT's) come out of the hash
    assert pbrain.hash_mb_for(350 << 20, 180 << 20, 20, 20, 1, 10 << 20) == pytest.approx(mb - 10)


def test_an_engine_failure_still_answers_a_legal_move(monkeypatch):
    """A bug in the engine costs a weak move (the fallback's), not a forfeit by ``ERROR``."""
    import io

    def broken(self, *args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(pbrain.Brain, "_search", broken)
    script = ["START 15", "INFO timeout_turn 500", "BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"]
    script += ["YXSHOWFORBID", "TURN 9,9", "END"]
    out = io.StringIO()
    brain = pbrain.Brain(io.StringIO("\n".join(script) + "\n"), out)
    brain.start_warmup()
    assert brain.run() == 0
    lines = out.getvalue().splitlines()
    quick = [line for line in lines if line.startswith("MESSAGE internal error: RuntimeError")]
    moves = [line for line in lines if pbrain._COORD.match(line)]
    assert len(quick) == 2 and len(moves) == 2, lines  # the block of 7,9/7,6 then another
    assert moves[0] in ("7,9", "7,6") and not any(line.startswith("ERROR") for line in lines)


def test_info_param_sets_engine_numbers_and_refuses_bad_ones(brain):
    """``INFO param NAME=VALUE`` (plies' own key, for tuning matches against other brains)."""
    unit = pbrain.Brain()
    unit.handle("INFO", "param THREAT=off", 0.0, "INFO param THREAT=off")
    unit.handle("INFO", "param LMR_BASE=0.5,SE_DEPTH=6", 0.0, "INFO param LMR_BASE=0.5,SE_DEPTH=6")
    assert unit.params == {"THREAT": "off", "LMR_BASE": 0.5, "SE_DEPTH": 6}
    for bad in ("THREAT=nowhere.npy", "NO_SUCH=1", "LMR_BASE=fast", "PATTERN_VALUE=1", "THREAT",
                "SE_DEPTH=4,LMR_BASE=fast", "THREAT=classic", "EVAL=off", "NET_SIZE=3",
                "NET_SIZE=15.5"):  # fmt: skip
        with pytest.raises(pbrain.BrainError, match="INFO param"):
            unit.handle("INFO", f"param {bad}", 0.0, f"INFO param {bad}")
    assert unit.params == {"THREAT": "off", "LMR_BASE": 0.5, "SE_DEPTH": 6}
    # over the protocol: an error line, then the engine plays with the numbers it was given
    start(brain, 15, 15, depth=2)
    assert brain.ask("INFO param SE_DEPTH=x").startswith("ERROR INFO param")
    brain.send("INFO param THREAT=off", "INFO debug 1")
    brain.chatter.clear()
    brain.move("BOARD", "7,7,2", "8,8,1", "DONE")
    brain.send("INFO debug 0", "INFO param THREAT=learned")
    assert any(c.startswith("DEBUG engine") for c in brain.chatter), brain.chatter


def test_the_engine_is_built_after_an_instant_first_move_not_on_the_next_clock():
    # Caro's pro opening: BEGIN is answered with the centre at once, without the engine; the
    # engine is built right after that reply, while the opponent thinks, not on the clock of
    # the next TURN (a 0.1 s move lost its time to the build in a soak)
    b = BrainProcess(PLIES_PBRAIN_DEBUG="1")
    try:
        start(b, 20, 20, RULES["caro"], turn_ms=1000)
        assert b.move("BEGIN") == (10, 10)
        time.sleep(1.0)  # the opponent's thinking time
        turn_sent = b.send("TURN 8,8")
        built = []
        while True:
            when, line = b.lines.get(timeout=30)
            assert line is not None, b.tail()
            if line.startswith("DEBUG engine caro 20x20"):
                built.append(when)
            elif not line.startswith(("DEBUG", "MESSAGE", "SUGGEST")):
                break
        assert built and built[0] < turn_sent, line
    finally:
        b.close()
