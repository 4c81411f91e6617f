"""The command line's rough edges a new user found (issue 20, item 3): help texts that match
the code, errors that quote what the user typed, ``-`` for stdin, and clearer output."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from plies.cli import cli, main


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def one_error_line(capsys, argv: list[str]) -> str:
    """Run ``plies argv`` expecting exit 2 and one ``error:`` line; return that line."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err.strip()


# --- 1. help texts match the code ------------------------------------------------------------
def test_bench_help_quotes_the_real_default_depths(runner):
    from plies.chess.engine.bench import DEFAULT_DEPTH as CHESS
    from plies.gomoku.engine.bench import DEFAULT_DEPTH as GOMOKU

    text = " ".join(runner.invoke(cli, ["bench", "--help"]).output.split())
    assert f"gomoku {GOMOKU}, chess {CHESS}" in text
    assert "default 8" not in text


def test_bench_dots_rejects_limits(capsys, monkeypatch):
    compiled = []  # the error comes before any kernel compiles (a cold cache took 28 s)
    monkeypatch.setattr("plies.cli._ensure_kernels", compiled.append)
    assert "no --depth or --nodes" in one_error_line(capsys, ["bench", "dots", "--depth", "3"])
    assert compiled == []


def test_every_option_is_described(runner):
    """Each option of each verb has a help text (the new user found three without)."""
    verbs = [name for name in cli.commands if name != "train"] + ["train gomoku"]
    for verb in verbs:
        command = cli
        for word in verb.split():
            command = command.commands[word]
        for param in command.params:
            if isinstance(param, click.Option) and param.name != "help":
                record = param.get_help_record(click.Context(command, info_name=verb))
                described = record is not None and not record[1].startswith("[")
                assert described, (verb, param.name)


def test_help_defaults_come_from_the_code(runner):
    from plies.analysis.session import DEFAULT_MOVETIME
    from plies.arena.timecontrol import DEFAULT_MARGIN, DEFAULT_STARTUP

    text = " ".join(runner.invoke(cli, ["match", "--help"]).output.split())
    assert f"time loss (default {DEFAULT_MARGIN:g})" in text
    assert f"may take (default {DEFAULT_STARTUP:g})" in text
    text = " ".join(runner.invoke(cli, ["analyze", "--help"]).output.split())
    assert f"Seconds per position (default {DEFAULT_MOVETIME:g}" in text


# --- 2. errors quote what the user typed -----------------------------------------------------
def test_show_quotes_an_off_board_move(capsys, tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text("h8 h9 z99\n")
    line = one_error_line(capsys, ["show", str(path)])
    assert line == f"error: {path}:1: move 3 'z99' is off the 15x15 board"


def test_solve_dots_quotes_a_bad_line(capsys):
    line = one_error_line(capsys, ["solve", "dots", "3x3", "--moves", "h9,9"])
    assert line == "error: no line 'h9,9' on a 3x3 board"
    line = one_error_line(capsys, ["solve", "dots", "2x2", "--moves", "99"])
    assert line == "error: no line '99' on a 2x2 board"


def test_show_says_why_a_forbidden_move_lost(runner, tmp_path):
    path = tmp_path / "foul.txt"
    path.write_text("# rule: renju\ng8 a1 i8 a3 h7 a5 h9 a7 h8\n")
    result = runner.invoke(cli, ["show", str(path)])
    assert "black's move h8 is forbidden (double three)" in result.stdout


def test_play_says_why_a_move_is_forbidden(runner):
    result = runner.invoke(
        cli,
        ["play", "--rule", "renju", "--engine", "none", "--moves", "g8 a1 i8 a3 h7 a5 h9 a7"],
        input="h8\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "is forbidden for black (double three)" in result.output


# --- 7. undo says what it took back ----------------------------------------------------------
def test_play_undo_names_the_moves_taken_back(runner):
    result = runner.invoke(
        cli, ["play", "--engine", "none", "--moves", "h8 h9"], input="undo\nundo\nundo\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "took back h9\n" in out and "took back h8\n" in out
    assert "nothing to take back" in out
    result = runner.invoke(
        cli, ["play", "--engine", "white", "--depth", "1"], input="h8\nundo\nquit\n"
    )
    reply = next(line for line in result.output.splitlines() if "score" in line).split()[0]
    assert f"took back {reply} and h8" in result.output


# --- 3. nothing to review is an error --------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "no moves to review"),
        ("# rule: renju\n# black: Alice\n", "no moves to review"),
        ("Piskvorky 15x15, 0:0, 0\n", "no moves to review"),
        ('[Event "x"]\n[White "a"]\n\n*\n', "no moves in the PGN"),
    ],
    ids=["empty", "headers-only", "psq-header-only", "pgn-no-moves"],
)
def test_analyze_a_record_without_moves_is_an_error(capsys, tmp_path, content, message):
    path = tmp_path / ("game.psq" if content.startswith("Piskvorky") else "game.txt")
    path.write_text(content)
    assert one_error_line(capsys, ["analyze", str(path), "--nodes", "100"]).endswith(message)


# --- 4. "-" reads standard input -------------------------------------------------------------
def test_show_and_solve_read_stdin(runner):
    result = runner.invoke(cli, ["show", "-"], input="# rule: renju\nh8 h9 i10\n")
    assert result.exit_code == 0, result.output
    assert "rule: renju   size: 15x15   moves: 3" in result.stdout
    result = runner.invoke(cli, ["solve", "gomoku", "-"], input="h8 a1 i8 a3 h9 a5 h10 a7\n")
    assert result.exit_code == 0, result.output
    assert "black wins by VCF" in result.stdout


def test_analyze_stdin_without_moves_is_an_error(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert one_error_line(capsys, ["analyze", "-"]) == "error: <stdin>: no moves to review"


# --- 7. the review's terminal output: Book counts, a wide console off a terminal --------------
# white's last move (h11) lets black gain: a verdict with "Best was" and the chances
GAME = "# rule: renju\nh8 h9 i10 g8 j9 g10 i9 h11\n"
REVIEW = ["--nodes", "2000", "--workers", "1", "--no-cache"]


def test_analyze_summary_counts_book_moves_and_is_wide_off_a_terminal(runner, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME)
    result = runner.invoke(cli, ["analyze", str(path), *REVIEW], env={"COLUMNS": ""})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Black: Accuracy" in out and "(Book 2," in out  # h8, i10 are the opening's moves
    assert "White: Accuracy" in out and "(Book 1," in out
    # the explanation column is not squeezed into 80 columns
    assert max(len(line) for line in out.splitlines()) > 100
    explained = [line for line in out.splitlines() if "Best was" in line]
    assert explained and all(" winning chances " in line for line in explained)


def test_width_option_and_columns_variable(runner, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME)
    for args, env, width in [
        (["--width", "70"], {}, 70),
        ([], {"COLUMNS": "90"}, 90),
    ]:
        result = runner.invoke(cli, ["analyze", str(path), *REVIEW, *args], env=env)
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        table = [line for line in lines if line[:1] in "┏┃┡│└"]
        assert table and max(len(line) for line in table) <= width
        assert max(len(line) for line in table) > width - 10
    result = runner.invoke(cli, ["demo", "--width", "60"])
    assert result.exit_code == 0, result.output


def test_analyze_reads_the_book_from_stdin(runner, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("h8 h9 i10 g8 j9 g10 i9 i8\n")
    book = "# my book\nh8 h9 i10 g8 j9 g10\n"  # longer than any of the 26 Renju openings
    result = runner.invoke(cli, ["analyze", str(path), *REVIEW, "--book", "-"], input=book)
    assert result.exit_code == 0, result.output
    assert "Black: Accuracy" in result.stdout and "(Book 3," in result.stdout


def test_the_game_and_the_book_cannot_both_come_from_stdin(capsys):
    line = one_error_line(capsys, ["analyze", "-", "--book", "-"])
    assert line == "error: the game and --book cannot both be read from standard input"
