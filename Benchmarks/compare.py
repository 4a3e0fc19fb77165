#!/usr/bin/env python3
"""Summarise a JSONDecoding benchmark run exported with `--format jmh`.

Usage: compare.py RESULTS.jmh.json

Prints, per benchmark, the median wall-clock time and the other medians, then per payload the
ratio Foundation / BackstopJSON (so > 1 means BackstopJSON is faster), the geometric mean of the
lenient speedups over twitter, citm_catalog, canada and envelope20k.clean, the dirty/clean
ratio of the lenient decoder, and the peak-memory ratios.

In the jmh export, times are in microseconds and everything else is a plain count (bytes for
the memory metrics); every value used here is the median (the "50.0" percentile).
"""
import json
import math
import sys

PAYLOADS = ["twitter", "citm_catalog", "canada", "envelope20k.clean"]
DIRTY = "envelope20k.dirty"
# How many repairs each `repairs.<kind>.dirty` document makes (RepairCost.swift).
REPAIRS = 100_000
FOUNDATION, LENIENT, STRICT = "Foundation", "BackstopJSON.lenient", "BackstopJSON.strict"
ORDER = {FOUNDATION: 0, LENIENT: 1, STRICT: 2}

# jmh secondary metric names (BenchmarkMetric.description) -> short keys
METRICS = [
    ("Time (wall clock)", "wall"),
    ("Time (total CPU)", "cpu"),
    ("Memory (resident peak)", "rss"),
    ("Memory Δ (resident peak)", "rssDelta"),
    ("Malloc (total)", "mallocs"),
    ("Malloc (bytes total)", "mallocBytes"),
]


def load(path):
    with open(path, encoding="utf-8") as f:
        elements = json.load(f)
    results = {}
    for element in elements:
        name = element["benchmark"]
        # "package.benchmark.<target>.<benchmark name with spaces as _>"
        parts = name.split(".", 3)
        name = parts[3] if len(parts) == 4 and parts[0] == "package" else name
        row = {"throughput": element["primaryMetric"]["scorePercentiles"]["50.0"],
               "samples": element.get("measurementIterations")}
        for metric_name, metric in element.get("secondaryMetrics", {}).items():
            for full, short in METRICS:
                if metric_name == full:
                    row[short] = metric["scorePercentiles"]["50.0"]
                    if short == "wall":
                        row["wall_p90"] = metric["scorePercentiles"]["90.0"]
        results[name] = row
    return results


def fmt_time(us):
    if us is None:
        return "-"
    if us >= 1_000_000:
        return f"{us / 1_000_000:.2f} s"
    if us >= 1_000:
        return f"{us / 1_000:.2f} ms"
    return f"{us:.1f} µs"


def fmt_bytes(n):
    if n is None:
        return "-"
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if abs(n) >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def fmt_count(n):
    if n is None:
        return "-"
    for unit, size in (("M", 1_000_000), ("K", 1_000)):
        if abs(n) >= size:
            return f"{n / size:.1f}{unit}"
    return f"{n:.0f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(r, suffix="x"):
    return "-" if r is None else f"{r:.2f}{suffix}"


def table(headers, rows, left=2):
    """Aligned plain-text table; the first `left` columns are left-aligned, the rest right-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]

    def render(cells):
        return "  ".join(str(c).ljust(w) if i < left else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    line = render(headers)
    out = [line, "-" * len(line)]
    out.extend(render(row) for row in rows)
    return "\n".join(out)


def main(path):
    results = load(path)
    if not results:
        sys.exit(f"no results in {path}")

    def key(name):
        payload, _, decoder = name.partition("/")
        ordering = PAYLOADS + [DIRTY]
        return (ordering.index(payload) if payload in ordering else len(ordering), payload, ORDER.get(decoder, 9), decoder)

    rows = []
    for name in sorted(results, key=key):
        r = results[name]
        payload, _, decoder = name.partition("/")
        rows.append([payload, decoder, fmt_time(r.get("wall")), fmt_time(r.get("wall_p90")),
                     fmt_count(r.get("throughput")), fmt_bytes(r.get("rss")), fmt_bytes(r.get("rssDelta")),
                     fmt_count(r.get("mallocs")), fmt_bytes(r.get("mallocBytes")), r.get("samples") or "-"])
    print("Medians per benchmark (wall clock p50 and p90; mallocs and malloc bytes are per decode; peak RSS is the"
          "\nprocess's sampled resident peak including the loaded payload, peak RSS Δ its rise during the run, a"
          "\ncoarse 5 ms sample, so treat Δ as indicative only):\n")
    print(table(["payload", "decoder", "time p50", "time p90", "decodes/s", "peak RSS", "peak RSS Δ",
                 "mallocs", "malloc bytes", "samples"], rows))

    def get(payload, decoder, metric):
        return results.get(f"{payload}/{decoder}", {}).get(metric)

    print("\nFoundation vs BackstopJSON per payload (speedup = Foundation time / BackstopJSON time, > 1 is faster;"
          "\nmemory ratios = BackstopJSON.lenient / Foundation, < 1 is leaner):\n")
    rows = []
    lenient_speedups, strict_speedups = [], []
    for payload in PAYLOADS:
        f_wall = get(payload, FOUNDATION, "wall")
        sp_l = ratio(f_wall, get(payload, LENIENT, "wall"))
        sp_s = ratio(f_wall, get(payload, STRICT, "wall"))
        if sp_l:
            lenient_speedups.append(sp_l)
        if sp_s:
            strict_speedups.append(sp_s)
        rows.append([payload, fmt_time(f_wall), fmt_time(get(payload, LENIENT, "wall")), fmt_ratio(sp_l),
                     fmt_time(get(payload, STRICT, "wall")), fmt_ratio(sp_s),
                     fmt_ratio(ratio(get(payload, LENIENT, "rss"), get(payload, FOUNDATION, "rss")), ""),
                     fmt_ratio(ratio(get(payload, LENIENT, "mallocBytes"), get(payload, FOUNDATION, "mallocBytes")), ""),
                     fmt_ratio(ratio(get(payload, LENIENT, "mallocs"), get(payload, FOUNDATION, "mallocs")), "")])
    print(table(["payload", "Foundation", "lenient", "speedup", "strict", "speedup",
                 "peak RSS", "malloc bytes", "mallocs"], rows, left=1))

    def geomean(values):
        return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None

    n = len(PAYLOADS)
    print(f"\nGeometric mean speedup over {', '.join(PAYLOADS)}:")
    print(f"  BackstopJSON.lenient: {fmt_ratio(geomean(lenient_speedups))}"
          + ("" if len(lenient_speedups) == n else f"  (only {len(lenient_speedups)} of {n} payloads measured)"))
    print(f"  BackstopJSON.strict:  {fmt_ratio(geomean(strict_speedups))}"
          + ("" if len(strict_speedups) == n else f"  (only {len(strict_speedups)} of {n} payloads measured)"))

    clean, dirty = "envelope20k.clean", DIRTY
    print(f"\nRepair cost, BackstopJSON.lenient on {dirty} vs {clean} (dirty / clean):")
    print(f"  time:         {fmt_ratio(ratio(get(dirty, LENIENT, 'wall'), get(clean, LENIENT, 'wall')))}"
          f"  ({fmt_time(get(dirty, LENIENT, 'wall'))} vs {fmt_time(get(clean, LENIENT, 'wall'))})")
    print(f"  peak RSS:     {fmt_ratio(ratio(get(dirty, LENIENT, 'rss'), get(clean, LENIENT, 'rss')))}")
    print(f"  malloc bytes: {fmt_ratio(ratio(get(dirty, LENIENT, 'mallocBytes'), get(clean, LENIENT, 'mallocBytes')))}")
    print(f"  mallocs:      {fmt_ratio(ratio(get(dirty, LENIENT, 'mallocs'), get(clean, LENIENT, 'mallocs')))}")
    print(f"  vs Foundation on clean (Foundation clean / lenient dirty): "
          f"{fmt_ratio(ratio(get(clean, FOUNDATION, 'wall'), get(dirty, LENIENT, 'wall')))}")

    kinds = sorted({name.partition("/")[0][len("repairs."):].rpartition(".")[0]
                    for name in results if name.startswith("repairs.")})
    if kinds:
        print(f"\nCost of one repair, BackstopJSON.lenient ((dirty - clean) / {REPAIRS:,} repairs; the goal is <= 1 µs):")
        for kind in kinds:
            dirty_wall, clean_wall = get(f"repairs.{kind}.dirty", LENIENT, "wall"), get(f"repairs.{kind}.clean", LENIENT, "wall")
            cost = f"{(dirty_wall - clean_wall) / REPAIRS:.2f} µs" if dirty_wall and clean_wall else "-"
            print(f"  {kind + ':':22} {cost:>9}  ({fmt_time(dirty_wall)} vs {fmt_time(clean_wall)})")

    bare = get("unwrap1k", "bare", "wall")
    if bare:
        print("\nEnvelope unwrapping, 1,000 items (shape time / bare payload time; the goal is <= 1.10x):")
        for shape in ("A", "B", "C"):
            print(f"  {shape}: {fmt_ratio(ratio(get('unwrap1k', shape, 'wall'), bare))}"
                  f"  ({fmt_time(get('unwrap1k', shape, 'wall'))} vs {fmt_time(bare)})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
