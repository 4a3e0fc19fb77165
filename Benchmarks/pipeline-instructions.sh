#!/usr/bin/env bash
# Instructions per call of each client configuration (`StageSet`), counted by callgrind over the
# in-memory transport, in every thread: what the pipeline and each of its stages cost the CPU,
# free of the network and of the machine's load (issue 33 item 10).
#
#   Benchmarks/pipeline-instructions.sh                        # every configuration
#   Benchmarks/pipeline-instructions.sh everyStage apiClient   # some of them
#
# Each figure is (count for 1 + N calls − count for 1 call) / N, so the process's start-up and
# the first call's one-time work cancel out. Threads woken for a task or a timer count too, so
# the figures move by a few hundred instructions between runs. Builds PipelineCounts first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
swift build -c release --product PipelineCounts > /dev/null 2>&1
binary="$(swift build -c release --show-bin-path)/PipelineCounts"
command -v valgrind > /dev/null || { echo "pipeline-instructions.sh: valgrind is not installed"; exit 1; }

sets=("$@")
[ ${#sets[@]} -eq 0 ] && sets=(handWritten bare apiClient everyStage everyStageLogged withoutTimeout withoutHedging withoutCoalescing withoutLimit withoutBreaker withoutObservation)
n=${CALLS:-2000}

source "$here/instruction-count.sh"

printf "%-20s %8s %14s\n" configuration calls "per call"
for set in "${sets[@]}"; do
    printf "%-20s %8d %14d\n" "$set" "$n" "$(per_run "$n" "$set")"
done
