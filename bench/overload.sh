#!/bin/sh
# bench/overload.sh - overload, slow clients and shutdown under load on
# loopback (bench/overload.py does the driving and prints the figures):
#  - 3 x (workers + queue) slow solves at once: the excess gets 503 with
#    Retry-After at once, the accepted ones complete, /livez answers in
#    under 50 ms throughout, latency is normal right after;
#  - stalled clients (from 127.0.0.2) are cut off by the connection
#    timeout and real requests are served meanwhile;
#  - SIGTERM with solves in flight: they get answers, new requests are
#    refused, exit status 0 within the grace period.
# usage: bench/overload.sh [small]  (env: PUZZLED, WORKERS=2, QUEUE=4)
# Bounded: about 15 s (small: about 8 s).
set -u
cd "$(dirname "$0")/.."
PUZZLED=${PUZZLED:-build/puzzled}
WORKERS=${WORKERS:-2}
QUEUE=${QUEUE:-4}
SCALE=${1:-full}
CTO=2
GRACE=5000
command -v python3 >/dev/null 2>&1 || { echo "overload: no python3" >&2
                                        exit 77; }
[ -x "$PUZZLED" ] || { echo "overload: build $PUZZLED first" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null' EXIT
"$PUZZLED" serve --port 0 --access-log off --workers "$WORKERS" \
    --queue "$QUEUE" --connection-timeout-s "$CTO" \
    --max-connections-per-ip 64 --shutdown-grace-ms "$GRACE" \
    --static-root "" >"$out" 2>/dev/null &
pid=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's/^listening on http:.*:\([0-9]*\)$/\1/p' "$out")
    [ -n "$port" ] && break
    sleep 0.05
done
[ -n "$port" ] || { echo "overload: server did not start" >&2; exit 1; }
python3 bench/overload.py "$port" "$pid" "$WORKERS" "$QUEUE" "$CTO" \
    "$SCALE"
rc=$?
start=$(date +%s%N)
wait "$pid"
status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
pid=
echo "shutdown: exit status $status, $ms ms after the driver finished" \
     "(grace $GRACE ms)"
[ "$status" = 0 ] && [ "$ms" -lt "$GRACE" ] || rc=1
exit $rc
