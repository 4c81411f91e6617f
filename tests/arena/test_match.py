"""Matches and tournaments: scheduling, adjudication, significance, interruption, backends."""

import json
import math

import pytest

from plies.arena import build_config, run_match
from plies.arena.adjudication import Adjudication, Adjudicator, parse_draw, parse_resign
from plies.arena.match import repeat_notice, schedule
from plies.cli import main
from plies.errors import InvalidOption

from .fakes import pbrain

SMALL = {"size": "9", "concurrency": 1}


def test_schedule_swaps_colours_on_the_same_opening(tmp_path):
    path = tmp_path / "o.txt"
    path.write_text("0,0\n0,0 1,0\n")
    config = build_config(
        ["plies:random?seed=1", "plies:random?seed=2"], games=6, openings=str(path), **SMALL
    )
    jobs = list(schedule(config))
    assert len(jobs) == 6
    for first, second in zip(jobs[::2], jobs[1::2], strict=True):
        assert first.pair == second.pair
        assert first.opening == second.opening
        assert first.engine_ids == (0, 1) and second.engine_ids == (1, 0)
    assert [j.opening.moves for j in jobs[::2]] == [("4,4",), ("4,4", "5,4"), ("4,4",)]


def test_repeated_openings_are_announced(tmp_path):
    """26 openings and 400 games: 200 pairs, each opening played about 8 times, which
    fixed-node engines replay move for move (session 28 found Renju self-play SPRTs of 400
    games that held 52 distinct games)."""
    path = tmp_path / "o.txt"
    path.write_text("".join(f"{i % 6 - 3},{i // 6 - 2}\n" for i in range(26)))
    many = build_config(["plies:random", "plies:random"], games=400, openings=str(path), **SMALL)
    notice = repeat_notice(many)
    assert notice is not None and "200 game pairs" in notice and "over 26 openings" in notice
    enough = build_config(["plies:random", "plies:random"], games=52, openings=str(path), **SMALL)
    assert repeat_notice(enough) is None
    odd = build_config(["plies:random", "plies:random"], games=53, openings=str(path), **SMALL)
    assert repeat_notice(odd) is not None  # the 27th pair reuses the first opening
    assert repeat_notice(build_config(["plies:random", "plies:random"], games=2, **SMALL)) is None
    start = repeat_notice(build_config(["plies:random", "plies:random"], games=4, **SMALL))
    assert start is not None and "2 game pairs" in start and "starting position" in start


def test_round_robin_and_gauntlet_pairings():
    engines = [f"plies:random?seed={i}" for i in range(4)]
    rr = build_config(engines, fmt="round-robin", games=2, **SMALL)
    assert len(list(schedule(rr))) == 12
    gauntlet = build_config(engines, fmt="gauntlet", games=2, **SMALL)
    assert {j.engine_ids for j in schedule(gauntlet)} == {
        (0, 1),
        (1, 0),
        (0, 2),
        (2, 0),
        (0, 3),
        (3, 0),
    }
    with pytest.raises(InvalidOption, match="exactly 2 engines"):
        build_config(engines, **SMALL)


def test_stronger_engine_wins_with_significance():
    # depth 2 against a random mover, SPRT [0, 200] normalised Elo: the SPRT must accept H1
    # and stop the match early; the sign test computed here agrees
    config = build_config(
        ["plies:gomoku?depth=2", "plies:random?seed=5"],
        games=30,
        sprt="0,200",
        **SMALL,
    )
    report = run_match(config)
    summary = report.to_json()
    assert summary["sprt"]["result"] == "H1"
    assert 6 <= summary["games_played"] < 30
    decisive = summary["wins"] + summary["losses"]
    p_value = (
        sum(math.comb(decisive, k) for k in range(summary["wins"], decisive + 1)) / 2**decisive
    )
    assert p_value < 0.01
    assert summary["los"] > 0.99


def test_move_cap_and_score_adjudication():
    config = build_config(
        ["plies:random?seed=1", "plies:random?seed=2"], games=2, max_moves=6, **SMALL
    )
    for result in run_match(config).results:
        assert result.outcome.winner is None and "6-move cap" in result.outcome.reason
        assert len(result.moves) == 6
    adjudicator = Adjudicator(Adjudication(**parse_resign("movecount=2,score=500")))
    assert adjudicator.after_move(0, -600, 1) is None
    assert adjudicator.after_move(1, 600, 2) is None
    assert adjudicator.after_move(0, -700, 3).winner == 1
    twosided = Adjudicator(Adjudication(**parse_resign("movecount=2,score=500,twosided=true")))
    for ply, (side, score) in enumerate([(0, -600), (1, 100), (0, -600), (1, 100)]):
        assert twosided.after_move(side, score, ply) is None
    draw = Adjudicator(Adjudication(**parse_draw("movenumber=4,movecount=2,score=10")))
    results = [draw.after_move(i % 2, 5, i + 1) for i in range(5)]
    assert results[:3] == [None, None, None] and results[3].winner is None
    with pytest.raises(InvalidOption):
        parse_resign("movecount=2")
    with pytest.raises(InvalidOption):
        parse_draw("movecount=x,score=3")


def test_score_adjudication_in_real_games():
    # scores reported by the in-process engine reach the adjudicator: a resign threshold every
    # score passes makes black resign at its first engine move; a draw band every score falls
    # in draws the game as soon as both engines have reported once after move 2
    engines = ["plies:gomoku?depth=1", "plies:gomoku?depth=2"]
    resign = build_config(engines, games=1, resign="movecount=1,score=-1000000", **SMALL)
    (result,) = run_match(resign).results
    assert result.outcome.winner == 1 and result.outcome.reason == "adjudication: resign"
    assert len(result.moves) == 1
    draw = build_config(engines, games=1, draw="movenumber=2,movecount=1,score=1000000", **SMALL)
    (result,) = run_match(draw).results
    assert result.outcome.winner is None and result.outcome.reason == "adjudication: draw by score"
    assert len(result.moves) == 2


def test_interrupt_keeps_finished_games():
    config = build_config(["plies:random?seed=1", "plies:random?seed=2"], games=8, **SMALL)

    def stop_after_three(report, result):
        if len(report.results) == 3:
            raise KeyboardInterrupt

    report = run_match(config, stop_after_three)
    assert report.interrupted and len(report.results) == 3
    assert report.to_json()["interrupted"] is True


def test_pool_backend_and_tournament_table():
    engines = [
        pbrain("sane", "brain", "st=0.5"),
        "plies:random?seed=1",
        "plies:gomoku?depth=1",
    ]
    config = build_config(engines, fmt="round-robin", games=2, size="9", concurrency=2)
    report = run_match(config)
    assert len(report.results) == 6
    table = report.to_json()
    points = {row["engine"]: row["points"] for row in table["standings"]}
    assert sum(points.values()) == 6
    cross = table["crosstable"]
    assert cross["brain"]["random(seed=1)"] + cross["random(seed=1)"]["brain"] == 2


def test_cli_match_writes_games_and_json(tmp_path, capsys):
    out = tmp_path / "run"
    summary = tmp_path / "s.json"
    main(
        [
            "match", "--engine", "plies:gomoku?depth=1", "--engine", "plies:random?seed=4",
            "--size", "9", "--games", "2", "--concurrency", "1", "--out", str(out),
            "--json", str(summary), "--game-format", "sgf",
        ]
    )  # fmt: skip
    data = json.loads(summary.read_text())
    for key in ("wins", "losses", "draws", "elo", "elo_error"):
        assert key in data
    assert data["wins"] + data["losses"] + data["draws"] == 2
    assert len(list(out.glob("*.sgf"))) == 2
    assert (out / "summary.json").exists()
    assert "Score of gomoku(depth=1) vs random(seed=4)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args,message",
    [
        (["--engine", "plies:gomoku?depth", "--engine", "plies:random"], "cannot read options"),
        (["--engine", "plies:gomoku?speed=1", "--engine", "plies:random"], "unknown option"),
        (["--engine", "cmd=/x bogus", "--engine", "plies:random"], "expected key=value"),
        (
            ["--engine", "plies:random", "--engine", "plies:random", "--openings", "/nonexistent"],
            "cannot read openings file",
        ),
        (["--engine", "plies:random", "--engine", "plies:random", "--tc", "fast"], "time control"),
        # a missing program is named before anything else (here: no time control either)
        (
            ["--engine", "cmd=/nonexistent", "--engine", "plies:gomoku?nodes=100"],
            "engine nonexistent: no such file '/nonexistent'",
        ),
        (
            ["--engine", f"cmd={__file__}", "--engine", "plies:random"],  # a -rw- file
            f"'{__file__}' is not an executable file",
        ),
        (
            ["--engine", "cmd='no-such-engine-c20 --x'", "--engine", "plies:random"],
            "no program 'no-such-engine-c20' on the PATH",
        ),
    ],
)
def test_cli_errors_are_one_line(args, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["match", *args, "--out", str(tmp_path / "x")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_ray_backend_plays_a_few_games():
    pytest.importorskip("ray")
    config = build_config(
        ["plies:random?seed=1", "plies:random?seed=2"],
        games=4,
        size="9",
        concurrency=2,
        backend="ray",
    )
    report = run_match(config)
    assert len(report.results) == 4
    assert sorted(r.job.index for r in report.results) == [0, 1, 2, 3]


def test_search_library_agents_play_in_the_arena() -> None:
    # plies.search's Gomoku agents run through AgentPlayer (reset() before each game)
    config = build_config(
        ["plies:gomoku-alphabeta?depth=1", "plies:random?seed=1"],
        size="7",
        games=2,
        concurrency=1,
    )
    report = run_match(config)
    assert len(report.results) == 2
    assert all(r.failure is None for r in report.results)


def test_unknown_search_agent_option_is_a_one_line_error() -> None:
    with pytest.raises(InvalidOption, match="depht"):
        run_match(build_config(["plies:gomoku-alphabeta?depht=1", "plies:random"], games=2))


def test_renju_black_with_only_forbidden_cells_left_is_a_draw() -> None:
    from plies.arena.game import GameSetup, Opening
    from plies.arena.referees import make_referee

    referee = make_referee(GameSetup("gomoku", "renju", 7, 7), Opening(()))
    assert referee.outcome() is None  # black to move, plenty of playable cells
    board = referee.board
    # fill the board except d7, where black would make an overline (X X X . X X X)
    for y in range(7):
        for x in range(7):
            if y == 0:
                if x != 3:
                    board.put((x, y), 1)
                continue
            board.put((x, y), 1 if ((x + 2 * y) // 2) % 2 == 0 else 2)
    outcome = referee.outcome()
    assert outcome is not None and outcome.winner is None
    assert "forbidden" in outcome.reason


def test_tournament_prints_standings_and_crosstable():
    """The text summary of a tournament: Elo that reads sensibly (no -0.0; +inf when one
    engine won every game) and a crosstable of each pair's score."""
    from plies.arena.display import elo_text, score_lines

    assert elo_text(-0.0001, 798.1, 1.0, 2) == "0.0 +- 798.1"
    assert elo_text(35.24, 60.12, 3, 5) == "+35.2 +- 60.1"
    assert elo_text(None, None, 4.0, 4) == "+inf (every game won)"
    assert elo_text(None, None, 0.0, 4) == "-inf (every game lost)"
    assert elo_text(120.0, None, 3.5, 4) == "+120.0 +- inf"
    assert elo_text(10.0, 1500.0, 1.5, 2) == "+10.0 +- huge (too few games)"
    assert elo_text(None, None, 0.0, 0) == "n/a (no games)"
    engines = ["plies:random?seed=1", "plies:random?seed=2", "plies:gomoku?depth=1"]
    report = run_match(build_config(engines, fmt="round-robin", games=2, **SMALL))
    text = "\n".join(score_lines(report))
    assert "-0.0" not in text
    assert "Crosstable" in text
    cross = report.crosstable()
    lines = score_lines(report)
    rows = [line for line in lines[lines.index(next(x for x in lines if "Crosstable" in x)) + 2 :]]
    assert len(rows) == 3
    order = [row["engine"] for row in report.standings()]
    for k, line in enumerate(rows):
        name = order[k]
        assert line.split()[:2] == [str(k + 1), name]
        cells = line[line.index(name) + len(name) :].split()
        for j, other in enumerate(order):
            if other == name:
                assert cells[j] == "-"
            else:
                assert cells[j] == f"{cross[name][other]:g}-{cross[other][name]:g}"


def test_prepare_move_runs_off_the_clock_and_its_failure_loses() -> None:
    """``Player.prepare_move`` runs before each move's clock starts; a failure there is the
    player's loss like one in ``think``."""
    import time

    from plies.arena import EngineFailure, GameJob, GameSetup, Opening, parse_engine_spec
    from plies.arena.engines.inprocess import RandomPlayer
    from plies.arena.play import play_game
    from plies.arena.timecontrol import parse_tc

    class Slow(RandomPlayer):
        calls = 0

        def prepare_move(self) -> None:
            Slow.calls += 1
            time.sleep(0.03)  # longer than the 10 ms a move (margin 0): not charged
            if Slow.calls == 4:
                raise EngineFailure("protocol", "broken between moves")

    tc = parse_tc(None, 0.01, 0.0)
    specs = (parse_engine_spec("plies:random name=a"), parse_engine_spec("plies:random name=b"))
    job = GameJob(0, 0, GameSetup(), Opening(), specs, (0, 1), (tc, tc))
    result = play_game(job, (Slow({"seed": "1"}, "a"), RandomPlayer({"seed": "2"}, "b")))
    assert Slow.calls == 4 and len(result.moves) == 6
    assert result.failure is not None and result.failure.kind == "protocol"
    assert result.failure.colour == 0 and result.outcome.winner == 1
