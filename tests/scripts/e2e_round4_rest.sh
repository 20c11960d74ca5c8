#!/bin/sh
# e2e_round4_rest.sh - the rest of the fourth round of players' findings
# (tests/e2e/round4-rest.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_round4_rest tests/e2e/round4-rest.test.mjs
