"""The SPSA arithmetic of benchmarks/spsa.py (the tuner that set the Gomoku weights)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from plies.gomoku.engine import params as P

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "spsa.py"
_SPEC = importlib.util.spec_from_file_location("plies_bench_spsa", _PATH)
spsa = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(spsa)


def test_defaults_and_engine_params_round_trip() -> None:
    theta = spsa.defaults()
    params = spsa.engine_params(np.rint(theta).astype(np.int64))
    assert params["PATTERN_VALUE"] == P.PATTERN_VALUE.tolist()
    assert params["CLASS_BONUS"] == P.CLASS_BONUS.tolist()
    assert params["ATTACK"] == P.ATTACK


def test_the_schedule_ends_at_the_chosen_perturbation_and_rate() -> None:
    cend = spsa.c_end(spsa.defaults())
    c, a = spsa.constants(cend, 0.01, 4000, 400.0)
    ak, ck = spsa.schedule(4000, c, a, 400.0)
    assert np.allclose(ck, cend)
    assert np.allclose(ak / ck**2, 0.01)
    ak1, ck1 = spsa.schedule(1, c, a, 400.0)
    assert np.all(ck1 > ck) and np.all(ak1 > ak)  # both decay


def test_the_update_moves_toward_the_winner_and_stays_in_bounds() -> None:
    theta = spsa.defaults()
    n = theta.shape[0]
    signs = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    ck = np.full(n, 2.0)
    ak = np.full(n, 1.0)
    plus, minus = spsa.perturb(theta, ck, signs)
    assert np.all(plus >= spsa.LO) and np.all(minus <= spsa.HI)
    won = spsa.update(theta, ak, ck, signs, 2.0)  # theta+ won the pair
    lost = spsa.update(theta, ak, ck, signs, -2.0)
    inner = (theta > spsa.LO + 1) & (theta < spsa.HI - 1)
    assert np.all(np.sign(won - theta)[inner] == signs[inner])
    assert np.all(np.sign(lost - theta)[inner] == -signs[inner])
    assert np.array_equal(spsa.update(theta, ak, ck, signs, 0.0), theta)
    huge = spsa.update(theta, ak * 1e6, ck, signs, 2.0)
    assert np.all(huge >= spsa.LO) and np.all(huge <= spsa.HI)
