"""Statistics against published fastchess figures and against values computed here."""

import math

import pytest

from plies.arena.stats import (
    SPRT,
    elo_from_score,
    parse_sprt,
    pentanomial_elo,
    score_from_elo,
    sprt_llr,
    trinomial_elo,
)
from plies.errors import InvalidOption

# fastchess app/tests/elo_test.cpp: Stats(wins, losses, draws) and
# Stats(LL, LD, WL, DD, WD, WW) -> nElo, nElo error, Elo, Elo error, LOS (2 decimals)
WDL_CASES = [
    ((76, 89, 123), -20.76, 40.13, None, None, 15.53),
    ((136, 96, 111), 49.77, 36.77, 40.70, 30.43, 99.60),
    ((34, 356, 0), -508.44, 34.48, None, None, None),
]
PENTA_CASES = [
    ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65, 100.00),
    ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33, 5.05),
    ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95, None),
]


@pytest.mark.parametrize("counts,nelo,nerr,elo,err,los", WDL_CASES)
def test_trinomial_matches_fastchess(counts, nelo, nerr, elo, err, los):
    w, lo, d = counts
    est = trinomial_elo(w, d, lo)
    assert est.nelo == pytest.approx(nelo, abs=0.01)
    assert est.nelo_error == pytest.approx(nerr, abs=0.01)
    if elo is not None:
        assert est.elo == pytest.approx(elo, abs=0.01)
        assert est.elo_error == pytest.approx(err, abs=0.01)
    if los is not None:
        assert 100 * est.los == pytest.approx(los, abs=0.005)


@pytest.mark.parametrize("counts,nelo,nerr,elo,err,los", PENTA_CASES)
def test_pentanomial_matches_fastchess(counts, nelo, nerr, elo, err, los):
    ll, ld, wl, dd, wd, ww = counts
    est = pentanomial_elo([ll, ld, wl + dd, wd, ww])
    assert est.nelo == pytest.approx(nelo, abs=0.01)
    assert est.nelo_error == pytest.approx(nerr, abs=0.01)
    assert est.elo == pytest.approx(elo, abs=0.01)
    assert est.elo_error == pytest.approx(err, abs=0.01)
    if los is not None:
        assert 100 * est.los == pytest.approx(los, abs=0.005)


def test_trinomial_by_hand():
    # 6 wins, 2 draws, 2 losses: s = 0.7, per-game variance 0.16 (hand computed)
    est = trinomial_elo(6, 2, 2)
    s, var = 0.7, (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 10
    assert var == pytest.approx(0.16)
    assert est.score == pytest.approx(s)
    assert est.elo == pytest.approx(-400 * math.log10(1 / s - 1))
    se = math.sqrt(var / 10)
    hi, lo = s + 1.959964 * se, s - 1.959964 * se
    expected = (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2
    assert est.elo_error == pytest.approx(expected, rel=1e-5)
    assert est.nelo == pytest.approx(0.2 / 0.4 * 800 / math.log(10))
    assert est.los == pytest.approx(0.5 * math.erfc(-(0.2 / se) / math.sqrt(2)))


def test_elo_score_round_trip():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(score_from_elo(123.4)) == pytest.approx(123.4)
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)  # the classic table value
    assert elo_from_score(1.0) == math.inf


# fastchess app/tests/sprt_test.cpp: LLR to 2 decimals (SPRT alpha = beta = 0.05)
SPRT_CASES = [
    ([36027, 68692, 36433], 0, 2, "normalized", 0.92),
    ([10650, 20431, 10871], -1.75, 0.25, "normalized", 2.30),
    ([21184, 40708, 21404], 0.5, 2.5, "logistic", -1.57),
    ([57030, 106593, 57433], 0, 2, "logistic", -2.59),
    ([365, 16618, 36029 + 200, 16974, 390], 0, 2, "normalized", 2.25),
    ([127, 4883, 10311 + 401, 5150, 104], -1.75, 0.25, "normalized", 3.01),
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, "logistic", -3.07),
    ([871, 26175, 55003 + 980, 26678, 821], 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize("counts,elo0,elo1,model,llr", SPRT_CASES)
def test_sprt_llr_matches_fastchess(counts, elo0, elo1, model, llr):
    assert sprt_llr(counts, elo0, elo1, model) == pytest.approx(llr, abs=0.006)


def _normal_approximation(counts, elo0, elo1):
    """The textbook GSPRT approximation: N (mu1 - mu0)(2 mu - mu0 - mu1) / (2 var)."""
    scores = [0, 0.5, 1] if len(counts) == 3 else [0, 0.25, 0.5, 0.75, 1]
    n = sum(counts)
    mu = sum(a * c for a, c in zip(scores, counts, strict=True)) / n
    var = sum(c * (a - mu) ** 2 for a, c in zip(scores, counts, strict=True)) / n
    sigma = math.sqrt(var * (1 if len(counts) == 3 else 2))
    k = math.log(10) / 800
    mu0, mu1 = 0.5 + elo0 * k * sigma, 0.5 + elo1 * k * sigma
    return n * (mu1 - mu0) * (2 * mu - mu0 - mu1) / (2 * var)


@pytest.mark.parametrize(
    "counts", [[300, 900, 330], [5000, 11000, 5400], [40, 300, 520, 310, 35], [10, 80, 200, 90, 9]]
)
def test_normalized_llr_agrees_with_the_normal_approximation(counts):
    exact = sprt_llr(counts, -1, 3)
    assert exact == pytest.approx(
        _normal_approximation(counts, -1, 3), abs=0.02 + 0.01 * abs(exact)
    )


def test_llr_of_only_won_pairs_matches_the_two_point_solution():
    # all 20 pairs won: the likelihood-maximising distributions put mass q on a won pair and
    # 1 - q on a lost one, with (q - 1/2) / sqrt(q (1 - q)) = t: q = (1 + t / sqrt(1 + t^2)) / 2
    t1 = math.sqrt(2) * 10 / (800 / math.log(10))
    q1 = (1 + t1 / math.sqrt(1 + t1 * t1)) / 2
    expected = 20 * math.log(q1 / 0.5)
    assert sprt_llr([0, 0, 0, 0, 20], 0, 10) == pytest.approx(expected, rel=0.01)


def test_sprt_bounds_and_decisions():
    test = SPRT(0, 5, 0.05, 0.05)
    assert test.upper == pytest.approx(math.log(19))
    assert test.lower == pytest.approx(-math.log(19))
    assert test.decision(3.0) == "H1"
    assert test.decision(-3.0) == "H0"
    assert test.decision(0.0) == "continue"
    assert parse_sprt("0,5").elo1 == 5


@pytest.mark.parametrize("text", ["5,0", "0", "a,b", "0,5,7"])
def test_bad_sprt_bounds(text):
    with pytest.raises(InvalidOption):
        parse_sprt(text)


def test_bad_sprt_parameters():
    with pytest.raises(InvalidOption):
        SPRT(0, 5, alpha=0.6, beta=0.5)
    with pytest.raises(InvalidOption):
        SPRT(0, 5, model="bayesian")
