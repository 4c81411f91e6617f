"""``plies uci`` as a subprocess, driven by python-chess's engine module (a real UCI client),
plus raw protocol lines (errors keep the engine running, ponder/ponderhit, stop, quit)."""

from __future__ import annotations

import subprocess
import sys
import time

import chess
import chess.engine
import pytest

CMD = [sys.executable, "-c", "from plies.cli import main; main(['uci'])"]


@pytest.fixture(scope="module")
def engine():
    eng = chess.engine.SimpleEngine.popen_uci(CMD, timeout=300)
    yield eng
    eng.quit()


def test_identifies_and_lists_the_contract_options(engine) -> None:
    assert engine.id["name"].startswith("plies")
    for name in ("Hash", "Threads", "MultiPV", "SyzygyPath", "Move Overhead"):
        assert name in engine.options


def test_plays_with_every_limit(engine) -> None:
    board = chess.Board()
    engine.configure({"Hash": 16, "Threads": 1})
    for limit in (
        chess.engine.Limit(depth=5),
        chess.engine.Limit(nodes=5000),
        chess.engine.Limit(time=0.2),
        chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1),
        chess.engine.Limit(white_clock=2, black_clock=2, remaining_moves=10),
    ):
        start = time.perf_counter()
        result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves
        assert time.perf_counter() - start < 3.0
        info = result.info
        assert "depth" in info and "score" in info and "nodes" in info and "pv" in info


def test_mate_score_and_go_mate(engine) -> None:
    board = chess.Board("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    assert info["score"].relative == chess.engine.Mate(2)
    assert info["pv"][0] == chess.Move.from_uci("d5f6")


def test_multipv_and_threads(engine) -> None:
    engine.configure({"Threads": 2})
    infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3
    assert len({i["pv"][0] for i in infos}) == 3
    engine.configure({"Threads": 1})


def test_infinite_analysis_stops(engine) -> None:
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.3)
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


def test_moves_from_a_game(engine) -> None:
    board = chess.Board()
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]:
        board.push_uci(uci)
    result = engine.play(board, chess.engine.Limit(nodes=3000))
    assert result.move in board.legal_moves


def _raw(lines: list[str], wait: float = 60.0) -> list[str]:
    proc = subprocess.run(
        CMD, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=wait
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


def test_bad_lines_are_reported_and_the_engine_keeps_running() -> None:
    out = _raw(
        [
            "uci",
            "bogus command",
            "position fen not a fen",
            "position startpos moves e2e5",
            "setoption name Hash value lots",
            "setoption name NoSuchOption value 1",
            "go depth x",
            "isready",
            "position startpos moves e2e4",
            "go depth 3",
            "isready",
            "quit",
        ]
    )
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 6
    assert "readyok" in out and "uciok" in out
    assert any(line.startswith("bestmove ") for line in out)


def test_a_bad_position_command_falls_back_to_a_safe_position() -> None:
    """As Stockfish: the moves up to the first illegal one (or the start position for a bad
    FEN), never the previous position, and an info string saying so."""
    import io

    from plies.chess.uci import UCIEngine

    out = io.StringIO()
    uci = UCIEngine(out)
    start = chess.Board()
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    for line, board in [
        ("position startpos moves e2e4 e7e5 g1f3", None),
        ("position startpos moves e2e4 e2e5 g1f3", after_e4),
        ("position fen not a fen moves e2e4", start),
        ("position startpos moves e2e4 e7e5 zz", None),
        ("position sideways", start),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", start),
    ]:
        out.seek(0)
        out.truncate()
        uci.handle(line)
        if board is None:  # good, or played up to the bad move
            assert out.getvalue() == "" or "bad move 'zz'" in out.getvalue()
            continue
        assert uci.board.fen() == board.fen(), line
        assert out.getvalue().startswith("info string error ")
        assert out.getvalue().rstrip().endswith(f"; position set to {board.fen()}")
    assert (
        "illegal move e2e5 in position command"
        in _raw(["position startpos moves e2e4 e2e5", "quit"])[0]
    )
    out = _raw(
        [
            "uci",
            "position startpos moves e2e4 e7e5",
            "position startpos moves d2d4 e2e5",
            "go depth 2",
            "isready",
            "quit",
        ]
    )
    best = next(line for line in out if line.startswith("bestmove ")).split()[1]
    board = chess.Board()
    board.push_uci("d2d4")
    assert chess.Move.from_uci(best) in board.legal_moves  # black's reply to 1. d4


def test_ponder_then_ponderhit_answers_on_the_clock() -> None:
    proc = subprocess.Popen(
        CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert proc.stdin and proc.stdout
    proc.stdin.write("uci\nisready\n")
    proc.stdin.flush()
    line = ""
    while line.strip() != "readyok":  # the kernels are loaded: the clock below times the
        line = proc.stdout.readline()  # engine, not a busy machine's start-up
        assert line, "engine closed its output"
    proc.stdin.write("position startpos\ngo ponder wtime 2000 btime 2000\n")
    proc.stdin.flush()
    time.sleep(0.5)
    proc.stdin.write("ponderhit\n")
    proc.stdin.flush()
    start = time.perf_counter()
    while not line.startswith("bestmove"):
        line = proc.stdout.readline()
        assert line, "engine closed its output"
    assert time.perf_counter() - start < 2.0
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    assert proc.wait(timeout=30) == 0


def test_position_right_after_bestmove_is_accepted_while_the_thread_exits() -> None:
    """A GUI sends the next ``position`` as soon as it reads ``bestmove``; the search thread may
    not have exited yet. That position must be taken (not refused as 'during a search', which
    made the next ``go`` search the old board and play an illegal move)."""
    import threading

    from plies.chess.uci import UCIEngine

    answered = threading.Event()
    release = threading.Event()

    class SlowOut:
        """Writes lines; after ``bestmove`` the writing (search) thread waits to be released."""

        def __init__(self) -> None:
            self.lines: list[str] = []

        def write(self, text: str) -> None:
            self.lines.append(text)
            if text.startswith("bestmove") and threading.current_thread() is not main:
                answered.set()
                release.wait(10)

        def flush(self) -> None:
            pass

    main = threading.current_thread()
    out = SlowOut()
    uci = UCIEngine(out)
    uci.handle("position startpos")
    uci.handle("go depth 2")
    assert answered.wait(120)
    assert uci._worker is not None and uci._worker.is_alive()  # still inside send()
    uci.handle("position startpos moves e2e4")
    release.set()
    assert not any("error" in line for line in out.lines), out.lines
    assert uci.board.move_stack == [chess.Move.from_uci("e2e4")]
    answered.clear()
    uci.handle("go depth 2")
    assert answered.wait(120)
    release.set()
    uci._wait_search()
    move = out.lines[-1].split()[1]
    assert chess.Move.from_uci(move) in uci.board.legal_moves
