#!/usr/bin/env bash
# Instructions per body of BackstopOpenAPI's repair step against the generated code's own decode,
# counted by callgrind (issue 35): decode, repair, and repair then decode, per payload.
#
#   Benchmarks/repair-instructions.sh                    # every payload
#   Benchmarks/repair-instructions.sh small88 twitter    # some of them
#
# Each figure is (count for 1 + N − count for 1) / N, as in instructions.sh. Builds RepairCounts first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
swift build -c release --product RepairCounts > /dev/null 2>&1
command -v valgrind > /dev/null || { echo "repair-instructions.sh: valgrind is not installed"; exit 1; }
# valgrind 3.19 gives up on this binary's debug information ("Possibly corrupted debuginfo file"):
# count a copy without it (the symbol table, which names callgrind's functions, stays).
binary="$(mktemp)"
trap 'rm -f "$binary"' EXIT
cp "$(swift build -c release --show-bin-path)/RepairCounts" "$binary"
strip --strip-debug "$binary" && chmod +x "$binary"

payloads=("$@")
[ ${#payloads[@]} -eq 0 ] && payloads=(small88 twitter citm_catalog envelope20k envelope20k.dirty)

source "$here/instruction-count.sh"

printf "%-18s %6s %14s %14s %14s %10s %10s\n" payload n decode repair "repair+decode" "(r+d)/d" "r/d"
for payload in "${payloads[@]}"; do
    case $payload in small88) n=2000 ;; *) n=2 ;; esac
    declare -A per=()
    for step in decode repair repairDecode; do
        # The dirty envelope's ratio is over the clean one's decode: Foundation rejects the dirty one.
        source=$payload; [ "$step" = decode ] && [ "$payload" = envelope20k.dirty ] && source=envelope20k
        per[$step]=$(per_run "$n" "$source" "$step")
    done
    printf "%-18s %6d %14d %14d %14d %10.3f %10.3f\n" "$payload" "$n" "${per[decode]}" "${per[repair]}" "${per[repairDecode]}" \
        "$(awk "BEGIN { print ${per[repairDecode]} / ${per[decode]} }")" "$(awk "BEGIN { print ${per[repair]} / ${per[decode]} }")"
done
