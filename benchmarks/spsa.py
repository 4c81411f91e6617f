"""SPSA tuning of the Gomoku evaluation weights by self-play (one game pair an iteration).

    python benchmarks/spsa.py --minutes 50 --nodes 8000 --state spsa.json
    python benchmarks/spsa.py --resume --state spsa.json --minutes 20   # continue a run

Tunes PATTERN_VALUE B1..F4 (indices 2..9), CLASS_BONUS double three, four-three and flex four
(indices 2, 4, 5) and ATTACK (DEFENCE stays 64, the scale). Iteration k (from 1) perturbs every
parameter by +-c_k (random signs), plays theta+ against theta- from one of selfplay.OPENINGS
with colours swapped (the ``--rules`` in turn: freestyle on odd k, renju on even k by default;
15x15, a fixed node budget per move)
and moves theta by a_k * (score difference of the pair) / c_k * sign, with
c_k = c / k^0.101 and a_k = a / (A + k)^0.602. Per parameter, c and a follow from the
perturbation at the end of the schedule (``C_END``) and ``--r-end``:
c = c_end * N^0.101, a = r_end * c_end^2 * (A + N)^0.602 (N = ``--iterations``). Values are
rounded to integers for the engines and clamped to [0, 1999] (patterns), [0, 3000] (bonuses),
[32, 128] (ATTACK). The state (iteration, games, theta, the settings) is written to ``--state``
after every iteration, so an interruption loses nothing; ``--resume`` continues from it with
its stored settings. The file's ``selfplay`` entry is the tuned theta as ``--a-param`` items
for benchmarks/selfplay.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import selfplay as SP  # noqa: E402

from plies.gomoku.engine import params as P  # noqa: E402

GAMMA = 0.101
ALPHA = 0.602
ATTACK_MIN, ATTACK_MAX = 32, 128

# the tuned parameters: name, (table, index), lower and upper bound, perturbation at the end
PV_NAMES = ("B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4")
SPEC = (
    [(f"PV_{n}", ("PATTERN_VALUE", 2 + i), 0, 1999) for i, n in enumerate(PV_NAMES)]
    + [
        (f"CB_{n}", ("CLASS_BONUS", j), 0, 3000)
        for n, j in (("double_three", 2), ("four_three", 4), ("flex_four", 5))
    ]
    + [("ATTACK", ("ATTACK", None), ATTACK_MIN, ATTACK_MAX)]
)
NAMES = [s[0] for s in SPEC]
LO = np.array([s[2] for s in SPEC], dtype=np.float64)
HI = np.array([s[3] for s in SPEC], dtype=np.float64)


def defaults() -> np.ndarray:
    """The current values of params.py, in SPEC order."""
    out = []
    for _, (table, index), _, _ in SPEC:
        value = getattr(P, table)
        out.append(float(value if index is None else value[index]))
    return np.array(out)


def c_end(theta0: np.ndarray) -> np.ndarray:
    """Perturbation at the end of the schedule: a tenth of the start value, at least 2
    (ATTACK: 4, in 64ths)."""
    c = np.maximum(2.0, np.round(0.1 * theta0))
    c[NAMES.index("ATTACK")] = 4.0
    return c


def schedule(k: int, c: np.ndarray, a: np.ndarray, big_a: float) -> tuple[np.ndarray, np.ndarray]:
    """(a_k, c_k) of iteration k (from 1)."""
    return a / (big_a + k) ** ALPHA, c / k**GAMMA


def constants(cend: np.ndarray, r_end: float, n: int, big_a: float) -> tuple[np.ndarray, ...]:
    """(c, a) per parameter from the end perturbation ``cend`` and end rate ``r_end`` over an
    ``n``-iteration schedule: c_N = cend and a_N / c_N^2 = r_end."""
    return cend * n**GAMMA, r_end * cend**2 * (big_a + n) ** ALPHA


def perturb(theta: np.ndarray, ck: np.ndarray, signs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The integer parameter vectors theta + c_k * sign and theta - c_k * sign, clamped."""
    plus = np.clip(np.rint(theta + ck * signs), LO, HI).astype(np.int64)
    minus = np.clip(np.rint(theta - ck * signs), LO, HI).astype(np.int64)
    return plus, minus


def update(
    theta: np.ndarray, ak: np.ndarray, ck: np.ndarray, signs: np.ndarray, diff: float
) -> np.ndarray:
    """theta + a_k * diff / c_k * sign, clamped; ``diff`` is theta+'s pair score minus
    theta-'s (-2..2)."""
    return np.clip(theta + ak * diff / ck * signs, LO, HI)


def engine_params(values: np.ndarray) -> dict:
    """The Engine(params=...) dict of an integer vector in SPEC order."""
    pv = P.PATTERN_VALUE.astype(np.int64).tolist()
    cb = P.CLASS_BONUS.astype(np.int64).tolist()
    out: dict = {}
    for v, (_, (table, index), _, _) in zip(values, SPEC, strict=True):
        if table == "PATTERN_VALUE":
            pv[index] = int(v)
        elif table == "CLASS_BONUS":
            cb[index] = int(v)
        else:
            out[table] = int(v)
    out["PATTERN_VALUE"] = pv
    out["CLASS_BONUS"] = cb
    return out


def selfplay_items(values: np.ndarray) -> str:
    """``NAME=VALUE`` items for selfplay.py's --a-param / --b-param."""
    p = engine_params(np.rint(values).astype(np.int64))
    return " ".join(
        f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in p.items()
    )


def save(path: str, state: dict) -> None:
    """Write the state atomically (a kill mid-write keeps the previous file)."""
    theta = np.array(state["theta"])
    state["rounded"] = dict(zip(NAMES, np.rint(theta).astype(int).tolist(), strict=True))
    state["selfplay"] = selfplay_items(theta)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", default="spsa.json", help="JSON file of the run's state")
    ap.add_argument("--resume", action="store_true", help="continue from --state")
    ap.add_argument("--minutes", type=float, default=50.0, help="wall-time limit of this run")
    ap.add_argument("--iterations", type=int, default=4000, help="schedule length N (and stop)")
    ap.add_argument("--nodes", type=int, default=8000, help="node budget per move")
    ap.add_argument("--r-end", type=float, default=0.01, help="a_N / c_N^2 at the end")
    ap.add_argument("--big-a", type=float, default=None, help="A (default N / 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rules",
        default="freestyle,renju",
        help="rules taken in turn, one an iteration (e.g. renju: a theta for Renju alone)",
    )
    ap.add_argument("--every", type=int, default=50, help="print progress every N iterations")
    args = ap.parse_args()

    if args.resume:
        try:
            with open(args.state) as f:
                state = json.load(f)
            names = state["names"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            ap.error(f"cannot resume from {args.state}: {type(exc).__name__}: {exc}")
        if names != NAMES:
            ap.error(f"{args.state}: tuned parameters differ from this script's")
    else:
        theta0 = defaults()
        n = args.iterations
        state = {
            "names": NAMES,
            "settings": {
                "nodes": args.nodes,
                "iterations": n,
                "r_end": args.r_end,
                "big_a": args.big_a if args.big_a is not None else n / 10,
                "seed": args.seed,
                "rules": args.rules.split(","),
                "c_end": c_end(theta0).tolist(),
            },
            "theta0": theta0.tolist(),
            "theta": theta0.tolist(),
            "iteration": 0,
            "games": 0,
            "pairs": {"-2": 0, "-1": 0, "0": 0, "1": 0, "2": 0},
            "seconds": 0.0,
            "history": [],
        }
    cfg = state["settings"]
    c, a = constants(np.array(cfg["c_end"]), cfg["r_end"], cfg["iterations"], cfg["big_a"])
    theta = np.array(state["theta"])
    start = time.time()
    run_start_seconds = state["seconds"]
    print(f"SPSA from iteration {state['iteration'] + 1}; settings {cfg}", flush=True)
    try:
        while state["iteration"] < cfg["iterations"]:
            if time.time() - start > 60 * args.minutes:
                break
            k = state["iteration"] + 1
            rng = np.random.default_rng([cfg["seed"], k])
            signs = rng.choice([-1.0, 1.0], size=len(NAMES))
            opening = SP.OPENINGS[int(rng.integers(len(SP.OPENINGS)))].split()
            rules = cfg.get("rules", ["freestyle", "renju"])  # runs before --rules alternated
            rule = rules[(k - 1) % len(rules)]
            ak, ck = schedule(k, c, a, cfg["big_a"])
            plus, minus = perturb(theta, ck, signs)
            e_plus = SP.make_engine(rule, 15, [], engine_params(plus))
            e_minus = SP.make_engine(rule, 15, [], engine_params(minus))
            score = sum(
                SP.play(e_plus, e_minus, opening, black, rule, 15, None, cfg["nodes"])
                for black in (True, False)
            )
            diff = score - (2 - score)
            theta = update(theta, ak, ck, signs, diff)
            state["iteration"] = k
            state["games"] += 2
            state["pairs"][str(int(diff))] += 1
            state["theta"] = theta.tolist()
            state["seconds"] = run_start_seconds + time.time() - start
            if k % args.every == 0:
                state["history"].append([k, np.rint(theta).astype(int).tolist()])
            save(args.state, state)
            if k % args.every == 0:
                print(
                    f"iter {k} games {state['games']} ({state['seconds']:.0f}s) pairs "
                    f"{state['pairs']} theta "
                    + " ".join(f"{n}={v:.1f}" for n, v in zip(NAMES, theta, strict=True)),
                    flush=True,
                )
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    print(
        f"done: {state['iteration']} iterations, {state['games']} games, "
        f"{state['seconds']:.0f}s; theta {state.get('selfplay', '-')}",
        flush=True,
    )


if __name__ == "__main__":
    main()
