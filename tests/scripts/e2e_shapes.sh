#!/bin/sh
# e2e_shapes.sh - the rectangular boards
# (tests/e2e/shapes.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_shapes tests/e2e/shapes.test.mjs
