#!/bin/sh
# http_signals.sh - `puzzled serve` and its signals (issue 15, item 8):
# SIGHUP and SIGUSR1 reopen the access log after it was moved away (the
# server keeps running and logs into the new file), SIGUSR2 is ignored,
# and at SIGTERM the solves still waiting in the queue are answered 503
# at once instead of after the running one (or the grace period).
# About 3 s.
cd "$(dirname "$0")/../.." || exit 1
. scripts/serve_url.sh
. tests/ops/wait.sh
PUZZLED=${PUZZLED:-build/puzzled}
command -v curl >/dev/null 2>&1 || { echo "http_signals: no curl" >&2
                                     exit 77; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "http_signals: FAIL: $*" >&2; exit 1; }

"$PUZZLED" serve --port 0 --workers 1 --queue 4 --pdb none \
    --shutdown-grace-ms 8000 --access-log "$tmp/access.log" \
    --static-root "" >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=$(serve_url "$tmp/out" "$pid") || true
[ -n "$url" ] || fail "server did not start: $(cat "$tmp/err")"

# Log rotation: move the file, signal, the next line lands in a new one.
# livez_done N: the server has completed N /livez requests. A request's
# line is logged when it completes, a moment after the client has its
# answer: the file is moved only once the "before" line is logged (held
# in the buffer or written), else it could land in the new file (seen
# once at load 17).
livez_done() {
    curl -s "$url/metrics" |
        grep -q "^puzzled_http_requests_total{route=\"/livez\",code=\"200\"} $1\$"
}
n=0
for sig in HUP USR1; do
    curl -s -o /dev/null -H "X-Request-Id: before-$sig" "$url/livez"
    n=$((n + 1))
    wait_until 5000 livez_done "$n" || fail "$sig: the request was not completed"
    mv "$tmp/access.log" "$tmp/access.log.$sig"
    kill -$sig "$pid"
    wait_until 5000 grep -q "SIG$sig received: access log reopened" "$tmp/err"
    kill -0 "$pid" 2>/dev/null || fail "SIGHUP/SIGUSR1 killed the server"
    curl -s -o /dev/null -H "X-Request-Id: after-$sig" "$url/livez"
    n=$((n + 1))
    # Lines are written within access_log_flush_ms (100 ms) of the first
    # one held; the line held at the signal goes to the old file.
    wait_until 2000 grep -q "after-$sig" "$tmp/access.log"
    grep -q "before-$sig" "$tmp/access.log.$sig" \
        || fail "$sig: the old file lost its line"
    grep -q "after-$sig" "$tmp/access.log" 2>/dev/null \
        || fail "$sig: no new access log file after the signal"
done
kill -USR2 "$pid"
sleep 0.2   # lets the kernel deliver it: a default action (the end of
            # the process) would be taken asynchronously, after kill
kill -0 "$pid" 2>/dev/null || fail "SIGUSR2 killed the server"

# One solve runs for 3 s on the only worker; three more wait.
slow='{"board":"4 11 3 6 13 15 12 8 5 14 7 2 10 0 9 1","algorithm":"idastar",
"heuristic":"misplaced","limits":{"timeout_ms":3000}}'
held() { # held N: one solve running, N waiting
    curl -s "$url/metrics" >"$tmp/metrics"
    grep -q '^puzzled_workers_busy 1$' "$tmp/metrics" &&
        grep -q "^puzzled_queue_depth $1\$" "$tmp/metrics"
}
# Each answer's code and the moment it came (s since the epoch).
for i in 1 2 3 4; do
    { curl -s -o /dev/null -w '%{http_code} ' \
          -H 'Content-Type: application/json' -d "$slow" "$url/v1/solve"
      date +%s.%N; } >"$tmp/solve.$i" &
    wait_until 5000 held $((i - 1))     # in order: the first runs
done
term=$(date +%s.%N)
kill -TERM "$pid"
wait %1 %2 %3 %4 2>/dev/null
wait "$pid"
status=$?
pid=
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
# The first got its answer (200 with a timeout status); the queued
# three their 503 within a second and a half of SIGTERM, not after the
# 3 s solve (counted from the signal: from the request, the wait for the
# others to queue counted too, 1.7 s at load 18).
read -r code at <"$tmp/solve.1"
[ "$code" = 200 ] || fail "running solve answered $code"
for i in 2 3 4; do
    read -r code at <"$tmp/solve.$i"
    [ "$code" = 503 ] || fail "queued solve $i answered $code"
    secs=$(awk -v a="$at" -v t="$term" 'BEGIN { printf "%.3f", a - t }')
    awk -v s="$secs" 'BEGIN { exit !(s < 1.5) }' \
        || fail "queued solve $i waited $secs s for its 503"
done
grep -q "SIGHUP received: access log reopened" "$tmp/err" \
    || fail "no log line for SIGHUP"
echo "http_signals: ok"
