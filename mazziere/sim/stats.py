"""Confidence intervals for simulation results: a mean with Student's t, a proportion with
Wilson's score interval (Wilson 1927; it stays inside [0, 1] and behaves near 0 and 1).

>>> ci = mean_ci([1.0, 2.0, 3.0, 4.0]); (ci.mean, round(ci.low, 3), round(ci.high, 3))
(2.5, 0.446, 4.554)
>>> w = wilson(50, 100); (round(w.low, 4), round(w.high, 4))
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with the bounds of its confidence interval."""

    estimate: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass(frozen=True, slots=True)
class MeanCI(Interval):
    """A sample mean, its confidence interval and the sample size."""

    n: int

    @property
    def mean(self) -> float:
        return self.estimate


def z_quantile(confidence: float = 0.95) -> float:
    """The two-sided normal critical value (1.959964... for 95%)."""
    _check_confidence(confidence)
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def t_quantile(confidence: float, dof: int) -> float:
    """The two-sided Student t critical value: the exact CDF (Abramowitz & Stegun 26.7.3-4)
    inverted by bisection up to 200 degrees of freedom, the Cornish-Fisher expansion (26.7.5,
    error < 1e-6 there) beyond."""
    _check_confidence(confidence)
    if dof < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if dof > 200:
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        v = float(dof)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / v + g2 / v**2 + g3 / v**3
    lo, hi = 0.0, 1.0
    while _t_central(hi, dof) < confidence:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_central(mid, dof) < confidence:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2


def _t_central(t: float, dof: int) -> float:
    """P(|T| < t) for Student's t with an integer number of degrees of freedom."""
    theta = math.atan(t / math.sqrt(dof))
    c2 = math.cos(theta) ** 2
    if dof % 2 == 1:
        term, total = 1.0, 1.0 if dof > 1 else 0.0
        for k in range(1, (dof - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    term, total = 1.0, 1.0
    for k in range(1, dof // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> MeanCI:
    """The mean of ``values`` with a Student-t confidence interval (one value: zero width;
    none: NaN)."""
    n = len(values)
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return MeanCI(mean, mean, mean, 1)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(confidence, n - 1) * math.sqrt(var / n)
    return MeanCI(mean, mean - half, mean + half, n)


def wilson(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """The proportion ``successes / trials`` with Wilson's score interval (no trials: the
    whole of [0, 1] around NaN)."""
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return Interval(math.nan, 0.0, 1.0)
    z = z_quantile(confidence)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high)


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
