"""The combination table fitted for its direction and scaled by a gain (docs/engine.md,
"Session 14"): TD-leaf with TD(lambda) labels on self-play records, then
``classic + gain * (fit - classic)`` written for each gain, to be matched against the default
engine (``plies match --engine "plies:gomoku?nodes=20000&eval=OUT-g3.npy" ...``).

    python benchmarks/combo_gain_fit.py --rule freestyle --data games.jsonl \\
        [--td 0.7] [--gains 1,2,3,6] [--out combo-freestyle]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from plies.tune import gomoku_data, gomoku_fit  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--data", required=True, help="self-play records with pvs (jsonl[.gz])")
    ap.add_argument("--td", type=float, default=0.7)
    ap.add_argument("--gains", default="1,2,3,6")
    ap.add_argument("--out", default=None, help="file prefix (default combo-RULE)")
    args = ap.parse_args()
    games = gomoku_data.load_games([args.data])
    data = gomoku_fit.features(games, args.rule, leaf=True, td=args.td)
    result = gomoku_fit.fit(data, args.rule, steps=400)
    w0 = gomoku_fit.initial_values(args.rule)
    change = np.abs(result.w - w0)[:-1]
    prefix = args.out or f"combo-{args.rule}"
    for gain in (float(g) for g in args.gains.split(",")):
        table = gomoku_fit.to_table(w0 + gain * (result.w - w0), args.rule)
        np.save(f"{prefix}-g{gain:g}.npy", table)
    report = {
        "games": len(games),
        "positions": int(data.size),
        "loss_before": result.report["loss_before"],
        "loss_after": result.report["loss_after"],
        "mean_abs_change": float(change.mean()),
        "max_abs_change": float(change.max()),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
