#!/bin/sh
# shared_chaos.sh - the shared jobs' promises under faults (issue 42):
# CHAOS_INSTANCES (3) puzzled instances on one redis-server of the
# test's own (AOF on, as deploy/k8s/redis.yaml), a stream of jobs from
# tests/ops/chaos.py (quick 3x3 and 4x4 solves, some with an
# Idempotency-Key retried through another instance, some cancelled)
# while a seeded random schedule of faults hits them, each kind at
# least once: kill -9 of an instance (then started again on its port),
# SIGSTOP of an instance past --job-lease-ms (then SIGCONT), SIGSTOP of
# Redis for a moment, a Redis crash and restart (its AOF kept). Faults
# come every few submissions (a condition, not a time). Then, on every
# accepted job: one end state (done/failed/cancelled), the same bytes
# through every instance, one final event in its stream; every done
# solve's length is the CLI's own BFS (3x3) or A* (4x4) length; a
# retried key named one job; every /readyz ready again. The seed is
# printed: CHAOS_SEED=N replays the schedule (the interleaving with
# real time differs). CHAOS_FAULTS (6) faults; CHAOS_MINUTES, when set,
# keeps faults coming (one every few submissions) that long instead
# (bench/chaos.sh). Skipped (77) only when redis-server is not installed.
cd "$(dirname "$0")/../.." || exit 1
lb_root=$(pwd)
. tests/ops/lb_lib.sh
. tests/ops/wait.sh

lb_require shared_chaos curl python3 redis-server redis-cli
lb_init shared_chaos

seed=${CHAOS_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
n=${CHAOS_INSTANCES:-3}
faults=${CHAOS_FAULTS:-6}
lease=1500
echo "shared_chaos: CHAOS_SEED=$seed, $n instances, lease $lease ms"
python3 tests/ops/chaos.py truth "$lb_tmp" "$PUZZLED" "$seed" ||
    lb_fail "no truth for the boards"

sock=$lb_tmp/redis.sock
start_redis() { lb_start_redis "$sock"; redis_pid=$lb_redis_pid; }
start_redis

# start I [PORT]: instance I (its url in uI, pid in pI), on PORT when
# given: a restarted instance keeps its address, as behind a balancer.
start() {
    # shellcheck disable=SC2086
    lb_start_puzzled "i$1" --redis-url "unix://$sock" \
        --redis-timeout-ms 300 --state-dir off --job-workers 1 \
        --workers 1 --job-lease-ms $lease ${2:+--port $2}
    eval "u$1=\$lb_url p$1=\$lb_pid"
}
urls=""
for i in $(seq "$n"); do
    start "$i"
    eval "urls=\"\$urls \$u$i\""
done
for u in $urls; do lb_wait_ready "$u" "did not become ready"; done

# shellcheck disable=SC2086
python3 tests/ops/chaos.py submit "$lb_tmp" "$seed" $urls \
    >"$lb_tmp/submit.err" 2>&1 &
sub_pid=$!
lb_pids="$lb_pids $sub_pid"

submitted() { cat "$lb_tmp/submitted" 2>/dev/null || echo 0; }
reached() { [ "$(submitted)" -ge "$1" ] || ! kill -0 "$sub_pid" 2>/dev/null; }

# The schedule: the four kinds shuffled, then kinds at random; each on
# a random instance, after a random 3-8 more submissions.
awk -v seed="$seed" -v n="$faults" -v inst="$n" 'BEGIN {
    srand(seed); split("kill9 stop redis_stop redis_restart", k, " ")
    for (i = 4; i > 1; i--) { j = int(rand() * i) + 1; t = k[i]; k[i] = k[j]; k[j] = t }
    for (i = 1; i <= 2000; i++)
        print (i <= 4 ? k[i] : k[int(rand() * 4) + 1]), int(rand() * inst) + 1, 3 + int(rand() * 6)
}' >"$lb_tmp/schedule"

# busy_from I: the first instance from I on (round) running a job now,
# else I: a fault on an instance is worth most while it runs a job.
busy_from() {
    for k in $(seq 0 $((n - 1))); do
        j=$(( ($1 - 1 + k) % n + 1 ))
        eval "bu=\$u$j"
        [ "$(lb_metric "$bu" puzzled_shared_jobs_running)" -ge 1 ] 2>/dev/null &&
            { echo "$j"; return; }
    done
    echo "$1"
}

# leases: every running job's lease and its holder's token. A lease
# held by another token later is a takeover: leases of live runners are
# renewed, never changed, and an ended job's lease is deleted.
rcli() { redis-cli -s "$sock" "$@"; }
leases() {
    for k in $(rcli --scan --pattern 'puzzled:job:*:lease' 2>/dev/null); do
        echo "$k $(rcli GET "$k")"
    done
}
taken_over() {
    while read -r k tok; do
        now=$(rcli GET "$k")
        [ -n "$now" ] && [ "$now" != "$tok" ] && return 0
    done <"$lb_tmp/leases"
    return 1
}

fault() { # fault KIND INSTANCE
    case $1 in kill9|stop) set -- "$1" "$(busy_from "$2")" ;; esac
    eval "pid=\$p$2 url=\$u$2"
    case $1 in
    kill9)
        kill -9 "$pid"; wait "$pid" 2>/dev/null; lb_forget "$pid"
        cat "$lb_tmp/i$2.err" >>"$lb_tmp/instances.log"
        start "$2" "${url##*:}"
        lb_wait_ready "$url" "not ready after its restart" ;;
    stop)
        busy=$(lb_metric "$url" puzzled_shared_jobs_running)
        leases >"$lb_tmp/leases"
        kill -STOP "$pid"
        sleep $(( lease / 1000 + 1 ))  # the fault itself: stopped past
                                       # its lease (a frozen VM)
        # and, when it ran a job, until another instance runs it again
        # (the lease, the retry delay and a claim round: ~4 s; a lease
        # of the snapshot held by another token), so the stopped run
        # wakes to a job taken over.
        took=idle
        if [ "$busy" -ge 1 ] 2>/dev/null; then
            took="not taken over"
            wait_until 8000 taken_over && took="taken over"
        fi
        kill -CONT "$pid"
        echo "shared_chaos: i$2 stopped ($took)" ;;
    redis_stop)
        kill -STOP "$redis_pid"
        sleep 0.5  # the fault itself: Redis frozen a moment
        kill -CONT "$redis_pid" ;;
    redis_restart)
        kill -9 "$redis_pid"; wait "$redis_pid" 2>/dev/null
        lb_forget "$redis_pid"
        start_redis ;;
    esac
    echo "$1 i$2" >>"$lb_tmp/faults"
}

start_s=$(date +%s)
deadline=$(( start_s + ${CHAOS_MINUTES:-0} * 60 ))
at=0 done_faults=0
while read -r kind inst gap; do
    if [ -n "${CHAOS_MINUTES:-}" ]; then
        [ "$(date +%s)" -lt "$deadline" ] || break
    else
        [ "$done_faults" -lt "$faults" ] || break
    fi
    at=$((at + gap))
    wait_until $((120000 * WAIT_SCALE)) reached "$at" ||
        lb_fail "the client submitted $(submitted) of $at jobs in 2 min"
    kill -0 "$sub_pid" 2>/dev/null ||
        lb_fail "the client stopped: $(tail -n 20 "$lb_tmp/submit.err")"
    fault "$kind" "$inst"
    done_faults=$((done_faults + 1))
done <"$lb_tmp/schedule"
# A few submissions after the last fault, then the stream stops.
wait_until $((60000 * WAIT_SCALE)) reached $((at + 5)) || :
: >"$lb_tmp/stop"
wait "$sub_pid" || lb_fail "the client failed: $(tail -n 20 "$lb_tmp/submit.err")"
lb_forget "$sub_pid"
echo "shared_chaos: faults in order: $(tr "\n" " " <"$lb_tmp/faults")"
echo "shared_chaos: faults $(cut -d' ' -f1 "$lb_tmp/faults" | sort | uniq -c | awk '{ printf "%s %s, ", $2, $1 }')in $(( $(date +%s) - start_s )) s"

for u in $urls; do lb_wait_ready "$u" "not ready after the faults ended"; done
# shellcheck disable=SC2086
WAIT_SCALE=$WAIT_SCALE python3 tests/ops/chaos.py check "$lb_tmp" "$sock" \
    $urls || lb_fail "a promise is broken (CHAOS_SEED=$seed replays)"
# Sanitizer builds (make test-asan): what the instances said, the lives
# ended by kill -9 included, has no report.
for i in $(seq "$n"); do eval "lb_stop_puzzled \$p$i"; done
cat "$lb_tmp"/i*.err >>"$lb_tmp/instances.log"
! grep -E 'ERROR: [A-Za-z]+Sanitizer|runtime error:' \
    "$lb_tmp/instances.log" ||
    lb_fail "a sanitizer report (above)"
echo "shared_chaos: ok"
