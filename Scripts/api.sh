#!/usr/bin/env bash
# The public API of each library product, one declaration per line, in API/<Module>.txt.
#
#   Scripts/api.sh            write the files anew: commit them with the change that made them
#   Scripts/api.sh --check    fail when the API differs from the files (CI runs this)
#
# A change to public API is thus always a visible edit of API/*.txt, reviewed with the code.
# The lines come from the symbol graphs of `swift package dump-symbol-graph`: each public
# symbol's declaration, prefixed with its path, and each conformance, sorted.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(BackstopJSON Backstop BackstopAsyncHTTPClient BackstopTracing BadBackend BackstopTesting BackstopOpenAPI BackstopSQLite)
work=.build/api
rm -rf "$work"; mkdir -p "$work" API

swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols > "$work/dump.log" 2>&1 \
    || { tail -n 40 "$work/dump.log"; echo "api: could not extract symbol graphs"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$work/dump.log" | tail -n 1)

status=0
for module in "${modules[@]}"; do
    python3 Scripts/api.py "$graphs" "$module" > "$work/$module.txt"
    if [ "${1:-}" = "--check" ]; then
        if ! diff -u "API/$module.txt" "$work/$module.txt" > "$work/$module.diff"; then
            cat "$work/$module.diff"
            echo "api: $module's public API differs from API/$module.txt."
            echo "     If the change is meant, run Scripts/api.sh and commit API/$module.txt with it."
            status=1
        fi
    else
        cp "$work/$module.txt" "API/$module.txt"
    fi
done
[ "${1:-}" = "--check" ] && [ $status -eq 0 ] && echo "api: the public API matches API/*.txt"
exit $status
