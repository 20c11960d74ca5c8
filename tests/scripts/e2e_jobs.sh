#!/bin/sh
# e2e_jobs.sh - the lab's long solves as jobs: progress fed by EventSource, Cancel
# (tests/e2e/jobs.test.mjs, set up by tests/e2e/run.sh).
exec "$(dirname "$0")/../e2e/run.sh" e2e_jobs tests/e2e/jobs.test.mjs
