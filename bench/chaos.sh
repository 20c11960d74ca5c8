#!/bin/sh
# chaos.sh - tests/scripts/shared_chaos.sh for longer (issue 42): the
# same instances, Redis, stream of jobs and seeded faults (kill -9 and
# restart of an instance, SIGSTOP of one past its lease, Redis frozen a
# moment, Redis crashed and restarted on its AOF), one every few
# submissions for MINUTES, then the same checks on every job, and the
# figures: jobs accepted, refused and unanswered, done/failed/cancelled,
# how many ran twice (attempts), faults by kind, p50/p99 time from
# submission to end, promises broken. Not in make test.
#   sh bench/chaos.sh [--minutes M] [--instances N] [--seed S]
# (defaults 5, 3, random; the seed is printed: --seed replays the
# schedule). Exits 1 when a promise is broken.
cd "$(dirname "$0")/.." || exit 1
minutes=5 instances=3
while [ $# -gt 0 ]; do
    case $1 in
    --minutes) minutes=$2; shift 2 ;;
    --instances) instances=$2; shift 2 ;;
    --seed) CHAOS_SEED=$2; export CHAOS_SEED; shift 2 ;;
    *) echo "usage: bench/chaos.sh [--minutes M] [--instances N] [--seed S]" >&2
       exit 2 ;;
    esac
done
# Submissions are paced by the service (at most 6 jobs unended), so
# the cap only stops a runaway client.
CHAOS_MINUTES=$minutes CHAOS_INSTANCES=$instances \
    CHAOS_MAX_JOBS=${CHAOS_MAX_JOBS:-100000} exec sh tests/scripts/shared_chaos.sh
