#!/usr/bin/env bash
# The sanitizers (make sanitize): the whole Swift test suite under ThreadSanitizer, then the HTTP
# server's and the store's end-to-end suites (every route, checkout, chaos, the command) under
# AddressSanitizer, each on SQLite and on a throwaway PostgreSQL 15 server started here. Each build
# has its own directory (.build/tsan, .build/asan), so the normal build is left alone.
#
# A report stops the run (halt_on_error): the test process exits non-zero and the script with it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

if [ -z "${STORE_TEST_POSTGRES_URL:-}" ]; then
    pg_dir="$(mktemp -d /tmp/store-sanitize-pg.XXXXXX)"
    pg_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    trap 'scripts/postgres-cluster.sh stop "$pg_dir"' EXIT
    STORE_TEST_POSTGRES_URL="$(scripts/postgres-cluster.sh start "$pg_dir" "$pg_port")"
    export STORE_TEST_POSTGRES_URL
fi
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-4}"
# The Swift runtime's backtracer would hold a crashed process up; the sanitizers print their own.
export SWIFT_BACKTRACE=enable=no

# ThreadSanitizer maps its shadow memory at fixed addresses, which a kernel with wide address
# randomization can collide with; without randomization it always fits.
no_aslr=()
if command -v setarch >/dev/null; then no_aslr=(setarch "$(uname -m)" -R); fi

echo "== ThreadSanitizer: build"
swift build --build-tests --sanitize=thread --build-path .build/tsan
echo "== ThreadSanitizer: every test"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    "${no_aslr[@]}" swift test --skip-build --sanitize=thread --build-path .build/tsan

echo "== AddressSanitizer: build"
swift build --build-tests --sanitize=address --build-path .build/asan
echo "== AddressSanitizer: the HTTP server and the store end to end"
# Leak checking is off: a run with it on (docs/RELIABILITY.md) reported only libcurl under
# URLSession, Foundation's file reading and the XCTest runner, none of the store's own code.
ASAN_OPTIONS="halt_on_error=1 detect_leaks=0" \
    swift test --skip-build --sanitize=address --build-path .build/asan --filter 'HTTPServerTests|StoreServerTests|StorefrontTests|ReliabilityTests'

echo "== sanitize: no report"
