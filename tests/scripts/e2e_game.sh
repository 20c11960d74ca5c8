#!/bin/sh
# e2e_game.sh - the web game in a real browser: play, switch size, phone viewport
# (tests/e2e/game.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_game tests/e2e/game.test.mjs
