"""The ``plies`` command line (plies.cli) and the installed ``pbrain-plies`` script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import plies
from plies.cli import cli, main
from plies.warmup import WARMUPS, resolve

DATA = Path(__file__).resolve().parent / "data" / "records"
BAD_PSQ = "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,x,0\n"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_help_lists_the_verbs(runner):
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for verb in ("demo", "show", "warmup"):
        assert verb in result.output
    assert runner.invoke(cli, ["--version"]).output.startswith("plies, version ")


def test_demo_shows_the_renju_sample(runner):
    result = runner.invoke(cli, ["demo"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "renju-example.sgf" in out
    assert "rule: renju   size: 15x15   moves: 39" in out
    assert "result: black wins with five: h8 i7 j6 k5 l4" in out
    assert "forbidden points for black (*): i5 m3" in out
    assert "[X]" in out  # the last move, l4, in brackets
    board_rows = [line for line in out.splitlines() if line[:2].strip().isdigit()]
    assert len(board_rows) == 15
    assert board_rows[10].split()[9] == "*"  # i5: row 5, column i, is marked


def test_show_prints_any_record(runner):
    result = runner.invoke(cli, ["show", str(DATA / "standard-variations.sgf")])
    assert result.exit_code == 0, result.output
    assert "rule: standard" in result.stdout
    assert "black: Alice   white: Bob" in result.stdout
    assert "result: black wins with five: k12 k11 k10 k9 k8" in result.stdout


def test_show_options(runner):
    psq = str(DATA / "rect-20x15-slot1.psq")
    result = runner.invoke(cli, ["show", psq, "--rule", "caro", "--forbidden"])
    assert result.exit_code == 0, result.output
    assert "rule: caro   size: 20x15   moves: 38" in result.stdout
    assert "result: white wins with five" in result.stdout
    assert "forbidden points: none (caro has no forbidden moves)" in result.stdout
    result = runner.invoke(cli, ["show", str(DATA / "renju-example.psq"), "--forbidden"])
    assert "forbidden points for black (*): i5 m3" in result.stdout
    result = runner.invoke(cli, ["show", str(DATA / "caro-20x15-pbrain.txt"), "--size", "20x15"])
    assert "size: 20x15" in result.stdout


def test_show_unfinished_game_and_format_option(runner, tmp_path):
    path = tmp_path / "moves.dat"
    path.write_text("h8 h9 i10")
    result = runner.invoke(cli, ["show", str(path), "--format", "text"])
    assert result.exit_code == 0, result.output
    assert "result: not finished (white to move)" in result.stdout


def test_show_forbidden_move_loses(runner, tmp_path):
    path = tmp_path / "foul.txt"
    path.write_text("# rule: renju\ng8 a1 i8 a3 h7 a5 h9 a7 h8\n")
    result = runner.invoke(cli, ["show", str(path)])
    assert result.exit_code == 0, result.output
    assert "result: white wins: black's move h8 is forbidden" in result.stdout


def test_warmup_times_each_registered_function(runner):
    assert "plies.gomoku.rules:warmup" in WARMUPS
    assert all(callable(resolve(entry)) for entry in WARMUPS)
    result = runner.invoke(cli, ["warmup"])
    assert result.exit_code == 0, result.output
    assert "plies.gomoku.rules:warmup" in result.stdout
    assert "total compile time:" in result.stdout


def test_main_prints_one_error_line_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.psq"
    bad.write_text(BAD_PSQ)
    with pytest.raises(SystemExit) as info:
        main(["show", str(bad)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == f"error: {bad}:3: cannot read move '8,x,0': expected x,y or x,y,time_ms\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "no-such-file.psq"], "error: no-such-file.psq: cannot read file"),
        (["show", str(DATA / "rect-20x15-slot1.psq")], "move 32: move 11,9 played after"),
        (["show", str(DATA / "renju-example.psq"), "--size", "30"], "error: unsupported board"),
    ],
)
def test_main_bad_input(args, words, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_main_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["show", "x.psq", "--rule", "chess"])
    assert info.value.code == 2
    assert "Invalid value for '--rule'" in capsys.readouterr().err


def test_main_success_returns_normally(capsys):
    main(["demo"])
    assert "black wins with five" in capsys.readouterr().out


def _script(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"the {name} console script is not installed")
    return found


def test_installed_plies_script_reports_errors(tmp_path):
    bad = tmp_path / "bad.psq"
    bad.write_text(BAD_PSQ)
    proc = subprocess.run(
        [_script("plies"), "show", str(bad)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"error: {bad}:3: cannot read move '8,x,0': expected x,y or x,y,time_ms"
    ]


def test_installed_pbrain_script():
    src = str(Path(plies.__file__).resolve().parents[1])  # this checkout's plies first
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(
        [_script("pbrain-plies")],
        input="START 15\nEND\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == ["OK"]
