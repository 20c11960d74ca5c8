#!/bin/sh
# openapi_check.sh - lints openapi.yaml with @redocly/cli and validates
# every response the integration tests recorded (test-output/$BUILD/
# responses, written by tests/support/htest.c) against it with Ajv's
# JSON Schema 2020-12 validator. Runs after the test binaries (run.sh).
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
if ! command -v node >/dev/null 2>&1; then
    echo "openapi_check: node is not installed" >&2
    exit 77
fi
if [ ! -x node_modules/.bin/redocly ] || [ ! -d node_modules/ajv ]; then
    echo "openapi_check: node_modules missing; run npm ci" >&2
    exit 77
fi
# No telemetry or update checks: tests never reach the network.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! node_modules/.bin/redocly lint --format=stylish openapi.yaml >"$out" 2>&1
then
    cat "$out" >&2
    echo "openapi_check: redocly lint failed" >&2
    exit 1
fi
# Its warnings, not its success banner: a passing run prints nothing.
grep -i "warning" "$out" | head -5
node tests/openapi/validate.mjs openapi.yaml "test-output/$BUILD/responses"
