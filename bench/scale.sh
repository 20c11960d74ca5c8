#!/bin/sh
# scale.sh - how request throughput grows from one puzzled instance to
# two behind nginx: requests/s of hard 3x3 solves (optimal distance 28 to
# 31) sent by wrk through nginx to one instance, then to two, each
# instance pinned with taskset to its own core and running one worker.
# Prints both rates and their ratio (2.00 would be perfect scaling).
#
# Loopback only; about 2 x (WARMUP + DURATION) seconds of load.
#
# usage: bench/scale.sh     (from anywhere; build first: make)
# environment:
#   PUZZLED      binary under test (default build/puzzled)
#   DURATION     seconds measured per run (default 10)
#   WARMUP       seconds of unmeasured load before each run (default 2)
#   CONNECTIONS  wrk connections (default 8)
#   ALGORITHM, HEURISTIC  of every solve (default astar, manhattan: about
#                a millisecond of solver work, so the solver and not the
#                HTTP path is what is measured; HEURISTIC=pdb, the exact
#                3x3 table, measures the HTTP path instead)
#
# nginx and wrk are not pinned: on a two-core machine they share the
# cores with the instances, so the ratio there is a lower bound of what
# separate machines give.
cd "$(dirname "$0")/.." || exit 1
lb_root=$(pwd)
. tests/ops/lb_lib.sh

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
CONNECTIONS=${CONNECTIONS:-8}
ALGORITHM=${ALGORITHM:-astar}
HEURISTIC=${HEURISTIC:-manhattan}

need() { echo "scale.sh: $*" >&2; exit 1; }
lb_find_nginx || need "nginx is not installed (apt-get install nginx-light)"
command -v wrk >/dev/null 2>&1 || need "wrk is not installed (apt-get install wrk)"
command -v curl >/dev/null 2>&1 || need "curl is not installed"
[ -x "$PUZZLED" ] || need "$PUZZLED not built (run make)"
lb_init scale
# nginx's access log would cost as much as a solve here.
LB_NGINX_ACCESS_LOG=off

# The CPUs this process may use, expanded ("0-2,5" -> "0 1 2 5").
cpus=$(awk '/^Cpus_allowed_list:/ {
    n = split($2, part, ",")
    for (i = 1; i <= n; i++) {
        if (split(part[i], r, "-") == 1) r[2] = r[1]
        for (c = r[1]; c <= r[2]; c++) printf "%d ", c
    }
}' /proc/self/status 2>/dev/null)
cpu_a=$(echo "$cpus" | awk '{ print $1 }')
cpu_b=$(echo "$cpus" | awk '{ print ($2 != "" ? $2 : $1) }')
if command -v taskset >/dev/null 2>&1 && [ -n "$cpu_a" ]; then
    pin_a="taskset -c $cpu_a" pin_b="taskset -c $cpu_b"
    [ "$cpu_a" = "$cpu_b" ] &&
        echo "scale.sh: only one CPU available: both instances share it" >&2
else
    pin_a="" pin_b="" cpu_a="-" cpu_b="-"
    echo "scale.sh: taskset or the CPU list is unavailable: not pinning" >&2
fi

# Hard boards: the exact 3x3 distances 28..31 from a few seeds.
for k in 31 30 29 28; do
    for s in 1 2 3 4; do
        "$PUZZLED" random --size 3 --moves "$k" --seed "$s" || exit 1
    done
done | sort -u >"$lb_tmp/boards"
nboards=$(wc -l <"$lb_tmp/boards")

# wrk script: POST /v1/solve, the boards in turn.
{
    echo 'local bodies = {}'
    while read -r b; do
        printf 'bodies[#bodies + 1] = [[{"board":"%s","algorithm":"%s",' \
            "$b" "$ALGORITHM"
        printf '"heuristic":"%s"}]]\n' "$HEURISTIC"
    done <"$lb_tmp/boards"
    cat <<'EOF'
local i = 0
local headers = { ["Content-Type"] = "application/json" }
request = function()
    i = i % #bodies + 1
    return wrk.format("POST", "/v1/solve", headers, bodies[i])
end
EOF
} >"$lb_tmp/solve.lua"

# Check one solve before measuring, so a typo does not bench 422s.
first=$(head -n 1 "$lb_tmp/boards")

# run LABEL: warm up, then measure; sets rps and prints one line.
run() {
    body=$(printf '{"board":"%s","algorithm":"%s","heuristic":"%s"}' \
           "$first" "$ALGORITHM" "$HEURISTIC")
    out=$(curl -s -H 'Content-Type: application/json' --data-binary "$body" \
          "$lb_nginx_url/v1/solve")
    case $out in *'"status":"solved"'*) ;;
    *) lb_fail "a solve through nginx did not succeed: $out" ;; esac
    wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$lb_tmp/solve.lua" \
        "$lb_nginx_url" >/dev/null 2>&1
    wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$lb_tmp/solve.lua" \
        "$lb_nginx_url" >"$lb_tmp/wrk.$1" 2>&1 || lb_fail "wrk failed"
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$lb_tmp/wrk.$1")
    bad=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$lb_tmp/wrk.$1")
    errs=$(awk '/Socket errors:/ { sub(/.*Socket errors: /, ""); print }' \
           "$lb_tmp/wrk.$1")
    p50=$(awk '$1 == "50%" { print $2 }' "$lb_tmp/wrk.$1")
    p99=$(awk '$1 == "99%" { print $2 }' "$lb_tmp/wrk.$1")
    printf '%-13s %-11s %10s %9s %9s  %s\n' "$1" "$2" "$rps" "$p50" "$p99" \
        "${bad:+non-2xx $bad }${errs:+socket errors: $errs}"
    [ -n "$rps" ] || lb_fail "no Requests/sec in wrk's output"
}

echo "scale.sh: $nboards boards at distance 28-31, $ALGORITHM+$HEURISTIC," \
     "${DURATION}s per run, $CONNECTIONS connections, 1 worker per instance"
# Other work on the machine skews the ratio: say how busy it was.
echo "scale.sh: load average before: $(cut -d' ' -f1-3 /proc/loadavg)," \
     "$(nproc) CPUs usable"
printf '%-13s %-11s %10s %9s %9s\n' setup cpus req/s p50 p99

LB_WRAP=$pin_a
lb_start_puzzled a --workers 1 --http-threads 1
a_port=$lb_port
lb_start_nginx "$a_port"
run "1 instance" "$cpu_a"
one=$rps
lb_stop_nginx

LB_WRAP=$pin_b
lb_start_puzzled b --workers 1 --http-threads 1
b_port=$lb_port
lb_start_nginx "$a_port" "$b_port"
run "2 instances" "$cpu_a,$cpu_b"
two=$rps
lb_stop_nginx

awk -v one="$one" -v two="$two" 'BEGIN {
    printf "scaling ratio (2 instances / 1): %.2f (ideal 2.00)\n", two / one
}'
echo "scale.sh: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
