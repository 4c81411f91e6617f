"""A tiny pbrain brain for the arena tests. ``fake_pbrain.py MODE``: ``sane`` plays the empty
cell nearest the centre; ``crash`` exits at its first move; ``hang`` never answers a move;
``late`` sleeps 3 s before answering; ``illegal`` answers an occupied cell (or the centre
twice); ``garbage`` prints nonsense instead of a move; ``slowstart`` takes 0.8 s over the first
move of every game; ``dropturn`` drops the first ``TURN`` of every game as Rapfi sometimes does
(``ERROR Unknown command: x,y``); ``errors`` answers every ``TURN`` with ``ERROR``."""

import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "sane"
width = height = 15
stones: set[tuple[int, int]] = set()
fresh_game = True
dropped = False


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def answer() -> None:
    global fresh_game
    if mode == "slowstart" and fresh_game:
        time.sleep(0.8)
    fresh_game = False
    if mode == "crash":
        sys.stderr.write("fake brain: segmentation fault (pretend)\n")
        sys.exit(3)
    if mode == "hang":
        time.sleep(60)
    if mode == "late":
        time.sleep(3.0)
    if mode == "garbage":
        say("MESSAGE thinking hard")
        say("the best move is obviously over there")
        return
    cx, cy = width // 2, height // 2
    if mode == "illegal" and stones:
        x, y = next(iter(stones))
        say(f"{x},{y}")
        return
    cells = sorted(
        ((x, y) for x in range(width) for y in range(height) if (x, y) not in stones),
        key=lambda c: (max(abs(c[0] - cx), abs(c[1] - cy)), c[1], c[0]),
    )
    x, y = cells[0]
    stones.add((x, y))
    say("DEBUG fake brain at work")
    say(f"{x},{y}")


def new_game() -> None:
    global fresh_game, dropped
    stones.clear()
    fresh_game = True
    dropped = False


def main() -> None:
    global width, height, dropped
    board_mode = False
    for raw in sys.stdin:
        line = raw.strip()
        if board_mode:
            if line.upper() == "DONE":
                board_mode = False
                answer()
            else:
                x, y, _ = (int(v) for v in line.split(","))
                stones.add((x, y))
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "START":
            width = height = int(rest)
            new_game()
            say("OK")
        elif word == "RECTSTART":
            width, height = (int(v) for v in rest.split(","))
            new_game()
            say("OK")
        elif word == "RESTART":
            new_game()
            say("OK")
        elif word == "INFO":
            pass
        elif word == "BEGIN":
            answer()
        elif word == "TURN" and (mode == "errors" or (mode == "dropturn" and not dropped)):
            dropped = True
            say(f"ERROR Unknown command: {rest}")
        elif word == "TURN":
            x, y = (int(v) for v in rest.split(","))
            stones.add((x, y))
            answer()
        elif word == "BOARD":
            stones.clear()
            board_mode = True
        elif word == "ABOUT":
            say(f'name="fake-{mode}", version="1.0"')
        elif word == "END":
            return
        else:
            say(f"UNKNOWN {line}")


if __name__ == "__main__":
    main()
