#!/bin/sh
# bench/soak.sh - wrk for DURATION (60 s) at CONNECTIONS (64) on loopback
# with bench/soak.lua's mix of easy and hard 3x3 solves and 4x4 solves.
# Prints req/s, latency percentiles, non-2xx answers (must be 0: the
# queue is sized so nothing is refused) and the server's RSS at start
# (after a warm-up) and at the end; fails when RSS grew by 10% or more.
# usage: bench/soak.sh  (env: PUZZLED, DURATION=60s, CONNECTIONS=64,
#                        THREADS=2). Bounded: DURATION + about 10 s.
set -u
cd "$(dirname "$0")/.."
PUZZLED=${PUZZLED:-build/puzzled}
DURATION=${DURATION:-60s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
for tool in wrk curl; do
    command -v $tool >/dev/null 2>&1 || { echo "soak: $tool not found" >&2
                                          exit 1; }
done
[ -x "$PUZZLED" ] || { echo "soak: build $PUZZLED first" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out" "$out.wrk"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null' \
    EXIT
"$PUZZLED" serve --port 0 --access-log off --queue 1024 \
    --static-root "" >"$out" 2>/dev/null &
pid=$!
url=
for _ in $(seq 100); do
    url=$(sed -n 's/^listening on \(http:.*\)$/\1/p' "$out")
    [ -n "$url" ] && break
    sleep 0.05
done
[ -n "$url" ] || { echo "soak: server did not start" >&2; exit 1; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
# Warm-up: arenas reach their working size and the caches fill.
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s bench/soak.lua "$url" >/dev/null
rss0=$(rss)
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency \
    -s bench/soak.lua "$url" >"$out.wrk"
rss1=$(rss)
grep -E "^soak:|Latency |Requests/sec" "$out.wrk"
growth=$(( (rss1 - rss0) * 1000 / rss0 ))
echo "soak: RSS $rss0 kB after warm-up, $rss1 kB at the end" \
     "($(( growth / 10 )).$(( growth % 10 ))% growth)"
curl -s "$url/metrics" \
    | grep -E '^puzzled_http_requests_total|^puzzled_queue_rejected'
rc=0
grep -q "non-2xx 0," "$out.wrk" || { echo "soak: FAIL non-2xx answers"; rc=1; }
[ "$growth" -lt 100 ] || { echo "soak: FAIL RSS grew 10% or more"; rc=1; }
exit $rc
