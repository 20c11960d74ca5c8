#!/bin/sh
# e2e_round4.sh - the fourth round of players' findings
# (tests/e2e/round4.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_round4 tests/e2e/round4.test.mjs
