#!/usr/bin/env bash
# Runs the JSONDecoding benchmarks (BackstopJSON vs Foundation's JSONDecoder) and prints a
# compact comparison: median times, Foundation/BackstopJSON speedups per payload, their
# geometric mean, the dirty/clean cost of lenient repairs, and memory ratios.
#
# Usage (from anywhere):
#   Benchmarks/compare.sh                          # the whole suite, a few minutes on 2 cores
#   Benchmarks/compare.sh --filter 'twitter/.*'    # extra options go to `swift package benchmark`
#   Benchmarks/compare.sh --summarize FILE.jmh.json  # only re-print the table of an earlier run
#
# The raw results (jmh format, loadable in https://jmh.morethan.io) are kept in
# $BENCHMARK_RESULTS_DIR (default Benchmarks/.build/benchmark-results). For ordo-one's own
# full per-metric tables, run `swift package benchmark` inside Benchmarks/ instead.
#
# The benchmark plugin builds the benchmark target in release mode itself. The corpus is read
# from ../shared/corpus beside the repository, or from $BACKSTOP_CORPUS_DIR when set.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [[ "${1:-}" == "--summarize" ]]; then
    exec python3 "$here/compare.py" "${2:?usage: compare.sh --summarize FILE.jmh.json}"
fi

out="${BENCHMARK_RESULTS_DIR:-$here/.build/benchmark-results}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -f "$out"/*.jmh.json

cd "$here"
# --allow-writing-to-directory lets the plugin write the export where sandboxed (macOS); it is
# harmless on Linux, where SwiftPM runs plugins without a sandbox.
swift package --allow-writing-to-directory "$out" \
    benchmark run --target JSONDecoding --format jmh --path "$out" --no-progress "$@"

shopt -s nullglob
results=("$out"/*.jmh.json)
if (( ${#results[@]} != 1 )); then
    echo "compare.sh: expected one .jmh.json in $out, found ${#results[@]}" >&2
    exit 1
fi
echo
echo "Results: ${results[0]}"
echo
python3 "$here/compare.py" "${results[0]}"
