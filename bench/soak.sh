#!/bin/sh
# bench/soak.sh - wrk for DURATION (60 s) at CONNECTIONS (64) on loopback
# with bench/soak.lua's mix of easy and hard 3x3 solves and 4x4 solves,
# and beside it bench/soak_clients.py's hostile clients: SLOW_HEADS (20)
# and SLOW_BODIES (20) sending a byte a second, an abandoned hard 5x5
# solve every ABANDON_S (0.2) s, and a /livez probe every 100 ms.
# Prints req/s, latency percentiles, non-2xx answers (must be 0: the
# queue is sized so nothing is refused), /livez p50/p99 during the soak,
# the server's RSS and open descriptors after a warm-up and at the end,
# and its 408/499 counts; fails when RSS grew by 10% and 4 MB, descriptors
# grew by more than 8, or a /livez probe failed.
# usage: bench/soak.sh  (env: PUZZLED, DURATION=60s, CONNECTIONS=64,
#                        THREADS=2, SLOW_HEADS, SLOW_BODIES, ABANDON_S).
# Bounded: DURATION + about 20 s.
set -u
cd "$(dirname "$0")/.."
. scripts/serve_url.sh
PUZZLED=${PUZZLED:-build/puzzled}
DURATION=${DURATION:-60s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
SLOW_HEADS=${SLOW_HEADS:-20}
SLOW_BODIES=${SLOW_BODIES:-20}
ABANDON_S=${ABANDON_S:-0.2}
for tool in wrk curl python3; do
    command -v $tool >/dev/null 2>&1 || { echo "soak: $tool not found" >&2
                                          exit 1; }
done
[ -x "$PUZZLED" ] || { echo "soak: build $PUZZLED first" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out" "$out.wrk" "$out.clients"
      [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null' EXIT
"$PUZZLED" serve --port 0 --access-log off --queue 1024 \
    --static-root "" >"$out" 2>/dev/null &
pid=$!
url=$(serve_url "$out" "$pid") || true
[ -n "$url" ] || { echo "soak: server did not start" >&2; exit 1; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
fds() { ls "/proc/$pid/fd" | wc -l; }
# Warm-up: arenas reach their working size and the caches fill.
wrk -t"$THREADS" -c"$CONNECTIONS" -d5s -s bench/soak.lua "$url" >/dev/null
rss0=$(rss)
fds0=$(fds)
secs=${DURATION%s}
python3 bench/soak_clients.py "$url" "$secs" "$SLOW_HEADS" "$SLOW_BODIES" \
    "$ABANDON_S" >"$out.clients" &
clients=$!
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency \
    -s bench/soak.lua "$url" >"$out.wrk"
wait "$clients"
sleep 1     # the cut connections' last answers and closes
rss1=$(rss)
fds1=$(fds)
grep -E "^soak:|Latency |Requests/sec" "$out.wrk"
cat "$out.clients"
growth=$(( (rss1 - rss0) * 1000 / rss0 ))
echo "soak: RSS $rss0 kB after warm-up, $rss1 kB at the end" \
     "($(( growth / 10 )).$(( growth % 10 ))% growth)"
echo "soak: open descriptors $fds0 after warm-up, $fds1 at the end"
curl -s "$url/metrics" \
    | grep -E '^puzzled_http_requests_total|^puzzled_queue_rejected'
rc=0
grep -q "non-2xx 0," "$out.wrk" || { echo "soak: FAIL non-2xx answers"; rc=1; }
# On a ~15 MB process glibc's per-thread heaps grow in MB steps that
# then plateau (seen before and after the memory budget work), so a
# growth counts only past 10% and 4 MB both.
[ "$growth" -lt 100 ] || [ $(( rss1 - rss0 )) -lt 4096 ] \
    || { echo "soak: FAIL RSS grew 10% and 4 MB or more"; rc=1; }
[ "$fds1" -le $(( fds0 + 8 )) ] || { echo "soak: FAIL descriptors grew"; rc=1; }
grep -q " 0 failed" "$out.clients" || { echo "soak: FAIL /livez probes failed"
                                        rc=1; }
exit $rc
