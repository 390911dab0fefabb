#!/usr/bin/env python3
"""Slow clients against a running store: how many connections trickling their header fields the
store holds while a normal client (wrk, from 127.0.0.1) reads the catalog at full speed.

    benchmarks/slow_clients.py PORT COUNT...

For each COUNT, opens COUNT connections from other loopback addresses (127.0.2.x, at most 100 per
address, within the store's per-address share), each sending half a request head and then one more
header byte every 2 s (so the inactivity timeout never fires), runs `wrk -t2 -c64 -d5s` against
/api/products meanwhile (20 s when COUNT exceeds what the store's 1,024 connections can hold beside
wrk's), and prints requests/s, p99 latency and how many slow connections were still open at the
end (the header deadline closes them after 15 s).
"""
import re
import resource
import socket
import subprocess
import sys
import threading
import time


def open_slow(port, count):
    connections = []
    for index in range(count):
        source = f"127.0.2.{10 + index // 100}"
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((source, 0))
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /api/products HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            connections.append(sock)
        except OSError:
            sock.close()
    return connections


def trickle(connections, stop):
    while not stop.is_set():
        for sock in connections:
            try:
                sock.send(b"y")
            except OSError:
                pass
        stop.wait(2)


def still_open(connections):
    alive = 0
    for sock in connections:
        sock.setblocking(False)
        try:
            data = sock.recv(1)
            if data:
                alive += 1  # an answer: not expected, but the connection is open
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


def wrk(port, seconds):
    out = subprocess.run(
        ["wrk", "-t2", "-c64", f"-d{seconds}s", "--latency", f"http://127.0.0.1:{port}/api/products"],
        capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+(\S+)", out).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return rate, p99, int(errors.group(1)) if errors else 0, socket_errors.group(1) if socket_errors else "none"


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = int(sys.argv[1])
    for count in [int(arg) for arg in sys.argv[2:]]:
        connections = open_slow(port, count)
        stop = threading.Event()
        thread = threading.Thread(target=trickle, args=(connections, stop), daemon=True)
        thread.start()
        time.sleep(0.5)
        # Past the store's 1,024 connections the normal client waits for the header deadline
        # (15 s) to free slots: a longer run shows it.
        seconds = 20 if count > 900 else 5
        rate, p99, non2xx, socket_errors = wrk(port, seconds)
        alive = still_open(connections)
        stop.set()
        thread.join()
        for sock in connections:
            sock.close()
        print(f"slow clients {count:5d} (opened {len(connections)}, {alive} still open after {seconds} s): "
              f"{rate:8.0f} req/s, p99 {p99}, non-2xx {non2xx}, socket errors {socket_errors}")
        time.sleep(1)


if __name__ == "__main__":
    main()
