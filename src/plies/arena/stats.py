"""Match statistics: Elo with 95% error bars, normalised Elo, LOS and the SPRT.

Definitions follow fishtest and fastchess (formulas in docs/arena.md):

* trinomial: the W/D/L counts of single games, each scoring 1, 1/2 or 0;
* pentanomial: the results of game *pairs* (same opening, colours swapped), each pair scoring
  0, 1/4, 1/2, 3/4 or 1 per game: counts ``[LL, LD, WL+DD, WD, WW]``;
* Elo ``= -400 log10(1/s - 1)`` of the mean score ``s``; its 95% error is half the width of the
  Elo interval mapped from ``s +- 1.96 * stderr``;
* normalised Elo ``= (s - 1/2) / sigma * 800 / ln 10`` with ``sigma`` the standard deviation of
  one game's score (for pairs, ``sqrt(2)`` times that of a pair's mean);
* the SPRT is the GSPRT of Michel Van den Bergh: the log-likelihood ratio of the maximum
  likelihood distributions under the two hypotheses (``normalized`` Elo as fishtest, or
  ``logistic`` Elo), with zero counts regularised to 1e-3 as fishtest does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from plies.errors import InvalidOption

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
NELO_SCALE = 800.0 / math.log(10.0)  # normalised Elo per unit of t = (s - 1/2) / sigma
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
SPRT_MODELS = ("normalized", "logistic")


def elo_from_score(score: float) -> float:
    """The logistic Elo difference of a mean score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _mean_var(scores: Sequence[float], counts: Sequence[float]) -> tuple[float, float, float]:
    n = float(sum(counts))
    if n <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(a * c for a, c in zip(scores, counts, strict=True)) / n
    var = sum(c * (a - mean) ** 2 for a, c in zip(scores, counts, strict=True)) / n
    return n, mean, var


@dataclass(frozen=True)
class EloEstimate:
    """An Elo estimate from W/D/L or pentanomial counts (the first engine's point of view)."""

    score: float  # mean score per game, 0..1
    elo: float
    elo_error: float  # half width of the 95% interval
    nelo: float  # normalised Elo
    nelo_error: float
    los: float  # likelihood of superiority, 0..1
    samples: int  # games (trinomial) or pairs (pentanomial)


def _estimate(scores: Sequence[float], counts: Sequence[int], per_game: float) -> EloEstimate:
    n, mean, var = _mean_var(scores, counts)
    if n == 0:
        return EloEstimate(0.5, 0.0, math.inf, 0.0, math.inf, 0.5, 0)
    stderr = math.sqrt(var / n)
    lo = elo_from_score(mean - Z95 * stderr)
    hi = elo_from_score(mean + Z95 * stderr)
    elo_error = (hi - lo) / 2.0 if math.isfinite(hi - lo) else math.inf
    sigma = math.sqrt(per_game * var)  # standard deviation of one game's score
    if sigma > 0:
        nelo = (mean - 0.5) / sigma * NELO_SCALE
        nelo_error = Z95 * NELO_SCALE / math.sqrt(per_game * n)
    else:
        nelo, nelo_error = (0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5)), math.inf
    # LOS: the probability that the true mean score exceeds 1/2 (normal approximation)
    if stderr > 0:
        los = _phi((mean - 0.5) / stderr)
    else:
        los = 0.5 if mean == 0.5 else (1.0 if mean > 0.5 else 0.0)
    return EloEstimate(mean, elo_from_score(mean), elo_error, nelo, nelo_error, los, int(n))


def trinomial_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo, its 95% error, normalised Elo and LOS from single-game W/D/L counts."""
    return _estimate(TRINOMIAL_SCORES, (losses, draws, wins), 1.0)


def pentanomial_elo(pairs: Sequence[int]) -> EloEstimate:
    """Elo, error, normalised Elo and LOS from pair counts ``[LL, LD, WL+DD, WD, WW]``."""
    _check_penta(pairs)
    return _estimate(PENTANOMIAL_SCORES, pairs, 2.0)


def _check_penta(pairs: Sequence[int]) -> None:
    if len(pairs) != 5:
        raise InvalidOption(
            f"pentanomial counts need 5 numbers [LL, LD, WL+DD, WD, WW], not {pairs}"
        )


# --- SPRT ------------------------------------------------------------------------------------


def _bisect(f: Callable[[float], float], lo: float, hi: float, tol: float = 1e-12) -> float:
    """A root of ``f`` on the open interval (lo, hi) where f goes from + to - (or - to +)."""
    flo = f(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        if fm == 0.0 or hi - lo < tol:
            return mid
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _solve_theta(phat: Sequence[float], phi: Sequence[float]) -> float:
    """The theta with ``sum phat_i phi_i / (1 + theta phi_i) = 0`` keeping all weights positive."""
    u, v = min(phi), max(phi)
    if u >= 0 or v <= 0:
        raise InvalidOption("SPRT: the hypothesis lies outside the possible scores")
    lo, hi = -1.0 / v, -1.0 / u
    span = hi - lo
    lo, hi = lo + 1e-15 * span, hi - 1e-15 * span

    def f(theta: float) -> float:
        return sum(p * x / (1.0 + theta * x) for p, x in zip(phat, phi, strict=True))

    return _bisect(f, lo, hi)


def _mle_expectation(scores: Sequence[float], phat: Sequence[float], s: float) -> list[float]:
    """The distribution nearest (in likelihood) to ``phat`` with expected score ``s``."""
    phi = [a - s for a in scores]
    theta = _solve_theta(phat, phi)
    return [p / (1.0 + theta * x) for p, x in zip(phat, phi, strict=True)]


def _mle_t_value(scores: Sequence[float], phat: Sequence[float], t: float) -> list[float]:
    """The distribution nearest to ``phat`` with ``(mean - 1/2) / sigma = t`` (fixed point)."""
    n = len(scores)
    p = [1.0 / n] * n
    for _ in range(1000):
        _, mu, var = _mean_var(scores, p)
        sigma = math.sqrt(var)
        phi = [a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in scores]
        theta = _solve_theta(phat, phi)
        new = [q / (1.0 + theta * x) for q, x in zip(phat, phi, strict=True)]
        diff = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if diff < 1e-10:
            break
    return p


def sprt_llr(
    counts: Sequence[int],
    elo0: float,
    elo1: float,
    model: str = "normalized",
) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``).

    ``counts`` is ``[L, D, W]`` (3 numbers: games) or ``[LL, LD, WL+DD, WD, WW]`` (5: pairs).
    ``model`` is ``normalized`` (fishtest's default: Elo bounds in normalised Elo) or
    ``logistic``. Zero counts are replaced by 1e-3, as fishtest and fastchess do.
    """
    if model not in SPRT_MODELS:
        raise InvalidOption(
            f"unknown SPRT model {model!r}: expected one of {', '.join(SPRT_MODELS)}"
        )
    if len(counts) == 3:
        scores, per_game = TRINOMIAL_SCORES, 1.0
    elif len(counts) == 5:
        scores, per_game = PENTANOMIAL_SCORES, 2.0
    else:
        raise InvalidOption(f"SPRT counts need 3 or 5 numbers, not {len(counts)}")
    if sum(counts) == 0:
        return 0.0
    reg = [float(c) if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    phat = [c / total for c in reg]
    if model == "normalized":
        # t is per game; a pair's mean has half the variance, hence the sqrt(2)
        t0 = math.sqrt(per_game) * elo0 / NELO_SCALE
        t1 = math.sqrt(per_game) * elo1 / NELO_SCALE
        p0 = _mle_t_value(scores, phat, t0)
        p1 = _mle_t_value(scores, phat, t1)
    else:
        p0 = _mle_expectation(scores, phat, score_from_elo(elo0))
        p1 = _mle_expectation(scores, phat, score_from_elo(elo1))
    return total * sum(
        q * (math.log(b) - math.log(a)) for q, a, b in zip(phat, p0, p1, strict=True)
    )


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.

    ``alpha`` is the false positive rate (accepting H1 when H0 holds), ``beta`` the false
    negative rate. The bounds are Wald's: ``lower = ln(beta / (1 - alpha))``,
    ``upper = ln((1 - beta) / alpha)``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise InvalidOption(f"SPRT: elo0 ({self.elo0}) must be less than elo1 ({self.elo1})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise InvalidOption(f"SPRT: {name} must be between 0 and 1, not {value}")
        if self.alpha + self.beta >= 1.0:
            raise InvalidOption("SPRT: alpha + beta must be less than 1")
        if self.model not in SPRT_MODELS:
            raise InvalidOption(
                f"unknown SPRT model {self.model!r}: expected one of {', '.join(SPRT_MODELS)}"
            )

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of the counts (3: L/D/W games, 5: pentanomial pairs)."""
        return sprt_llr(counts, self.elo0, self.elo1, self.model)

    def decision(self, llr: float) -> str:
        """``H1`` (accept elo1: stop), ``H0`` (accept elo0: stop) or ``continue``."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return "continue"


def parse_sprt(
    text: str, alpha: float = 0.05, beta: float = 0.05, model: str = "normalized"
) -> SPRT:
    """An :class:`SPRT` from ``"elo0,elo1"`` (alpha, beta and model as given)."""
    parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise InvalidOption(f"cannot read SPRT bounds {text!r}: expected elo0,elo1") from None
    return SPRT(elo0, elo1, alpha, beta, model)
