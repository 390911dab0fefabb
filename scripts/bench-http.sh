#!/usr/bin/env bash
# HTTP catalog reads: the store's cached catalog routes (GET /api/products, GET /products) against
# nginx serving the very same bytes as static files, the ceiling. Figures go to docs/BENCHMARKS.md.
#
#   scripts/bench-http.sh [ROUNDS]     ROUNDS (default 3) rounds of the nine wrk runs; the summary
#                                      gives each target's median over the rounds
#
# Builds `store` in release mode and starts it on a free loopback port over a throwaway SQLite
# database, saves its two documents into a temp dir, and starts nginx in the foreground on another
# free loopback port with benchmarks/nginx/catalog.conf, serving those files (its pid file, logs
# and temp paths stay in the temp dir; the system nginx is not touched). Each round runs
# `wrk -t2 -c64 -d10s --latency` against store /api/products, its nginx copy with nginx's access
# log off and with it on, store /products and its two nginx copies, and the storefront's catalog
# page GET / (HTML, for a visitor without a session) and its two nginx copies. Needs wrk, nginx (nginx-light), curl and python3 (scripts/install-deps.sh bench).
# Exits 1 when wrk saw a non-2xx/3xx response or a socket error.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-3}"
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [ROUNDS]" >&2
    exit 2
fi
readonly wrk_args=(-t2 -c64 -d10s --latency)

for tool in wrk nginx curl python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "bench-http: $tool is missing (scripts/install-deps.sh bench installs it)" >&2
        exit 1
    fi
done

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The CPU time (user + system, all threads) used so far by the given processes, in clock ticks.
cpu_ticks() {
    local total=0 pid fields
    for pid in "$@"; do
        # Fields 14 and 15 of /proc/PID/stat, counted after the ")" that ends the command name.
        fields="$(sed 's/.*) //' "/proc/$pid/stat")"
        total=$((total + $(echo "$fields" | awk '{ print $12 + $13 }')))
    done
    echo "$total"
}

source scripts/lib/store-server.sh
tmp="$(mktemp -d /tmp/store-bench-http.XXXXXX)"
nginx_pid=""
wrk_pid=""
cleanup() {
    if [[ -n "$wrk_pid" ]] && kill -0 "$wrk_pid" 2>/dev/null; then
        kill -TERM "$wrk_pid"
        wait "$wrk_pid" 2>/dev/null || true
    fi
    stop_store
    if [[ -n "$nginx_pid" ]] && kill -0 "$nginx_pid" 2>/dev/null; then
        nginx -p "$tmp/nginx/" -c "$tmp/nginx/nginx.conf" -e "$tmp/nginx/error.log" -s quit 2>/dev/null \
            || kill -TERM "$nginx_pid"
        wait "$nginx_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Runs wrk in the background and waits for it, so that Ctrl-C or SIGTERM cleans up at once.
run_wrk() {
    wrk "$@" &
    wrk_pid=$!
    wait "$wrk_pid"
    wrk_pid=""
}

# STORE_BENCH_BIN: release binaries built elsewhere (another commit's, to compare in one run).
bin="${STORE_BENCH_BIN:-}"
if [[ -z "$bin" ]]; then
    swift build -c release --product store
    bin="$(swift build -c release --show-bin-path)"
fi

# The store. Its access log (one JSON line per request on standard error, in server.log) is emptied
# before each run.
start_store "$bin/store" "$tmp" --database "sqlite:$tmp/store.sqlite"
store_pid="$STORE_PID"
store_url="$STORE_URL"

# The documents, exactly as the store sends them (the Fake-Store one holds absolute image URLs for
# the Host header it was asked with; curl and wrk both send 127.0.0.1:PORT).
nginx_root="$tmp/nginx"
mkdir -p "$nginx_root/docs/api" "$nginx_root/temp"
curl -sSf -o "$nginx_root/docs/api/products" "$store_url/api/products"
curl -sSf -o "$nginx_root/docs/products" "$store_url/products"
# The storefront's catalog page (HTML), when this build serves one.
paths=(/api/products /products)
if [[ "$(curl -s -o "$nginx_root/docs/index.html" -w '%{content_type}' "$store_url/")" == "text/html; charset=utf-8" ]]; then
    paths+=(/)
else
    rm -f "$nginx_root/docs/index.html"
fi

# nginx's workers run as an unprivileged user when started as root: they must reach the files.
chmod 711 "$tmp"
chmod -R a+rX "$nginx_root"
nginx_port="$(free_port)"
nginx_url="http://127.0.0.1:$nginx_port"
nginx_log_port="$(free_port)"
nginx_log_url="http://127.0.0.1:$nginx_log_port"
sed "s/@PORT@/$nginx_port/g; s/@LOGPORT@/$nginx_log_port/g" benchmarks/nginx/catalog.conf >"$nginx_root/nginx.conf"
cp benchmarks/nginx/catalog-site.conf "$nginx_root/catalog-site.conf"
nginx -p "$nginx_root/" -c "$nginx_root/nginx.conf" -e "$nginx_root/error.log" &
nginx_pid=$!
for _ in $(seq 100); do
    if curl -sf -o /dev/null "$nginx_url/products" || ! kill -0 "$nginx_pid" 2>/dev/null; then break; fi
    sleep 0.1
done
for path in "${paths[@]}"; do
    file="$nginx_root/docs$path"
    [[ "$path" == / ]] && file="$nginx_root/docs/index.html"
    if ! curl -sSf "$nginx_url$path" | cmp -s - "$file" || ! curl -sSf "$nginx_log_url$path" | cmp -s - "$file"; then
        echo "bench-http: nginx does not serve the store's bytes for $path" >&2
        cat "$nginx_root/error.log" >&2 || true
        exit 1
    fi
    expected_type="application/json; charset=utf-8"
    [[ "$path" == / ]] && expected_type="text/html; charset=utf-8"
    for url in "$store_url" "$nginx_url" "$nginx_log_url"; do
        content_type="$(curl -sSf -o /dev/null -w '%{content_type}' "$url$path")"
        if [[ "$content_type" != "$expected_type" ]]; then
            echo "bench-http: $url$path answers Content-Type: $content_type" >&2
            exit 1
        fi
    done
done
mapfile -t nginx_workers < <(pgrep -P "$nginx_pid")
nginx_pids=("$nginx_pid" "${nginx_workers[@]}")

targets=()
for path in "${paths[@]}"; do
    targets+=("store $path|$store_url$path" "nginx $path|$nginx_url$path" "nginx+log $path|$nginx_log_url$path")
done

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo "== http catalog reads: wrk ${wrk_args[*]}, $rounds round(s); bodies $(wc -c <"$nginx_root/docs/api/products") B (/api/products), $(wc -c <"$nginx_root/docs/products") B (/products)$([[ -f "$nginx_root/docs/index.html" ]] && echo ", $(wc -c <"$nginx_root/docs/index.html") B (/, HTML)")"
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# A short warm-up of each target, not measured.
for target in "${targets[@]}"; do
    run_wrk -t2 -c64 -d2s "${target#*|}" >/dev/null
done

results="$tmp/results.tsv"
printf 'round\ttarget\treq_s\tp50_ms\tp99_ms\tcpu_us_per_req\terrors\n' >"$results"
for round in $(seq "$rounds"); do
    for target in "${targets[@]}"; do
        label="${target%%|*}"
        url="${target#*|}"
        if [[ "$label" == store* ]]; then pids=("$store_pid"); else pids=("${nginx_pids[@]}"); fi
        # Both access logs are emptied before each run (nginx appends to its file).
        : >"$tmp/server.log"
        : >"$nginx_root/access.log"
        before="$(cpu_ticks "${pids[@]}")"
        run_wrk "${wrk_args[@]}" "$url" >"$tmp/wrk.out"
        after="$(cpu_ticks "${pids[@]}")"
        # Requests/sec, the 50% and 99% latencies (wrk prints us, ms, s or m), the request count,
        # non-2xx/3xx responses and socket errors.
        line="$(awk -v round="$round" -v target="$label" -v ticks="$((after - before))" \
            -v hz="$(getconf CLK_TCK)" '
            function ms(text,  value) {
                value = text + 0
                if (text ~ /us$/) return value / 1000
                if (text ~ /ms$/) return value
                if (text ~ /m$/) return value * 60000
                if (text ~ /s$/) return value * 1000
                return value
            }
            $1 == "50%" { p50 = ms($2) }
            $1 == "99%" { p99 = ms($2) }
            $2 == "requests" && $3 == "in" { requests = $1 }
            $1 == "Requests/sec:" { rps = $2 }
            /Non-2xx or 3xx responses:/ { errors += $NF }
            /Socket errors:/ { gsub(/,/, ""); errors += $4 + $6 + $8 + $10 }
            END {
                if (rps == "" || requests == 0) exit 1
                printf "%s\t%s\t%.0f\t%.3f\t%.3f\t%.1f\t%d\n", round, target, rps, p50, p99,
                    ticks * 1e6 / hz / requests, errors
            }' "$tmp/wrk.out")" || {
            echo "bench-http: could not read wrk's output for $label" >&2
            cat "$tmp/wrk.out" >&2
            exit 1
        }
        echo "$line" >>"$results"
        echo "$line" | awk -F'\t' '{ printf "round %s  %-20s %9d req/s  p50 %7.3f ms  p99 %7.3f ms  %6.1f us CPU/req  errors %d\n", $1, $2, $3, $4, $5, $6, $7 }'
        grep -E 'Socket errors|Non-2xx' "$tmp/wrk.out" || true
    done
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Medians over the rounds, one line per target; the ratios compare req/s with the nginx copies,
# with nginx's access log off and on.
python3 - "$results" <<'EOF'
import csv
import statistics
import sys

rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
targets = list(dict.fromkeys(row["target"] for row in rows))
median = {
    target: {key: statistics.median(float(row[key]) for row in rows if row["target"] == target)
             for key in ("req_s", "p50_ms", "p99_ms", "cpu_us_per_req")}
    for target in targets
}
rounds = len(rows) // len(targets)
names = {"store": "store", "nginx": "nginx, log off", "nginx+log": "nginx, log on"}
print(f"== medians of {rounds} round(s)")
print("| target | req/s | p50 | p99 | server CPU/request | ratio to nginx, log off | ratio to nginx, log on |")
print("|---|---|---|---|---|---|---|")
for target in targets:
    m = median[target]
    server, path = target.split(" ", 1)
    ratios = []
    for ceiling in ("nginx", "nginx+log"):
        if server == ceiling:
            ratios.append("ceiling")
        elif server == "store" and f"{ceiling} {path}" in median:
            ratios.append(f"{m['req_s'] / median[f'{ceiling} {path}']['req_s']:.2f}×")
        else:
            ratios.append("")
    print(f"| {names[server]} `GET {path}` | {m['req_s']:,.0f} | {m['p50_ms']:.2f} ms | {m['p99_ms']:.2f} ms "
          f"| {m['cpu_us_per_req']:.1f} µs | {ratios[0]} | {ratios[1]} |")
errors = sum(int(row["errors"]) for row in rows)
print(f"== wrk errors (non-2xx/3xx responses and socket errors): {errors}")
EOF
