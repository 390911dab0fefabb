# Starting and stopping a throwaway `store serve` for a script. Sourced, not run:
#
#   source scripts/lib/store-server.sh
#   start_store "$STORE" "$WORK" --database "sqlite:$WORK/store.sqlite"   # sets STORE_PID, STORE_URL
#   ...
#   stop_store                                                              # in the script's cleanup
#
# The server listens on a free loopback port of its own choosing (--port 0) and announces it on its
# first line of standard output, which start_store waits for; its standard output and error go to
# DIRECTORY/server.out and DIRECTORY/server.log (opened for appending, so a caller may empty the log
# between runs).

STORE_PID=""
STORE_URL=""

# start_store BINARY DIRECTORY [serve options...]: starts the server and waits up to 60 s for its
# "listening on" line. Returns non-zero, with the server's last words on standard error, when it
# exits or stays silent instead.
start_store() {
    local binary="$1" directory="$2" line
    shift 2
    "$binary" serve --host 127.0.0.1 --port 0 --drain-seconds 0 "$@" >"$directory/server.out" 2>>"$directory/server.log" &
    STORE_PID=$!
    STORE_URL=""
    for _ in $(seq 1 600); do
        line="$(head -n 1 "$directory/server.out" 2>/dev/null || true)"
        if [[ "$line" == "listening on http://"* ]]; then
            STORE_URL="${line#listening on }"
            return 0
        fi
        if ! kill -0 "$STORE_PID" 2>/dev/null; then
            echo "error: the server exited before listening" >&2
            cat "$directory/server.out" "$directory/server.log" >&2 || true
            return 1
        fi
        sleep 0.1
    done
    echo "error: no 'listening on' line from the server within 60 s" >&2
    tail -n 20 "$directory/server.log" >&2 || true
    return 1
}

# stop_store: sends SIGTERM (the server finishes what it is answering), and SIGKILL if it is still
# there 10 s later. Does nothing when no server runs.
stop_store() {
    if [ -n "$STORE_PID" ] && kill -0 "$STORE_PID" 2>/dev/null; then
        kill -TERM "$STORE_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do
            kill -0 "$STORE_PID" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$STORE_PID" 2>/dev/null; then
            echo "warning: the server did not stop within 10 s of SIGTERM; killing it" >&2
            kill -KILL "$STORE_PID" 2>/dev/null || true
        fi
        wait "$STORE_PID" 2>/dev/null || true
    fi
    STORE_PID=""
}
