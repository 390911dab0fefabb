#!/usr/bin/env bash
# Runs every test: lint, a warning-free build, then the whole suite against a real SQLite file and
# a throwaway PostgreSQL 15 server started here (unless STORE_TEST_POSTGRES_URL names one already).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

echo "== lint"
swift format lint --strict -r Sources Tests benchmarks Fuzz Package.swift

echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

if [ -z "${STORE_TEST_POSTGRES_URL:-}" ]; then
    pg_dir="$(mktemp -d /tmp/store-test-pg.XXXXXX)"
    pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    trap 'scripts/postgres-cluster.sh stop "$pg_dir"' EXIT
    echo "== PostgreSQL 15 on 127.0.0.1:$pg_port"
    STORE_TEST_POSTGRES_URL="$(scripts/postgres-cluster.sh start "$pg_dir" "$pg_port")"
    export STORE_TEST_POSTGRES_URL
fi

echo "== tests"
swift test --skip-build

echo "== fuzz (20 s a target; make fuzz runs 10 minutes)"
scripts/fuzz.sh 20

echo "== API property tests (schemathesis against docs/openapi.yaml)"
STORE_BIN="$(swift build --show-bin-path)/store" scripts/api-property-tests.sh

echo "== browser tests (headless Chromium: the snapshot pages, then the live storefront)"
STORE_BIN="$(swift build --show-bin-path)/store" scripts/browser-tests.sh
