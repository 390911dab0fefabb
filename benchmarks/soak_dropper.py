#!/usr/bin/env python3
"""Clients that leave in the middle of their request, for the soak (scripts/soak.sh).

    benchmarks/soak_dropper.py PORT CONNECTIONS SECONDS

Keeps CONNECTIONS connections busy for SECONDS: each connects, sends part of a request (half a
request head, or a whole head and part of a checkout body) and then closes the connection, half
the time with a reset (SO_LINGER 0), and starts over. Prints how many requests it dropped.
"""
import random
import socket
import struct
import sys
import threading
import time

HEAD = b"GET /api/products HTTP/1.1\r\nHost: soak\r\nAccept: application/json\r\n\r\n"
CHECKOUT = (
    b"POST /api/checkout HTTP/1.1\r\nHost: soak\r\nContent-Type: application/json\r\n"
    b"Authorization: Bearer abc\r\nIdempotency-Key: drop\r\nContent-Length: 120\r\n\r\n"
    b'{"payment_method":{"type":"card","token":"tok_visa"},'
)


def worker(port, deadline, counts, lock, seed):
    rng = random.Random(seed)
    dropped = 0
    while time.monotonic() < deadline:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(2)
        try:
            sock.connect(("127.0.0.1", port))
            if rng.random() < 0.5:
                sock.sendall(HEAD[: rng.randint(1, len(HEAD) - 3)])
            else:
                sock.sendall(CHECKOUT[: rng.randint(len(CHECKOUT) - 40, len(CHECKOUT))])
            time.sleep(rng.uniform(0, 0.05))
            if rng.random() < 0.5:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            dropped += 1
        except OSError:
            pass
        finally:
            sock.close()
    with lock:
        counts.append(dropped)


def main():
    port, connections, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    deadline = time.monotonic() + seconds
    counts, lock = [], threading.Lock()
    workers = [
        threading.Thread(target=worker, args=(port, deadline, counts, lock, index)) for index in range(connections)
    ]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    print(f"dropper: {sum(counts)} requests dropped mid-request on {connections} connections")


if __name__ == "__main__":
    main()
