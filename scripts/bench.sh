#!/usr/bin/env bash
# Runs every benchmark in release mode and prints the figures recorded in docs/BENCHMARKS.md.
# PostgreSQL figures come from a throwaway PostgreSQL 15 server started here.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh bench
swift build -c release --product PricingBenchmark
swift build -c release --product DatabaseBenchmark
swift build -c release --product StatementCacheBenchmark
swift build -c release --product BackOfficeBenchmark
swift build -c release --product RefundBenchmark

pg_dir="$(mktemp -d /tmp/store-bench-pg.XXXXXX)"
pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
trap 'scripts/postgres-cluster.sh stop "$pg_dir"' EXIT
STORE_BENCH_POSTGRES_URL="$(scripts/postgres-cluster.sh start "$pg_dir" "$pg_port")"
export STORE_BENCH_POSTGRES_URL

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo "== pricing"
.build/release/PricingBenchmark 5
echo "== database"
.build/release/DatabaseBenchmark
echo "== back office at shop scale (10,000 products, 100,000 orders)"
.build/release/BackOfficeBenchmark
echo "== refunds (4,000 orders)"
.build/release/RefundBenchmark
echo "== PostgreSQL statement cache"
.build/release/StatementCacheBenchmark
echo "== HTTP catalog reads"
scripts/bench-http.sh
echo "== checkout"
STORE_BENCH_POSTGRES_URL="" scripts/bench-checkout.sh
