#!/bin/sh
# e2e_jobs.sh - the lab's long solves as jobs in a real browser
# (tests/e2e/jobs.test.mjs): progress bar fed by EventSource, Cancel.
# Skips (77) like e2e.sh when chromium, playwright-core or node is missing.
cd "$(dirname "$0")/../.." || exit 1
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
PUZZLED=${PUZZLED:-build/puzzled}
export CHROMIUM PUZZLED
[ -x "$CHROMIUM" ] || { echo "e2e_jobs: skipped: no $CHROMIUM" >&2; exit 77; }
[ -f node_modules/playwright-core/package.json ] \
    || { echo "e2e_jobs: skipped: no playwright-core" >&2; exit 77; }
command -v node >/dev/null 2>&1 || { echo "e2e_jobs: skipped: no node" >&2
                                     exit 77; }
[ -x "$PUZZLED" ] || { echo "e2e_jobs: $PUZZLED is not built" >&2; exit 1; }
mkdir -p test-output/e2e
exec timeout -k 10 120 node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON \
    --test --test-reporter=spec tests/e2e/jobs.test.mjs
