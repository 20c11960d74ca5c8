#!/bin/sh
# http_readme_examples.sh - copy-pastes the curl examples of the README's
# "Using the API" section (README.md once merged, else
# README.md) against a real `puzzled serve` started with
# the shipped config/puzzled.conf, and checks every answer is as shown.
cd "$(dirname "$0")/../.." || exit 1
. scripts/serve_url.sh
PUZZLED=${PUZZLED:-build/puzzled}
for tool in curl node; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not installed" >&2
                                          exit 77; }
done
[ -x "$PUZZLED" ] || { echo "$PUZZLED not built" >&2; exit 1; }
tmp=$(mktemp -d)
# A store of its own, so the daily example's leaderboard is empty.
# The job list example runs as the README says: with anonymous listing on.
# The 4x4 tables are loaded before it listens (not in the background), so
# that the examples see them whether or not pdb-cache/ holds them yet.
"$PUZZLED" serve --config config/puzzled.conf --port 0 --access-log off \
    --state-dir "$tmp/state" --jobs-list-anonymous 1 --pdb-5x5 off \
    --pdb-rect 0 --pdb-background 0 \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
url=$(serve_url "$tmp/out" "$pid") || true
[ -n "$url" ] || { cat "$tmp/err" >&2; echo "server did not start" >&2
                   exit 1; }
node tests/openapi/readme-examples.mjs "$url" README.md \
    README.md
rc=$?
kill -TERM $pid
wait $pid || { echo "server exit status $?" >&2; rc=1; }
exit $rc
