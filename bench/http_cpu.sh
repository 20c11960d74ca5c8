#!/bin/sh
# bench/http_cpu.sh - server CPU time per request: starts puzzled, warms
# up for 2 s, then reads the process's user and kernel time
# (/proc/PID/stat) and its count of 200 answers (/metrics) around a wrk
# run, and prints microseconds per request. CPU time, unlike requests/s,
# is barely moved by other work on a shared machine.
#
# usage: bench/http_cpu.sh [BOARD]   (env: PUZZLED, DURATION=10s,
#                                     CONNECTIONS=64, THREADS=2)
set -eu
cd "$(dirname "$0")/.."
PUZZLED=${PUZZLED:-build/puzzled}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
BOARD=${1:-8 6 7 2 5 4 3 0 1}
for tool in wrk curl; do
    command -v $tool >/dev/null 2>&1 || { echo "bench: $tool not found" >&2
                                          exit 1; }
done
tmp=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
"$PUZZLED" serve --bind 127.0.0.1 --port 0 --access-log off \
    >"$tmp/out" 2>"$tmp/err" &
spid=$!
url=
for _ in $(seq 200); do
    url=$(sed -n 's/^listening on \(http:.*\)$/\1/p' "$tmp/out")
    [ -n "$url" ] && break
    sleep 0.05
done
[ -n "$url" ] || { cat "$tmp/err" >&2; exit 1; }
cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"board": "$BOARD"}'
wrk.headers["Content-Type"] = "application/json"
LUA
served() {
    curl -fsS "$url/metrics" | awk '/^puzzled_http_requests_total\{route="\/v1\/solve",code="200"\}/ {print $2}'
}
ticks() { awk '{print $14 + 0, $15 + 0}' "/proc/$spid/stat"; }
wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$tmp/post.lua" "$url/v1/solve" \
    >/dev/null
t0=$(ticks) n0=$(served)
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$tmp/post.lua" \
    "$url/v1/solve" | awk '/^Requests\/sec:/ {print "requests/s", $2}'
t1=$(ticks) n1=$(served)
hz=$(getconf CLK_TCK)
echo "$t0 $t1 $n0 $n1 $hz" | awk '{
    n = $6 - $5
    printf "requests %d  user %.1f us/request  kernel %.1f us/request\n",
           n, ($3 - $1) / $7 * 1e6 / n, ($4 - $2) / $7 * 1e6 / n }'
