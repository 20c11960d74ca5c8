#!/bin/sh
# http_serve_cli.sh - `puzzled serve` as a process: --help, the
# "listening on" line with --port 0, PUZZLED_* environment, one clear
# line and a non-zero exit for a taken port or bad configuration, and
# SIGTERM/SIGINT with a solve in flight (it still gets its answer, the
# exit status is 0). Loopback only.
cd "$(dirname "$0")/../.." || exit 1
. scripts/serve_url.sh
. tests/ops/wait.sh
PUZZLED=${PUZZLED:-build/puzzled}
tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "http_serve_cli: $*" >&2; exit 1; }

command -v curl >/dev/null 2>&1 || { echo "curl not installed" >&2; exit 77; }
[ -x "$PUZZLED" ] || fail "$PUZZLED not built"

# start NAME ARGS...: run puzzled serve in the background, wait for its
# "listening on" line, set $url and $pid.
start() {
    name=$1; shift
    "$PUZZLED" serve --access-log off "$@" >"$tmp/$name.out" \
        2>"$tmp/$name.err" &
    pid=$!
    pids="$pids $pid"
    url=$(serve_url "$tmp/$name.out" "$pid" 5) && return 0
    cat "$tmp/$name.err" >&2
    fail "$name: no 'listening on' line"
}

# expect_fail STATUS NEEDLE ARGS...: exits STATUS with one stderr line
# containing NEEDLE.
expect_fail() {
    want=$1 needle=$2; shift 2
    "$PUZZLED" serve --access-log off "$@" >/dev/null 2>"$tmp/err" &
    p=$!
    pids="$pids $p"
    wait "$p"
    got=$?
    [ "$got" = "$want" ] || fail "serve $*: exit $got, wanted $want"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "serve $*: not one line: \
$(cat "$tmp/err")"
    grep -q -- "$needle" "$tmp/err" || fail "serve $*: '$(cat "$tmp/err")' \
lacks '$needle'"
}

# --help lists the flags and their environment twins.
"$PUZZLED" serve --help >"$tmp/help" || fail "--help exit status"
for word in --bind --port --workers --queue --config PUZZLED_BIND \
        PUZZLED_PORT PUZZLED_WORKERS PUZZLED_QUEUE PUZZLED_CONFIG \
        --max-body-bytes --cors-origins --static-root; do
    grep -q -- "$word" "$tmp/help" || fail "--help does not mention $word"
done

# Port 0 picks a free port and says which.
start first --port 0 --workers 1 --queue 4
first_pid=$pid first_url=$url
echo "$url" | grep -Eq '^http://127\.0\.0\.1:[0-9]+$' || fail "url $url"
port=${url##*:}
[ "$port" != 0 ] || fail "port 0 was printed"
# grep reads all curl sends (grep -q would stop at the match and curl
# say "(23) Failed writing body" in a passing run).
curl -fsS "$url/livez" | grep '"ok"' >/dev/null || fail "/livez"

# A taken port, bad values, unknown flags, a missing config file.
expect_fail 1 "Address already in use" --port "$port"
expect_fail 2 "queue" --queue 0
expect_fail 2 "unknown option '--colour'" --colour blue
expect_fail 2 "cannot read config file" --config "$tmp/missing.conf"
expect_fail 1 "not a numeric IPv4 or IPv6" --bind localhost --port 0
PUZZLED_PORT=http expect_fail 2 "PUZZLED_PORT"
printf 'port = 0\nqueue = lots\n' >"$tmp/bad.conf"
expect_fail 2 "bad.conf:2: queue" --config "$tmp/bad.conf"

# The environment configures it too (and flags win over it).
PUZZLED_PORT=0 PUZZLED_WORKERS=1 PUZZLED_QUEUE=3 start env
curl -fsS "$url/metrics" | grep '^puzzled_queue_capacity 3$' >/dev/null \
    || fail "PUZZLED_QUEUE not applied"
curl -fsS "$url/metrics" | grep '^puzzled_workers 1$' >/dev/null \
    || fail "PUZZLED_WORKERS not applied"
kill -INT "$pid"
wait "$pid" || fail "SIGINT: exit status $?"

# SIGTERM with a solve in flight: it is answered, then exit 0.
slow='{"board": "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", "algorithm":
 "idastar", "heuristic": "misplaced", "limits": {"timeout_ms": 1500,
 "max_nodes": 1000000000000}}'
curl -sS --max-time 20 --json "$slow" "$first_url/v1/solve" \
    >"$tmp/slow.json" 2>&1 &
cpid=$!
busy() { curl -s "$first_url/metrics" | grep -q '^puzzled_workers_busy 1$'; }
wait_until 5000 busy    # the solve in flight (1.5 s of it) at SIGTERM
kill -TERM "$first_pid"
wait "$cpid" || fail "in-flight request failed: $(cat "$tmp/slow.json")"
grep -q '"status":"timeout"' "$tmp/slow.json" \
    || fail "in-flight request got: $(cat "$tmp/slow.json")"
wait "$first_pid" || fail "SIGTERM: exit status $?"
grep -q "SIGTERM received" "$tmp/first.err" || fail "no drain notice"
echo "http_serve_cli: ok"
