#!/usr/bin/env bash
# Several stores behind a load balancer, on loopback (docs/BEHAVIOUR.md §15.5):
#
#   scripts/cluster.sh start N [DIR]   PostgreSQL 15, N `store serve` processes on one database and
#                                      Debian's nginx in front of them; prints the one URL
#   scripts/cluster.sh stop [DIR]      stops them all and removes DIR
#   scripts/cluster.sh kill I [DIR]    kills store I (1…N) with SIGKILL, as a crash would
#   scripts/cluster.sh restart I [DIR] starts store I again on its port (after a kill)
#
# DIR (default /tmp/store-cluster) holds PostgreSQL's cluster, each server's log and pid, and
# nginx's configuration, log and pid. nginx balances by least connections, marks a server failed
# for 2 s after one failed attempt (passive health checks), and passes a request that failed to
# connect on to another server only when it is idempotent: a POST is never sent twice. The stores
# trust nginx's X-Forwarded-For (--trust-proxy 127.0.0.1), drain for 2 s on SIGTERM, and answer
# /readyz for an orchestrator; /metrics stays on each server's own port (nginx answers it 404).
#
# Uses the release binary (.build/release/store), building it if missing; `STORE_BIN=...` to use another.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: $0 start N [DIR] | stop [DIR] | kill I [DIR] | restart I [DIR]" >&2
    exit 2
}

# Starts store $1 of the cluster in $2 on port $3, and waits until it listens.
start_store() {
    local index="$1" dir="$2" port="$3"
    local bin="${STORE_BIN:-.build/release/store}"
    "$bin" serve --host 127.0.0.1 --port "$port" --database "$(cat "$dir/database.url")" \
        --trust-proxy 127.0.0.1 --drain-seconds 2 >"$dir/store-$index.out" 2>>"$dir/store-$index.log" &
    echo $! >"$dir/store-$index.pid"
    echo "$port" >"$dir/store-$index.port"
    for _ in $(seq 1 300); do
        grep -q "listening on" "$dir/store-$index.out" 2>/dev/null && return 0
        alive "$(cat "$dir/store-$index.pid")" || break
        sleep 0.05
    done
    echo "cluster: store $index did not start:" >&2
    tail -n 5 "$dir/store-$index.log" >&2
    exit 1
}

# Whether process $1 still runs: a killed store whose parent (the script that started it) is gone
# may linger as a zombie until the system reaps it, which counts as ended.
alive() {
    [[ -r "/proc/$1/status" ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local count="$1" dir="$2"
    [[ "$count" =~ ^[1-9][0-9]?$ ]] || usage
    stop "$dir" 2>/dev/null || true
    mkdir -p "$dir"
    local bin="${STORE_BIN:-.build/release/store}"
    if [[ ! -x "$bin" ]]; then
        swift build -c release --product store >&2
    fi
    local nginx_bin
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
    [[ -x "$nginx_bin" ]] || { echo "cluster: nginx is missing (apt-get install nginx-light)" >&2; exit 1; }

    local pg_port url
    pg_port="$(free_port)"
    url="$(scripts/postgres-cluster.sh start "$dir/postgres" "$pg_port")"
    echo "$pg_port" >"$dir/postgres.port"
    echo "$url" >"$dir/database.url"

    local upstream=""
    for index in $(seq 1 "$count"); do
        local port
        port="$(free_port)"
        start_store "$index" "$dir" "$port"
        upstream+="        server 127.0.0.1:$port max_fails=1 fail_timeout=2s;"$'\n'
    done

    local port
    port="$(free_port)"
    mkdir -p "$dir/nginx/temp"
    chmod a+rwx "$dir/nginx/temp"
    cat >"$dir/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid nginx.pid;
error_log error.log warn;
events { worker_connections 1024; }
http {
    access_log access.log;
    server_tokens off;
    client_body_temp_path temp/client_body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    client_max_body_size 9m;
    upstream stores {
        least_conn;
$upstream        keepalive 32;
    }
    server {
        listen 127.0.0.1:$port;
        location = /metrics { return 404; }
        location / {
            proxy_pass http://stores;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries 2;
            proxy_connect_timeout 2s;
            proxy_read_timeout 60s;
        }
    }
}
NGINX
    "$nginx_bin" -p "$dir/nginx/" -c "$dir/nginx/nginx.conf" -e "$dir/nginx/error.log"
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    echo "http://127.0.0.1:$port"
}

stop() {
    local dir="$1"
    [[ -d "$dir" ]] || return 0
    if [[ -f "$dir/nginx/nginx.pid" ]]; then
        kill "$(cat "$dir/nginx/nginx.pid")" 2>/dev/null || true
    fi
    for pid_file in "$dir"/store-*.pid; do
        [[ -f "$pid_file" ]] || continue
        local pid
        pid="$(cat "$pid_file")"
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
    done
    if [[ -d "$dir/postgres" ]]; then
        scripts/postgres-cluster.sh stop "$dir/postgres"
    fi
    rm -rf -- "$dir"
}

# Store $1 of the cluster in $2, by its number: kill -9, or start again on its port.
kill_store() {
    local index="$1" dir="$2"
    [[ "$index" =~ ^[1-9][0-9]?$ && -f "$dir/store-$index.pid" ]] || usage
    kill -9 "$(cat "$dir/store-$index.pid")" 2>/dev/null || true
}

restart_store() {
    local index="$1" dir="$2"
    [[ "$index" =~ ^[1-9][0-9]?$ && -f "$dir/store-$index.port" ]] || usage
    local pid
    pid="$(cat "$dir/store-$index.pid")"
    for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.05; done
    alive "$pid" && { echo "cluster: store $index is running" >&2; exit 1; }
    start_store "$index" "$dir" "$(cat "$dir/store-$index.port")"
}

[[ $# -ge 1 ]] || usage
case "$1" in
    start)
        [[ $# -ge 2 && $# -le 3 ]] || usage
        start "$2" "$(realpath -m "${3:-/tmp/store-cluster}")"
        ;;
    stop)
        [[ $# -le 2 ]] || usage
        stop "$(realpath -m "${2:-/tmp/store-cluster}")"
        ;;
    kill | restart)
        [[ $# -ge 2 && $# -le 3 ]] || usage
        "$1"_store "$2" "$(realpath -m "${3:-/tmp/store-cluster}")"
        ;;
    *) usage ;;
esac
