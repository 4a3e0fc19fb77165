#!/usr/bin/env bash
# Formats the package's Swift code with the toolchain's `swift format` and .swift-format.
#
#   Scripts/format.sh            rewrite the files in place
#   Scripts/format.sh --check    lint strictly instead: any finding fails (CI runs this)
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Benchmarks Fuzz Examples/*/Package.swift Examples/*/Sources Examples/*/Tests)
if [ "${1:-}" = "--check" ]; then
    swift format lint --strict --configuration .swift-format --recursive --parallel "${paths[@]}"
else
    swift format format --in-place --configuration .swift-format --recursive --parallel "${paths[@]}"
fi
