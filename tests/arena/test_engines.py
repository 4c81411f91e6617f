"""Process engines: fake pbrain brains and a fake UCI engine that behave and misbehave."""

import chess.pgn
import pytest

from plies.arena import build_config, run_match
from plies.arena.output import GameWriter

from .fakes import fake_cmd, pbrain

# generous limits: a loaded machine must not make the well-behaved engines late
GOMOKU = {"size": "9", "st": 1.0, "timemargin": 0.5, "concurrency": 1}


def _match(engines, games=2, **kw):
    config = build_config(engines, **{**GOMOKU, **kw}, games=games)
    return run_match(config)


def test_sane_brain_plays_whole_games(tmp_path):
    report = _match([pbrain("sane", "brain"), "plies:random?seed=3"], games=2)
    assert len(report.results) == 2
    writer = GameWriter(tmp_path, "sgf")
    for result in report.results:
        assert result.failure is None
        assert result.outcome.reason in ("five in a row", "board full")
        writer.write(result)
    assert len(list(tmp_path.glob("*.sgf"))) == 2


@pytest.mark.parametrize(
    "mode,kind,reason,evidence",
    [
        ("crash", "crash", "engine crashed", "segmentation fault"),
        ("hang", "timeout", "time forfeit", "> INFO rule 0"),
        ("late", "timeout", "time forfeit", "> "),
        ("illegal", "illegal", "illegal move", "< 4,4"),
        ("garbage", "protocol", "protocol error", "obviously over there"),
        ("errors", "protocol", "protocol error", "< ERROR Unknown command"),
    ],
)
def test_misbehaving_brains_lose_and_the_match_goes_on(mode, kind, reason, evidence):
    report = _match([pbrain(mode), pbrain("sane", "good")], games=2)
    assert len(report.results) == 2  # both games played: the bad brain was restarted
    for result in report.results:
        assert result.failure is not None
        assert result.failure.engine == mode and result.failure.kind == kind
        assert result.outcome.reason.startswith(reason)
        loser = result.failure.colour
        assert result.outcome.winner == 1 - loser
        assert any(evidence in line for line in result.failure.output)
    summary = report.to_json()
    assert (summary["wins"], summary["losses"], summary["draws"]) == (0, 2, 0)
    assert summary["game_results"][0]["failure"]["kind"] == kind


@pytest.mark.parametrize("startup,forfeits", [(None, 0), (0.0, 2)])
def test_the_first_move_of_a_game_has_a_startup_allowance(startup, forfeits):
    # the brain takes 0.8 s over its first move at 0.3 s a move: within the default 1 s
    # start-up allowance, a time forfeit without it
    report = _match(
        [pbrain("slowstart"), pbrain("sane", "good")], st=0.3, timemargin=0.1, startup=startup
    )
    failures = [r.failure for r in report.results if r.failure is not None]
    assert len(failures) == forfeits
    assert all(f.engine == "slowstart" and f.kind == "timeout" for f in failures)
    if not forfeits:
        assert all(r.outcome.reason in ("five in a row", "board full") for r in report.results)


def test_a_dropped_turn_is_sent_again_once():
    # the brain answers its first TURN of each game with ERROR (a command it dropped): the
    # arena replays it once and the game goes on
    report = _match([pbrain("dropturn"), pbrain("sane", "good")], games=2)
    for result in report.results:
        assert result.failure is None
        assert result.outcome.reason in ("five in a row", "board full")


def test_brain_with_openings_gets_the_board(tmp_path):
    path = tmp_path / "o.txt"
    path.write_text("0,0 1,1 -1,0\n")
    report = _match([pbrain("sane", "a"), pbrain("sane", "b")], games=2, openings=str(path))
    for result in report.results:
        assert result.moves[:3] == ["4,4", "5,5", "3,4"]
        assert result.failure is None


def test_uci_engines_play_chess_and_save_pgn(tmp_path):
    sane = f"{fake_cmd('fake_uci.py', 'sane')} proto=uci name=sane"
    config = build_config(
        [sane, "plies:random?seed=1"], st=0.5, max_moves=20, games=2, concurrency=1
    )
    assert config.setup.game == "chess"
    report = run_match(config)
    writer = GameWriter(tmp_path)
    for result in report.results:
        assert result.failure is None
        writer.write(result)
    with open(tmp_path / "games.pgn") as f:
        game = chess.pgn.read_game(f)
    assert game.headers["White"] == "sane"
    assert game.headers["TimeControl"] == "*0.5"
    assert "+0.12/1" in game.next().comment


@pytest.mark.parametrize(
    "mode,kind", [("illegal", "illegal"), ("crash", "crash"), ("hang", "timeout")]
)
def test_misbehaving_uci_engines(mode, kind):
    bad = f"{fake_cmd('fake_uci.py', mode)} proto=uci name=bad"
    config = build_config([bad, "plies:random?seed=2"], st=0.2, games=2, concurrency=1)
    report = run_match(config)
    assert [r.failure.kind for r in report.results] == [kind, kind]
    assert report.to_json()["losses"] == 2


def test_process_engine_without_limits_is_refused():
    from plies.errors import InvalidOption

    with pytest.raises(InvalidOption, match="give a time control"):
        build_config([pbrain("sane"), "plies:random"], size="9")
