#!/usr/bin/env python3
"""overload.py - drives a running puzzled (loopback) through overload,
slow clients and SIGTERM under load, and prints the figures. Called by
bench/overload.sh (full scale) and tests/scripts/overload_shutdown.sh
(small scale); exits 1 when an expectation fails.

usage: overload.py PORT PID WORKERS QUEUE CONN_TIMEOUT_S SCALE
"""
import json, os, signal, socket, sys, threading, time

PORT, PID, WORKERS, QUEUE, CTO = (int(a) for a in sys.argv[1:6])
SCALE = sys.argv[6] if len(sys.argv) > 6 else "full"
SLOW_MS = 1500 if SCALE == "full" else 800
SLOW = json.dumps({"board": "15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0",
                   "algorithm": "idastar", "heuristic": "misplaced",
                   "limits": {"timeout_ms": SLOW_MS}})
EASY = json.dumps({"board": "1 2 3 4 5 6 7 0 8"})
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def request(method, path, body=None, src="127.0.0.1", timeout=20):
    """One HTTP/1.1 request on its own connection: (status, headers,
    seconds); status 0 when the connection failed or was refused."""
    t0 = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout,
                                     source_address=(src, 0))
    except OSError:
        return 0, "", time.monotonic() - t0
    data = body.encode() if body else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: bench\r\n"
            f"Connection: close\r\nContent-Length: {len(data)}\r\n")
    if body:
        head += "Content-Type: application/json\r\n"
    out = b""
    try:
        s.sendall(head.encode() + b"\r\n" + data)
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    s.close()
    secs = time.monotonic() - t0
    try:
        status = int(out.split(b" ", 2)[1])
    except (IndexError, ValueError):
        status = 0
    return status, out.split(b"\r\n\r\n", 1)[0].decode("latin-1"), secs


def fire(n, body):
    """n concurrent slow solves; returns [(status, headers, secs)]."""
    res = [None] * n

    def one(i):
        t0 = time.monotonic()
        st, hdr, secs = request("POST", "/v1/solve", body)
        res[i] = (st, hdr, secs, t0, t0 + secs)
    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
        time.sleep(0.002)
    return ts, res


def probe_livez(stop, lat):
    while not stop.is_set():
        st, _, secs = request("GET", "/livez")
        lat.append((st, secs))
        time.sleep(0.05)


def easy_latency(n=20):
    xs = sorted(request("POST", "/v1/solve", EASY)[2] for _ in range(n))
    return xs[len(xs) // 2]


def livez_p90(lat):
    xs = sorted(secs for _, secs in lat)
    return xs[len(xs) * 9 // 10] if xs else 0


def livez_idle(secs=1.0):
    """/livez probed as during the overload but with the server idle:
    what this machine's scheduler alone costs a probe right now."""
    stop, lat = threading.Event(), []
    prober = threading.Thread(target=probe_livez, args=(stop, lat))
    prober.start()
    time.sleep(secs)
    stop.set()
    prober.join()
    return livez_p90(lat)


def overload():
    base = easy_latency()
    idle = livez_idle()
    n = 3 * (WORKERS + QUEUE)
    stop, lat = threading.Event(), []
    prober = threading.Thread(target=probe_livez, args=(stop, lat))
    prober.start()
    ts, res = fire(n, SLOW)
    for t in ts:
        t.join()
    stop.set()
    prober.join()
    ok = [r for r in res if r[0] == 200]
    busy = [r for r in res if r[0] == 503]
    fast = max((r[2] for r in busy), default=0)
    retry = all("Retry-After:" in r[1] for r in busy)
    worst = max((s for _, s in lat), default=0)
    p90 = livez_p90(lat)
    # Slots an accepted solve freed before the last request came in (a
    # loaded machine fires the n requests slowly): each may take one more.
    last_in = max(r[3] for r in res)
    freed = sum(1 for r in ok if r[4] < last_in)
    after = easy_latency()
    print(f"overload: {n} slow solves at once, workers {WORKERS} + queue "
          f"{QUEUE}: {len(ok)} x 200, {len(busy)} x 503 (slowest 503 "
          f"{fast * 1000:.1f} ms), other {n - len(ok) - len(busy)}")
    print(f"overload: /livez {len(lat)} probes, p90 {p90 * 1000:.1f} ms "
          f"(idle server: {idle * 1000:.1f} ms), worst {worst * 1000:.1f} ms;"
          f" easy solve p50 {base * 1000:.2f} ms before, "
          f"{after * 1000:.2f} ms right after")
    check(len(ok) + len(busy) == n, "every slow solve got 200 or 503")
    check(len(ok) >= WORKERS + QUEUE - 1, "accepted solves all completed")
    check(len(busy) >= n - WORKERS - QUEUE - freed - 1,
          f"the excess got 503 ({freed} slots freed while firing)")
    check(retry, "every 503 carries Retry-After")
    check(fast < 0.2, "503s came at once (< 200 ms)")
    # A network thread waiting behind the pool would hold nearly every
    # probe of the overload for a solve (SLOW_MS), which p90 shows; one
    # slow probe is this machine's scheduler (worst, printed). The bound
    # is 50 ms or three times what an idle server's probes take on this
    # machine right now, and never under a quarter of SLOW_MS: a CPU
    # shared with other test suites delayed a probe 140 ms (a fresh root
    # beside a second make test), where a probe held behind a solve
    # takes the solve's whole SLOW_MS.
    bound = max(0.05, 3 * idle, SLOW_MS / 4000)
    check(p90 < bound and all(st == 200 for st, _ in lat),
          f"/livez answered within {bound * 1000:.0f} ms throughout "
          f"(50 ms, 3 x idle or SLOW_MS / 4)")
    check(after < max(5 * base, 0.02), "latency back to normal right after")


def slow_clients():
    """Attackers from 127.0.0.2: half trickle header bytes slower than
    the timeout, half send headers and stall inside the body."""
    n = 40 if SCALE == "full" else 10
    socks = []
    for i in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", PORT), timeout=5,
                                         source_address=("127.0.0.2", 0))
        except OSError:
            continue
        s.sendall(b"P" if i % 2 else b"POST /v1/solve HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n{\"bo")
        socks.append(s)
    t0 = time.monotonic()
    served = [request("POST", "/v1/solve", EASY) for _ in range(5)]
    real_ok = all(st == 200 and secs < 0.5 for st, _, secs in served)
    closed, deadline = 0, t0 + CTO + 3
    for s in socks:
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            closed += s.recv(1) == b""
        except ConnectionResetError:
            closed += 1
        except OSError:
            pass
        s.close()
    secs = time.monotonic() - t0
    print(f"slow clients: {len(socks)} stalled connections, {closed} cut "
          f"off within {secs:.1f} s (timeout {CTO} s); 5 real solves "
          f"meanwhile: {[st for st, _, _ in served]}")
    check(real_ok, "real requests served while slow clients hang on")
    check(closed == len(socks), "every stalled connection was cut off")


def shutdown():
    n = WORKERS + QUEUE
    ts, res = fire(n, SLOW)
    time.sleep(0.3)
    t0 = time.monotonic()
    os.kill(PID, signal.SIGTERM)
    time.sleep(0.2)
    late = request("POST", "/v1/solve", EASY, timeout=5)
    for t in ts:
        t.join()
    print(f"shutdown: SIGTERM with {n} slow solves in flight: "
          f"{sorted(r[0] for r in res)}; request after SIGTERM: "
          f"{late[0] or 'refused'}")
    check(all(r[0] in (200, 503) for r in res),
          "in-flight solves answered (running: 200, queued: 503)")
    check(sum(r[0] == 200 for r in res) >= 1, "running solves finished")
    check(late[0] in (0, 503), "new requests refused after SIGTERM")
    return t0


if __name__ == "__main__":
    overload()
    slow_clients()
    t0 = shutdown()
    print(f"shutdown: SIGTERM sent at t0 (+{time.monotonic() - t0:.1f} s "
          "now); the caller checks the exit status")
    sys.exit(1 if failures else 0)
