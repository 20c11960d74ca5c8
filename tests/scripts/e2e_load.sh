#!/bin/sh
# e2e_load.sh - the page loads like an app (issue 45): compression,
# caching and the offline page (tests/e2e/load.test.mjs, set up by
# tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_load tests/e2e/load.test.mjs
