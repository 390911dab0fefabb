#!/usr/bin/env bash
# Slow clients: the catalog read rate of a normal client (wrk -t2 -c64, from 127.0.0.1) while 0 to
# 1,500 other connections trickle their header fields from other loopback addresses
# (benchmarks/slow_clients.py). Figures go to docs/BENCHMARKS.md.
#
#   STORE_BENCH_BIN: release binaries built elsewhere (another commit's, to compare)
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${STORE_BENCH_BIN:-}"
if [[ -z "$bin" ]]; then
    swift build -c release --product store
    bin="$(swift build -c release --show-bin-path)"
fi
source scripts/lib/store-server.sh
tmp="$(mktemp -d /tmp/store-bench-slow.XXXXXX)"
cleanup() {
    stop_store
    rm -rf "$tmp"
}
trap cleanup EXIT

start_store "$bin/store" "$tmp" --database "sqlite:$tmp/store.sqlite"
port="${STORE_URL##*:}"
python3 benchmarks/slow_clients.py "$port" 0 250 500 900 1500
