# Sourced by the *-instructions.sh scripts, which set `binary` first:
#
#   count ARGUMENT...    the instructions `binary` runs with these arguments, in every thread,
#                        as callgrind counts them (hashing made deterministic, so runs agree)
#   per_run N ARGUMENT...
#                        the instructions of one run in the steady state, for a `binary` whose
#                        last argument is how many runs to make: (count for 1 + N − count for 1) / N,
#                        so the process's start-up and the first run's one-time work cancel out
count() {
    local out; out=$(mktemp)
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" "$@" > /dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$out"; rm -f "$out"
}

per_run() {
    local n=$1; shift
    local base total
    base=$(count "$@" 1)
    total=$(count "$@" $((n + 1)))
    echo $(( (total - base) / n ))
}
