"""A tiny UCI engine for the arena tests (python-chess for the moves). ``fake_uci.py MODE``:
``sane`` plays the first legal move in UCI order, reporting a score; ``illegal`` answers
``a1a1``; ``crash`` exits at ``go``; ``hang`` never answers ``go``."""

import sys

import chess

mode = sys.argv[1] if len(sys.argv) > 1 else "sane"
board = chess.Board()


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    tokens = raw.split()
    if not tokens:
        continue
    cmd = tokens[0]
    if cmd == "uci":
        say(f"id name fake-{mode}")
        say("option name Hash type spin default 16 min 1 max 1024")
        say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "position":
        if tokens[1] == "startpos":
            board = chess.Board()
            rest = tokens[2:]
        else:
            board = chess.Board(" ".join(tokens[2:8]))
            rest = tokens[8:]
        if rest and rest[0] == "moves":
            for uci in rest[1:]:
                board.push_uci(uci)
    elif cmd == "go":
        if mode == "crash":
            sys.exit(5)
        if mode == "hang":
            continue
        if mode == "illegal":
            say("bestmove a1a1")
            continue
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        say("info depth 1 score cp 12 nodes 20 pv " + moves[0].uci())
        say(f"bestmove {moves[0].uci()}")
    elif cmd == "quit":
        break
