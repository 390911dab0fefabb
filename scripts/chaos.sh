#!/usr/bin/env bash
# The full chaos runs (`make chaos`): ≥ 2,000 checkouts from 100 naive shoppers while the server is
# killed with SIGKILL at random moments and restarted; 2,000 orders refunded and cancelled the same
# way, on SQLite and on a throwaway PostgreSQL 15 server started here (unless
# STORE_TEST_POSTGRES_URL names one already); and ≥ 2,000 checkouts through the cluster
# (PostgreSQL, 3 release servers, nginx) while random servers are killed. `make test` runs short
# versions. Figures go to docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests
swift build -c release --product store

if [ -z "${STORE_TEST_POSTGRES_URL:-}" ]; then
    pg_dir="$(mktemp -d /tmp/store-chaos-pg.XXXXXX)"
    pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    trap 'scripts/postgres-cluster.sh stop "$pg_dir"' EXIT
    echo "== PostgreSQL 15 on 127.0.0.1:$pg_port"
    STORE_TEST_POSTGRES_URL="$(scripts/postgres-cluster.sh start "$pg_dir" "$pg_port")"
    export STORE_TEST_POSTGRES_URL
fi

SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 STORE_CHAOS_CHECKOUTS=2000 STORE_CHAOS_SHOPPERS=100 \
    STORE_CHAOS_REFUND_ORDERS=2000 STORE_CLUSTER_CHAOS_CHECKOUTS=2000 STORE_CLUSTER_CHAOS_SHOPPERS=100 \
    STORE_CLUSTER_BIN="$PWD/.build/release/store" swift test --skip-build --filter ChaosTests
