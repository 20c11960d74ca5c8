#!/usr/bin/env python3
"""run.py - the test runner behind `make test` (tests/run.sh calls it).

Runs every test binary given on the command line (cmocka suites) and every
executable tests/scripts/*.sh, several at a time, and prints one line per
finished suite ("== PASS name (12s, cpu 20s)": wall time, and the CPU
time of the suite and everything it started: where cgroup v1's cpuacct
can be written, each suite runs in a cgroup of its own, which counts
browsers and servers however they end; elsewhere wait4's rusage, which
counts only the processes the suite reaped), a table of the ten
slowest with the whole run's CPU time (what bounds the wall time on a
small machine: the suites run side by side) and a
closing line "N passed, N failed, N skipped" that CI reads. A suite passes
on exit 0, is skipped on 77 (its reason is its output's last line) and
fails on anything else or when it outlives its timeout; then its whole
process group is killed (servers, redis, chromium it started) and its log
is printed (and its last lines again just above the closing line).

Why parallel: the suites are independent processes that each use a few
cores at most and spend much of their time waiting (on sockets, servers,
browsers), so twice the cores plus one keep every core busy. Sanitizer
runs (make test-asan) take cores plus one: their suites compute more.

Environment:
  BUILD          build directory (logs in BUILD/test-logs, times in
                 BUILD/test-times)
  JOBS_TEST      suites at once (default: twice the cores, plus one: most
                 suites wait on sockets, servers and browsers, so 3 at
                 once left half of 2 cores idle: 305 s wall, 5 at once
                 267 s)
  T              only these suites: names or globs, space or comma
                 separated (test_pdb, 'e2e_*', cli.sh)
  SKIP           suites left out (names or globs, as T); the Makefile's
                 test-asan says which and why
  V=1            print every suite's log, not only the failing ones'
  TEST_TIMEOUT   seconds a suite may run (default 300; some below have
                 their own), TEST_TIMEOUT_SCALE multiplies them all
                 (sanitizer builds are several times slower)
"""

import fnmatch
import glob
import os
import signal
import subprocess
import sys
import time

# Suites that need longer than the default, with the reason.
TIMEOUTS = {
    # Sweeps all 181,440 3x3 boards against breadth-first truth.
    "test_groundtruth": 600,
    # A browser and a server per suite, 30-190 s on a quiet 2-core
    # machine: a whole make test beside four busy processes (load 25-34)
    # took 171-210 s for four of them and cut e2e_round3 at 300.
    "e2e_*.sh": 600,
}


def timeout_for(name, default):
    for pattern, secs in TIMEOUTS.items():
        if fnmatch.fnmatchcase(name, pattern):
            return secs
    return default

# Suites that must not start before others have finished, and why.
AFTER = {
    # Validates the responses the HTTP test binaries record under
    # test-output/BUILD/responses: every binary must have written its own.
    "openapi_check.sh": "binaries",
}

# Suites that cannot run beside any other, and why. Empty: every suite
# takes a free port (port 0 or a probed one), its own temporary directory
# and its own redis/nginx/chromium profile; the pattern database cache is
# written by temporary file and rename (puz_pdb_save).
EXCLUSIVE = {}


def now():
    return time.monotonic()


class Suite:
    def __init__(self, name, argv, kind):
        self.name = name
        self.argv = argv
        self.kind = kind            # "binary" or "script"
        self.proc = None
        self.start = 0.0
        self.secs = 0.0
        self.cpu = 0.0              # user + system, its tree
        self.cgroup = None          # its cpuacct cgroup, if one was made
        self.rc = None
        self.timed_out = False
        self.log = None


CPUACCT = "/sys/fs/cgroup/cpuacct"


def cgroup_for(name):
    """A fresh cpuacct cgroup for a suite, or None where none can be made
    (no cgroup v1, not writable: the CPU figure falls back to wait4)."""
    path = os.path.join(CPUACCT, "puzzled-test-%d-%s" % (os.getpid(), name))
    try:
        os.mkdir(path)
        return path
    except OSError:
        return None


def cgroup_cpu(path):
    """Its CPU seconds so far; the cgroup is removed once empty."""
    try:
        with open(os.path.join(path, "cpuacct.usage")) as f:
            cpu = int(f.read()) / 1e9
    except (OSError, ValueError):
        return None
    # Its processes were just sent SIGKILL: the group empties (and can
    # be removed) once the kernel has reaped them, a moment later.
    for _ in range(20):
        try:
            os.rmdir(path)
            break
        except OSError:
            time.sleep(0.05)    # bounded: at most a second, then left
    return cpu


def reap(s):
    """The suite's exit code once it has ended (None before), its CPU
    time (wait4's rusage: the suite and every descendant it waited for)
    into s.cpu."""
    try:
        pid, status, ru = os.wait4(s.proc.pid, os.WNOHANG)
    except ChildProcessError:       # reaped already
        return s.proc.returncode
    if pid == 0:
        return None
    s.cpu = ru.ru_utime + ru.ru_stime
    s.proc.returncode = os.waitstatus_to_exitcode(status)
    return s.proc.returncode


def parse_names(text):
    return [n for n in text.replace(",", " ").split() if n]


def wanted(name, patterns):
    base = name[:-3] if name.endswith(".sh") else name
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(base, p)
               for p in patterns)


def read_times(path):
    times = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    times[parts[0]] = float(parts[1])
    except (OSError, ValueError):
        pass
    return times


def write_times(path, times):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        for name in sorted(times):
            f.write("%s %.1f\n" % (name, times[name]))
    os.replace(tmp, path)


def kill_group(s, sig):
    try:
        os.killpg(s.proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def last_line(path):
    try:
        with open(path, errors="replace") as f:
            lines = [ln.strip() for ln in f if ln.strip()]
        return lines[-1] if lines else ""
    except OSError:
        return ""


# Lines of each failing suite's output repeated above the summary.
RECAP_LINES = 25


def tail_lines(path, n):
    try:
        with open(path, errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        return ["(cannot read %s: %s)\n" % (path, e)]
    lines = lines[-n:]
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return lines


def show_log(s):
    print("---- %s: output (%s)" % (s.name, s.log))
    with open(s.log, errors="replace") as f:
        sys.stdout.write(f.read())
    print("---- %s: end of output" % s.name)


def main():
    args = sys.argv[1:]
    unit_only = bool(args) and args[0] == "--unit-only"
    if unit_only:
        args = args[1:]
    build = os.environ.get("BUILD") or "build"
    env = os.environ
    cores = len(os.sched_getaffinity(0))
    jobs = int(env.get("JOBS_TEST") or 2 * cores + 1)
    verbose = env.get("V", "") not in ("", "0")
    default_timeout = float(env.get("TEST_TIMEOUT") or 300)
    scale = float(env.get("TEST_TIMEOUT_SCALE") or 1)
    patterns = parse_names(env.get("T", ""))

    suites = [Suite(os.path.basename(b), [b], "binary") for b in args]
    if not unit_only:
        for script in sorted(glob.glob("tests/scripts/*.sh")):
            if os.access(script, os.X_OK):
                suites.append(Suite(os.path.basename(script), [script],
                                    "script"))
    skip = parse_names(env.get("SKIP", ""))
    if skip:
        suites = [s for s in suites if not wanted(s.name, skip)]
    if patterns:
        suites = [s for s in suites if wanted(s.name, patterns)]
        if not suites:
            print("run: no suite matches T=%s" % " ".join(patterns),
                  file=sys.stderr)
            return 1

    logdir = os.path.join(build, "test-logs")
    os.makedirs(logdir, exist_ok=True)
    times_path = os.path.join(build, "test-times")
    # What this build measured, else the times a run of the whole suite
    # left in tests/test-times (a clean clone starts its long poles first
    # too; refresh it with `cp build/test-times tests/` now and then).
    times = read_times(os.path.join("tests", "test-times"))
    times.update(read_times(times_path))
    # Longest first, so that the long pole starts at once; a suite never
    # timed yet counts as long (it may be).
    pending = sorted(suites, key=lambda s: -times.get(s.name, 1e6))
    running = []
    done = []

    def may_start(s):
        if s.name in EXCLUSIVE or any(r.name in EXCLUSIVE for r in running):
            return not running
        if AFTER.get(s.name) == "binaries":
            return not any(o.kind == "binary" for o in pending + running)
        return True

    def start(s):
        s.log = os.path.join(logdir, s.name + ".log")
        out = open(s.log, "wb")
        s.start = now()
        s.cgroup = cgroup_for(s.name)

        def enter_cgroup(path=s.cgroup):
            if path is not None:
                try:
                    with open(os.path.join(path, "cgroup.procs"), "w") as f:
                        f.write(str(os.getpid()))
                except OSError:
                    pass
        # Its own session: a timeout kills the suite and all it started.
        s.proc = subprocess.Popen(s.argv, stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL,
                                  start_new_session=True,
                                  preexec_fn=enter_cgroup)
        out.close()
        s.deadline = s.start + timeout_for(s.name, default_timeout) * scale

    def finish(s):
        s.secs = now() - s.start
        # Whatever it left behind (a server, a redis) goes with it.
        kill_group(s, signal.SIGKILL)
        if s.cgroup is not None:
            cpu = cgroup_cpu(s.cgroup)
            if cpu is not None:
                s.cpu = cpu
        secs = "%ds, cpu %ds" % (round(s.secs), round(s.cpu))
        if s.timed_out:
            status = "FAIL"
            print("== FAIL %s (timed out after %s; its process group was "
                  "killed)" % (s.name, secs))
        elif s.rc == 0:
            status = "PASS"
            print("== PASS %s (%s)" % (s.name, secs))
        elif s.rc == 77:
            status = "SKIP"
            print("== SKIP %s (%s): %s" % (s.name, secs, last_line(s.log)))
        else:
            status = "FAIL"
            print("== FAIL %s (exit %s, %s)" % (s.name, s.rc, secs))
        if status == "FAIL" or verbose:
            show_log(s)
        sys.stdout.flush()
        s.status = status
        done.append(s)

    def stop_all(signum, frame):
        for r in running:
            kill_group(r, signal.SIGKILL)
        sys.exit(128 + signum)

    signal.signal(signal.SIGINT, stop_all)
    signal.signal(signal.SIGTERM, stop_all)

    wall = now()
    while pending or running:
        for s in list(pending):
            if len(running) >= jobs:
                break
            if may_start(s):
                pending.remove(s)
                start(s)
                running.append(s)
        time.sleep(0.05)
        for s in list(running):
            rc = reap(s)
            if rc is None and now() > s.deadline and not s.timed_out:
                s.timed_out = True
                kill_group(s, signal.SIGTERM)
                s.kill_at = now() + 5
                continue
            if rc is None and s.timed_out and now() > s.kill_at:
                kill_group(s, signal.SIGKILL)
            if rc is not None:
                s.rc = rc
                running.remove(s)
                finish(s)
        if not running and pending and not any(may_start(s)
                                               for s in pending):
            break   # cannot happen with the rules above; never spin

    for s in done:
        if s.status != "SKIP" and not s.timed_out:
            times[s.name] = s.secs
    try:
        write_times(times_path, times)
    except OSError as e:
        print("run: cannot record the times in %s: %s" % (times_path, e),
              file=sys.stderr)

    slow = sorted(done, key=lambda s: -s.secs)[:10]
    print("slowest suites (of %d, %d at a time, %ds wall, cpu %ds):"
          % (len(done), jobs, round(now() - wall),
             round(sum(s.cpu for s in done))))
    for s in slow:
        print("  %6.1fs  cpu %6.1fs  %s" % (s.secs, s.cpu, s.name))
    failed = [s.name for s in done if s.status == "FAIL"]
    counts = {k: sum(1 for s in done if s.status == k)
              for k in ("PASS", "FAIL", "SKIP")}
    # The whole log of a failing suite was printed when it ended, far
    # above; its last lines again here, where a reader of only the tail
    # of the output (a CI summary) looks.
    for s in done:
        if s.status == "FAIL":
            print("---- %s: last lines of its output" % s.name)
            sys.stdout.write("".join(tail_lines(s.log, RECAP_LINES)))
    if failed:
        print("failed: " + " ".join(failed))
    print("%d passed, %d failed, %d skipped"
          % (counts["PASS"], counts["FAIL"], counts["SKIP"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
