#!/usr/bin/env bash
# `backstop serve --openapi` under load: requests a second for a 2 KB answer on loopback, with
# wrk (Debian's `wrk` package) in a second process. Issue 51 asks for at least 5,000 a second.
#
#   Benchmarks/serve-openapi.sh [SECONDS] [CONNECTIONS]
#
# Builds `backstop` in release mode in .build-release (a first build takes many minutes), serves
# Benchmarks/Documents/two-kilobytes.yaml clean, then with numbers-as-strings on every request,
# and prints wrk's summary for each.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-50}
command -v wrk > /dev/null || { echo "serve-openapi: needs wrk (apt-get install -y wrk)"; exit 1; }
swift build -c release --product backstop --scratch-path .build-release > /dev/null
binary=.build-release/release/backstop
document=Benchmarks/Documents/two-kilobytes.yaml

run() {
    local scenario=$1
    local log
    log=$(mktemp)
    if [ -n "$scenario" ]; then
        "$binary" serve --openapi "$document" --scenario "$scenario" > "$log" &
    else
        "$binary" serve --openapi "$document" > "$log" &
    fi
    local server=$!
    local url=""
    for _ in $(seq 1 100); do
        url=$(sed -n 's/^BadBackend serving .* on \(http:[^ ]*\)$/\1/p' "$log")
        [ -n "$url" ] && break
        sleep 0.1
    done
    echo "== ${scenario:-clean}: $(curl -s "$url/products" | wc -c) bytes an answer"
    wrk -t 2 -c "$connections" -d "${seconds}s" --latency "$url/products"
    kill "$server"
    wait "$server" 2> /dev/null || true
    rm -f "$log"
}

run ""
run numbers-as-strings
