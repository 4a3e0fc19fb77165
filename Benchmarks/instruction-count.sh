# Sourced by the *-instructions.sh scripts, which set `binary` first:
#
#   count ARGUMENT...    the instructions `binary` runs with these arguments, in every thread,
#                        as callgrind counts them (hashing made deterministic, so runs agree)
count() {
    local out; out=$(mktemp)
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" "$@" > /dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$out"; rm -f "$out"
}
