#!/bin/sh
# cli_progress.sh - `puzzled solve`'s live progress line and Ctrl-C: with
# --progress a long 15-puzzle search prints lines with the bound and the
# node counts on stderr; SIGINT stops it cleanly with what is known and
# exit status 3; --quiet prints no progress; a quick solve none either.
PUZZLED=${PUZZLED:-build/puzzled}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cli_progress: $*" >&2; exit 1; }

# Korf's instance 88: minutes of IDA* with linear conflict.
hard="15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4"
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
"$PUZZLED" solve --progress -a idastar -H linear-conflict -g "$goal" \
    "$hard" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1.5   # the search runs and reports for real time before SIGINT:
            # the interrupted report says how far it got
kill -INT $pid
wait $pid
rc=$?
[ $rc = 3 ] || fail "exit status $rc after SIGINT, want 3"
grep -q "^idastar: bound [0-9]*, .* nodes, .* nodes/s, .* s, best -" \
    "$tmp/err" || fail "no progress line: $(cat "$tmp/err")"
grep -q "interrupted after .*the shortest is at least [0-9]* moves" \
    "$tmp/err" || fail "no interrupted report: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "stdout not empty after SIGINT"

# --quiet: no progress line even when forced before it.
"$PUZZLED" solve --progress --quiet -a idastar -H linear-conflict \
    -g "$goal" "$hard" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1     # the run's time in which progress would have been printed
kill -INT $pid
wait $pid
[ $? = 3 ] || fail "--quiet: exit status after SIGINT"
grep -q "nodes/s" "$tmp/err" && fail "--quiet shows progress"

# A quick solve prints no progress line.
"$PUZZLED" solve --progress "8 6 7 2 5 4 3 0 1" >/dev/null 2>"$tmp/err" \
    || fail "quick solve failed"
[ -s "$tmp/err" ] && fail "quick solve wrote to stderr: $(cat "$tmp/err")"
exit 0
