"""The arena under an opening rule: setup defaults, the referee, openings files, pbrain INFO."""

import pytest

from plies.arena import build_config, run_match
from plies.arena.engines.pbrain import PbrainPlayer
from plies.arena.game import GameSetup, Opening
from plies.arena.referees import make_referee
from plies.errors import InvalidOption

from .fakes import pbrain


def test_caro_defaults_to_pro_and_the_option_overrides_it():
    engines = ["plies:random?seed=1", "plies:random?seed=2"]
    assert build_config(engines, rule="caro", size="9").setup.opening == "pro"
    assert build_config(engines, rule="freestyle", size="9").setup.opening == "free"
    config = build_config(engines, rule="caro", opening="free", size="9")
    assert config.setup.opening == "free"
    config = build_config(engines, rule="renju", opening="long-pro", size="15")
    assert "long-pro opening" in config.setup.describe()
    with pytest.raises(InvalidOption, match="long-pro opening rule needs a board side"):
        build_config(engines, rule="caro", opening="long-pro", size="7")


def test_referee_refuses_an_opening_breaking_the_rule(tmp_path):
    setup = GameSetup("gomoku", "caro", 15, 15, "pro")
    referee = make_referee(setup, Opening(("7,7", "8,7", "10,7")))
    assert referee.moves == ["7,7", "8,7", "10,7"]
    with pytest.raises(InvalidOption, match="breaks the pro opening rule"):
        make_referee(setup, Opening(("7,7", "8,7", "9,7")))
    path = tmp_path / "o.txt"
    path.write_text("0,0 1,0 3,0\n0,0 1,0 2,0\n")
    with pytest.raises(InvalidOption, match="o.txt:2: .*breaks the pro opening rule"):
        build_config(
            ["plies:random?seed=1", "plies:random?seed=2"],
            rule="caro",
            size="15",
            openings=str(path),
        )


def test_an_engine_breaking_the_rule_loses_and_plies_never_does():
    # the fake brain plays the free cell nearest the centre: illegal as black's move 3
    config = build_config(
        [pbrain("sane"), "plies:gomoku?nodes=300"], rule="caro", size="9", games=2, st=1.0,
        concurrency=1,
    )  # fmt: skip
    results = run_match(config).results
    as_black = next(r for r in results if r.job.engine_ids == (0, 1))
    assert as_black.outcome.winner == 1
    assert as_black.outcome.reason.startswith("illegal move")
    assert len(as_black.moves) == 2
    as_white = next(r for r in results if r.job.engine_ids == (1, 0))
    assert not as_white.outcome.reason.startswith("illegal")
    first, _, third = as_white.moves[:3]
    assert first == "4,4"
    x, y = map(int, third.split(","))
    assert max(abs(x - 4), abs(y - 4)) >= 3


def test_pbrain_adapter_tells_the_brain_a_non_default_opening(monkeypatch):
    sent: list[str] = []

    class Proc:
        def send(self, line):
            sent.append(line)

    player = PbrainPlayer.__new__(PbrainPlayer)
    player.options, player.max_memory = {}, 0
    monkeypatch.setattr(player, "_running", lambda: Proc(), raising=False)
    monkeypatch.setattr(player, "_expect_ok", lambda command: None, raising=False)
    monkeypatch.setattr(player, "_restart", lambda: None, raising=False)
    monkeypatch.setattr(PbrainPlayer, "_stopped", False)
    player._size = (15, 15)
    from plies.arena.timecontrol import parse_tc

    tc = parse_tc(None, 1.0, None, None)
    player.new_game(GameSetup("gomoku", "caro", 15, 15, "pro"), tc)
    assert not any(line.startswith("INFO opening") for line in sent)
    sent.clear()
    player.new_game(GameSetup("gomoku", "caro", 15, 15, "free"), tc)
    assert "INFO opening free" in sent
    sent.clear()
    player.new_game(GameSetup("gomoku", "freestyle", 15, 15, "long-pro"), tc)
    assert "INFO opening long-pro" in sent
