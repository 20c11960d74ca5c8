#!/bin/sh
# bench/http_cpu.sh - server CPU time per request, puzzled beside nginx:
# starts puzzled (its default buffered access log, to a file) and nginx
# serving puzzled's own answer for BOARD as a static file (the same
# bytes, the same buffered log: bench/http_lib.sh), warms each up
# for 2 s, then reads the server's user and kernel time (/proc/PID/stat,
# all its threads; nginx: its workers) around a wrk run and divides by
# the requests wrk completed. Rounds alternate the two servers. CPU time,
# unlike requests/s, is barely moved by other work on a shared machine.
#
# usage: bench/http_cpu.sh [BOARD]   (env: PUZZLED, DURATION=5s,
#                                     CONNECTIONS=64, THREADS=2, ROUNDS=2)
set -eu
cd "$(dirname "$0")/.."
. scripts/serve_url.sh
. bench/http_lib.sh
PUZZLED=${PUZZLED:-build/puzzled}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-2}
BOARD=${1:-8 6 7 2 5 4 3 0 1}
http_bench_init wrk curl nginx python3
"$PUZZLED" serve --bind 127.0.0.1 --port 0 --access-log "$tmp/puzzled.log" \
    >"$tmp/out" 2>"$tmp/err" &
spid=$!
url=$(serve_url "$tmp/out" "$spid") || true
[ -n "$url" ] || { cat "$tmp/err" >&2; exit 1; }
mkdir -p "$tmp/www"
curl -fsS --json "{\"board\": \"$BOARD\"}" "$url/v1/solve" \
    >"$tmp/www/answer.json"
nginx_static "$tmp" "$tmp/www" answer.json || exit 1
npid=$nginx_pid
cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"board": "$BOARD"}'
wrk.headers["Content-Type"] = "application/json"
LUA

# ticks PID...: user and kernel clock ticks of the processes, summed.
ticks() {
    for p in "$@"; do cat "/proc/$p/stat"; done |
        awk '{u += $14; k += $15} END {print u + 0, k + 0}'
}
# measure NAME PIDS URL [wrk args]: one line of per-request figures.
measure() {
    name=$1 pids=$2 target=$3
    shift 3
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s "$@" "$target" >/dev/null
    t0=$(ticks $pids)
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$@" "$target")
    t1=$(ticks $pids)
    n=$(echo "$out" | awk '/requests in/ {print $1}')
    rps=$(echo "$out" | awk '/^Requests\/sec:/ {printf "%.0f", $2}')
    echo "$t0 $t1 $n $(getconf CLK_TCK)" | awk -v s="$name" -v r="$rps" '{
        printf "%-8s %10s %14.2f %14.2f %12.2f\n", s, r,
               ($3 - $1) / $6 * 1e6 / $5, ($4 - $2) / $6 * 1e6 / $5,
               ($3 - $1 + $4 - $2) / $6 * 1e6 / $5 }'
}

echo "board $BOARD; wrk -t$THREADS -c$CONNECTIONS -d$DURATION on loopback," \
     "$ROUNDS rounds; nginx serves the same bytes"
printf '%-8s %10s %14s %14s %12s\n' server "requests/s" "user us/req" \
    "kernel us/req" "total us/req"
for _ in $(seq "$ROUNDS"); do
    measure puzzled "$spid" "$url/v1/solve" -s "$tmp/post.lua"
    measure nginx "$(pgrep -P "$npid" | tr '\n' ' ')" \
        "$nginx_url/answer.json"
done
