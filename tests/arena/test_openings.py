"""Opening files: offset lines, records, the 26 Renju openings, EPD and PGN."""

import pytest

from plies.arena.game import GameSetup
from plies.arena.openings import load_openings, order_openings, parse_offset_line, renju_openings
from plies.errors import InvalidOption, InvalidRecord, PliesError
from plies.gomoku.board import Board

GOMOKU15 = GameSetup("gomoku", "freestyle", 15, 15)


def test_offset_lines_both_separators():
    # c-gomoku-cli's example line, and the space-separated form
    assert parse_offset_line("8,-3, 6,-4, 5,-4", GameSetup("gomoku", "freestyle", 20, 20)) == (
        "18,7", "16,6", "15,6",
    )  # fmt: skip
    assert parse_offset_line("0,0 1,0 -1,1", GOMOKU15) == ("7,7", "8,7", "6,8")
    # rectangular: the centre is (width // 2, height // 2)
    assert parse_offset_line("0,0", GameSetup("gomoku", "freestyle", 20, 15)) == ("10,7",)
    with pytest.raises(ValueError):
        parse_offset_line("0,0 1", GOMOKU15)
    with pytest.raises(ValueError):
        parse_offset_line("0,0 h8", GOMOKU15)


def test_offset_file(tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text("# two openings\n0,0, 1,0, -1,1\n\n0,0 0,1\n")
    openings = load_openings(str(path), GOMOKU15)
    assert [o.moves for o in openings] == [("7,7", "8,7", "6,8"), ("7,7", "7,8")]
    assert openings[1].name == "openings.txt:4"


def test_bad_offset_files(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0,0 1,0\n0,0 x,1\n")
    with pytest.raises(InvalidRecord, match="bad.txt:2"):
        load_openings(str(bad), GOMOKU15)
    off = tmp_path / "off.txt"
    off.write_text("0,0 9,9\n")
    with pytest.raises(InvalidOption, match="off the 15x15 board"):
        load_openings(str(off), GOMOKU15)
    twice = tmp_path / "twice.txt"
    twice.write_text("0,0 0,0\n")
    with pytest.raises(InvalidOption, match="occupied"):
        load_openings(str(twice), GOMOKU15)
    with pytest.raises(InvalidOption, match="cannot read openings file"):
        load_openings(str(tmp_path / "missing.txt"), GOMOKU15)


def test_renju_openings():
    openings = renju_openings(GameSetup("gomoku", "renju", 15, 15))
    assert len(openings) == 26
    assert openings[0].moves == ("7,7", "7,6", "7,5")  # h8 h9 h10
    assert openings[13].moves == ("7,7", "8,6", "9,5")  # h8 i9 j10
    shapes = set()
    for i, opening in enumerate(openings):
        black, white, third = [tuple(map(int, m.split(","))) for m in opening.moves]
        assert black == (7, 7)
        assert white == ((7, 6) if i < 13 else (8, 6))  # indirect, then direct
        assert max(abs(third[0] - 7), abs(third[1] - 7)) <= 2  # within the central 5x5
        Board.from_moves(list(opening.moves), 15, "renju")  # legal
        shapes.add(opening.moves)
    assert len(shapes) == 26
    assert len(load_openings("renju26", GameSetup("gomoku", "renju", 15, 15))) == 26


def test_psq_opening_and_size_check(tmp_path):
    path = tmp_path / "o.psq"
    path.write_text("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n-1\n")
    (opening,) = load_openings(str(path), GOMOKU15)
    assert opening.moves == ("7,7", "8,8", "7,8")
    (short,) = load_openings(str(path), GOMOKU15, plies=2)
    assert short.moves == ("7,7", "8,8")
    with pytest.raises(InvalidOption, match="15 board"):
        load_openings(str(path), GameSetup("gomoku", "freestyle", 20, 20))


def test_chess_epd_and_pgn(tmp_path):
    epd = tmp_path / "o.epd"
    epd.write_text(
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";\n'
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\n"
    )
    openings = load_openings(str(epd), GameSetup("chess"))
    assert openings[0].fen.split()[1] == "b"
    assert openings[1].fen == "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
    pgn = tmp_path / "o.pgn"
    pgn.write_text('[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event "b"]\n\n1. d4 d5 *\n')
    openings = load_openings(str(pgn), GameSetup("chess"), plies=3)
    assert [o.moves for o in openings] == [("e2e4", "e7e5", "g1f3"), ("d2d4", "d7d5")]
    bad = tmp_path / "bad.epd"
    bad.write_text("not a fen at all\n")
    with pytest.raises(PliesError, match="bad.epd:1"):
        load_openings(str(bad), GameSetup("chess"))


def test_order(tmp_path):
    openings = renju_openings(GOMOKU15)
    assert order_openings(openings) == openings
    shuffled = order_openings(openings, "random", seed=7)
    assert shuffled == order_openings(openings, "random", seed=7)
    assert shuffled != openings and sorted(shuffled, key=lambda o: o.name) == sorted(
        openings, key=lambda o: o.name
    )


def test_openings_from_stdin(monkeypatch):
    """``--openings -`` reads standard input; its kind comes from the content."""
    import io

    def from_stdin(text: str, setup: GameSetup):
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        return load_openings("-", setup)

    openings = from_stdin("0,0 1,0\n0,0 0,1\n", GOMOKU15)
    assert [o.moves for o in openings] == [("7,7", "8,7"), ("7,7", "7,8")]
    assert openings[1].name == "<stdin>:2"
    psq = "Piskvorky 15x15, 0:0, 0\n8,8,0\n9,8,0\n"
    assert from_stdin(psq, GOMOKU15)[0].moves == ("7,7", "8,7")
    chess = GameSetup("chess")
    assert from_stdin('[Event "x"]\n\n1. e4 e5 *\n', chess)[0].moves == ("e2e4", "e7e5")
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert from_stdin(fen + "\n", chess)[0].fen == fen
    with pytest.raises(InvalidRecord, match="<stdin>:1"):
        from_stdin("0,0 x,1\n", GOMOKU15)
