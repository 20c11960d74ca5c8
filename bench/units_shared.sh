#!/bin/sh
# units_shared.sh - a parallel IDA* job's units across instances (issue
# 30) against the same job on one instance: its own redis-server (unix
# socket in a temporary directory), one embedded instance and two
# shared ones on loopback, each with the 5x5 4x6 tables and one job
# worker. Runs the board of tests/scripts/shared_units.sh (64 moves)
# ROUNDS times (default 3) as a job with threads 1 and 2 on the
# embedded instance and threads 2 through the shared pair, and prints
# each job's length, optimality, search time and expansions, then the
# shared instances' unit counters.
#   sh bench/units_shared.sh [ROUNDS]
cd "$(dirname "$0")/.." || exit 1
lb_root=$(pwd)
. tests/ops/lb_lib.sh
rounds=${1:-3}
for t in curl python3 redis-server; do
    command -v $t >/dev/null 2>&1 || { echo "units_shared: no $t" >&2; exit 1; }
done
[ -x "$PUZZLED" ] || { echo "units_shared: $PUZZLED not built (make)" >&2; exit 1; }
lb_init units_shared
cache=${BUILD:-build}/pdb-cache
mkdir -p "$cache"
lb_start_redis "$lb_tmp/redis.sock"
base="--state-dir off --job-workers 1 --workers 1 --pdb-5x5 4x6 --pdb-dir $cache"
# shellcheck disable=SC2086
lb_start_puzzled e $base
e_url=$lb_url
lb_wait_ready "$e_url"
# shellcheck disable=SC2086
lb_start_puzzled a $base --redis-url "unix://$lb_tmp/redis.sock"
a_url=$lb_url
lb_wait_ready "$a_url"
# shellcheck disable=SC2086
lb_start_puzzled b $base --redis-url "unix://$lb_tmp/redis.sock"
b_url=$lb_url
lb_wait_ready "$b_url"

board='12 6 9 3 5 1 0 15 2 20 21 8 14 23 10 11 13 4 18 24 22 16 7 17 19'
job() { # job URL THREADS: "length optimal seconds expanded"
    id=$(curl -s -H 'Content-Type: application/json' --data-binary \
         "{\"board\": \"$board\", \"algorithm\": \"idastar\", \"heuristic\": \"pdb\", \"threads\": $2, \"include_path\": false}" \
         "$1/v1/jobs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    for _ in $(seq 6000); do
        curl -s -o "$lb_tmp/st" "$1/v1/jobs/$id"
        python3 - "$lb_tmp/st" <<'EOF' && return
import json, sys
j = json.load(open(sys.argv[1]))
if j["state"] != "done":
    sys.exit(1)
r = j["result"]
print(r["length"], r["optimal"], r["stats"]["time_us"] / 1e6, r["stats"]["expanded"])
EOF
        sleep 0.05
    done
    echo "job $id did not finish" >&2
}
for _ in $(seq "$rounds"); do
    echo "embedded, 1 thread:              $(job "$e_url" 1)"
    echo "embedded, 2 threads:             $(job "$e_url" 2)"
    echo "shared, 2 threads + other's worker: $(job "$a_url" 2)"
done
for u in "$a_url" "$b_url"; do
    echo "$u: published $(lb_metric "$u" puzzled_shared_units_published_total)," \
         "run $(lb_metric "$u" puzzled_shared_units_run_total)," \
         "claimed $(lb_metric "$u" puzzled_shared_units_claimed_total)"
done
