#!/usr/bin/env bash
# Instructions per whole call over loopback (`LoopbackCounts`), counted by callgrind: the client's
# work, the transport's and the in-process server's, in every thread, without the scheduling
# noise of the timed `every-stage-blocks` (issue 33). The kernel's work is not counted.
#
#   Benchmarks/loopback-instructions.sh                                     # AsyncHTTPClient, the bar's configurations
#   Benchmarks/loopback-instructions.sh urlSession handWritten apiClient    # a transport, some configurations
#
# Each figure is (count for 1 + N calls − count for 1 call) / N, as in pipeline-instructions.sh.
# Builds LoopbackCounts first; counts a copy without debug information, which valgrind 3.19
# cannot read for this binary's SwiftNIO and Hummingbird objects.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
swift build -c release --product LoopbackCounts > /dev/null 2>&1
command -v valgrind > /dev/null || { echo "loopback-instructions.sh: valgrind is not installed"; exit 1; }
binary="$(mktemp)"
trap 'rm -f "$binary"' EXIT
objcopy --strip-debug "$(swift build -c release --show-bin-path)/LoopbackCounts" "$binary"

transport=asyncHTTPClient
if [ $# -gt 0 ] && { [ "$1" = asyncHTTPClient ] || [ "$1" = urlSession ]; }; then transport=$1; shift; fi
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
    sets=(handWritten apiClient everyStage)
    [ "$transport" = asyncHTTPClient ] && sets+=(delegateAPI)
fi
n=${CALLS:-1000}

source "$here/instruction-count.sh"

printf "%-20s %-16s %8s %14s\n" configuration transport calls "per call"
for set in "${sets[@]}"; do
    printf "%-20s %-16s %8d %14d\n" "$set" "$transport" "$n" "$(per_run "$n" "$transport" "$set")"
done
