"""Game records: .psq, SGF and plain move lists (plies.gomoku.records)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plies.errors import InvalidOption, InvalidRecord
from plies.gomoku import Board, Move
from plies.gomoku.records import (
    FORMATS,
    GameRecord,
    detect_format,
    example_record,
    load_record,
    parse_result,
    parse_rule,
    read_record,
    save_record,
    write_record,
)
from plies.gomoku.rules import RULE_NAMES

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
ROOT = Path(__file__).resolve().parents[2]


def squares(moves, height=15):
    return [m.algebraic(height) for m in moves]


# --- random legal games -------------------------------------------------------------------

NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,8}( [A-Za-z0-9_.-]{1,8})?", fullmatch=True).filter(
    lambda name: name.lower() not in ("homo-1", "homo-2")  # Piskvork's "human player" names
)


@st.composite
def legal_games(draw, max_moves: int = 40) -> GameRecord:
    width = draw(st.integers(5, 22))
    height = draw(st.integers(5, 22))
    rule = draw(st.sampled_from((*RULE_NAMES, None)))
    board = Board(width=width, height=height, rule=rule or "freestyle")
    picks = draw(st.lists(st.integers(0, 10_000), max_size=min(max_moves, width * height)))
    for pick in picks:
        legal = board.moves()
        if not legal:
            break
        board.play(legal[pick % len(legal)])
    return GameRecord(
        width=width,
        height=height,
        rule=rule,
        moves=board.history,
        players=(draw(st.none() | NAMES), draw(st.none() | NAMES)),
        result=draw(st.sampled_from((None, "black", "white", "draw"))),
        event=draw(st.none() | st.text(min_size=1, max_size=20).filter(str.strip)),
        date=draw(st.none() | st.dates().map(str)),
    )


ROUND_TRIP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ROUND_TRIP
@given(legal_games(), st.sampled_from(FORMATS))
def test_round_trip_keeps_moves_size_and_rule(record, fmt):
    text = write_record(record, fmt)
    assert detect_format(text) == fmt
    back = read_record(text, fmt)
    assert (back.width, back.height, back.rule) == (record.width, record.height, record.rule)
    assert back.moves == record.moves
    assert back.to_board().history == record.moves
    if fmt != "psq":  # SGF and move lists also keep every metadata field
        assert back.players == record.players
        assert back.result == record.result
        assert back.date == record.date
        assert back.event == (" ".join(record.event.split()) if record.event else None)
    else:
        assert back.players == record.players


@ROUND_TRIP
@given(legal_games(max_moves=20))
def test_text_round_trip_in_pbrain_notation(record):
    back = read_record(write_record(record, "text", notation="pbrain"))
    assert back.moves == record.moves
    assert (back.width, back.height, back.rule) == (record.width, record.height, record.rule)


@ROUND_TRIP
@given(legal_games(max_moves=20), st.sampled_from(FORMATS))
def test_save_and_load_files(tmp_path_factory, record, fmt):
    path = tmp_path_factory.mktemp("rec") / f"game.{'txt' if fmt == 'text' else fmt}"
    save_record(record, path)
    back = load_record(path)
    assert back.moves == record.moves and back.rule == record.rule
    assert back.source == str(path)


def test_psq_keeps_times():
    record = GameRecord(moves=[Move(7, 7), Move(8, 8)], times_ms=[0, 1234])
    text = write_record(record, "psq")
    assert text.splitlines()[1:4] == ["8,8,0", "9,9,1234", "-1"]
    assert read_record(text).times_ms == [0, 1234]


# --- sample files -------------------------------------------------------------------------


def test_gomocup_psq_sample():
    record = load_record(DATA / "gomocup-freestyle-20x20.psq")
    assert (record.width, record.height, record.rule) == (20, 20, None)
    assert record.players == ("pbrain-alpha.exe", "pbrain-beta.exe")
    assert record.moves[0] == Move(10, 10)  # "11,11" is 1-based
    assert len(record.moves) == 32 and len(record.times_ms) == 32
    assert record.properties["psq.levels"] == "11:11"
    board = record.to_board()
    assert board.winner == 2 and len(board.winning_line) == 5


def test_psq_without_times_or_trailer():
    record = load_record(DATA / "no-times-15x15.psq")
    assert len(record.moves) == 31 and record.times_ms is None
    assert record.players == (None, None)
    assert record.to_board().winner == 1


def test_psq_rectangular_and_second_slot_first():
    # header "..., 1": Piskvork's second player slot began, so the second name is black
    record = load_record(DATA / "rect-20x15-slot1.psq")
    assert (record.width, record.height) == (20, 15)
    assert record.players == ("pbrain-carobot.exe", None)  # homo-1 is a human: no name
    # a Caro game: under the default freestyle rule a blocked five already ended it
    with pytest.raises(InvalidRecord, match=r"rect-20x15-slot1\.psq:33: move 32: .*ended"):
        record.to_board()
    assert record.to_board(rule="caro").winner == 2
    assert load_record(DATA / "rect-20x15-slot1.psq", rule="caro").to_board().winner == 2


def test_sgf_sample_with_variations_follows_the_main_line():
    record = load_record(DATA / "standard-variations.sgf")
    assert record.rule == "standard"
    assert record.players == ("Alice", "Bob")
    assert record.event == "Club ] night"
    assert record.date == "2024-03-09"
    assert record.result == "black"
    assert record.properties["GN"] == "standard test game"
    assert record.properties["KM"] == "0"
    assert record.properties["C"] == "a commentthat continues"  # "\\" + newline is removed
    assert len(record.moves) == 31
    assert Move(0, 0) not in record.moves  # the side variation B[aa] is not on the main line
    board = record.to_board()
    assert board.winner == 1 and squares(board.winning_line) == ["k12", "k11", "k10", "k9", "k8"]


def test_sgf_rectangular_caro_with_ff3_identifiers():
    record = load_record(DATA / "caro-20x15.sgf")
    assert (record.width, record.height, record.rule) == (20, 15, "caro")
    assert record.result == "white" and record.properties["RE"] == "W+Resign"
    assert "RE[W+Resign]" in write_record(record, "sgf")


def test_text_samples_match_the_other_formats():
    text = load_record(DATA / "standard-15x15.txt")
    sgf = load_record(DATA / "standard-variations.sgf")
    psq = load_record(DATA / "no-times-15x15.psq")
    assert text.moves == sgf.moves == psq.moves
    assert (text.rule, text.players, text.result, text.event) == (
        "standard",
        ("Alice", "Bob"),
        "black",
        "club night",
    )
    caro_text = load_record(DATA / "caro-20x15-pbrain.txt")
    caro_sgf = load_record(DATA / "caro-20x15.sgf")
    assert caro_text.moves == caro_sgf.moves
    assert (caro_text.width, caro_text.height, caro_text.rule) == (20, 15, "caro")


def test_renju_psq_sample_equals_the_example_game():
    psq = load_record(DATA / "renju-example.psq")
    assert psq.rule == "renju" and psq.players == ("Black", "White")
    assert psq.moves == example_record().moves


# --- the bundled example ------------------------------------------------------------------


def test_example_game_is_a_legal_renju_game_won_by_a_black_five():
    record = example_record()
    assert (record.width, record.height, record.rule) == (15, 15, "renju")
    board = record.to_board()  # forbidden="illegal": every black move is allowed
    assert len(board) == 39 and board.winner == 1 and not board.lost_by_forbidden
    assert squares(board.winning_line) == ["h8", "i7", "j6", "k5", "l4"]  # exactly five
    assert record.result == "black"
    assert squares(board.forbidden_points()) == ["i5", "m3"]
    # the game is over at the last move, not before
    assert not Board.from_moves(record.moves[:-1], rule="renju").is_over


def test_example_ships_inside_the_package_and_in_examples():
    packaged = ROOT / "src" / "plies" / "data" / "renju-example.sgf"
    assert packaged.read_bytes() == (ROOT / "examples" / "renju-example.sgf").read_bytes()


# --- malformed input: the message names the line ------------------------------------------

PSQ_HEAD = "Piskvorky 15x15, 0:0, 0\n"
MALFORMED = [
    # (format, text, line, words in the message)
    ("psq", "", 1, "empty file"),
    ("psq", "Hello\n8,8,0\n", 1, "Piskvork header"),
    ("psq", "Piskvorky 30x30, 0:0, 0\n", 1, "board size"),
    ("psq", "Piskvorky 15x15, 0:0, 2\n", 1, "0 or 1"),
    ("psq", PSQ_HEAD + "8,8,0\n8,x,0\n", 3, "cannot read move"),
    ("psq", PSQ_HEAD + "8,8,0\nA\nB\nC\n-1\n", 5, "at most two player lines"),
    ("psq", PSQ_HEAD + "8,8,0\n-1\n9,9,0\n", 4, "after the end of the move list"),
    ("psq", PSQ_HEAD + "8,8,0\n-1\n5\n", 4, "after the final number"),
    ("psq", PSQ_HEAD + "8,8,0\n-1\nrule=chess\n", 4, "unknown rule"),
    ("sgf", "(;GM[1]SZ[19];B[aa])", 1, "GM[4]"),
    ("sgf", "(;GM[4]SZ[15]\n;B[hh]\n;W[hh\n", 3, "unterminated"),
    ("sgf", "(;GM[4]\nSZ[30]\n;B[hh])", 2, "SZ[30]"),
    ("sgf", "(;GM[4]SZ[15]\n;B[hh]\n;B[ii])", 3, "should be white"),
    ("sgf", "(;GM[4]SZ[15]\n;B[hh]\n;W[])", 3, "passes are not supported"),
    ("sgf", "(;GM[4]SZ[15]\nAB[hh][ii]\n;W[jj])", 2, "setup property AB"),
    ("sgf", "(;GM[4]SZ[15];B[hh])\n(;GM[4];B[aa])", 2, "one game per SGF file"),
    ("sgf", "(;GM[4]RU[chess];B[hh])", 1, "unknown rule"),
    ("sgf", "(;GM[4]SZ[15]\n;B[h8])", 2, "two lowercase letters"),
    ("sgf", "(;GM[4]SZ[15]\n;B[hh]\n", 3, "unclosed game tree"),
    ("sgf", "(;GM[4]RE[banana];B[hh])", 1, "unknown result"),
    ("sgf", "(;GM[4]\n;B[hh]W[ii])", 2, "more than one move"),
    ("sgf", "(;GM[4]\n;B[hh]\n;C)", 3, "has no value"),
    ("text", "# size: 15\nh8 h9\nzz\n", 3, "cannot read move 'zz'"),
    ("text", "# rule: chess\nh8\n", 1, "unknown rule"),
    ("text", "# size: 40\nh8", 1, "board size"),
    ("text", "h8 h9\n# size: 15\n# Size: 17\n", 3, "duplicate header"),
    ("text", "# result: maybe\nh8", 1, "unknown result"),
    ("text", "h8\n\n7,7 8,x\n", 3, "cannot read move '8,x'"),
]


@pytest.mark.parametrize(("fmt", "text", "line", "words"), MALFORMED)
def test_malformed_input_names_the_line(fmt, text, line, words):
    with pytest.raises(InvalidRecord) as info:
        read_record(text, fmt)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"line {line}: ")
    assert words in message
    assert info.value.line == line


@pytest.mark.parametrize(("fmt", "text", "line", "words"), MALFORMED[:3] + MALFORMED[9:12])
def test_malformed_file_names_the_file_and_line(tmp_path, fmt, text, line, words):
    path = tmp_path / f"bad.{fmt}"
    path.write_text(text)
    with pytest.raises(InvalidRecord, match=rf"^{re.escape(str(path))}:{line}: "):
        load_record(path)


def test_unreadable_file_is_an_invalid_record(tmp_path):
    with pytest.raises(InvalidRecord, match="cannot read file"):
        load_record(tmp_path / "missing.psq")


# --- illegal moves are reported when replayed ---------------------------------------------


def test_occupied_cell_names_the_move_and_line():
    record = read_record("# rule: freestyle\nh8 h9\ni10 h8\n")
    with pytest.raises(InvalidRecord, match=r"^line 3: move 4: .*occupied"):
        record.to_board()


def test_off_board_move_names_the_move_and_line():
    record = read_record(PSQ_HEAD + "8,8,0\n16,1,0\n")
    with pytest.raises(InvalidRecord, match=r"^line 3: move 2 '16,1' is off the 15x15 board"):
        record.to_board()
    # the move as the user wrote it, not the internal coordinates
    with pytest.raises(InvalidRecord, match=r"^line 1: move 3 'z99' is off the 15x15 board$"):
        read_record("h8 h9 z99").to_board()
    with pytest.raises(InvalidRecord, match=r"move 2 '\(20, 3\)' is off the 15x15"):
        read_record("h8 (20, 3)").to_board()
    sgf = "(;FF[4]GM[4]SZ[15];B[hh];W[zz])"
    with pytest.raises(InvalidRecord, match=r"move 2 'W\[zz\]' is off the 15x15"):
        read_record(sgf).to_board()


def test_move_after_the_end_names_the_move():
    moves = "h8 a1 i8 a2 j8 a3 k8 a4 l8 a5"
    with pytest.raises(InvalidRecord, match=r"move 10: .*after the game ended"):
        read_record(moves).to_board()


def test_forbidden_move_is_illegal_or_loses():
    # move 9, black h8, would make a double three (g8 h8 i8 and h7 h8 h9)
    moves = "g8 a1 i8 a3 h7 a5 h9 a7 h8"
    board = Board.from_moves(moves.split()[:-1], rule="renju")
    assert board.is_forbidden("h8")
    record = read_record("# rule: renju\n" + moves)
    with pytest.raises(InvalidRecord, match=r"^line 2: move 9: .*forbidden"):
        record.to_board()
    board = record.to_board(forbidden="loses")
    assert board.winner == 2 and board.lost_by_forbidden
    assert read_record(moves).to_board().winner == 0  # freestyle: nothing forbidden
    assert record.to_board(rule="freestyle").winner == 0


# --- details ------------------------------------------------------------------------------


def test_detect_format():
    assert detect_format("Piskvorky 15x15, 0:0, 0\n") == "psq"
    assert detect_format("\ufeff  (;GM[4])") == "sgf"
    assert detect_format("h8 h9") == "text"
    assert detect_format("(;GM[4])", path="game.txt") == "text"
    assert detect_format("h8", path="x.unknown") == "text"


def test_read_record_accepts_paths_and_text(tmp_path):
    path = tmp_path / "g.sgf"
    path.write_text("(;GM[4]SZ[15];B[hh])")
    assert read_record(path).moves == [Move(7, 7)]
    assert read_record(str(path)).moves == [Move(7, 7)]
    assert read_record("h8").moves == [Move(7, 7)]


def test_overrides_of_rule_and_size():
    record = read_record("(;GM[4]RU[whatever];B[hh])", rule="renju")
    assert record.rule == "renju"
    assert read_record("a1 h8", size=9).moves == [Move(0, 8), Move(7, 1)]
    assert read_record("# size: 9\na1", size="20x15").moves == [Move(0, 14)]
    with pytest.raises(InvalidOption):
        read_record("h8", rule="chess")
    with pytest.raises(InvalidOption):
        read_record("h8", size="huge")
    with pytest.raises(InvalidOption):
        read_record("h8", "pgn")


def test_save_record_needs_a_known_extension(tmp_path):
    with pytest.raises(InvalidOption, match="record format"):
        save_record(GameRecord(), tmp_path / "game.dat")
    save_record(GameRecord(), tmp_path / "game.dat", fmt="sgf")
    assert (tmp_path / "game.dat").read_text().startswith("(;GM[4]")


@pytest.mark.parametrize(
    ("spelling", "rule"),
    [
        ("Renju", "renju"),
        ("RIF", "renju"),
        ("Yamaguchi", "renju"),
        ("Soosorv-8", "renju"),
        ("Free-style", "freestyle"),
        ("Gomoku", "freestyle"),
        ("freestyle gomoku", "freestyle"),
        ("Standard Gomoku", "standard"),
        ("exactly five", "standard"),
        ("Gomoku+", "caro"),
        ("caro", "caro"),
        ("Caro5", "caro5"),
        ("0", "freestyle"),
        ("1", "standard"),
        ("4", "renju"),
        ("8", "caro"),
        ("9", "caro5"),
        ("6", "renju"),
        ("chess", None),
        ("", None),
    ],
)
def test_rule_spellings(spelling, rule):
    assert parse_rule(spelling) == rule


def test_result_spellings():
    assert [parse_result(s) for s in ("B+", "W+Resign", "0", "Draw", "1-0", "0-1", "?", "")] == [
        "black",
        "white",
        "draw",
        "draw",
        "black",
        "white",
        None,
        None,
    ]
    with pytest.raises(ValueError):
        parse_result("banana")


def test_psq_trailer_variants():
    text = PSQ_HEAD + "8,8,0\n9,9,0\n-1\n1,Freestyle\n"  # seen in generated training files
    assert read_record(text).rule == "freestyle"
    assert read_record(PSQ_HEAD + "8,8\n  9 , 9 , 15 \nrule: caro5\n").rule == "caro5"


def test_sgf_writer_output_shape():
    record = GameRecord(
        width=20, height=15, rule="caro", moves=[Move(19, 14)], players=("A]B", None), result="draw"
    )
    text = write_record(record, "sgf")
    assert text.startswith("(;GM[4]FF[4]CA[UTF-8]")
    assert "SZ[20:15]RU[caro]PB[A\\]B]RE[0]" in text
    assert ";B[to])" in text
    assert read_record(text).players == ("A]B", None)


def test_game_record_validation_and_from_board():
    with pytest.raises(InvalidOption):
        GameRecord(width=4)
    with pytest.raises(InvalidOption):
        GameRecord(rule="chess")
    assert GameRecord(rule="RIF").rule == "renju"
    board = Board.from_moves(["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"])
    record = GameRecord.from_board(board, players=("x", "y"))
    assert record.result == "black" and record.moves == board.history
    assert record.to_board().winner == 1


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(FORMATS),
    st.text(alphabet="Piskvorky 0123456789,x:-\n()[];BWGMSZRUab\\#", max_size=80),
)
def test_any_input_parses_or_raises_invalid_record(fmt, text):
    try:
        record = read_record(text, fmt)
    except InvalidRecord as exc:
        assert "\n" not in str(exc) and exc.line is not None
    else:
        assert isinstance(record, GameRecord)
