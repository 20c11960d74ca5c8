#!/bin/sh
# k8s_manifests.sh - deploy/k8s/ is valid YAML and agrees with the server:
# probe paths answer 200 from a real puzzled started with the ConfigMap's
# config (loopback, any free port), ports, CPU/workers, memory and the
# drain time match, the 7-8 and 5x5 overlays' memory covers the tables
# and their build (docs/operations.md's figures) and their init commands
# work, and
# docs/operations.md names every setting and metric. The checks
# live in tests/ops/k8s_check.mjs (node + the yaml package of
# package.json). Skipped (77) only when node or node_modules is missing.
cd "$(dirname "$0")/../.." || exit 1
PUZZLED=${PUZZLED:-build/puzzled}
export PUZZLED

if ! command -v node >/dev/null 2>&1; then
    echo "k8s_manifests: skipped: node is not installed" >&2
    exit 77
fi
if [ ! -f node_modules/yaml/package.json ]; then
    echo "k8s_manifests: skipped: node_modules/yaml missing (run npm ci)" >&2
    exit 77
fi
[ -x "$PUZZLED" ] || { echo "k8s_manifests: $PUZZLED not built" >&2; exit 1; }
exec node tests/ops/k8s_check.mjs
