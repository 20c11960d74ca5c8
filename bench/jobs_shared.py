#!/usr/bin/env python3
"""jobs_shared.py - shared jobs (redis_url) against the embedded ones.

Starts its own redis-server (unix socket in a temporary directory) and
puzzled instances on loopback, and prints:
  - submit -> start latency (the job's started_at - created_at, server
    clocks, ms resolution) p50/p99, embedded and shared;
  - progress-event latency (an SSE client's receive time - the event's
    started_at + elapsed_ms) p50/p99, embedded and shared;
  - jobs per second (4x4 jobs, 8 clients) through one instance, with one
    and with two instances sharing the Redis (embedded: one instance);
  - Redis memory per finished job (INFO memory before/after N jobs).

Usage: python3 bench/jobs_shared.py [--jobs N] (PUZZLED=build/puzzled)
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone

PUZZLED = os.environ.get("PUZZLED", "build/puzzled")
BOARD3 = "8 6 7 2 5 4 3 0 1"
LONG5 = {"board": "10 6 18 12 15 3 5 4 14 19 7 11 20 9 8 16 17 2 1 24 21 "
         "13 22 23 0", "algorithm": "idastar", "limits": {"timeout_ms": 4000}}


def ms_of(ts):
    return datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=timezone.utc).timestamp() * 1e3


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class Server:
    def __init__(self, tmp, name, redis=None, workers=1):
        args = [PUZZLED, "serve", "--bind", "127.0.0.1", "--port", "0",
                "--access-log", "off", "--static-root", "", "--pdb", "none",
                "--state-dir", "off", "--workers", "1",
                "--job-workers", str(workers), "--job-queue", "10000",
                "--job-max", "100000", "--max-streams-per-client", "64"]
        if redis:
            args += ["--redis-url", "unix://" + redis]
        self.out = open(os.path.join(tmp, name + ".out"), "w+")
        self.p = subprocess.Popen(args, stdout=self.out,
                                  stderr=subprocess.DEVNULL)
        for _ in range(200):
            self.out.seek(0)
            for line in self.out:
                if line.startswith("listening on http://"):
                    hp = line.split("//")[1].strip()
                    self.host, self.port = hp.rsplit(":", 1)
                    self.port = int(self.port)
                    return
            time.sleep(0.05)
        raise RuntimeError("puzzled did not start")

    def stop(self):
        self.p.terminate()
        self.p.wait()


def req(srv, method, path, body=None):
    c = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
    c.request(method, path, body=json.dumps(body) if body else None,
              headers={"Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, json.loads(data) if data else None


def wait_done(srv, jid):
    while True:
        st, j = req(srv, "GET", "/v1/jobs/" + jid)
        if st == 200 and j["state"] in ("done", "failed", "cancelled"):
            return j
        time.sleep(0.005)


def start_latency(srv, n):
    lat = []
    for _ in range(n):
        st, j = req(srv, "POST", "/v1/jobs", {"board": BOARD3})
        assert st == 202, j
        j = wait_done(srv, j["id"])
        lat.append(ms_of(j["started_at"]) - ms_of(j["created_at"]))
    return lat


def event_latency(srv, via):
    """Progress events of one long job as `via` streams them."""
    st, j = req(srv, "POST", "/v1/jobs", LONG5)
    assert st == 202, j
    c = http.client.HTTPConnection(via.host, via.port, timeout=30)
    c.request("GET", "/v1/jobs/%s/events" % j["id"])
    r = c.getresponse()
    lat, started = [], None
    while True:
        line = r.readline()
        if not line:
            break
        now = time.time() * 1e3
        line = line.decode()
        if line.startswith("event: ") and line[7:].strip() != "progress":
            break
        if not line.startswith("data: "):
            continue
        d = json.loads(line[6:])
        if d.get("state") != "running" or not d.get("expanded"):
            continue
        if started is None:
            _, jj = req(srv, "GET", "/v1/jobs/" + j["id"])
            started = ms_of(jj["started_at"])
        lat.append(now - (started + d["elapsed_ms"]))
    c.close()
    return lat


BOARD4 = subprocess.run([PUZZLED, "random", "--size", "4", "--moves", "40",
                         "--seed", "3"], capture_output=True,
                        text=True).stdout.splitlines()[0]
QUICK = {"board": BOARD4}                       # ~1 ms of search
BUSY = dict(LONG5, limits={"timeout_ms": 100})  # 100 ms of search each


def throughput(submit_to, n, body=QUICK, clients=8):
    ids, lock = [], threading.Lock()

    def client(k):
        for _ in range(k):
            st, j = req(submit_to, "POST", "/v1/jobs", body)
            assert st == 202, j
            with lock:
                ids.append(j["id"])
    t0 = time.time()
    th = [threading.Thread(target=client, args=(n // clients,))
          for _ in range(clients)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    for jid in ids:
        wait_done(submit_to, jid)
    return len(ids) / (time.time() - t0)


def key_mem(sock, key):
    out = subprocess.run(["redis-cli", "-s", sock, "MEMORY", "USAGE", key],
                         capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else 0


def redis_mem(sock):
    out = subprocess.run(["redis-cli", "-s", sock, "INFO", "memory"],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("used_memory:"):
            return int(line.split(":")[1])
    return 0


def fmt(xs):
    return "p50 %6.1f ms  p99 %6.1f ms  (n=%d)" % (pct(xs, 50), pct(xs, 99),
                                                  len(xs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=200)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="puzzled-bench-jobs.")
    sock = os.path.join(tmp, "redis.sock")
    rp = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket",
                           sock, "--save", "", "--appendonly", "no",
                           "--dir", tmp, "--logfile",
                           os.path.join(tmp, "redis.log")])
    servers = []
    try:
        for _ in range(100):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        emb = Server(tmp, "emb")
        servers.append(emb)
        print("submit -> start, embedded:  ", fmt(start_latency(emb, a.jobs)))
        print("progress event, embedded:   ", fmt(event_latency(emb, emb)))
        print("jobs/s, embedded, 1 instance: %.1f (4x4, ~1 ms each); %.1f "
              "(100 ms each)" % (throughput(emb, a.jobs),
                                 throughput(emb, 40, BUSY)))
        emb.stop()
        servers.remove(emb)

        sa = Server(tmp, "a", sock)
        servers.append(sa)
        m0 = redis_mem(sock)
        lat = start_latency(sa, a.jobs)
        m1 = redis_mem(sock)
        print("submit -> start, shared:    ", fmt(lat))
        print("Redis memory per finished 3x3 job: %.0f bytes (%d jobs, "
              "used_memory %d -> %d)" % ((m1 - m0) / a.jobs, a.jobs, m0, m1))
        st, j = req(sa, "POST", "/v1/jobs", {"board": BOARD3})
        wait_done(sa, j["id"])
        print("  one of them: hash %d bytes, events stream %d bytes "
              "(MEMORY USAGE)" % (key_mem(sock, "puzzled:job:" + j["id"]),
                                  key_mem(sock, "puzzled:job:%s:events"
                                          % j["id"])))
        print("progress event, shared:     ", fmt(event_latency(sa, sa)))
        print("jobs/s, shared, 1 instance: %.1f (4x4, ~1 ms each); %.1f "
              "(100 ms each)" % (throughput(sa, a.jobs),
                                 throughput(sa, 40, BUSY)))
        sb = Server(tmp, "b", sock)
        servers.append(sb)
        time.sleep(0.5)
        print("jobs/s, shared, 2 instances (submitted through one): %.1f "
              "(4x4, ~1 ms each); %.1f (100 ms each)"
              % (throughput(sa, a.jobs), throughput(sa, 40, BUSY)))
        print("progress event, shared, streamed through the other "
              "instance:", fmt(event_latency(sa, sb)))
    finally:
        for s in servers:
            s.stop()
        rp.terminate()
        rp.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
