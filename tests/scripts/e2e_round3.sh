#!/bin/sh
# e2e_round3.sh - the third round of players' findings
# (tests/e2e/round3.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_round3 tests/e2e/round3.test.mjs
