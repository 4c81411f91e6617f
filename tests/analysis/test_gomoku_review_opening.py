"""The review under an opening rule: no suggested move breaks it; a move that does is an
error; ``plies show`` and ``plies play`` give the same one-line error (exit code 2)."""

import pytest

from plies.analysis.gomoku import review_record
from plies.analysis.review import Budget
from plies.cli import main
from plies.errors import InvalidRecord
from plies.gomoku import opening_rule
from plies.gomoku.notation import parse_move
from plies.gomoku.records import read_record

BUDGET = Budget(nodes=500, solver_nodes=500)


def test_review_suggests_only_legal_opening_moves():
    record = read_record("# rule: caro\n# opening: pro\n# size: 15\nh8 i9 k8 j9 h9")
    review = review_record(record, BUDGET).to_dict()
    assert review["game"]["opening_rule"] == "pro"
    third = review["moves"][2]
    assert third["lines"]
    for line in third["lines"]:
        m = parse_move(line["move"], 15, 15)
        assert opening_rule.violation("pro", 15, 15, 2, m) is None, line["move"]
    first = review["moves"][0]
    assert all(line["move"] == "h8" for line in first["lines"])


def test_review_of_a_game_breaking_the_rule_is_an_error():
    record = read_record("# rule: caro\n# size: 15\nh8 i9 i8 j9")
    with pytest.raises(InvalidRecord, match="move 3: 8,7 \\(i8\\) breaks the pro opening"):
        review_record(record, BUDGET, opening="pro")


def test_cli_errors_are_one_line(tmp_path, capsys):
    game = tmp_path / "g.txt"
    game.write_text("# rule: caro\n# size: 15\nh8 i9 i8\n")
    for argv in (
        ["show", str(game), "--opening", "pro"],
        ["play", "--rule", "caro", "--moves", "h8 i9 i8", "--engine", "none"],
    ):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err
        assert "breaks the pro opening rule" in err
