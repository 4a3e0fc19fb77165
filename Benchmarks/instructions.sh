#!/usr/bin/env bash
# Instructions per decode, counted by callgrind: BackstopJSON (lenient and strict) against
# Foundation's JSONDecoder, per payload. Counts, unlike wall clocks, repeat exactly for the same
# binary and input whatever else the machine runs, so they show a change's effect on a shared VM.
#
#   Benchmarks/instructions.sh                      # every payload
#   Benchmarks/instructions.sh small88 twitter      # some of them
#
# Each figure is (count for 1 + N decodes − count for 1 decode) / N: the process's start-up, the
# payload's loading and the first decode's one-time work (the runtime's first conformance and
# metadata lookups for each model type, lazy symbol binding) cancel out, so the figure is the
# steady state that the timed benchmarks measure too. Hashing is made deterministic, so dictionaries probe alike in
# every run. Needs valgrind (Debian's package); twitter, citm_catalog and canada need the corpus,
# read from ../shared/corpus beside the repository or $BACKSTOP_CORPUS_DIR (see README.md).
# Builds InstructionCounts in release mode first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
swift build -c release --product InstructionCounts > /dev/null 2>&1
binary="$(swift build -c release --show-bin-path)/InstructionCounts"
command -v valgrind > /dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install valgrind)"; exit 1; }

payloads=("$@")
[ ${#payloads[@]} -eq 0 ] && payloads=(small88 object1k envelope10 twitter citm_catalog canada envelope20k)

source "$here/instruction-count.sh"

printf "%-14s %8s %16s %16s %16s %9s %9s\n" payload decodes Foundation lenient strict "F/lenient" "F/strict"
for payload in "${payloads[@]}"; do
    case $payload in
        small88|object1k) n=2000 ;;
        envelope10) n=500 ;;
        *) n=3 ;;
    esac
    declare -A per=()
    for decoder in Foundation lenient strict; do
        per[$decoder]=$(per_run "$n" "$payload" "$decoder")
    done
    printf "%-14s %8d %16d %16d %16d %9.2f %9.2f\n" "$payload" "$n" "${per[Foundation]}" "${per[lenient]}" "${per[strict]}" \
        "$(awk "BEGIN { print ${per[Foundation]} / ${per[lenient]} }")" "$(awk "BEGIN { print ${per[Foundation]} / ${per[strict]} }")"
done
