"""95% confidence intervals for mean points, shared by the match arena and tournaments.

A mean from a handful of games says little, so every figure of strength the project
prints carries its interval. `Interval.of` is the plain t-free (normal) interval of a
sample, `Running` the same for a sample that grows without being kept, and
`Interval.clustered` the interval of a ratio (points per round) whose observations come in
correlated clusters (every game played on the same deal), so that duplicate games are not
counted as independent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass
class Interval:
    mean: float
    half: float  # half-width of the 95% confidence interval
    n: int

    @classmethod
    def of(cls, xs: Sequence[float]) -> Interval:
        n = len(xs)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = sum(xs) / n
        if n < 2:
            return cls(mean, math.inf, n)
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        return cls(mean, Z95 * math.sqrt(var / n), n)

    @classmethod
    def clustered(cls, clusters: Sequence[tuple[float, float]]) -> Interval:
        """The ratio sum(y) / sum(x) of (y, x) clusters, e.g. (points, rounds) per deal.

        Its half-width is the cluster-robust (sandwich) one: the residuals y - mean·x are
        summed within a cluster before squaring, so rounds that share cards (the four
        rotations of a deal, the same deal at several tables) count as one observation
        of their total; the n/(n-1) factor is the usual small-sample correction. `n` is
        the number of clusters.
        """
        n = len(clusters)
        weight = sum(x for _, x in clusters)
        if n == 0 or weight <= 0:
            return cls(math.nan, math.nan, n)
        mean = sum(y for y, _ in clusters) / weight
        if n < 2:
            return cls(mean, math.inf, n)
        spread = sum((y - mean * x) ** 2 for y, x in clusters)
        return cls(mean, Z95 * math.sqrt(spread * n / (n - 1)) / weight, n)


@dataclass
class Running:
    """The interval of a growing sample without keeping it (progress and --precision)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def interval(self) -> Interval:
        if self.n < 2:
            return Interval(self.total / self.n if self.n else math.nan, math.inf, self.n)
        mean = self.total / self.n
        var = max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))
        return Interval(mean, Z95 * math.sqrt(var / self.n), self.n)
