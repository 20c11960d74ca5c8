#!/bin/sh
# run.sh - what every browser suite (tests/scripts/e2e_*.sh) stands on:
# checks that Debian's chromium (its headless shell, or the full browser
# where only that is installed), playwright-core and node are there
# (exit 77, skip, with the reason when one is missing; CI installs all
# three: apt-get install chromium-headless-shell; npm ci), then runs the given
# tests/e2e/*.test.mjs files with node's test runner against a real
# `puzzled serve` (tests/e2e/harness.mjs). Screenshots: test-output/e2e/.
# One script per file, so that tests/run.py runs them side by side.
# Usage: tests/e2e/run.sh NAME FILE...   (NAME for the messages)
# Environment: PUZZLED (binary, default build/puzzled), CHROMIUM.
cd "$(dirname "$0")/../.." || exit 1
name=$1; shift

if [ -z "$CHROMIUM" ]; then
    CHROMIUM=/usr/bin/chromium-headless-shell
    [ -x "$CHROMIUM" ] || CHROMIUM=/usr/bin/chromium
fi
PUZZLED=${PUZZLED:-build/puzzled}
export CHROMIUM PUZZLED

if [ ! -x "$CHROMIUM" ]; then
    echo "$name: skipped: $CHROMIUM is missing (apt-get install -y chromium-headless-shell)" >&2
    exit 77
fi
if [ ! -f node_modules/playwright-core/package.json ]; then
    echo "$name: skipped: node_modules/playwright-core is missing (npm ci)" >&2
    exit 77
fi
if ! command -v node >/dev/null 2>&1; then
    echo "$name: skipped: node is not installed" >&2
    exit 77
fi
if [ ! -x "$PUZZLED" ]; then
    echo "$name: $PUZZLED is not built (make)" >&2
    exit 1
fi

mkdir -p test-output/e2e
# tests/run.py times each suite out; this ceiling is for a run by hand.
exec timeout -k 10 600 node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON \
    --test --test-reporter=spec "$@"
