#!/usr/bin/env bash
# Builds and runs Backstop's libFuzzer targets.
#
#   Fuzz/run.sh build                                  build the four fuzzers
#   Fuzz/run.sh fuzz parser|decoder|contract|openapi N fuzz one target for N seconds, growing its corpus
#   Fuzz/run.sh replay                         run every kept corpus input once (CI does this)
#
# parser and decoder fuzz BackstopJSON; contract fuzzes Backstop's `ResponseContract.unwrap`;
# openapi fuzzes BackstopOpenAPI's `OpenAPIContract.repair`.
# SwiftPM cannot link a libFuzzer executable on Linux, so SwiftPM builds Backstop and what it
# links with coverage and address sanitizer instrumentation, and swiftc links each entry
# against the objects of the modules it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/Fuzz/.work"
scratch="$root/.build-fuzz"
# JSONTestSuite, public data kept outside the repository: in $BACKSTOP_CORPUS_DIR when set, else
# in ../shared/corpus beside the repository (as the tests and benchmarks read it).
suite="${BACKSTOP_CORPUS_DIR:-$root/../shared/corpus}/JSONTestSuite/test_parsing"
mkdir -p "$work"
# A failed check goes straight to libFuzzer's crash report: Swift's backtracer, run under the
# address sanitizer, reports itself instead and exits 1 rather than 77.
export SWIFT_BACKTRACE=enable=no

targets=(parser decoder contract openapi)

# The modules each target links, in its build folder: Backstop's are its own and those of its
# dependencies (swift-http-types, swift-log, swift-metrics, swift-openapi-runtime and
# -urlsession, swift-collections' Deque and what it uses); BackstopOpenAPI's add OpenAPIKit's and
# Yams' (with libyaml, CYaml). A new dependency of Backstop is added here.
modules() {
  case "$1" in
    parser|decoder) echo BackstopJSON ;;
    contract) echo Backstop BackstopJSON HTTPTypes Logging CoreMetrics Metrics OpenAPIRuntime \
      OpenAPIURLSession DequeModule ContainersPreview InternalCollectionsUtilities ;;
    openapi) echo BackstopOpenAPI $(modules contract) OpenAPIKit OpenAPIKit30 OpenAPIKitCompat OpenAPIKitCore \
      Yams CYaml ;;
  esac
}

# The folders of the module maps of the C modules a target's Swift modules import (Yams imports libyaml's).
includes() {
  case "$1" in
    openapi) echo "-I $scratch/checkouts/Yams/Sources/CYaml/include" ;;
  esac
}

# Each target's entry: Fuzz/ParserFuzz.swift and so on, Fuzz/OpenAPIFuzz.swift for openapi.
source_of() {
  case "$1" in
    openapi) echo "$root/Fuzz/OpenAPIFuzz.swift" ;;
    *) echo "$root/Fuzz/$(tr '[:lower:]' '[:upper:]' <<<"${1:0:1}")${1:1}Fuzz.swift" ;;
  esac
}

build() {
  # BackstopOpenAPI builds Backstop and BackstopJSON with it.
  swift build --target BackstopOpenAPI -c release --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
  for target in "${targets[@]}"; do
    local source
    source=$(source_of "$target")
    local objects=()
    # C modules keep their objects under their sources' folders (CYaml.build/src/).
    for module in $(modules "$target"); do
      while IFS= read -r object; do objects+=("$object"); done < <(find "$scratch/release/$module.build" -name '*.o' | sort)
    done
    # shellcheck disable=SC2046
    swiftc -O -sanitize=fuzzer,address -parse-as-library -I "$scratch/release/Modules" $(includes "$target") \
      "$source" "${objects[@]}" -o "$work/fuzz-$target" >&2
  done
  # Beside the binaries, where Backstop looks for its message catalogue's translations.
  rm -rf "$work/Backstop_Backstop.resources"
  cp -R "$scratch/release/Backstop_Backstop.resources" "$work/"
}

corpus() { mkdir -p "$root/Fuzz/corpus/$1"; echo "$root/Fuzz/corpus/$1"; }

# JSONTestSuite seeds every run of the JSON targets when it is there (without it they start
# from the kept corpus alone, which holds only what fuzzing added). The contract and openapi
# targets read their first bytes as choices, so each starts from its own corpus of bodies.
seeds() {
  case "$1" in
    parser|decoder)
      if [ -d "$suite" ]; then echo "$suite"; else echo "fuzz-$1: no JSONTestSuite at $suite, not seeded from it" >&2; fi ;;
  esac
}

case "${1:-}" in
  build) build ;;
  fuzz)
    target=$2; seconds=${3:-60}
    [ -x "$work/fuzz-$target" ] || build
    # New inputs go to a scratch folder; -merge keeps only those that add coverage.
    rm -rf "$work/new-$target"; mkdir -p "$work/new-$target"
    "$work/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 "$work/new-$target" "$(corpus "$target")" $(seeds "$target")
    "$work/fuzz-$target" -merge=1 "$(corpus "$target")" "$work/new-$target" >/dev/null 2>&1
    ;;
  replay)
    build  # incremental: replay what the sources are now, never a stale binary
    # A timeout (a hang) fails CI as a crash does: libFuzzer exits non-zero on either, and the
    # status is checked here rather than lost in a pipeline.
    failed=0
    for target in "${targets[@]}"; do
      status=0
      "$work/fuzz-$target" -runs=0 -timeout=10 -timeout_exitcode=70 -error_exitcode=77 \
        -rss_limit_mb=2048 "$(corpus "$target")" $(seeds "$target") > "$work/replay-$target.log" 2>&1 || status=$?
      tail -n 2 "$work/replay-$target.log"
      if [ "$status" -ne 0 ]; then
        tail -n 40 "$work/replay-$target.log" >&2
        echo "replay: fuzz-$target failed (exit $status; 70 = timeout, 77 = crash)" >&2; failed=1
      fi
    done
    exit "$failed"
    ;;
  *) sed -n '2,10p' "$0"; exit 2 ;;
esac
