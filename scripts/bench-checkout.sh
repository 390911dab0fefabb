#!/usr/bin/env bash
# Checkout throughput: POST /api/checkout with unique shoppers and keys, 64 connections for 10 s
# (wrk, benchmarks/checkout.lua), on SQLite (WAL, synchronous=FULL) and on PostgreSQL 15, each
# beside the raw single-row commit rate of the same database measured in the same run; and on
# SQLite once more with 10,000 more products in the catalog (CheckoutBenchmark's
# CHECKOUT_CATALOG_EXTRA), whose stock every sale changes; and on PostgreSQL once more with two
# servers on one database, each driven by a wrk of its own with half the connections and shoppers.
#
#   scripts/bench-checkout.sh            (STORE_BENCH_POSTGRES_URL: an existing server to use;
#                                         STORE_BENCH_BIN: release binaries built elsewhere, e.g.
#                                         an earlier commit's, to measure beside this one)
set -euo pipefail
cd "$(dirname "$0")/.."

shoppers="${CHECKOUT_SHOPPERS:-100000}"
duration="${CHECKOUT_DURATION:-10s}"
connections="${CHECKOUT_CONNECTIONS:-64}"
threads=2

bin="${STORE_BENCH_BIN:-}"
if [ -z "$bin" ]; then
    swift build -c release --product store >/dev/null
    swift build -c release --product CheckoutBenchmark >/dev/null
    bin="$(swift build -c release --show-bin-path)"
fi

source scripts/lib/store-server.sh
work="$(mktemp -d /tmp/store-bench-checkout.XXXXXX)"
pg_dir=""
first_store_pid=""
cleanup() {
    stop_store
    if [ -n "$first_store_pid" ]; then kill -KILL "$first_store_pid" 2>/dev/null || true; fi
    if [ -n "$pg_dir" ]; then scripts/postgres-cluster.sh stop "$pg_dir"; fi
    rm -rf "$work"
}
trap cleanup EXIT

# User + system CPU time of a process, in clock ticks.
cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# CPU time of the PostgreSQL server started here (its postmaster and every backend), in clock
# ticks; empty for another server or SQLite.
pg_cpu_ticks() {
    local name="$1" postmaster total=0 pid
    case "$name" in PostgreSQL*) ;; *) return 0 ;; esac
    [ -n "$pg_dir" ] && [ -f "$pg_dir/postmaster.pid" ] || return 0
    postmaster="$(head -1 "$pg_dir/postmaster.pid")"
    for pid in "$postmaster" $(pgrep -P "$postmaster"); do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

# Round trips to the database server so far, from the store's /metrics (empty on SQLite); of the
# server at $1 (default: the one started last).
round_trips() {
    curl -sf "${1:-$STORE_URL}/metrics" | awk '$1 == "store_database_round_trips_total" { print $2 }'
}

# SQLite's commits and the writes they carried so far, "COMMITS WRITES" (empty on PostgreSQL).
group_commits() {
    curl -sf "$STORE_URL/metrics" | awk '$1 == "store_database_commits_total" { c = $2 }
        $1 == "store_database_committed_writes_total" { w = $2 } END { if (c != "") print c, w }'
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Shows the summary lines of the wrk output $1, and warns when every shopper had paid before the
# run ended.
show_wrk() {
    grep -E "^checkouts:|Socket errors|Non-2xx" "$1" || true
    if ! grep -q " 0 requests after the shoppers ran out" "$1"; then
        echo "warning: every shopper had paid before the run ended: the rate below is a floor (raise CHECKOUT_SHOPPERS)" >&2
    fi
}

# The checkouts paid in the wrk output $1.
paid_in() {
    sed -n 's/^checkouts: \([0-9]*\) paid.*/\1/p' "$1"
}

run_case() {
    local name="$1" url="$2"
    local tokens="$work/tokens-$name"
    echo "== checkout: $name"
    "$bin/CheckoutBenchmark" "$url" "$shoppers" "$tokens"
    start_store "$bin/store" "$work" --database "$url"
    local ticks_before ticks_after trips_before trips_after pg_before pg_after group_before group_after
    trips_before="$(round_trips)"
    group_before="$(group_commits)"
    pg_before="$(pg_cpu_ticks "$name")"
    ticks_before="$(cpu_ticks "$STORE_PID")"
    CHECKOUT_TOKENS="$tokens" CHECKOUT_THREADS="$threads" \
        wrk -t"$threads" -c"$connections" -d"$duration" --latency -s benchmarks/checkout.lua \
        "$STORE_URL/" >"$work/wrk-$name"
    ticks_after="$(cpu_ticks "$STORE_PID")"
    pg_after="$(pg_cpu_ticks "$name")"
    trips_after="$(round_trips)"
    group_after="$(group_commits)"
    stop_store
    local paid p50 p99 seconds
    paid="$(paid_in "$work/wrk-$name")"
    p50="$(awk '$1 == "50%" { print $2 }' "$work/wrk-$name")"
    p99="$(awk '$1 == "99%" { print $2 }' "$work/wrk-$name")"
    seconds="${duration%s}"
    show_wrk "$work/wrk-$name"
    local cpu_us=$(( (ticks_after - ticks_before) * 1000000 / $(getconf CLK_TCK) / (paid > 0 ? paid : 1) ))
    local trips=""
    if [ -n "$trips_before" ] && [ -n "$trips_after" ] && [ "$paid" -gt 0 ]; then
        trips=", $(awk -v d="$((trips_after - trips_before))" -v n="$paid" 'BEGIN { printf "%.1f", d / n }') database round trips per checkout"
    fi
    if [ -n "$group_before" ] && [ -n "$group_after" ]; then
        trips="$trips, $(echo "$group_before $group_after" | awk '{ c = $3 - $1; w = $4 - $2; printf "%d commits (%.1f writes each)", c, (c > 0 ? w / c : 0) }')"
    fi
    if [ -n "$pg_before" ] && [ -n "$pg_after" ] && [ "$paid" -gt 0 ]; then
        trips="$trips, PostgreSQL's own CPU $(( (pg_after - pg_before) * 1000000 / $(getconf CLK_TCK) / paid )) µs per checkout"
    fi
    echo "$name: $((paid / seconds)) durable checkouts/s ($paid paid in $duration, $connections connections), p50 $p50, p99 $p99, server CPU $cpu_us µs per checkout$trips"
}

run_case "SQLite (WAL, synchronous=FULL)" "sqlite:$work/store.sqlite"
# The same with 10,000 more products: every sale changes the stock the catalog shows.
CHECKOUT_CATALOG_EXTRA=10000 run_case "SQLite, 10,020-product catalog" "sqlite:$work/store-large.sqlite"

pg_url="${STORE_BENCH_POSTGRES_URL:-}"
if [ -z "$pg_url" ]; then
    pg_dir="$(mktemp -d /tmp/store-bench-checkout-pg.XXXXXX)"
    pg_url="$(scripts/postgres-cluster.sh start "$pg_dir" "$(free_port)")"
fi
run_case "PostgreSQL 15" "$pg_url"

# Two servers on one PostgreSQL database (BEHAVIOUR §15.5), on a database of their own: one wrk
# each, with half the connections and every other shopper, started together; their paid checkouts
# are added up.
run_two_servers() {
    local name="$1" url="$2"
    local tokens="$work/tokens-two" half=$((connections / 2))
    echo "== checkout: $name"
    "$bin/CheckoutBenchmark" "$url" "$shoppers" "$tokens"
    awk 'NR % 2 == 1' "$tokens" >"$tokens-1"
    awk 'NR % 2 == 0' "$tokens" >"$tokens-2"
    mkdir -p "$work/server-1" "$work/server-2"
    start_store "$bin/store" "$work/server-1" --database "$url"
    first_store_pid="$STORE_PID"
    local first_url="$STORE_URL"
    start_store "$bin/store" "$work/server-2" --database "$url"
    local ticks_before trips_before pg_before
    ticks_before=$(($(cpu_ticks "$first_store_pid") + $(cpu_ticks "$STORE_PID")))
    trips_before=$(($(round_trips "$first_url") + $(round_trips)))
    pg_before="$(pg_cpu_ticks "$name")"
    CHECKOUT_TOKENS="$tokens-1" CHECKOUT_THREADS=1 CHECKOUT_KEY_PREFIX=bench-first \
        wrk -t1 -c"$half" -d"$duration" --latency -s benchmarks/checkout.lua "$first_url/" >"$work/wrk-two-1" &
    local first_wrk=$!
    CHECKOUT_TOKENS="$tokens-2" CHECKOUT_THREADS=1 CHECKOUT_KEY_PREFIX=bench-second \
        wrk -t1 -c"$half" -d"$duration" --latency -s benchmarks/checkout.lua "$STORE_URL/" >"$work/wrk-two-2"
    wait "$first_wrk"
    local ticks_after trips_after pg_after
    ticks_after=$(($(cpu_ticks "$first_store_pid") + $(cpu_ticks "$STORE_PID")))
    trips_after=$(($(round_trips "$first_url") + $(round_trips)))
    pg_after="$(pg_cpu_ticks "$name")"
    stop_store
    STORE_PID="$first_store_pid"
    first_store_pid=""
    stop_store
    local paid=0 part file seconds="${duration%s}"
    for file in "$work/wrk-two-1" "$work/wrk-two-2"; do
        show_wrk "$file"
        part="$(paid_in "$file")"
        paid=$((paid + part))
    done
    local per=$((paid > 0 ? paid : 1)) own=""
    if [ -n "$pg_before" ] && [ -n "$pg_after" ]; then
        own=", PostgreSQL's own CPU $(((pg_after - pg_before) * 1000000 / $(getconf CLK_TCK) / per)) µs per checkout"
    fi
    echo "$name: $((paid / seconds)) durable checkouts/s ($paid paid in $duration, 2 × $half connections)," \
        "p99 $(awk '$1 == "99%" { print $2 }' "$work/wrk-two-1") and $(awk '$1 == "99%" { print $2 }' "$work/wrk-two-2")," \
        "the two servers' CPU $(((ticks_after - ticks_before) * 1000000 / $(getconf CLK_TCK) / per)) µs per checkout," \
        "$(awk -v d="$((trips_after - trips_before))" -v n="$per" 'BEGIN { printf "%.1f", d / n }') database round trips per checkout$own"
}

two_url="${pg_url%/*}/store_bench_two"
psql -X -q "$pg_url" -v ON_ERROR_STOP=1 -c "SET client_min_messages TO warning" -c "DROP DATABASE IF EXISTS store_bench_two" -c "CREATE DATABASE store_bench_two" >/dev/null
run_two_servers "PostgreSQL 15, two servers" "$two_url"
