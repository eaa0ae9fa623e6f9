"""The figures the benchmarks report beside pytest-benchmark's own."""

from __future__ import annotations


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank, never past the largest value)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
