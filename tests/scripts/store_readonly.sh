#!/bin/sh
# store_readonly.sh - issue 29 item 8's first case: a read-only state
# directory holding puzzled.db with the -wal and -shm files a crash left
# (made here by an instance killed with SIGKILL after an entry). An
# instance started on it used to say ready and answer every entry 500;
# now it starts, /readyz is 503 with "store": false and why, the daily
# routes answer 503 unavailable with Retry-After, and solves go on.
# As root the directory is not read-only to puzzled, so it then runs as
# nobody (setpriv). Skipped (77) when neither works.
cd "$(dirname "$0")/../.." || exit 1
. scripts/serve_url.sh
PUZZLED=${PUZZLED:-build/puzzled}
case $PUZZLED in /*) ;; *) PUZZLED=$(pwd)/$PUZZLED ;; esac
[ -x "$PUZZLED" ] || { echo "store_readonly: $PUZZLED not built" >&2; exit 1; }
command -v curl >/dev/null 2>&1 || { echo "store_readonly: no curl" >&2
                                     exit 77; }
as=""
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null 2>&1 || {
        echo "store_readonly: skipped: root without setpriv" >&2; exit 77; }
    as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/puzzled-store-ro.XXXXXX") || exit 1
chmod 755 "$tmp"
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    chmod -R u+w "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "store_readonly: $*" >&2; cat "$tmp/err" >&2 2>/dev/null
         exit 1; }

start() { # start [PREFIX...]: puzzled on $tmp/state, any port
    # Emptied here, not by the background job's redirection, which may
    # come after serve_url has read the last server's "listening on".
    : >"$tmp/out"
    # shellcheck disable=SC2086
    $* "$PUZZLED" serve --bind 127.0.0.1 --port 0 --access-log off \
        --static-root "" --openapi-path "" --pdb none --workers 1 \
        --state-dir "$tmp/state" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    url=$(serve_url "$tmp/out" "$pid") || fail "puzzled did not start"
}

# 1. A store with an entry, and the -wal/-shm of an instance killed.
start
body='{"nickname":"x","moves":["up"],"time_ms":5}'
curl -s -o /dev/null "$url/v1/daily/today/3" || fail "GET daily"
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=""
[ -f "$tmp/state/puzzled.db-wal" ] && [ -f "$tmp/state/puzzled.db-shm" ] ||
    fail "no -wal and -shm left: $(ls "$tmp/state")"
chmod 555 "$tmp/state"
chmod 444 "$tmp/state"/*

# 2. Started on it, where it cannot write.
# shellcheck disable=SC2086
start $as
code=$(curl -s -o "$tmp/ready" -w '%{http_code}' "$url/readyz")
[ "$code" = 503 ] || fail "/readyz on a read-only store: $code $(cat "$tmp/ready")"
grep -q '"store":false' "$tmp/ready" || fail "/readyz: $(cat "$tmp/ready")"
grep -q '"store_error":"[^"]' "$tmp/ready" || fail "/readyz says no why"
code=$(curl -s -D "$tmp/h" -o "$tmp/b" -w '%{http_code}' \
       -H 'Content-Type: application/json' --data-binary "$body" \
       "$url/v1/daily/today/3/entries")
[ "$code" = 503 ] || fail "an entry on a read-only store: $code $(cat "$tmp/b")"
grep -qi '^retry-after:' "$tmp/h" || fail "503 without Retry-After"
grep -q 'problems/unavailable' "$tmp/b" || fail "not unavailable: $(cat "$tmp/b")"
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/v1/daily/today/3")
[ "$code" = 503 ] || fail "GET daily on a read-only store: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
       --data-binary '{"board":"8 6 7 2 5 4 3 0 1","algorithm":"idastar"}' \
       "$url/v1/solve")
[ "$code" = 200 ] || fail "a solve beside a read-only store: $code"
grep -q 'store (embedded) unavailable at start' "$tmp/err" ||
    fail "nothing said on stderr"
echo "store_readonly: ok"
