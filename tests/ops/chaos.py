#!/usr/bin/env python3
"""chaos.py - the client side of tests/scripts/shared_chaos.sh (and of
bench/chaos.sh, which runs that script longer): submits a stream of jobs
to several puzzled instances sharing one Redis while the script hurts
them, then checks what docs/operations.md "Shared jobs" promises.

  chaos.py truth DIR PUZZLED SEED     boards (a few 3x3 and 4x4) and their
                                      optimal lengths by the CLI's own
                                      searches (BFS on 3x3, A* + linear
                                      conflict on 4x4), not the service's
  chaos.py submit DIR SEED URL...     jobs until DIR/stop exists (and at
                                      most CHAOS_MAX_JOBS); the count
                                      submitted so far in DIR/submitted,
                                      every job in DIR/jobs.json
  chaos.py check DIR SOCK URL...      every job ends, once, the same
                                      everywhere; prints the figures;
                                      exit 1 when a promise is broken

The mix: quick 3x3 and 4x4 solves, a quarter of them with an
Idempotency-Key that is sent again through another instance (and again
whenever an answer is lost), and one in four a 5x5 search with a 1.5 s
budget (done, status timeout: a job running when an instance is hurt),
half of those cancelled through another instance at once. A submission whose
answer never came is not an accepted job unless its key's retry names
it. CHAOS_BREAK=1 makes the check see one done job's length off by one
(how the script's own failure is tried).
"""

import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request

FINAL = ("done", "failed", "cancelled")
LONG5 = ("10 6 18 12 15 3 5 4 14 19 7 11 20 9 8 16 17 2 1 24 21 13 22 23 0")


def http(method, url, body=None, headers=None, timeout=3.0):
    """(status, headers, bytes); status 0 when no answer came."""
    req = urllib.request.Request(url, data=body, method=method,
                                 headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()
    except (OSError, ValueError):
        return 0, {}, b""


def truth(d, puzzled, seed):
    rnd = random.Random(seed)
    boards = []
    for size, walks, alg, n in ((3, (10, 30), "bfs", 5),
                                (4, (20, 40), "astar", 3)):
        for _ in range(n):
            s = str(rnd.randrange(1 << 30))
            walk = rnd.randint(*walks)
            b = subprocess.check_output(
                [puzzled, "random", "--size", str(size), "--moves",
                 str(walk), "--seed", s], text=True).splitlines()[0]
            out = subprocess.check_output(
                [puzzled, "solve", "-a", alg, "-H",
                 "manhattan" if size == 3 else "linear-conflict",
                 "--json", "-q", b], text=True)
            res = json.loads(out)
            assert res["optimal"], res
            boards.append({"board": b, "length": res["length"]})
    json.dump(boards, open(os.path.join(d, "truth.json"), "w"))


class Submitter:
    def __init__(self, d, seed, urls):
        self.d, self.urls = d, urls
        self.rnd = random.Random(seed)
        self.boards = json.load(open(os.path.join(d, "truth.json")))
        self.jobs = []          # one dict per accepted job
        self.lost = 0           # answers that never came, no key
        self.refused = 0        # 503 and the like, no key
        self.next = 0

    def url(self):
        self.next = (self.next + 1) % len(self.urls)
        return self.urls[self.next]

    def post(self, url, body, key=None):
        h = {"Content-Type": "application/json"}
        if key:
            h["Idempotency-Key"] = '"%s"' % key
        st, hd, b = http("POST", url + "/v1/jobs", body.encode(), h)
        if st == 202:
            return json.loads(b)["id"], hd.get("Idempotent-Replayed")
        return st, None

    def keyed(self, body, key):
        """Accepted id and every id its retries got (all must agree)."""
        ids, tries = [], 0
        while tries < 60 and len(ids) < 2:
            tries += 1
            got, _ = self.post(self.url(), body, key)
            if isinstance(got, str):
                ids.append(got)
                continue
            # 0 (no answer: an instance dead or stopped), 503 (Redis
            # stopped or restarting), 409 (the first is being created):
            # a client's retry pause, growing with the tries.
            time.sleep(min(0.05 * tries, 0.5))
        return ids, tries

    def one(self, i):
        kind = self.rnd.random()
        t0 = time.time()
        if kind < 0.25:
            # A search that outlives its budget (done, status timeout),
            # long enough to be running when an instance is hurt; half
            # of them cancelled at once.
            body = json.dumps({"board": LONG5, "algorithm": "idastar",
                               "limits": {"timeout_ms": 1500}})
            job = {"kind": "cancel" if kind < 0.125 else "long"}
        else:
            b = self.rnd.choice(self.boards)
            body = json.dumps({"board": b["board"]})
            job = {"kind": "solve", "length": b["length"]}
        if kind > 0.75:
            key = "chaos-%d-%d" % (os.getpid(), i)
            ids, tries = self.keyed(body, key)
            if not ids:
                self.lost += 1
                return
            job.update(id=ids[0], key=key, key_ids=ids, tries=tries)
        else:
            got, _ = self.post(self.url(), body)
            if got == 0:
                self.lost += 1
                return
            if not isinstance(got, str):
                self.refused += 1
                return
            job["id"] = got
        job["t0"] = t0
        if job["kind"] == "cancel":
            st, _, _ = http("DELETE", self.url() + "/v1/jobs/" + job["id"])
            job["delete"] = st     # 200 cancelled, 204 forgotten (ended)
        self.jobs.append(job)

    def pace(self):
        """At most 6 jobs unended: the stream follows the service."""
        open_ = [j for j in self.jobs[-12:] if not j.get("seen_end")]
        if len(open_) < 6:
            return
        j = open_[0]
        for _ in range(len(self.urls)):
            st, _, b = http("GET", self.url() + "/v1/jobs/" + j["id"])
            if st == 404 or (st == 200 and json.loads(b)["state"] in FINAL):
                j["seen_end"] = True
                return
        time.sleep(0.05)    # the oldest job still runs: poll it again

    def run(self):
        cap = int(os.environ.get("CHAOS_MAX_JOBS", "400"))
        stop = os.path.join(self.d, "stop")
        i = 0
        while not os.path.exists(stop):
            if i < cap:
                self.one(i)
                i += 1
                self.save()
                self.pace()
            else:
                time.sleep(0.1)   # the cap reached: wait for the stop file
        self.save()

    def save(self):
        tmp = os.path.join(self.d, "jobs.tmp")
        json.dump({"jobs": self.jobs, "lost": self.lost,
                   "refused": self.refused}, open(tmp, "w"))
        os.replace(tmp, os.path.join(self.d, "jobs.json"))
        with open(os.path.join(self.d, "submitted.tmp"), "w") as f:
            f.write("%d\n" % (len(self.jobs) + self.lost + self.refused))
        os.replace(os.path.join(self.d, "submitted.tmp"),
                   os.path.join(self.d, "submitted"))


def final_events(sock, jid):
    """The final events in the job's Redis stream (must be one)."""
    out = subprocess.run(["redis-cli", "-s", sock, "--raw", "XRANGE",
                          "puzzled:job:%s:events" % jid, "-", "+"],
                         capture_output=True, text=True).stdout.split("\n")
    return sum(1 for a, b in zip(out, out[1:]) if a == "t" and b in FINAL)


def wait_ended(urls, jobs, secs):
    """Every job ended (or forgotten) seen through the first instance."""
    end = time.time() + secs
    pending = list(jobs)
    while pending and time.time() < end:
        j = pending[0]
        st, _, b = http("GET", urls[0] + "/v1/jobs/" + j["id"])
        if st == 404 or (st == 200 and json.loads(b)["state"] in FINAL):
            pending.pop(0)
        else:
            time.sleep(0.1)   # still running or queued: poll it again
    return pending


def read_job(url, jid):
    """GET of a job; a 503 (a busy machine: Redis slower than
    redis_timeout_ms, the routes' queue full) or no answer is asked
    again a few times, as its Retry-After says a client should."""
    for tries in range(10):
        v = http("GET", url + "/v1/jobs/" + jid, timeout=10)
        if v[0] not in (0, 503):
            break
        time.sleep(0.2 * (tries + 1))    # the client's retry pause
    return v


def check_job(j, urls, sock, broken, figures):
    """Appends to broken what this job breaks; fills figures."""
    views = [read_job(u, j["id"]) for u in urls]
    codes = set(v[0] for v in views)
    if j["kind"] == "cancel" and j.get("delete") != 200 and codes == {404}:
        # Ended before its DELETE came, which forgot it then (204): also
        # when that answer was lost (0: the instance stopped or killed;
        # 503: Redis slower than redis_timeout_ms after the script ran).
        figures["forgotten"] += 1
        if j.get("delete") != 204:
            figures["forgotten_unanswered"] += 1
        return
    if codes != {200}:
        broken.append("job %s (%s%s): GET answers %s" % (
            j["id"], j["kind"], ", DELETE %s" % j["delete"]
            if "delete" in j else "", sorted(codes)))
        return
    bodies = set(v[2] for v in views)
    if len(bodies) != 1:
        broken.append("job %s: instances answer differently" % j["id"])
    rec = json.loads(views[0][2])
    state = rec["state"]
    figures[state] = figures.get(state, 0) + 1
    figures["attempts"][rec.get("attempts", 0)] = \
        figures["attempts"].get(rec.get("attempts", 0), 0) + 1
    if state not in FINAL:
        broken.append("job %s stuck %s" % (j["id"], state))
        return
    n = final_events(sock, j["id"])
    if n != 1:
        broken.append("job %s: %d final events in its stream" % (j["id"], n))
    if j.get("key_ids") and len(set(j["key_ids"])) != 1:
        broken.append("key %s named jobs %s" % (j["key"], j["key_ids"]))
    if rec.get("finished_at") and rec.get("created_at"):
        figures["ttl"].append(stamp(rec["finished_at"]) -
                              stamp(rec["created_at"]))
    if state == "failed" and not (rec.get("error") or rec.get("reason")):
        broken.append("job %s failed, saying neither error nor reason" %
                      j["id"])
    if state == "failed":
        figures["failed_why"].append(json.dumps(
            rec.get("reason") or rec.get("error"))[:200])
    if state != "done" or j["kind"] != "solve":
        return
    res = rec["result"]
    figures["solved"] += 1
    length = res.get("length", -1) + (1 if os.environ.get("CHAOS_BREAK")
                                      and figures["solved"] == 1 else 0)
    if res.get("status") != "solved" or length != j["length"]:
        broken.append("job %s: %s length %s, the truth %d" %
                      (j["id"], res.get("status"), length, j["length"]))


def stamp(iso):
    t = time.strptime(iso[:19], "%Y-%m-%dT%H:%M:%S")
    return time.mktime(t) + float("0" + iso[19:-1])


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0


def check(d, sock, urls):
    state = json.load(open(os.path.join(d, "jobs.json")))
    jobs = state["jobs"]
    scale = int(os.environ.get("WAIT_SCALE", "1"))
    pending = wait_ended(urls, jobs, 60 * scale)
    broken = []
    figures = {"forgotten": 0, "forgotten_unanswered": 0, "solved": 0, "attempts": {}, "ttl": [],
               "failed_why": []}
    for j in jobs:
        check_job(j, urls, sock, broken, figures)
    if pending:
        broken.insert(0, "%d jobs not ended 60 s after the faults" %
                      len(pending))
    keyed = [j for j in jobs if j.get("key")]
    print("chaos: jobs accepted %d (%d keyed, sent %d times), refused "
          "(503) %d, unkeyed with no answer %d" % (
              len(jobs), len(keyed), sum(j["tries"] for j in keyed),
              state["refused"], state["lost"]))
    print("chaos: ended done %d, failed %d, cancelled %d, forgotten by "
          "DELETE %d (%d of them with its answer lost)" % (
              figures.get("done", 0), figures.get("failed", 0),
              figures.get("cancelled", 0), figures["forgotten"],
              figures["forgotten_unanswered"]))
    print("chaos: attempts " + ", ".join(
        "%s: %d" % kv for kv in sorted(figures["attempts"].items())))
    print("chaos: time to end p50 %.2f s, p99 %.2f s, max %.2f s" % (
        pct(figures["ttl"], .5), pct(figures["ttl"], .99),
        max(figures["ttl"] or [0])))
    for w in figures["failed_why"][:5]:
        print("chaos: failed: " + w)
    for b in broken[:20]:
        print("chaos: BROKEN: " + b)
    print("chaos: promises broken: %d" % len(broken))
    return 1 if broken else 0


def main():
    cmd, d = sys.argv[1], sys.argv[2]
    if cmd == "truth":
        truth(d, sys.argv[3], int(sys.argv[4]))
    elif cmd == "submit":
        Submitter(d, int(sys.argv[3]), sys.argv[4:]).run()
    elif cmd == "check":
        sys.exit(check(d, sys.argv[3], sys.argv[4:]))


if __name__ == "__main__":
    main()
