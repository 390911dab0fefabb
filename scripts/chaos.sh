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

source scripts/lib/test-postgres.sh
start_test_postgres store-chaos

SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 STORE_CHAOS_CHECKOUTS=2000 STORE_CHAOS_SHOPPERS=100 \
    STORE_CHAOS_REFUND_ORDERS=2000 STORE_CLUSTER_CHAOS_CHECKOUTS=2000 STORE_CLUSTER_CHAOS_SHOPPERS=100 \
    STORE_CLUSTER_BIN="$PWD/.build/release/store" swift test --skip-build --filter ChaosTests
