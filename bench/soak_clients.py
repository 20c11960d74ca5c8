#!/usr/bin/env python3
# soak_clients.py - the hostile half of bench/soak.sh, beside wrk's
# traffic, for DURATION seconds against URL (loopback only):
#   - SLOW_HEADS clients sending a request head one byte a second, and
#     SLOW_BODIES sending a body one byte a second (each reconnects when
#     the server cuts it, as an attacker would);
#   - an abandoned hard 5x5 solve every ABANDON_S seconds: sent, then the
#     client hangs up 50 ms later;
#   - a /livez probe every 100 ms on a fresh connection, timed.
# Prints one "soak:" line per figure: /livez p50/p99/max and failures,
# slow connections cut, abandoned solves sent.
# usage: soak_clients.py URL DURATION [SLOW_HEADS SLOW_BODIES ABANDON_S]
import socket
import sys
import threading
import time
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
duration = float(sys.argv[2])
slow_heads = int(sys.argv[3]) if len(sys.argv) > 3 else 20
slow_bodies = int(sys.argv[4]) if len(sys.argv) > 4 else 20
abandon_s = float(sys.argv[5]) if len(sys.argv) > 5 else 0.2
addr = (url.hostname, url.port)
assert url.hostname in ("127.0.0.1", "localhost", "::1"), "loopback only"
end = time.monotonic() + duration
lock = threading.Lock()
counts = {"cut": 0, "abandoned": 0, "livez_fail": 0}
livez_ms = []

HARD5 = (b'{"board": "21 11 20 6 5 18 10 3 12 14 16 8 17 2 1 22 23 9 0 15 '
         b'13 7 4 24 19", "algorithm": "idastar", "heuristic": "manhattan",'
         b' "limits": {"timeout_ms": 5000}}')


def bump(key):
    with lock:
        counts[key] += 1


def trickler(head):
    """One byte a second until the server cuts us, then again."""
    stream = head + b"X-Pad: " + b"a" * 4096 if head else b"{" + b" " * 4096
    while time.monotonic() < end:
        try:
            s = socket.create_connection(addr, timeout=2)
            if not head:
                s.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: t\r\n"
                          b"Content-Type: application/json\r\n"
                          b"Content-Length: 100000\r\n\r\n")
            for b in stream:
                if time.monotonic() >= end:
                    break
                s.send(bytes([b]))
                time.sleep(1)
            s.close()
        except OSError:
            bump("cut")
            time.sleep(0.1)


def abandoner():
    req = (b"POST /v1/solve HTTP/1.1\r\nHost: t\r\n"
           b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
           % len(HARD5)) + HARD5
    while time.monotonic() < end:
        try:
            s = socket.create_connection(addr, timeout=2)
            s.sendall(req)
            time.sleep(0.05)
            s.close()
            bump("abandoned")
        except OSError:
            pass
        time.sleep(abandon_s)


def prober():
    req = b"GET /livez HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    while time.monotonic() < end:
        t0 = time.monotonic()
        try:
            s = socket.create_connection(addr, timeout=5)
            s.sendall(req)
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            s.close()
            if not data.startswith(b"HTTP/1.1 200"):
                raise OSError("not 200")
            with lock:
                livez_ms.append((time.monotonic() - t0) * 1000)
        except OSError:
            bump("livez_fail")
        time.sleep(0.1)


threads = [threading.Thread(target=trickler, args=(
    b"GET /livez HTTP/1.1\r\nHost: t\r\n",)) for _ in range(slow_heads)]
threads += [threading.Thread(target=trickler, args=(b"",))
            for _ in range(slow_bodies)]
threads += [threading.Thread(target=abandoner),
            threading.Thread(target=prober)]
for t in threads:
    t.daemon = True
    t.start()
for t in threads:
    t.join(duration + 10)
lat = sorted(livez_ms)


def pct(p):
    return lat[min(len(lat) - 1, int(len(lat) * p / 100))] if lat else -1


print("soak: /livez %d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms, "
      "%d failed" % (len(lat), pct(50), pct(99), lat[-1] if lat else -1,
                     counts["livez_fail"]))
print("soak: %d slow clients (%d heads, %d bodies) cut %d times; "
      "%d abandoned solves sent" % (slow_heads + slow_bodies, slow_heads,
                                    slow_bodies, counts["cut"],
                                    counts["abandoned"]))
