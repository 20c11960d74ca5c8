#!/bin/sh
# run.sh - the test suite's entry point (make test, make unit, make
# test-tsan): puts the pinned Node.js first on PATH, then hands the
# suites to tests/run.py, which runs them several at a time with a
# timeout each and prints one line per suite and the closing line
# "N passed, N failed, N skipped". Arguments: [--unit-only] BINARY...
# (--unit-only leaves out tests/scripts/*.sh). Environment: BUILD (build
# directory), PUZZLED (the binary under test), and run.py's (JOBS_TEST,
# T, V, TEST_TIMEOUT).
BUILD=${BUILD:-build}
PUZZLED=${PUZZLED:-$BUILD/puzzled}
export BUILD PUZZLED
# The node tools run on the Node.js that npm ci pinned (package.json), not
# on whatever node the machine has: Debian 12's is too old for them. Its
# own directory goes first on PATH, because Debian's npm 9 installs the
# optional node-linux-* package without linking node_modules/.bin/node.
for n in node_modules/node-linux-*/bin/node; do
    if [ -x "$n" ] && "$n" --version >/dev/null 2>&1; then
        PATH="$(pwd)/${n%/node}:$PATH"
        break
    fi
done
export PATH
if ! command -v python3 >/dev/null 2>&1; then
    echo "run.sh: python3 is missing (sh scripts/deps.sh --test installs it)" >&2
    exit 1
fi
exec python3 "$(dirname "$0")/run.py" "$@"
