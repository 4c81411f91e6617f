"""Seen positions: an opening is seen when a game file went through its position or an opening
file holds it, in any of the eight symmetries and whatever order each side's stones were laid
in; `plies openings filter` and `generate --exclude` leave such openings out."""

from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.cli import main
from plies.errors import InvalidOption
from plies.gomoku import balanced
from plies.gomoku.openings import SYMMETRIES
from plies.gomoku.seen import SeenPositions, position_key

cells = st.tuples(st.integers(-7, 7), st.integers(-7, 7))
positions = st.lists(cells, min_size=1, max_size=8, unique=True)


def same_position(a, b) -> bool:
    """The slow reference: some symmetry maps a's black and white stones onto b's."""
    a_black, a_white = set(a[0::2]), set(a[1::2])
    b_black, b_white = set(b[0::2]), set(b[1::2])
    return any(
        {f(*c) for c in a_black} == b_black and {f(*c) for c in a_white} == b_white
        for f in SYMMETRIES
    )


@settings(max_examples=300, deadline=None)
@given(positions, st.integers(0, 7), st.randoms(use_true_random=False))
def test_key_ignores_symmetry_and_stone_order(moves, symmetry, rng):
    image = [SYMMETRIES[symmetry](*c) for c in moves]
    black, white = image[0::2], image[1::2]
    rng.shuffle(black)
    rng.shuffle(white)
    reordered = [None] * len(image)
    reordered[0::2], reordered[1::2] = black, white
    assert position_key(reordered) == position_key(moves)


@settings(max_examples=300, deadline=None)
@given(positions, positions)
def test_keys_match_exactly_when_the_reference_says_so(a, b):
    assert (position_key(a) == position_key(b)) == same_position(a, b)


def test_swapped_colours_are_another_position():
    assert position_key([(0, 0), (1, 0), (2, 2)]) != position_key([(1, 0), (0, 0), (2, 2)])


def write_games(path, games, **extra):
    text = "\n".join(json.dumps({"moves": g, **extra}) for g in games) + "\n"
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


def test_games_see_every_prefix_and_openings_their_lines(tmp_path):
    games = tmp_path / "games.jsonl.gz"
    write_games(games, [["7,7", "8,7", "8,8", "6,6", "9,9"]])  # 15x15: centre 7,7
    seen = SeenPositions((3, 4, 5), 15, 15)
    assert seen.add_file(games) == 1
    assert [(0, 0), (1, 0), (1, 1)] in seen
    assert [(0, 0), (-1, 0), (-1, -1)] in seen  # mirrored
    assert [(1, 1), (1, 0), (0, 0)] in seen  # black's stones laid the other way round
    assert [(0, 0), (1, 0), (1, 1), (-1, -1)] in seen
    assert [(0, 0), (1, 0), (1, 1), (-1, -1), (2, 2)] in seen
    assert [(0, 0), (1, 1), (1, 0)] not in seen  # colours differ
    assert [(0, 0), (1, 0)] not in seen  # two stones were not asked for
    openings = tmp_path / "set.txt"
    openings.write_text("# a set\n0,0 1,0 2,0\n\n0,0, 0,1, 1,2 1,1\n")
    assert seen.add_file(openings) == 2
    assert [(0, 0), (0, 1), (0, 2)] in seen  # the first line, rotated
    assert [(0, 0), (0, 1), (1, 2), (1, 1)] in seen
    assert [(0, 0), (0, 1), (1, 2)] not in seen  # a line's prefix was never played from
    assert seen.sources == ["games.jsonl.gz", "set.txt"]


def test_a_game_of_its_own_size_and_a_cut_short_file(tmp_path):
    games = tmp_path / "games.jsonl"
    write_games(games, [["10,10", "11,10", "11,11"]], size=20)  # centre of 20x20 is 10,10
    with games.open("a") as handle:
        handle.write('{"moves": ["7,7", "8')  # an interrupted run's last line
    seen = SeenPositions((3,), 15, 15)
    assert seen.add_file(games) == 1
    assert [(0, 0), (1, 0), (1, 1)] in seen


def test_bad_files_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"moves": ["7,7"]}\n{"moves": "x"}\n{"moves": ["7,7"]}\n')
    with pytest.raises(InvalidOption, match="bad.jsonl, line 2: not a game record"):
        SeenPositions((3,)).add_file(bad)
    text = tmp_path / "bad.txt"
    text.write_text("0,0 1,0\n0,0 x\n")
    with pytest.raises(InvalidOption, match="bad.txt, line 2: unexpected 'x'"):
        SeenPositions((3,)).add_file(text)
    with pytest.raises(InvalidOption, match="cannot read .*missing.txt"):
        SeenPositions((3,)).add_file(tmp_path / "missing.txt")


def mirrored(line: str) -> str:
    return " ".join(f"{-int(p.split(',')[0])},{p.split(',')[1]}" for p in line.split())


def test_generate_leaves_out_seen_openings(tmp_path):
    settings_ = balanced.BalanceSettings("freestyle", 9, 9, "free", nodes=200, max_eval=80)
    plain = balanced.generate(settings_, 3)
    excluded = tmp_path / "old.txt"
    excluded.write_text(mirrored(plain[0]) + "\n")
    seen = SeenPositions((3, 4), 9, 9)
    seen.add_file(excluded)
    kept = balanced.generate(settings_, 3, seen=seen)
    assert plain[0] not in kept and kept[:2] == plain[1:]


def test_cli_filter(tmp_path, capsys):
    source = tmp_path / "fresh.txt"
    lines = ["0,0 1,0 1,1", "0,0 -1,0 2,2", "0,0 2,0 1,1 3,3"]
    source.write_text("# three\n" + "\n".join(lines) + "\n")
    games = tmp_path / "train.jsonl.gz"
    write_games(games, [["7,7", "6,7", "6,6", "5,5"], ["7,7", "9,7", "8,8", "10,10", "1,1"]])
    out = tmp_path / "clean.txt"
    main(["openings", "filter", str(source), "--exclude", str(games), "--out", str(out)])
    assert out.read_text().splitlines() == [
        "# 1 of the 3 openings of fresh.txt: none seen in train.jsonl.gz",
        "0,0 -1,0 2,2",
    ]
    assert "1 of 3 openings kept (2 seen)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["openings", "filter", str(tmp_path / "nope.txt"), "--exclude", str(games),
              "--out", str(out)])  # fmt: skip
    assert exit_.value.code == 2


def test_cli_generate_with_exclude_names_the_files(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text("0,0 1,0 1,1\n")
    out = tmp_path / "set.txt"
    main(["openings", "generate", "--size", "9", "--count", "1", "--nodes", "200", "--max-eval",
          "300", "--workers", "1", "--exclude", str(old), "--out", str(out)])  # fmt: skip
    assert out.read_text().splitlines()[0].endswith("seed 1; none seen in old.txt")


def test_generate_never_repeats_a_position(monkeypatch):
    judged = ["0,0 1,0 1,1", "0,0 -1,0 -1,-1", "1,1 1,0 0,0", "0,0 1,0 2,2", "0,0 1,1 1,0"]
    monkeypatch.setattr(
        balanced,
        "_candidates",
        lambda settings, limit, workers: ((i, line, 0) for i, line in enumerate(judged)),
    )
    # the 2nd is the 1st mirrored, the 3rd the 1st with black's stones swapped round; the 5th
    # has the 1st's cells with the colours changed: another position
    assert balanced.generate(balanced.BalanceSettings(), 5) == [judged[0], judged[3], judged[4]]
