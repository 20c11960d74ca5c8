# wait.sh - the one poll loop of the test scripts (the C tests' is
# tests/support/wait.c): a script waits on what it needs, never for a
# guessed time. Source it; POSIX sh (GNU date for milliseconds).
#
#   wait_until MS CMD [ARGS...]   runs CMD until it succeeds or MS
#                                 milliseconds of real time pass; returns
#                                 CMD's last status (0 once it held);
#                                 MS stretches with TEST_TIMEOUT_SCALE
#                                 (tests/run.py's: 4 under sanitizers,
#                                 whose servers answer several times
#                                 slower)

# WAIT_SCALE: TEST_TIMEOUT_SCALE as a whole number >= 1, for the
# scripts' own bounds too.
WAIT_SCALE=${TEST_TIMEOUT_SCALE:-1}
WAIT_SCALE=${WAIT_SCALE%%.*}
[ "$WAIT_SCALE" -ge 1 ] 2>/dev/null || WAIT_SCALE=1

wait_until() {
    _wu_end=$(( $(date +%s%3N) + $1 * WAIT_SCALE ))
    shift
    while :; do
        "$@" && return 0
        [ "$(date +%s%3N)" -lt "$_wu_end" ] || { "$@"; return; }
        # The poll's pause: what CMD looks for has no signal a shell can
        # block on (another process moves it).
        sleep 0.05
    done
}
