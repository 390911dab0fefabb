#!/usr/bin/env bash
# The soak (make soak): a release `store serve` on SQLite under wrk at 256 connections for
# 10 minutes over a mix of catalog reads, basket writes and checkouts (benchmarks/soak.lua), with
# the server's RSS, open descriptors and threads sampled every second; then the same with half
# the connections opened and dropped mid-request (benchmarks/soak_dropper.py). The load runs in
# one-minute rounds so p99 can be followed minute by minute. Prints the figures and draws
# docs/soak.png (RSS and p99 over time).
#
#   SOAK_SECONDS (600), SOAK_CONNECTIONS (256), SOAK_CHECKOUTS_PER_ROUND (20000),
#   SOAK_CASES ("steady dropping"), SOAK_OUT (docs/soak), SOAK_PLOT (docs/soak.png)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SOAK_SECONDS:-600}"
connections="${SOAK_CONNECTIONS:-256}"
per_round="${SOAK_CHECKOUTS_PER_ROUND:-20000}"
round_seconds=$(( seconds < 60 ? seconds : 60 ))
rounds=$(( seconds / round_seconds ))
threads=2

scripts/install-deps.sh bench
python3 -c 'import matplotlib' 2>/dev/null || python3 -m pip install --quiet matplotlib
swift build -c release --product store >/dev/null
swift build -c release --product CheckoutBenchmark >/dev/null
bin="$(swift build -c release --show-bin-path)"

work="$(mktemp -d /tmp/store-soak.XXXXXX)"
server_pid=""
sampler_pid=""
cleanup() {
    [ -n "$sampler_pid" ] && kill "$sampler_pid" 2>/dev/null || true
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# One sample a second: seconds since start, RSS (KiB) with its anonymous (heap) and file-backed
# (mapped files such as SQLite's -shm index) parts, open descriptors, threads, and the size of the
# database's write-ahead log (KiB).
sample() {
    local pid="$1" out="$2" wal="$3" start
    start="$(date +%s)"
    echo "second,rss_kib,fds,threads,rss_anon_kib,rss_file_kib,wal_kib" >"$out"
    while kill -0 "$pid" 2>/dev/null; do
        local status fds wal_kib
        status="$(awk '/^(VmRSS|Threads|RssAnon|RssFile):/ { v[$1] = $2 }
            END { print v["VmRSS:"] + 0, v["Threads:"] + 0, v["RssAnon:"] + 0, v["RssFile:"] + 0 }' \
            "/proc/$pid/status" 2>/dev/null || echo "0 0 0 0")"
        fds="$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)"
        wal_kib="$(( $(stat -c %s "$wal" 2>/dev/null || echo 0) / 1024 ))"
        read -r rss threads_now anon file <<<"$status"
        echo "$(( $(date +%s) - start )),$rss,$fds,$threads_now,$anon,$file,$wal_kib" >>"$out"
        sleep 1
    done
}

run_case() {
    local name="$1" drop="$2"
    local url="sqlite:$work/$name.sqlite" port
    echo "== soak: $name ($connections connections, ${seconds} s)"
    "$bin/CheckoutBenchmark" "$url" $(( per_round * rounds + 2000 )) "$work/tokens-$name" >/dev/null
    # The first 2,000 shoppers browse (basket writes); the rest pay, SOAK_CHECKOUTS_PER_ROUND a round.
    head -n 2000 "$work/tokens-$name" >"$work/browsers-$name"
    tail -n +2001 "$work/tokens-$name" | split -l "$per_round" -d -a 3 - "$work/round-$name-"
    port="$(free_port)"
    "$bin/store" serve --port "$port" --database "$url" --connections-per-address 100000 \
        >"$work/stdout-$name" 2> >(grep -o '"status":[0-9]*' | sort | uniq -c >"$work/statuses-$name") &
    server_pid=$!
    for _ in $(seq 1 200); do
        grep -q "listening on" "$work/stdout-$name" 2>/dev/null && break
        sleep 0.1
    done
    sample "$server_pid" "$work/samples-$name.csv" "$work/$name.sqlite-wal" &
    sampler_pid=$!
    local wrk_connections="$connections" dropper_pid=""
    if [ "$drop" = 1 ]; then
        wrk_connections=$(( connections / 2 ))
        python3 benchmarks/soak_dropper.py "$port" $(( connections / 2 )) "$seconds" >"$work/dropper-$name" &
        dropper_pid=$!
    fi
    echo "minute,p50_ms,p99_ms,ok,errors" >"$work/rounds-$name.csv"
    for round in $(seq 0 $(( rounds - 1 ))); do
        SOAK_TOKENS="$work/round-$name-$(printf '%03d' "$round")" SOAK_BROWSERS="$work/browsers-$name" \
            SOAK_THREADS="$threads" SOAK_SEGMENT="$round" SOAK_PRODUCTS="$(seq -s, 1 20)" \
            wrk -t"$threads" -c"$wrk_connections" -d"${round_seconds}s" -s benchmarks/soak.lua \
            "http://127.0.0.1:$port/" >"$work/wrk-$name-$round" 2>&1
        local line
        line="$(grep '^soak:' "$work/wrk-$name-$round")"
        echo "  minute $(( round + 1 )): $line"
        echo "$line" | sed -E 's/^soak: ([0-9]+) ok, [0-9]+ paid, ([0-9]+) errors.*p50 ([0-9.]+) ms, p99 ([0-9.]+) ms.*/'"$(( round + 1 ))"',\3,\4,\1,\2/' \
            >>"$work/rounds-$name.csv"
    done
    if [ "$drop" = 1 ]; then
        wait "$dropper_pid" || true
        cat "$work/dropper-$name"
    fi
    kill -TERM "$server_pid"
    wait "$server_pid" || true
    server_pid=""
    wait "$sampler_pid" 2>/dev/null || true
    sampler_pid=""
    sleep 1
    echo "  server answers by status:"; sed 's/^/    /' "$work/statuses-$name"
    cp "$work/samples-$name.csv" "$work/rounds-$name.csv" "$out/" 2>/dev/null || true
}

out="${SOAK_OUT:-docs/soak}"
mkdir -p "$out"
for case in ${SOAK_CASES:-steady dropping}; do
    case "$case" in
        steady) run_case steady 0 ;;
        dropping) run_case dropping 1 ;;
        *) echo "unknown soak case: $case" >&2; exit 2 ;;
    esac
done
python3 benchmarks/soak_plot.py "$out" "${SOAK_PLOT:-docs/soak.png}"
