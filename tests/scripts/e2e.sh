#!/bin/sh
# e2e.sh - the web game's end-to-end test in a real browser: Debian's
# chromium, driven by playwright-core, against a real `puzzled serve` on a
# loopback port (tests/e2e/game.test.mjs), after the game's pure rules in
# plain node (tests/e2e/board.test.mjs). Screenshots: test-output/e2e/.
# Exits 77 (skip) when chromium or playwright-core is not installed; CI
# installs both (apt-get install chromium; npm ci), so there it always runs.
# Also the rectangular boards (tests/e2e/shapes.test.mjs).
# Environment: PUZZLED (binary, default build/puzzled), CHROMIUM,
# E2E_FILES (which test files; default all).
cd "$(dirname "$0")/../.." || exit 1

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
PUZZLED=${PUZZLED:-build/puzzled}
export CHROMIUM PUZZLED

if [ ! -x "$CHROMIUM" ]; then
    echo "e2e: skipped: $CHROMIUM is missing (apt-get install -y chromium)" >&2
    exit 77
fi
if [ ! -f node_modules/playwright-core/package.json ]; then
    echo "e2e: skipped: node_modules/playwright-core is missing (npm ci)" >&2
    exit 77
fi
if ! command -v node >/dev/null 2>&1; then
    echo "e2e: skipped: node is not installed" >&2
    exit 77
fi
if [ ! -x "$PUZZLED" ]; then
    echo "e2e: $PUZZLED is not built (make)" >&2
    exit 1
fi

mkdir -p test-output/e2e
# E2E_FILES runs only those files (E2E_FILES=tests/e2e/shapes.test.mjs).
FILES=${E2E_FILES:-"tests/e2e/board.test.mjs tests/e2e/game.test.mjs tests/e2e/round2.test.mjs
    tests/e2e/daily.test.mjs tests/e2e/round3.test.mjs tests/e2e/shapes.test.mjs"}
# A hang must not stall the whole test run: the suites take a few minutes
# (more on a loaded machine), so fifteen is a generous ceiling.
if command -v timeout >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    exec timeout -k 10 900 node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON --test --test-reporter=spec $FILES
fi
# shellcheck disable=SC2086
exec node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON --test --test-reporter=spec $FILES
