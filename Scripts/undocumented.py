"""Lists the public symbols of the given symbol graph files that carry no documentation comment.

Members a type gets from a protocol (`description`, `==`, `init(from:)`) inherit the protocol's
comment and count as documented; members the compiler synthesizes (`hash(into:)`, literal
initializers from a protocol's default implementation) have no source location and are skipped.
Exits 1 when anything is undocumented, printing `file:line: name`.
"""
import json
import sys

missing = []
for path in sys.argv[1:]:
    graph = json.load(open(path))
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol.get("docComment", {}).get("lines"):
            continue
        # An extension of another module's type is a grouping; its members carry the documentation.
        if symbol["kind"]["identifier"] == "swift.extension":
            continue
        location = symbol.get("location")
        if location is None:
            continue
        where = location.get("uri", "?").replace("file://", "")
        line = location.get("position", {}).get("line", 0) + 1
        name = ".".join(symbol.get("pathComponents", [])) or symbol["identifier"]["precise"]
        missing.append(f"{where}:{line}: {name} ({symbol['kind']['displayName']}) has no documentation comment")

for entry in sorted(set(missing)):
    print(entry)
if missing:
    print(f"docs: {len(set(missing))} public symbol(s) without documentation")
    sys.exit(1)
