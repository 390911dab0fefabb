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

source scripts/lib/test-postgres.sh
start_test_postgres store-test

# A test that hangs must fail the run with the stacks that show where, not hold CI until its own
# limit: after TEST_LIMIT_SECONDS the test process's threads are printed (gdb, when installed) and it
# is stopped.
watch_tests() {
    local limit="$1" pid="$2"
    sleep "$limit" </dev/null >/dev/null 2>&1
    kill -0 "$pid" 2>/dev/null || return 0
    echo "== the tests are still running after ${limit} s: every thread's stack, then stop" >&2
    for bundle in $(pgrep -f 'OnlineStorePackageTests.xctest' || true); do
        if command -v gdb >/dev/null; then
            gdb -p "$bundle" -batch -ex 'thread apply all bt' 2>/dev/null | grep -E '^(Thread|#)' >&2 || true
        fi
        kill -9 "$bundle" 2>/dev/null || true
    done
    kill "$pid" 2>/dev/null || true
}

# Swift Testing runs every test case at once unless told otherwise; each end-to-end case holds a
# server and two database pools, and a few hundred of them at once took the test process past 1,000
# threads and 3,800 descriptors (Foundation's run loop still uses select(), which cannot watch a
# descriptor above 1,023). Four at a time keeps both small, the timing-sensitive end-to-end
# cases out of each other's way, and the run as fast.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-4}"

echo "== tests"
swift test --skip-build &
tests_pid=$!
watch_tests "${TEST_LIMIT_SECONDS:-1500}" "$tests_pid" &
watchdog_pid=$!
tests_status=0
wait "$tests_pid" || tests_status=$?
pkill -P "$watchdog_pid" 2>/dev/null || true
kill "$watchdog_pid" 2>/dev/null || true
wait "$watchdog_pid" 2>/dev/null || true
if [ "$tests_status" -ne 0 ]; then
    echo "== tests failed (status $tests_status)" >&2
    exit "$tests_status"
fi

echo "== fuzz (20 s a target; make fuzz runs 10 minutes)"
scripts/fuzz.sh 20

echo "== API property tests (schemathesis against docs/openapi.yaml)"
STORE_BIN="$(swift build --show-bin-path)/store" scripts/api-property-tests.sh

echo "== browser tests (headless Chromium: the snapshot pages, then the live storefront)"
STORE_BIN="$(swift build --show-bin-path)/store" scripts/browser-tests.sh
