#!/bin/sh
# bench/http_instr.sh - instructions per /v1/solve request, by phase:
# runs `puzzled serve` under callgrind, warms up, zeroes the counters,
# drives it with wrk for a while, dumps, and divides each phase's
# inclusive count by the requests wrk completed. Instruction counts do
# not move with the machine's load, so before/after comparisons hold on a
# shared machine (unlike requests/s). Needs valgrind and wrk.
#
# usage: bench/http_instr.sh [BOARD]   (env: PUZZLED, DURATION=10s,
#                                       CONNECTIONS=4, OUT=callgrind file)
set -eu
cd "$(dirname "$0")/.."
. scripts/serve_url.sh
PUZZLED=${PUZZLED:-build/puzzled}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-4}
BOARD=${1:-8 6 7 2 5 4 3 0 1}
for tool in wrk curl valgrind callgrind_control callgrind_annotate; do
    command -v $tool >/dev/null 2>&1 || { echo "bench: $tool not found" >&2
                                          exit 1; }
done
tmp=$(mktemp -d)
OUT=${OUT:-$tmp/callgrind.out}
spid=
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
valgrind --tool=callgrind --callgrind-out-file="$OUT" \
    "$PUZZLED" serve --bind 127.0.0.1 --port 0 --access-log off \
    --workers 1 >"$tmp/out" 2>"$tmp/err" &
spid=$!
url=$(serve_url "$tmp/out" "$spid" 60) || true
[ -n "$url" ] || { cat "$tmp/err" >&2; exit 1; }
cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"board": "$BOARD"}'
wrk.headers["Content-Type"] = "application/json"
LUA
wrk -t1 -c"$CONNECTIONS" -d2s -s "$tmp/post.lua" "$url/v1/solve" >/dev/null
callgrind_control -z "$spid" >/dev/null
n=$(wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$tmp/post.lua" \
        "$url/v1/solve" | awk '/requests in/ {print $1}')
callgrind_control -d "$spid" >/dev/null
kill "$spid"
wait "$spid" 2>/dev/null || true
spid=
# the dump after zeroing is the file with the highest part number
dump=$(ls "$OUT"* | sort -t. -k3 -n | tail -1)
echo "requests $n (callgrind file $dump)"
# inclusive counts (a function with everything it calls), once per
# function (the lines naming the binary)
fns='http__conn_access|http__on_request|api_start|api__parse_body'
fns="$fns|api_decode_solve|api_work|puz_solve|codec_result_json"
fns="$fns|codec_result_bytes|api_answer_json|json_dumpb|pool_submit|job_done"
fns="$fns|MHD_suspend_connection|MHD_resume_connection|MHD_queue_response"
fns="$fns|MHD_create_response_from_buffer"
callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null |
    awk -v n="$n" -v fns="^($fns)\$" '
    /PROGRAM TOTALS/ { gsub(",", "", $1); printf "%-32s %9.0f\n",
                       "everything", $1 / n }
    / \[\// {
        fn = $0; sub(/ \[.*$/, "", fn); sub(/^.*:/, "", fn)
        if (fn ~ fns) { gsub(",", "", $1); printf "%-32s %9.0f\n", fn,
                                                   $1 / n } }'
