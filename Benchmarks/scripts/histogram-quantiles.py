#!/usr/bin/env python3
"""The server's own latencies over one run, from two /metrics snapshots (before and after).

Usage: histogram-quantiles.py LABEL BEFORE AFTER [LABEL BEFORE AFTER ...]
Prints a Markdown table: for each run (LABEL) and each histogram the service keeps of its own
latencies, the observations in the run and their p50 / p99, estimated as Prometheus's
histogram_quantile does (linear within the bucket the quantile falls in; the buckets are
ServiceMetrics.fineBuckets: 10 µs … 1 s).
"""
import re
import sys

HISTOGRAMS = [
    ("pipeline_timer_lateness_seconds", "timer lateness"),
    ("pipeline_cached_result_seconds", "cached answer: throttle → result written"),
]
BUCKET = re.compile(r'^(\w+)_bucket\{(?:.*,)?le="([^"]+)"(?:,.*)?\} (\S+)$')


def buckets(path, name):
    """The cumulative bucket counts of `name` (summed over label sets), by upper bound."""
    counts = {}
    with open(path) as snapshot:
        for line in snapshot:
            match = BUCKET.match(line.strip())
            if match and match.group(1) == name:
                bound = float("inf") if match.group(2) == "+Inf" else float(match.group(2))
                counts[bound] = counts.get(bound, 0.0) + float(match.group(3))
    return counts


def quantile(q, bounds, cumulative):
    total = cumulative[-1]
    if total <= 0:
        return None
    rank = q * total
    lower, below = 0.0, 0.0
    for bound, count in zip(bounds, cumulative):
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * ((rank - below) / (count - below) if count > below else 1.0)
        lower, below = bound, count
    return lower


def main(arguments):
    if len(arguments) % 3 != 0 or not arguments:
        sys.exit(__doc__)
    print("| run | server's own latency | observations | p50 (ms) | p99 (ms) |")
    print("|---|---|---:|---:|---:|")
    for index in range(0, len(arguments), 3):
        label, before_path, after_path = arguments[index:index + 3]
        for name, description in HISTOGRAMS:
            before, after = buckets(before_path, name), buckets(after_path, name)
            bounds = sorted(after)
            cumulative = [after[b] - before.get(b, 0.0) for b in bounds]
            if not bounds or cumulative[-1] <= 0:
                print(f"| {label} | {description} | 0 | - | - |")
                continue
            p50, p99 = quantile(0.5, bounds, cumulative), quantile(0.99, bounds, cumulative)
            print(f"| {label} | {description} | {int(cumulative[-1])} | {p50 * 1000:.3f} | {p99 * 1000:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
