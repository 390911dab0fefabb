# Sourced by scripts/test.sh and scripts/chaos.sh: unless STORE_TEST_POSTGRES_URL names a server
# already, starts a throwaway PostgreSQL 15 cluster (scripts/postgres-cluster.sh) on a free loopback
# port, exports its URL as STORE_TEST_POSTGRES_URL, and stops it when the script exits.
#
#   source scripts/lib/test-postgres.sh
#   start_test_postgres store-test     (the prefix of the cluster's temp dir)

start_test_postgres() {
    local prefix="$1"
    if [ -n "${STORE_TEST_POSTGRES_URL:-}" ]; then return 0; fi
    test_pg_dir="$(mktemp -d "/tmp/$prefix-pg.XXXXXX")"
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    trap 'scripts/postgres-cluster.sh stop "$test_pg_dir"' EXIT
    echo "== PostgreSQL 15 on 127.0.0.1:$port"
    STORE_TEST_POSTGRES_URL="$(scripts/postgres-cluster.sh start "$test_pg_dir" "$port")"
    export STORE_TEST_POSTGRES_URL
}
