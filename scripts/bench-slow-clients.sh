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
tmp="$(mktemp -d /tmp/store-bench-slow.XXXXXX)"
store_pid=""
cleanup() {
    if [[ -n "$store_pid" ]]; then kill -TERM "$store_pid" 2>/dev/null || true; wait "$store_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

"$bin/store" serve --host 127.0.0.1 --port 0 --database "sqlite:$tmp/store.sqlite" >"$tmp/stdout" 2>/dev/null &
store_pid=$!
port=""
for _ in $(seq 1 300); do
    port="$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$tmp/stdout" 2>/dev/null | head -n 1)"
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { echo "bench-slow-clients: the store did not start" >&2; exit 1; }
python3 benchmarks/slow_clients.py "$port" 0 250 500 900 1500
