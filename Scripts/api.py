"""Prints a module's public API from its symbol graphs: `api.py GRAPHS_DIR MODULE`.

One line per public symbol (`Path.to.symbol: declaration`) and per conformance
(`Type: conforms to Protocol where …`), sorted, so the text changes only when the API does.
"""
import glob
import json
import os
import sys

graphs, module = sys.argv[1], sys.argv[2]
lines = set()
names = {}
symbols = []
relationships = []
files = [os.path.join(graphs, f"{module}.symbols.json")] + sorted(glob.glob(os.path.join(graphs, f"{module}@*.symbols.json")))
for path in files:
    graph = json.load(open(path))
    extended = os.path.basename(path)[len(module) + 1 : -len(".symbols.json")] if "@" in path else ""
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        path_name = ".".join(symbol["pathComponents"])
        names[symbol["identifier"]["precise"]] = path_name
        symbols.append((extended, path_name, symbol))
    relationships += graph.get("relationships", [])

for extended, path_name, symbol in symbols:
    if symbol["kind"]["identifier"] == "swift.extension":
        continue
    declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
    declaration = " ".join(declaration.split())
    prefix = f"{extended}." if extended else ""
    lines.add(f"{prefix}{path_name}: {declaration}")

for relationship in relationships:
    if relationship["kind"] != "conformsTo":
        continue
    source = names.get(relationship["source"])
    if source is None:
        continue
    target = relationship.get("targetFallback") or names.get(relationship["target"]) or relationship["target"]
    # Conformances every type has implicitly say nothing about the API.
    if target in ("Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype", "Swift.BitwiseCopyable"):
        continue
    constraints = relationship.get("swiftConstraints", [])
    where = ", ".join(f"{c['lhs']}: {c['rhs']}" if c["kind"] == "conformance" else f"{c['lhs']} == {c['rhs']}" for c in constraints)
    lines.add(f"{source}: conforms to {target}" + (f" where {where}" if where else ""))

for line in sorted(lines):
    print(line)
