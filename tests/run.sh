#!/bin/sh
# run.sh - runs every test binary given on the command line, then every
# executable tests/scripts/*.sh (CLI checks, integration, browser), and
# prints one closing line "N passed, N failed". Scripts exit 0 (pass),
# 77 (skipped, with their reason on stderr) or anything else (fail).
# Environment: BUILD (build directory), PUZZLED (the binary under test).
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
unit_only=0
if [ "$1" = --unit-only ]; then unit_only=1; shift; fi

passed=0 failed=0 skipped=0 failures=""
run_one() { # run_one NAME COMMAND...
    name=$1; shift
    start=$(date +%s)
    "$@"
    rc=$?
    secs=$(( $(date +%s) - start ))
    case $rc in
    0) passed=$((passed + 1)); echo "== PASS $name (${secs}s)" ;;
    77) skipped=$((skipped + 1)); echo "== SKIP $name (${secs}s)" ;;
    *) failed=$((failed + 1)); failures="$failures $name"
       echo "== FAIL $name (exit $rc, ${secs}s)" ;;
    esac
}

for bin in "$@"; do
    run_one "$(basename "$bin")" "$bin"
done
if [ $unit_only = 0 ]; then
    for script in tests/scripts/*.sh; do
        [ -x "$script" ] || continue
        run_one "$(basename "$script")" "$script"
    done
fi

[ -z "$failures" ] || echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
