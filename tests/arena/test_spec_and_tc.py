"""Engine specs and time controls: parsing and one-line errors."""

import pytest

from plies.arena import register_engine, registered_engines
from plies.arena.engines.inprocess import RandomPlayer
from plies.arena.spec import parse_engine_spec
from plies.arena.timecontrol import Clock, parse_tc
from plies.errors import InvalidOption


def test_builtin_spec():
    spec = parse_engine_spec("plies:gomoku?depth=3&hash=16 name=A tc=10+0.1")
    assert spec.builtin == "gomoku"
    assert spec.options == {"depth": "3", "hash": "16"}
    assert spec.name == "A"
    assert spec.tc is not None and spec.tc.base == 10 and spec.tc.increment == 0.1
    player = spec.create()
    assert player.depth == 3 and player.hash_mb == 16


def test_default_names():
    assert parse_engine_spec("plies:gomoku?movetime=0.2").name == "gomoku(movetime=0.2)"
    assert parse_engine_spec("cmd=/opt/pbrain-foo proto=pbrain").name == "pbrain-foo"


def test_process_spec():
    spec = parse_engine_spec("cmd='/bin/eng --fast' proto=uci option.Hash=64 st=0.5 nodes=1000")
    assert spec.argv == ("/bin/eng", "--fast")
    assert spec.proto == "uci"
    assert spec.protocol_options == {"Hash": "64"}
    assert spec.tc.movetime == 0.5 and spec.nodes == 1000
    assert spec.tc.startup == 1.0  # the default start-up allowance
    assert parse_engine_spec("cmd=/bin/eng st=0.5 startup=2.5").tc.startup == 2.5


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty"),
        ("plies:", "missing the engine name"),
        ("plies:gomoku?depth", "cannot read options"),
        ("plies:gomoku depth3", "expected key=value"),
        ("cmd=/x proto=xboard", "unknown proto"),
        ("cmd=/x colour=red", "unknown setting 'colour'"),
        ("proto=uci", "expected plies:NAME"),
        ("plies:gomoku cmd=/x", "for process engines"),
        ("cmd=/x st=fast", "must be a number"),
        ("cmd=/x st=1 startup=soon", "must be a number"),
        ("cmd='/x", "cannot read engine spec"),
    ],
)
def test_malformed_specs(text, message):
    with pytest.raises(InvalidOption, match=message):
        parse_engine_spec(text)


@pytest.mark.parametrize(
    "text,message",
    [
        ("plies:gomoku?speed=9", "unknown option 'speed' for plies:gomoku"),
        ("plies:gomoku?depth=0", "at least 1"),
        ("plies:checkers?nodes=5", "unknown built-in engine plies:checkers"),
        ("plies:chess?speed=9", "unknown option .speed. for plies:chess"),
        ("plies:gomoku?level=7", "level must be from 1 to 6"),
        ("plies:chess?level=2&nodes=100", "level replaces"),
    ],
)
def test_bad_builtin_options(text, message):
    with pytest.raises(InvalidOption, match=message):
        parse_engine_spec(text).create()


def test_register_engine():
    register_engine("test-random", lambda options, name: RandomPlayer(options, name))
    assert "test-random" in registered_engines()
    player = parse_engine_spec("plies:test-random?seed=4").create()
    assert isinstance(player, RandomPlayer)
    with pytest.raises(InvalidOption):
        register_engine("bad prefix", RandomPlayer)


def test_time_controls():
    tc = parse_tc("40/60+0.5")
    assert (tc.moves, tc.base, tc.increment) == (40, 60, 0.5)
    assert parse_tc("1:30").base == 90
    assert parse_tc("inf").is_limited is False
    assert parse_tc(None, movetime=0.2).describe() == "st=0.2"
    for bad in ("fast", "10+", "0", "40/"):
        with pytest.raises(InvalidOption):
            parse_tc(bad)
    with pytest.raises(InvalidOption):
        parse_tc(None, movetime=-1)
    with pytest.raises(InvalidOption):
        parse_tc(None, movetime=0.5, startup=-1)
    assert parse_tc(None, movetime=0.5, startup=0.25).startup == 0.25


def test_clock_increment_periods_and_forfeit():
    clock = Clock(parse_tc("2/10+1", margin=0.1))
    assert clock.allowance() == pytest.approx(11.1)  # the first move: 1 s start-up allowance
    assert clock.punch(3.0)  # 10 - 3 + 1
    assert clock.remaining == pytest.approx(8.0)
    assert clock.moves_to_go == 1
    assert clock.punch(2.0)  # 8 - 2 + 1, and a new period of 10
    assert clock.remaining == pytest.approx(17.0)
    assert not clock.punch(17.2)  # beyond remaining + margin
    st = Clock(parse_tc(None, movetime=0.2, margin=0.05))
    assert st.punch(0.24) and not st.punch(0.26)


def test_gomoku_engine_parameters_pass_through_the_spec():
    spec = "plies:gomoku?nodes=500&POLICY_REDUCE_GAP=9000&LMR_BASE=0.5"
    player = parse_engine_spec(spec).create()
    assert player.params == {"POLICY_REDUCE_GAP": 9000, "LMR_BASE": 0.5}
    assert player.nodes == 500
    with pytest.raises(InvalidOption, match="unknown engine parameter 'NOPE'"):
        parse_engine_spec("plies:gomoku?NOPE=1").create()
    with pytest.raises(InvalidOption, match="LMP_DEPTH must be a number, not 'x'"):
        parse_engine_spec("plies:gomoku?LMP_DEPTH=x").create()
    with pytest.raises(InvalidOption, match="NET_SIZE must be 0 or a board size 5..22, not 3"):
        parse_engine_spec("plies:gomoku?NET_SIZE=3").create()  # before any game, not a forfeit
    assert parse_engine_spec("plies:gomoku?NET_SIZE=0").create().params == {"NET_SIZE": 0}
    with pytest.raises(InvalidOption, match="unknown engine parameter 'ORDER'"):
        parse_engine_spec("plies:gomoku?ORDER=classic").create()  # the lower-case option does
