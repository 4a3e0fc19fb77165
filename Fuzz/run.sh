#!/usr/bin/env bash
# Builds and runs Backstop's libFuzzer targets.
#
#   Fuzz/run.sh build                 build both fuzzers
#   Fuzz/run.sh fuzz parser|decoder N fuzz one target for N seconds, growing its corpus
#   Fuzz/run.sh replay                run every kept corpus input once (CI does this)
#
# SwiftPM cannot link a libFuzzer executable on Linux, so SwiftPM builds BackstopJSON with
# coverage and address sanitizer instrumentation, and swiftc links each entry against it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/Fuzz/.work"
scratch="$root/.build-fuzz"
suite="$root/../shared/corpus/JSONTestSuite/test_parsing"
mkdir -p "$work"

build() {
  swift build --target BackstopJSON -c release --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
  local objects=("$scratch"/release/BackstopJSON.build/*.o)
  for target in parser decoder; do
    local source="$root/Fuzz/$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}Fuzz.swift"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -I "$scratch/release/Modules" \
      "$source" "${objects[@]}" -o "$work/fuzz-$target" >&2
  done
}

corpus() { mkdir -p "$root/Fuzz/corpus/$1"; echo "$root/Fuzz/corpus/$1"; }

# JSONTestSuite seeds every run from ../shared; the kept corpus holds only what fuzzing added.
seeds() { if [ -d "$suite" ]; then echo "$suite"; fi; }

case "${1:-}" in
  build) build ;;
  fuzz)
    target=$2; seconds=${3:-60}
    [ -x "$work/fuzz-$target" ] || build
    # New inputs go to a scratch folder; -merge keeps only those that add coverage.
    rm -rf "$work/new-$target"; mkdir -p "$work/new-$target"
    "$work/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 "$work/new-$target" "$(corpus "$target")" $(seeds)
    "$work/fuzz-$target" -merge=1 "$(corpus "$target")" "$work/new-$target" >/dev/null 2>&1
    ;;
  replay)
    build  # incremental: replay what the sources are now, never a stale binary
    # A timeout (a hang) fails CI as a crash does: libFuzzer exits non-zero on either, and the
    # status is checked here rather than lost in a pipeline.
    failed=0
    for target in parser decoder; do
      status=0
      "$work/fuzz-$target" -runs=0 -timeout=10 -timeout_exitcode=70 -error_exitcode=77 \
        -rss_limit_mb=2048 "$(corpus "$target")" $(seeds) > "$work/replay-$target.log" 2>&1 || status=$?
      tail -n 2 "$work/replay-$target.log"
      if [ "$status" -ne 0 ]; then
        tail -n 40 "$work/replay-$target.log" >&2
        echo "replay: fuzz-$target failed (exit $status; 70 = timeout, 77 = crash)" >&2; failed=1
      fi
    done
    exit "$failed"
    ;;
  *) sed -n '2,8p' "$0"; exit 2 ;;
esac
