#!/bin/sh
# bench/floods_soak.sh - issue 44's floods together against two puzzled
# instances and a redis-server of its own, with a legitimate player in
# the loop (start, play at a person's pace, enter through the other
# instance, see the row): bench/floods_soak.py does the work and says
# what. Prints the player's success rate and /livez p50/p99 on the probe
# ports and the main port; exits 1 when a player's run failed.
# usage: bench/floods_soak.sh  (env: PUZZLED, SOAK_S=120, IDLE=1100,
#                               STARTERS=2, BOTS=1). Bounded: SOAK_S + ~15 s.
set -u
cd "$(dirname "$0")/.."
PUZZLED=${PUZZLED:-build/puzzled}
for tool in python3 redis-server; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "floods_soak: $tool is not installed" >&2; exit 77; }
done
[ -x "$PUZZLED" ] || { echo "floods_soak: $PUZZLED not built" >&2; exit 1; }
# The idle sockets and the flood's own need descriptors.
ulimit -n 8192 2>/dev/null || ulimit -n 4096 2>/dev/null || true
exec python3 bench/floods_soak.py "$PUZZLED"
