"""Where does plies lose to Rapfi? Rapfi's own evaluation of every position of plies' lost games.

    python benchmarks/rapfi_trace.py --rapfi /tmp/rapfi/pbrain-rapfi \
        --games GAMES.jsonl --rule renju --colour black --seconds 1.0 --lost 30 --out trace.json

GAMES.jsonl is what ``benchmarks/vs_rapfi.py --games-out`` writes (one game a line: names,
winner, opening length, moves as pbrain ``x,y``). For each game plies lost (the first
``--lost`` of them; with ``--colour``, only those it lost with that colour), Rapfi searches
every position from the end of the opening on for ``--seconds`` (pbrain ``BOARD``, one
thread, under ``--rule``: the games' rule) and its ``Eval`` is recorded from plies' side (mate
scores as +-(10000 - plies to mate)). The output lists, per game and position, who moves, the
move played, Rapfi's choice there and the evaluation; the summary gives each side's
evaluation drop per move (the mover's value before its move against after it), the plies
moves that lose 150 or more, and the positions where plies had a forced win by Rapfi's count.
Rapfi is GPL-3 and is run as a separate program: none of its code is here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from plies.arena.engines.pbrain import RULE_CODES

MATE = 10000
RULES = ("freestyle", "standard", "renju")  # the rules Rapfi plays


class Rapfi:
    """A pbrain-rapfi process answering ``BOARD`` positions."""

    def __init__(self, binary: str, seconds: float, rule: str = "freestyle") -> None:
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=str(Path(binary).resolve().parent),
        )
        self.send("START 15")
        self.read_until(lambda line: line.startswith(("OK", "ERROR")))
        for line in (
            f"INFO timeout_turn {int(seconds * 1000)}",
            "INFO timeout_match 1000000000",
            "INFO time_left 1000000000",
            f"INFO rule {RULE_CODES[rule]}",
            "INFO thread_num 1",
        ):
            self.send(line)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, done) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Rapfi exited")
            lines.append(line.strip())
            if done(lines[-1]):
                return lines

    def evaluate(self, moves: list[str]) -> tuple[str | None, str]:
        """Rapfi's ``Eval`` (side to move's view, as printed) and its move in the position."""
        for _ in range(3):
            # Rapfi drops a command that arrives while its search thread winds down
            time.sleep(0.1)
            self.send("BOARD")
            for i, m in enumerate(moves):
                self.send(f"{m},{1 if i % 2 == len(moves) % 2 else 2}")
            self.send("DONE")
            lines = self.read_until(lambda s: bool(s) and (s[0].isdigit() or s.startswith("ERROR")))
            if not lines[-1].startswith("ERROR"):
                evals = [m.group(1) for s in lines if (m := re.search(r"Eval (\S+)", s))]
                return (evals[-1] if evals else None), lines[-1]
        raise RuntimeError("Rapfi refused the position three times")

    def close(self) -> None:
        self.send("END")
        self.proc.wait(timeout=10)


def score(ev: str | None) -> int:
    """Rapfi's printed evaluation as a number (mates as +-(MATE - distance))."""
    if ev is None:
        return 0
    if ev.lstrip("+").startswith("M"):
        return MATE - int(ev.lstrip("+M"))
    if ev.startswith("-M"):
        return -MATE + int(ev[2:])
    return int(ev)


def trace_game(rapfi: Rapfi, game: dict) -> list[dict]:
    plies_colour = game["names"].index("plies")  # names[0] plays black (even plies)
    moves = game["moves"]
    series = []
    for ply in range(game["opening_length"], len(moves)):
        ev, best = rapfi.evaluate(moves[:ply])
        mover_is_plies = ply % 2 == plies_colour
        value = score(ev)
        series.append(
            {
                "ply": ply,
                "mover": "plies" if mover_is_plies else "rapfi",
                "played": moves[ply],
                "rapfi_best": best,
                "ev": ev,
                "eval_plies_view": value if mover_is_plies else -value,
            }
        )
    return series


def summary(traces: list[dict], big: int = 150) -> dict:
    drops: dict[str, list[int]] = {"plies": [], "rapfi": []}
    big_drops, had_win = [], []
    for t in traces:
        s = t["series"]
        for a, b in zip(s, s[1:], strict=False):
            if a["mover"] == "plies" and a["eval_plies_view"] >= MATE - 1000:
                had_win.append((t["game"], a["ply"], a["ev"], a["played"], a["rapfi_best"]))
            if max(abs(a["eval_plies_view"]), abs(b["eval_plies_view"])) >= MATE - 1000:
                continue  # a proven result: not a drop in value
            sign = 1 if a["mover"] == "plies" else -1
            drop = sign * (a["eval_plies_view"] - b["eval_plies_view"])
            drops[a["mover"]].append(drop)
            if a["mover"] == "plies" and drop >= big:
                big_drops.append((t["game"], a["ply"], drop, a["played"], a["rapfi_best"]))
    return {
        "moves": {k: len(v) for k, v in drops.items()},
        "median_drop": {k: statistics.median(v) if v else None for k, v in drops.items()},
        "mean_drop": {k: round(statistics.mean(v), 1) if v else None for k, v in drops.items()},
        f"drops_of_{big}_or_more": {k: sum(d >= big for d in v) for k, v in drops.items()},
        "plies_big_drops": big_drops,
        "plies_had_forced_win": had_win,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rapfi", required=True, help="path of the pbrain-rapfi binary")
    ap.add_argument("--games", required=True, help="vs_rapfi.py --games-out file")
    ap.add_argument("--seconds", type=float, default=1.0, help="Rapfi's time a position")
    ap.add_argument("--rule", choices=RULES, default="freestyle", help="the games' rule")
    ap.add_argument("--lost", type=int, default=30, help="how many lost games to trace")
    ap.add_argument(
        "--colour",
        choices=("any", "black", "white"),
        default="any",
        help="trace only the games plies lost with this colour (names[0] plays black)",
    )
    ap.add_argument("--out", default=None, help="the traces and the summary as JSON")
    args = ap.parse_args()
    if not os.access(args.rapfi, os.X_OK):
        print(f"error: no executable Rapfi at {args.rapfi}", file=sys.stderr)
        return 2
    try:
        rows = [json.loads(line) for line in Path(args.games).read_text().splitlines()]
        for row in rows:
            if "plies" not in row["names"] or not isinstance(row["moves"], list):
                raise ValueError("a game without plies or without moves")
            if row["winner"] not in (0, 1, None) or not isinstance(row["opening_length"], int):
                raise ValueError("a game without a winner (0, 1 or null) or an opening length")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"error: {args.games}: not a vs_rapfi.py --games-out file ({exc})", file=sys.stderr)
        return 2
    seat = {"any": None, "black": 0, "white": 1}[args.colour]
    lost = [
        r
        for r in rows
        if r["winner"] != r["names"].index("plies") and seat in (None, r["names"].index("plies"))
    ][: args.lost]
    rapfi = Rapfi(args.rapfi, args.seconds, args.rule)
    traces = []
    try:
        for i, game in enumerate(lost):
            traces.append({"game": i, "names": game["names"], "moves": game["moves"],
                           "series": trace_game(rapfi, game)})  # fmt: skip
            values = " ".join(str(x["eval_plies_view"]) for x in traces[-1]["series"])
            print(f"game {i + 1}/{len(lost)}: {values}", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the games traced so far are kept", file=sys.stderr)
    finally:
        rapfi.close()
    result = {"settings": vars(args), "summary": summary(traces), "traces": traces}
    print(json.dumps(result["summary"], indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
