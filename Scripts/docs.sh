#!/usr/bin/env bash
# Builds the DocC catalogues of BackstopJSON, Backstop, BadBackend, BackstopTesting and BackstopOpenAPI from the package's
# symbol graphs, with every warning an error (unresolved links, missing parameter docs), and
# fails when a public symbol has no documentation comment.
#
#   Scripts/docs.sh            build the documentation into .build/docs/<Module>.doccarchive
#                              (open one with `docc preview`, or host it as a static site)
#   Exits non-zero when a catalogue has a warning or a public symbol no comment; CI runs it.
#
# Symbol graphs come from `swift package dump-symbol-graph`, so the package is built first.
set -euo pipefail
cd "$(dirname "$0")/.."

# BackstopAsyncHTTPClient and BackstopSQLite have no catalogue of their own: their few symbols are checked all the same.
modules=(BackstopJSON Backstop BadBackend BackstopAsyncHTTPClient BackstopTracing BackstopTesting BackstopOpenAPI BackstopSQLite)
out=.build/docs
rm -rf "$out"; mkdir -p "$out"

swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols > "$out/dump.log" 2>&1 \
    || { tail -n 40 "$out/dump.log"; echo "docs: could not extract symbol graphs"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$out/dump.log" | tail -n 1)
[ -d "$graphs" ] || { tail -n 20 "$out/dump.log"; echo "docs: no symbol graph folder"; exit 1; }

status=0
for module in "${modules[@]}"; do
    dir="$out/$module.symbols"
    mkdir -p "$dir"
    cp "$graphs/$module.symbols.json" "$dir/"
    # Extensions of other modules' types (`Backstop@Foundation.symbols.json`) belong to the module too.
    find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$dir/" \;

    # A public symbol without a comment of its own or one it inherits from a protocol.
    if ! python3 Scripts/undocumented.py "$dir"/*.symbols.json; then status=1; fi

    catalogue=()
    [ -d "Sources/$module/$module.docc" ] && catalogue=("Sources/$module/$module.docc")
    if ! docc convert "${catalogue[@]}" \
        --additional-symbol-graph-dir "$dir" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.backstop.$module" \
        --output-dir "$out/$module.doccarchive" \
        --warnings-as-errors > "$out/$module.log" 2>&1; then
        grep -E "warning|error" "$out/$module.log" | head -n 60
        echo "docs: $module's documentation has warnings (see $out/$module.log)"
        status=1
    else
        echo "docs: $module builds clean"
    fi
done
exit $status
