#!/usr/bin/env bash
# What BackstopProxy adds to a call's latency (issue 51: at most 1 ms at the median with 100
# concurrent): wrk against a release `backstop serve` directly, then through a release
# `backstop proxy` in front of it, the same path and load, and the medians side by side.
#
#   Benchmarks/proxy-latency.sh                  # 100 connections, 2 threads, 10 s, /b/products/1
#   THREADS=1 CONNECTIONS=1 Benchmarks/proxy-latency.sh
#                                                # one at a time: the proxy's own cost, no queueing
#   UPSTREAM_DELAY=0.02 Benchmarks/proxy-latency.sh
#                                                # an upstream that takes 20 ms, as a staging backend does
#
# wrk is a load generator in a process of its own (`apt-get install wrk`). With an upstream that
# answers at once, wrk, the proxy and BadBackend are all busy all the time: on a machine with
# few cores, 100 connections then measure how long a request waits for a core, and the proxy,
# which does the work of a server and a client for each request, doubles it. With
# UPSTREAM_DELAY, BadBackend answers after that many seconds (its `slow` scenario, for both the
# direct and the proxied call), so 100 connections are 100 calls in flight at the rate such a
# backend allows, and the difference is what the proxy adds to each. Builds the release binary in
# .build-release first.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk > /dev/null || { echo "proxy-latency.sh: wrk is not installed (apt-get install wrk)"; exit 1; }
swift build -c release --product backstop --scratch-path .build-release > /dev/null
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)/backstop"
connections=${CONNECTIONS:-100}
threads=${THREADS:-2}
duration=${DURATION:-10s}
delay=${UPSTREAM_DELAY:-}
if [ -n "$delay" ]; then path=${REQUEST_PATH:-/scenarios/slow/b/products/1}; else path=${REQUEST_PATH:-/b/products/1}; fi

logs=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill -INT "$pid" 2> /dev/null || true; done; rm -rf "$logs"' EXIT
listening() { # file: waits for "listening on" and prints the URL
    for _ in $(seq 1 200); do
        url=$(grep -o -m1 "listening on http://127.0.0.1:[0-9]*" "$1" | grep -o "http.*" || true)
        [ -n "$url" ] && { echo "$url"; return; }
        sleep 0.05
    done
    echo "proxy-latency.sh: no server listening; see $1" >&2; exit 1
}
"$bin" serve --port 0 ${delay:+--slow-delay "$delay"} > "$logs/serve" 2>&1 &
pids+=($!)
upstream=$(listening "$logs/serve")
"$bin" proxy --upstream "$upstream" --port 0 --seed 1 > "$logs/proxy" 2> /dev/null &
pids+=($!)
proxy=$(listening "$logs/proxy")

measure() { # name url
    wrk -t"$threads" -c"$connections" -d2s "$2$path" > /dev/null # warm up
    local out
    out=$(wrk -t"$threads" -c"$connections" -d"$duration" --latency "$2$path")
    local median p99 rate
    median=$(awk '/Latency Distribution/ {found=1} found && $1 == "50%" {print $2; exit}' <<< "$out")
    p99=$(awk '/Latency Distribution/ {found=1} found && $1 == "99%" {print $2; exit}' <<< "$out")
    rate=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
    printf '%-7s median %-9s p99 %-9s %s requests/s\n' "$1" "$median" "$p99" "$rate"
}
echo "wrk -t$threads -c$connections -d$duration $path${delay:+ (upstream answers after $delay s)}"
measure direct "$upstream"
measure proxy "$proxy"
