#!/bin/sh
# e2e_daily_clock.sh - the daily's server clock: stopped at the last move,
# a lost start retried, a run no start reached entered untimed (issue 45
# defects 1 and 3; tests/e2e/daily-clock.test.mjs, set up by
# tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_daily_clock tests/e2e/daily-clock.test.mjs
