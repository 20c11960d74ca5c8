#!/bin/sh
# http_readme_examples.sh - copy-pastes the curl examples of README.md's
# "Using the API" section, and of docs/api.md's, against the server exactly as `make run` starts
# it (`puzzled serve --config config/puzzled.conf`, run from the
# repository root, so the same defaults), and checks every answer is as
# shown. Four things differ from `make run`, and none changes an answer:
# port 0 (the config's 8080 may be taken), a state directory of its own
# (so the daily example's leaderboard is empty), a pdb_budget of 64m, so
# that pdb_5x5 = auto builds the small 4x6z2 pair (seconds) and not
# 6-6-6-6z2 (1.17 GB, minutes: make test builds no large tables), and
# the tables from the build's cache ($BUILD/pdb-cache, where the unit
# suites keep the same files: the same format, built by the same code)
# rather than pdb-cache/, which a clean clone's make test then filled
# again (~14 CPU-s). The pattern databases load, or build, in the
# background as on a first start; the examples run once /readyz says
# the 4x4 tables are in. None needs the rectangles' or the 24-puzzle's tables, which
# take longer (an example that did would be marked in the README and
# skipped by readme-examples.mjs, saying why).
# Also checks `curl -d`, curl's default content type, against the server.
cd "$(dirname "$0")/../.." || exit 1
. scripts/serve_url.sh
PUZZLED=${PUZZLED:-build/puzzled}
for tool in curl node; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not installed" >&2
                                          exit 77; }
done
[ -x "$PUZZLED" ] || { echo "$PUZZLED not built" >&2; exit 1; }
tmp=$(mktemp -d)
"$PUZZLED" serve --config config/puzzled.conf --port 0 \
    --state-dir "$tmp/state" --pdb-budget 64m \
    --pdb-dir "${BUILD:-build}/pdb-cache" >"$tmp/out" 2>"$tmp/err" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
url=$(serve_url "$tmp/out" "$pid" 30) || true
[ -n "$url" ] || { cat "$tmp/err" >&2; echo "server did not start" >&2
                   exit 1; }

# A first start builds the 4x4 tables in the background (15-40 s on two
# busy cores, the 24-puzzle's build beside it); a later one loads them at
# once. The wait allows for a slow first start under a sanitizer.
ready() {
    curl -s "$url/readyz" | node -e '
        let s = ""; process.stdin.on("data", (d) => { s += d; });
        process.stdin.on("end", () => {
            const c = JSON.parse(s).checks;
            process.exit(c.pdb.state === "ready" ? 0 : 1);
        });' 2>/dev/null
}
tries=0
until ready; do
    tries=$((tries + 1))
    [ $tries -lt 180 ] || { echo "4x4 tables not ready in 90 s" >&2
                            curl -s "$url/readyz" >&2; exit 1; }
    kill -0 $pid 2>/dev/null || { cat "$tmp/err" >&2; exit 1; }
    # A poll, coarser than wait_until's (tests/ops/wait.sh): each look
    # starts node, and a build of a minute needs no finer one.
    sleep 0.5
done

rc=0
# curl -d sends application/x-www-form-urlencoded: JSON is read as JSON...
st=$(curl -s -o "$tmp/body" -w '%{http_code}' \
     -d '{"board": "1 2 3 4 5 6 7 0 8"}' "$url/v1/solve")
if [ "$st" != 200 ] || ! grep -q '"length":1' "$tmp/body"; then
    echo "curl -d with JSON: $st $(cat "$tmp/body")" >&2; rc=1
fi
# ...and a real form body, or a type that cannot be JSON, is a 415.
st=$(curl -s -o "$tmp/body" -w '%{http_code}' \
     -d 'board=1+2+3+4+5+6+7+0+8' "$url/v1/solve")
[ "$st" = 415 ] || { echo "curl -d with a form: $st, expected 415" >&2; rc=1; }
st=$(curl -s -o "$tmp/body" -w '%{http_code}' -H 'Content-Type: text/html' \
     -d '{"board": "1 2 3 4 5 6 7 0 8"}' "$url/v1/solve")
[ "$st" = 415 ] || { echo "text/html: $st, expected 415" >&2; rc=1; }

node tests/openapi/readme-examples.mjs "$url" README.md || rc=1
# docs/api.md: the same examples' longer companion, every route.
node tests/openapi/readme-examples.mjs "$url" docs/api.md || rc=1
kill -TERM $pid
wait $pid || { echo "server exit status $?" >&2; rc=1; }
exit $rc
