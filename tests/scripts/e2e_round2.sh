#!/bin/sh
# e2e_round2.sh - the second round of players' findings (map, light mode, sound, share links)
# (tests/e2e/round2.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_round2 tests/e2e/round2.test.mjs
