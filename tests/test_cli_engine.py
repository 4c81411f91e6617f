"""The engine's CLI verbs: play, bench, solve (through click's runner, on small budgets)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from plies.cli import cli, main


def test_play_engine_against_engine_finishes_and_saves(tmp_path) -> None:
    out = tmp_path / "game.psq"
    result = CliRunner().invoke(
        cli,
        ["play", "--engine", "both", "--depth", "2", "--size", "9", "--save", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "result:" in result.output
    assert out.exists() and out.read_text().startswith("Piskvorky 9x9")


def test_play_human_moves_undo_and_quit() -> None:
    result = CliRunner().invoke(
        cli,
        ["play", "--engine", "white", "--depth", "1"],
        input="h8\nzz9\nundo\nh8\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "you played h8" in result.output
    assert "error:" in result.output  # zz9 is no move; the game goes on
    assert "not finished" in result.output


def test_bench_prints_nodes_speed_and_signature() -> None:
    result = CliRunner().invoke(cli, ["bench", "gomoku", "--nodes", "2000"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-3].endswith(" nodes")
    assert lines[-2].endswith(" nodes/s")
    assert lines[-1].startswith("signature ")


def test_bench_signature_is_deterministic() -> None:
    runs = [CliRunner().invoke(cli, ["bench", "gomoku", "--nodes", "1500"]) for _ in range(2)]
    assert runs[0].output.splitlines()[-1] == runs[1].output.splitlines()[-1]


def test_solve_finds_a_vcf_and_reports_none() -> None:
    runner = CliRunner()
    won = runner.invoke(cli, ["solve", "gomoku", "--moves", "h8 a1 i8 a3 h9 a5 h10 a7"])
    assert won.exit_code == 0 and "black wins by VCF" in won.output
    none = runner.invoke(cli, ["solve", "gomoku", "--moves", "h8 h9"])
    assert none.exit_code == 0 and "no VCF found for black" in none.output


def test_solve_rejects_bad_input_with_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["solve", "gomoku", "--moves", "h8 h8"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "occupied" in err and err.count("\n") == 1
