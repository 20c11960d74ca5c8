#!/usr/bin/env python3
"""bench/floods_soak.py - issue 44's floods together, for SOAK_S seconds,
against two puzzled instances sharing a redis-server of the bench's own
(unix socket in a temporary directory), each with the k8s settings that
matter here (max_connections 1024, one network thread, probe_port, and
trusted_proxies 127.0.0.1/32 so X-Forwarded-For gives every flood request
an address of its own, as rotating IPv6 /64s behind an ingress would):

  - starts: POST .../start from a new /64 each time (finding 1);
  - bots: a start and at once the solver's entry, from a new /64 each
    time (finding 2: must be 422);
  - idle sockets: IDLE (1100) connections held open on each main port,
    reopened when the server shuts them (finding 3);
  - reconnects: connections opened and dropped as fast as one thread
    goes (finding 3);

and a legitimate player in the loop: a start through one instance, the
day's 3x3 played at a person's pace (150 ms a move) with the solver's
moves, the entry through the other instance, and the row seen on the
leaderboard. /livez is probed every 50 ms on both probe ports (what the
kubelet probes) and on the first main port, from processes of their own. Prints the player's success
rate, /livez p50/p99/max per port, and what each flood got back.

usage: bench/floods_soak.py [PUZZLED]   (env: SOAK_S=120 IDLE=1100
                                         STARTERS=2 BOTS=1)
Loopback only; bounded: SOAK_S + about 15 s.
"""
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

PUZZLED = sys.argv[1] if len(sys.argv) > 1 else "build/puzzled"
SOAK_S = float(os.environ.get("SOAK_S", "120"))
IDLE = int(os.environ.get("IDLE", "1100"))
STARTERS = int(os.environ.get("STARTERS", "2"))
BOTS = int(os.environ.get("BOTS", "1"))
MOVE_MS = 150

stop = threading.Event()
lock = threading.Lock()
counts = {}


def count(what, status):
    with lock:
        counts.setdefault(what, {}).setdefault(status, 0)
        counts[what][status] += 1


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rand_addr():
    return "2001:db8:%x:%x::1" % (random.getrandbits(16),
                                   random.getrandbits(16))


def request(port, method, path, body=None, addr=None, conn=None,
            timeout=5):
    own = conn is None
    c = conn or http.client.HTTPConnection("127.0.0.1", port,
                                           timeout=timeout)
    headers = {}
    if addr:
        headers["X-Forwarded-For"] = addr
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body)
    try:
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        data = r.read()
        status = r.status
    except (OSError, http.client.HTTPException):
        status, data = 0, b""
        c.close()
        if not own:
            raise
    if own:
        c.close()
    try:
        return status, json.loads(data) if data else None
    except ValueError:
        return status, None


def start_servers(tmp):
    sock = os.path.join(tmp, "redis.sock")
    redis = subprocess.Popen(
        ["redis-server", "--port", "0", "--unixsocket", sock,
         "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
         "--dir", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    servers = []
    for name in ("a", "b"):
        port, probe = free_port(), free_port()
        p = subprocess.Popen(
            [PUZZLED, "serve", "--bind", "127.0.0.1", "--port", str(port),
             "--probe-port", str(probe), "--http-threads", "1",
             "--workers", "1", "--max-connections", "1024",
             "--connection-timeout-s", "30", "--pdb", "none",
             "--access-log", "off", "--state-dir", "off",
             "--static-root", "", "--redis-url", "unix://" + sock,
             "--trusted-proxies", "127.0.0.1/32"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = p.stdout.readline()
        if "listening on" not in line:
            sys.exit("puzzled %s did not start: %r" % (name, line))
        servers.append({"name": name, "proc": p, "port": port,
                        "probe": probe})
    return redis, servers


def starter(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    while not stop.is_set():
        try:
            st, _ = request(port, "POST", "/v1/daily/today/3/start",
                            addr=rand_addr(), conn=c)
        except (OSError, http.client.HTTPException):
            st = 0
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        count("flood: starts", st)


def bot(port, moves):
    while not stop.is_set():
        addr = rand_addr()
        st, j = request(port, "POST", "/v1/daily/today/3/start", addr=addr)
        if st != 201:
            count("flood: bot starts", st)
            continue
        st, _ = request(port, "POST", "/v1/daily/today/3/entries",
                        {"nickname": "bot%d" % random.getrandbits(20),
                         "moves": moves, "token": j["token"],
                         "help": False}, addr=addr)
        count("flood: bot entries", st)


def idler(ports):
    """IDLE sockets on each of ports."""
    socks = []
    while not stop.is_set():
        alive = []
        for s in socks:
            try:
                if s.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b"":
                    s.close()
                    continue
            except BlockingIOError:
                pass
            except OSError:
                s.close()
                continue
            alive.append(s)
        socks = alive
        while len(socks) < IDLE * len(ports) and not stop.is_set():
            try:
                socks.append(socket.create_connection(
                    ("127.0.0.1", ports[len(socks) % len(ports)]),
                    timeout=1))
            except OSError:
                count("flood: idle sockets", "connect failed")
                break
        count("flood: idle sockets", "rounds")
        stop.wait(1.0)
    for s in socks:
        s.close()


def reconnector(ports):
    while not stop.is_set():
        try:
            socket.create_connection(("127.0.0.1", random.choice(ports)),
                                     timeout=1).close()
            count("flood: reconnects", "made")
        except OSError:
            count("flood: reconnects", "failed")


def prober(port, seconds, out):
    """A process of its own (the floods' threads hold the GIL): GET
    /livez on a fresh connection every 50 ms, as the kubelet does."""
    got = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        st, _ = request(port, "GET", "/livez", timeout=2)
        got.append((st, (time.monotonic() - t0) * 1000))
        time.sleep(0.05)
    out.send(got)


def player(servers, moves, results):
    i = 0
    while not stop.is_set():
        i += 1
        a, b = servers[i % 2], servers[(i + 1) % 2]
        addr = "2001:db8:feed:%x::1" % i
        why = None
        st, j = request(a["port"], "POST", "/v1/daily/today/3/start",
                        addr=addr)
        if st != 201:
            why = "start %d" % st
        else:
            if stop.wait(len(moves) * MOVE_MS / 1000):
                break       # the soak ended mid-run: not a run
            st, e = request(b["port"], "POST", "/v1/daily/today/3/entries",
                            {"nickname": "soak-player", "moves": moves,
                             "token": j["token"], "help": False}, addr=addr)
            if st not in (200, 201):
                why = "entry %d %s" % (st, e)
            else:
                st, d = request(a["port"], "GET", "/v1/daily/today/3")
                names = [x["nickname"] for x in (d or {}).get("entries", [])]
                if "soak-player" not in names:
                    why = "row not seen (%d)" % st
        results.append(why)
        if why:
            print("player run %d failed: %s" % (i, why), flush=True)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def main():
    tmp = tempfile.mkdtemp(prefix="puzzled-floods-")
    redis, servers = start_servers(tmp)
    try:
        a = servers[0]
        st, day = request(a["port"], "GET", "/v1/daily/today/3")
        st, sol = request(a["port"], "POST", "/v1/solve",
                          {"board": day["board"]})
        moves = sol["moves"]
        mains = [s["port"] for s in servers]
        threads = []
        probes = []
        for port, label in [(s["probe"], "probe port " + s["name"])
                            for s in servers] + [(a["port"], "main port a")]:
            rx, tx = multiprocessing.Pipe(duplex=False)
            pr = multiprocessing.Process(target=prober,
                                         args=(port, SOAK_S, tx))
            pr.start()
            probes.append((label, pr, rx))
        for k in range(STARTERS):
            threads.append(threading.Thread(target=starter,
                           args=(mains[k % 2],)))
        for k in range(BOTS):
            threads.append(threading.Thread(target=bot,
                           args=(mains[k % 2], moves)))
        threads.append(threading.Thread(target=idler, args=(mains,)))
        threads.append(threading.Thread(target=reconnector, args=(mains,)))
        results = []
        threads.append(threading.Thread(target=player,
                       args=(servers, moves, results)))
        for t in threads:
            t.daemon = True
            t.start()
        lat = {label: rx.recv() for label, pr, rx in probes}
        for label, pr, rx in probes:
            pr.join(5)
        stop.set()
        for t in threads:
            t.join(10)
        ok = sum(1 for r in results if r is None)
        print("floods_soak: %.0f s, two instances + Redis, %d moves a run "
              "at %d ms a move" % (SOAK_S, len(moves), MOVE_MS))
        print("player: %d of %d runs succeeded (%.1f%%)" %
              (ok, len(results), 100.0 * ok / max(1, len(results))))
        for label in sorted(lat):
            xs = [ms for st, ms in lat[label]]
            good = sum(1 for st, ms in lat[label] if st == 200)
            print("/livez %-13s %5d probes, %5d 200, p50 %.1f ms, p99 %.1f "
                  "ms, max %.1f ms" % (label, len(xs), good, pct(xs, 0.5),
                                       pct(xs, 0.99), max(xs)))
        for what in sorted(counts):
            print("%-22s %s" % (what, dict(sorted(counts[what].items(),
                                                  key=str))))
        for s in servers:
            st, _ = request(s["probe"], "GET", "/metrics")
            c = http.client.HTTPConnection("127.0.0.1", s["probe"])
            c.request("GET", "/metrics")
            text = c.getresponse().read().decode()
            m = re.search(r"^puzzled_connections_reclaimed_total (\d+)",
                          text, re.M)
            r = re.search(r"^puzzled_connections_refused_total (\d+)",
                          text, re.M)
            print("instance %s: connections reclaimed %s, refused %s" %
                  (s["name"], m.group(1) if m else "?",
                   r.group(1) if r else "?"))
        return 0 if ok == len(results) and results else 1
    finally:
        for s in servers:
            s["proc"].terminate()
        for s in servers:
            s["proc"].wait(20)
        redis.terminate()
        redis.wait(10)
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    sys.exit(main())
