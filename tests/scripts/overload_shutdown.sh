#!/bin/sh
# overload_shutdown.sh - the essentials of bench/overload.sh at small
# scale, as a process: a queue overflow answered 503 + Retry-After at
# once while /livez stays fast, stalled clients cut off by the timeout,
# and SIGTERM with solves in flight ending in exit 0. About 5 s.
cd "$(dirname "$0")/../.." || exit 1
PUZZLED=${PUZZLED:-build/puzzled} sh bench/overload.sh small >/tmp/$$.out 2>&1
rc=$?
[ $rc = 0 ] || cat /tmp/$$.out >&2
rm -f /tmp/$$.out
exit $rc
