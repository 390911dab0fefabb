#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and CI.
#
#   scripts/postgres-cluster.sh start DIR PORT   creates DIR, starts the server on 127.0.0.1:PORT,
#                                                creates the database store_test and prints its URL
#                                                (postgres://postgres@127.0.0.1:PORT/store_test)
#                                                as the only line on standard output
#   scripts/postgres-cluster.sh stop DIR         stops the server (fast shutdown) and removes DIR
#   scripts/postgres-cluster.sh pause DIR        stops the server and keeps DIR (a database outage)
#   scripts/postgres-cluster.sh resume DIR PORT  starts the paused server again
#
# The cluster trusts every local connection (--auth=trust) and listens only on 127.0.0.1 and on a
# Unix socket inside DIR: it is for tests, never for data that matters. The server runs as the
# `postgres` OS user, so DIR's parent must be traversable by that user (/tmp is). A leftover cluster
# in DIR (from a killed run) is stopped and removed by the next `start`.
#
# Example:
#   url=$(scripts/postgres-cluster.sh start /tmp/store-pg 55432)
#   STORE_TEST_POSTGRES_URL="$url" swift test --filter PostgresDriverTests
#   scripts/postgres-cluster.sh stop /tmp/store-pg
set -euo pipefail

readonly PG_VERSION_WANTED=15
readonly DATABASE_NAME=store_test

usage() {
    echo "usage: $0 start DIR PORT | stop DIR | pause DIR | resume DIR PORT" >&2
    exit 2
}

# The server's options: its port, loopback only, the socket in DIR, durable writes, and
# max_connections above the default 100 so that parallel tests, each with its own pool, do not run
# out of connections.
server_options() {
    echo "-p $2 -c listen_addresses=127.0.0.1 -k $1 -c fsync=on -c max_connections=400"
}

log() {
    echo "postgres-cluster: $*" >&2
}

find_bin_dir() {
    local dir="/usr/lib/postgresql/${PG_VERSION_WANTED}/bin"
    if [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then
        echo "$dir"
        return
    fi
    log "PostgreSQL ${PG_VERSION_WANTED} not found under $dir (apt-get install -y postgresql-${PG_VERSION_WANTED})"
    exit 1
}

# Runs a command as the `postgres` OS user (directly when already running as that user), from `/`
# so that an unreadable working directory does not trouble the PostgreSQL tools.
as_postgres() {
    if [[ "$(id -u)" -eq 0 ]]; then
        (cd / && runuser -u postgres -- "$@")
    elif [[ "$(id -un)" == "postgres" ]]; then
        (cd / && "$@")
    else
        log "run as root or as the postgres user"
        exit 1
    fi
}

absolute_dir() {
    local dir="$1"
    [[ -n "$dir" ]] || usage
    case "$dir" in
        /*) ;;
        *) dir="$PWD/$dir" ;;
    esac
    # Strip trailing slashes, then refuse paths that could only be a mistake.
    while [[ "$dir" == */ && "$dir" != "/" ]]; do dir="${dir%/}"; done
    case "$dir" in
        / | /tmp | /usr | /usr/* | /etc | /etc/* | /var | /home | /root | /work)
            log "refusing to use $dir as a cluster directory"
            exit 1
            ;;
    esac
    echo "$dir"
}

# Stops a server running in DIR (if any) and removes DIR. DIR must be empty or look like a cluster.
stop_cluster() {
    local bin_dir="$1" dir="$2"
    [[ -e "$dir" ]] || return 0
    if [[ ! -d "$dir" ]]; then
        log "$dir exists and is not a directory"
        exit 1
    fi
    if [[ -n "$(ls -A "$dir")" && ! -f "$dir/PG_VERSION" ]]; then
        log "$dir is not empty and is not a PostgreSQL cluster; not removing it"
        exit 1
    fi
    if [[ -f "$dir/postmaster.pid" ]]; then
        if ! as_postgres "$bin_dir/pg_ctl" stop -D "$dir" -m fast -w >/dev/null 2>&1; then
            # A stale pid file or a server that will not stop quickly: try harder, then move on.
            as_postgres "$bin_dir/pg_ctl" stop -D "$dir" -m immediate -w >/dev/null 2>&1 || true
        fi
    fi
    rm -rf -- "$dir"
}

start_cluster() {
    local bin_dir="$1" dir="$2" port="$3"
    if ! [[ "$port" =~ ^[0-9]+$ ]] || ((port < 1024 || port > 65535)); then
        log "PORT must be a number between 1024 and 65535"
        exit 2
    fi
    id postgres >/dev/null 2>&1 || {
        log "the postgres OS user does not exist (apt-get install -y postgresql-${PG_VERSION_WANTED})"
        exit 1
    }

    stop_cluster "$bin_dir" "$dir"
    mkdir -p -- "$dir"
    chown postgres:postgres "$dir" 2>/dev/null || true
    chmod 700 "$dir"

    local initdb_log
    initdb_log="$(mktemp)"
    if ! as_postgres "$bin_dir/initdb" -D "$dir" --auth=trust -U postgres --encoding=UTF8 --locale=C \
        >"$initdb_log" 2>&1; then
        log "initdb failed:"
        cat "$initdb_log" >&2
        rm -f -- "$initdb_log"
        exit 1
    fi
    rm -f -- "$initdb_log"

    local options
    options="$(server_options "$dir" "$port")"
    if ! as_postgres "$bin_dir/pg_ctl" -D "$dir" -o "$options" -l "$dir/log" start -w >/dev/null 2>&1; then
        log "the server did not start; the end of its log:"
        tail -n 20 "$dir/log" >&2 || true
        exit 1
    fi

    if ! as_postgres "$bin_dir/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
        -v ON_ERROR_STOP=1 -c "CREATE DATABASE ${DATABASE_NAME}" >/dev/null; then
        log "could not create the database ${DATABASE_NAME}"
        exit 1
    fi
    echo "postgres://postgres@127.0.0.1:${port}/${DATABASE_NAME}"
}

main() {
    [[ $# -ge 1 ]] || usage
    local command="$1"
    shift
    case "$command" in
        start)
            [[ $# -eq 2 ]] || usage
            local bin_dir dir
            bin_dir="$(find_bin_dir)"
            dir="$(absolute_dir "$1")"
            start_cluster "$bin_dir" "$dir" "$2"
            ;;
        stop)
            [[ $# -eq 1 ]] || usage
            local bin_dir dir
            bin_dir="$(find_bin_dir)"
            dir="$(absolute_dir "$1")"
            stop_cluster "$bin_dir" "$dir"
            ;;
        pause)
            [[ $# -eq 1 ]] || usage
            local bin_dir dir
            bin_dir="$(find_bin_dir)"
            dir="$(absolute_dir "$1")"
            as_postgres "$bin_dir/pg_ctl" stop -D "$dir" -m fast -w >/dev/null
            ;;
        resume)
            [[ $# -eq 2 ]] || usage
            local bin_dir dir
            bin_dir="$(find_bin_dir)"
            dir="$(absolute_dir "$1")"
            as_postgres "$bin_dir/pg_ctl" -D "$dir" -o "$(server_options "$dir" "$2")" -l "$dir/log" start -w >/dev/null
            ;;
        *) usage ;;
    esac
}

main "$@"
