#!/bin/sh
# e2e_contrast.sh - the third round's defects 1 and 2, the contrast sweep
# (tests/e2e/contrast-sweep.test.mjs, set up by tests/e2e/run.sh): a
# suite of its own so that it runs beside the rest of e2e_round3.
exec "$(dirname "$0")/../e2e/run.sh" e2e_contrast tests/e2e/contrast-sweep.test.mjs
