"""Review outputs: JSON against its schema, catalogues, terminal table, HTML, the CLI."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from plies.analysis.gomoku import review_record
from plies.analysis.i18n import CATALOGUES, translator
from plies.analysis.report.html import render_html
from plies.analysis.report.json import review_json
from plies.analysis.report.terminal import print_review
from plies.analysis.review import Budget
from plies.cli import cli
from plies.gomoku.records import read_record

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "review-schema.json"
GAME = "h8 h9 i9 g7 j10 k11 j8 i8 j7 j9 j6 j5"


@pytest.fixture(scope="module")
def reviews():
    record = read_record(GAME, rule="renju")
    budget = Budget(nodes=2000, solver_nodes=2000)
    return {lang: review_record(record, budget, lang=lang) for lang in ("en", "vi")}


def test_catalogues_have_the_same_keys_and_placeholders():
    en, vi = CATALOGUES["en"], CATALOGUES["vi"]
    assert set(en) == set(vi)
    for key in en:
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", vi[key])), key
    assert translator("vi")("note_blocks_four", move="h8", opp="Trắng") == (
        "Nước h8 chặn đường bốn của Trắng."
    )


def test_json_matches_schema(reviews):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for review in reviews.values():
        data = json.loads(json.dumps(review_json(review)))
        jsonschema.Draft202012Validator(schema).validate(data)
        assert data["schema_version"] == 1
        assert [m["ply"] for m in data["moves"]] == list(range(1, 13))
    bad = review_json(reviews["en"])
    bad["moves"][0]["classification"] = "brilliant"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_terminal_and_html(reviews, capsys):
    from rich.console import Console

    console = Console(width=160, force_terminal=False)
    print_review(reviews["vi"], console)
    out = capsys.readouterr().out
    assert "Độ chính xác" in out and "Khai cuộc" in out
    html = render_html(reviews["en"])
    assert "<svg" in html and 'id="chart"' in html and "review-data" in html
    assert not re.search(r"(src|href)=\"https?:", html)  # self-contained
    assert "http://www.w3.org/2000/svg" in html
    assert "Phân tích ván cờ" in render_html(reviews["vi"])


def test_cli_analyze(tmp_path, monkeypatch):
    monkeypatch.setenv("PLIES_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "game.txt"
    game.write_text("# rule: freestyle\ne5 k11 f5 m9 g5 c12 a15\n")
    args = ["analyze", str(game), "--nodes", "2000", "--workers", "1", "--json",
            str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Missed win" in result.output and "Accuracy" in result.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["moves"][6]["classification"] == "missed_win"
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    # the second run comes from the cache, with the same verdicts
    again = CliRunner().invoke(cli, args + ["--lang", "vi"])
    assert again.exit_code == 0 and "Bỏ lỡ thắng" in again.output
    assert (
        json.loads((tmp_path / "r.json").read_text())["moves"][6]["loss"]
        == (data["moves"][6]["loss"])
    )
    nocache = CliRunner().invoke(cli, args + ["--no-cache"])
    assert nocache.exit_code == 0
