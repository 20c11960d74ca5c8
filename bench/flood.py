#!/usr/bin/env python3
"""bench/flood.py - issue 29's flood, against a puzzled it starts with the
k8s settings (2 workers, 1 job worker, solve_max_bytes 192m,
job_results_max_bytes 64m, one network thread): JOBS
big jobs (an 8x8 board, greedy + include_path: ~1 MB answers), STREAMS
event streams on them, BATCHES big batches (100 8x8 boards with paths),
all at once, while /livez is probed every 50 ms. Prints the answers by
status, the server's VmHWM against the sizing formula of
docs/operations.md ((workers + job_workers) x solve_max_bytes +
job_results_max_bytes + 64 MB) and the pod's 768Mi, its descriptors before
and after, and /livez p50/p99/max. Loopback only; bounded (TIMEOUT s).

usage: bench/flood.py [PUZZLED]   (env: JOBS=50 STREAMS=100 BATCHES=2
                                   TIMEOUT=120)
"""
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time

PUZZLED = sys.argv[1] if len(sys.argv) > 1 else "build/puzzled"
JOBS = int(os.environ.get("JOBS", "50"))
STREAMS = int(os.environ.get("STREAMS", "100"))
BATCHES = int(os.environ.get("BATCHES", "2"))
TIMEOUT = float(os.environ.get("TIMEOUT", "120"))
MB = 1 << 20
SOLVE_MAX = 192 * MB
POD_LIMIT = 768 * MB
RESULTS_MAX = 64 * MB


def board(seed):
    out = subprocess.run([PUZZLED, "random", "--size", "8", "--moves", "1000",
                          "--seed", str(seed)], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\n")[0].strip()


def start():
    p = subprocess.Popen([PUZZLED, "serve", "--port", "0", "--workers", "2",
                          "--solve-max-bytes", "192m", "--http-threads", "1",
                          "--access-log", "off", "--state-dir", "off",
                          "--static-root", "", "--job-workers", "1",
                          "--job-results-max-bytes", "64m",
                          "--job-queue", str(JOBS + 8), "--job-max",
                          str(JOBS + 8), "--max-streams-per-client",
                          str(STREAMS + 8), "--max-streams-per-job",
                          str(STREAMS + 8), "--max-connections", "400",
                          "--jobs-list-anonymous", "1",
                          "--worker-nice", os.environ.get("NICE", "0")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    for line in p.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if m:
            return p, int(m.group(1))
    raise SystemExit("flood: the server did not start")


def status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1]) // 1024
    return 0


def request(port, method, path, body=None, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        hdrs = {"Content-Type": "application/json"} if body else {}
        c.request(method, path, body=body, headers=hdrs)
        r = c.getresponse()
        data = r.read()
        return r.status, data
    except OSError:
        return 0, b""
    finally:
        c.close()


def main():
    p, port = start()
    boards = [board(7 + i) for i in range(8)]
    fds0 = len(os.listdir("/proc/%d/fd" % p.pid))
    counts, lock, livez, stop = {}, threading.Lock(), [], threading.Event()

    def count(what, st):
        with lock:
            counts[(what, st)] = counts.get((what, st), 0) + 1

    def probe():
        while not stop.is_set():
            t0 = time.monotonic()
            st, _ = request(port, "GET", "/livez", timeout=10)
            livez.append((time.monotonic() - t0) * 1000)
            count("livez", st)
            time.sleep(0.05)

    ids = []
    for i in range(JOBS):
        st, data = request(port, "POST", "/v1/jobs", json.dumps(
            {"board": boards[i % len(boards)], "algorithm": "greedy",
             "include_path": True}))
        count("job submit", st)
        if st == 202:
            ids.append(json.loads(data)["id"])

    def stream(job):
        st, _ = request(port, "GET", "/v1/jobs/%s/events" % job,
                        timeout=TIMEOUT)
        count("stream", st)

    def batch():
        st, _ = request(port, "POST", "/v1/solve/batch", json.dumps(
            {"boards": [boards[i % len(boards)] for i in range(100)],
             "algorithm": "greedy", "include_path": True}), timeout=TIMEOUT)
        count("batch", st)

    threads = [threading.Thread(target=probe)]
    threads += [threading.Thread(target=stream, args=(ids[i % len(ids)],))
                for i in range(STREAMS if ids else 0)]
    threads += [threading.Thread(target=batch) for _ in range(BATCHES)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads[1:]:
        t.join(TIMEOUT)
    # Every job read whole once it is done (the answers are kept as bytes).
    for job in ids:
        st, _ = request(port, "GET", "/v1/jobs/%s" % job)
        count("job get", st)
    st, _ = request(port, "GET", "/v1/jobs?limit=100")
    count("job list", st)
    stop.set()
    threads[0].join()
    took = time.monotonic() - t0
    hwm, rss = status(p.pid, "VmHWM"), status(p.pid, "VmRSS")
    fds1 = len(os.listdir("/proc/%d/fd" % p.pid))
    _, metrics = request(port, "GET", "/metrics")
    held = re.search(rb"\npuzzled_job_results_bytes (\d+)", metrics)
    p.terminate()
    p.wait(10)
    livez.sort()
    allowed = (3 * SOLVE_MAX + RESULTS_MAX) // MB + 64
    print("flood: %d jobs, %d streams, %d batches at once, %.1f s"
          % (JOBS, STREAMS, BATCHES, took))
    for (what, st), n in sorted(counts.items()):
        print("flood:   %-10s %3s x %d" % (what, st, n))
    print("flood: VmHWM %d MB, VmRSS %d MB at the end (formula allows %d MB:"
          " (2 workers + 1 job worker) x 192 + 64 results + 64; the pod"
          " 768)" % (hwm, rss, allowed))
    print("flood: answers held by finished jobs: %s bytes"
          % (held.group(1).decode() if held else "?"))
    print("flood: descriptors %d before, %d after" % (fds0, fds1))
    if livez:
        print("flood: /livez p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d probes)"
              % (livez[len(livez) // 2], livez[int(len(livez) * 0.99)],
                 livez[-1], len(livez)))
    bad = (hwm > allowed or hwm * MB > POD_LIMIT
           or counts.get(("livez", 200), 0) != len(livez))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
