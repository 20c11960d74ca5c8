#!/bin/sh
# e2e_board.sh - the game's pure rules in plain node, no browser
# (tests/e2e/board.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_board tests/e2e/board.test.mjs
