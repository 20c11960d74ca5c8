#!/bin/sh
# e2e_daily.sh - the daily puzzle and its leaderboard, desktop and phone
# (tests/e2e/daily.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_daily tests/e2e/daily.test.mjs
