"""How well each pattern net predicts who won: the cross-entropy of the evaluation (with the
net) against the game results, on the leaves of annotated games (``plies train annotate``).

    python benchmarks/net_result_ce.py --games rapfi-annotated.jsonl [--rule freestyle] \\
        [--net off] [--net learned] [--net NET.npy ...] [--held-out] [--td 1.0]

Each net's evaluation ``base + net`` (centi-units, as the engine adds them) goes through
``sigmoid(scale * value / WIN_PROB_SCALE)`` with the scale fitted on these leaves for that net
alone (one number, Newton), so that a net is not judged by its calibration but by how it
orders positions. ``--held-out`` keeps only the games the fits hold out (seed a multiple of
10). ``--td 1.0`` (default) labels every leaf by the game's result alone; lower values mix
in plies' later searches as the fits do.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from plies.gomoku.engine import pattern_net as PN  # noqa: E402
from plies.gomoku.engine.params import WIN_PROB_SCALE  # noqa: E402
from plies.gomoku.rules import RULE_CODES  # noqa: E402
from plies.tune import gomoku_data, gomoku_net  # noqa: E402


def net_of(choice: str, rule: str) -> PN.Net | None:
    if choice == "off":
        return None
    if choice == "learned":
        return PN.load_net(PN.net_path(RULE_CODES[rule]))
    return PN.load_net(choice)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", action="append", required=True, help="annotated games (repeat)")
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--net", action="append", default=None, help="off, learned or a .npy")
    ap.add_argument("--held-out", action="store_true")
    ap.add_argument("--td", type=float, default=1.0)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    games = gomoku_data.load_games(args.games)
    if args.held_out:
        games = [g for g in games if g["seed"] % 10 == 0]
    data = gomoku_net.net_data(games, args.rule, td=args.td)
    rows = {"games": len(games), "leaves": data.size, "td": args.td, "nets": {}}
    for choice in args.net or ["off", "learned"]:
        net = net_of(choice, args.rule)
        out = 0.0 if net is None else gomoku_net.from_engine_net(net, data.tables).forward(data)[0]
        value = gomoku_net.NetData(*[getattr(data, f) for f in data.__dataclass_fields__])
        value.base = data.base + out
        scale = gomoku_net.fit_scale(value)
        ce = gomoku_net.cross_entropy(data.target, scale * value.base / WIN_PROB_SCALE)
        rows["nets"][choice] = {"cross_entropy": round(ce, 5), "scale": round(scale, 4)}
        print(f"{choice}: cross-entropy {ce:.5f} (scale {scale:.3f})", flush=True)
    print(f"{len(games)} games, {data.size} leaves, td {args.td}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
