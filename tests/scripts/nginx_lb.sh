#!/bin/sh
# nginx_lb.sh - the shipped nginx configuration (deploy/nginx/) in front
# of puzzled instances a, b and c, all on loopback ports under a
# temporary directory: request ids pass through, nginx refuses over-long
# bodies like puzzled does, a few hundred solves are spread over every
# instance (checked in each one's /metrics), a 503 from a full instance
# is retried on another, every request succeeds while c drains
# (SIGTERM) and while a is killed (SIGKILL) mid-traffic, and with no
# instance left nginx answers 503 problem+json itself.
# Skipped (77) only when nginx is not installed.
cd "$(dirname "$0")/../.." || exit 1
lb_root=$(pwd)
. tests/ops/lb_lib.sh
. tests/ops/wait.sh

command -v curl >/dev/null 2>&1 || { echo "nginx_lb: curl not installed" >&2
                                     exit 77; }
if ! lb_find_nginx; then
    echo "nginx_lb: skipped: nginx is not installed (apt-get install" \
         "nginx-light; .ci/run does)" >&2
    exit 77
fi
[ -x "$PUZZLED" ] || { echo "nginx_lb: $PUZZLED not built" >&2; exit 1; }
lb_init nginx_lb

solve_series='puzzled_http_requests_total{route="/v1/solve",code="200"}'
busy_series='puzzled_http_requests_total{route="/v1/solve",code="503"}'
# A search, so every solve takes a worker (a plain 3x3 board is answered
# from the exact table on the network thread and is never refused 503).
board='{"board":"8 6 7 2 5 4 3 0 1","algorithm":"idastar"}'
# Runs far longer than its limit: keeps a worker busy for timeout_ms.
slow='{"board":"4 11 3 6 13 15 12 8 5 14 7 2 10 0 9 1","algorithm":"idastar",
"heuristic":"misplaced","limits":{"timeout_ms":3000}}'

# solves N [HEADER]: N POSTs to nginx over one keep-alive connection;
# prints one status code per line.
solves() {
    n=$1; shift
    # A curl config file: -o covers one URL only, so each gets its own.
    awk -v n="$n" -v u="$lb_nginx_url/v1/solve" -v d="$lb_tmp" 'BEGIN {
        for (i = 0; i < n; i++)
            printf "url = \"%s\"\noutput = \"%s/answer.%d\"\n", u, d, i + 1
    }' >"$lb_tmp/urls.$n"
    curl -s -w '%{http_code}\n' -H 'Content-Type: application/json' \
        --data-binary "$board" "$@" -K "$lb_tmp/urls.$n"
}

# all_ok FILE N WHAT: FILE has N lines, all 200; if not, the failure
# shows the first few other answers' bodies (which instance or nginx
# said what).
all_ok() {
    got=$(grep -c '^200$' "$1")
    [ "$got" = "$2" ] && return 0
    awk '$0 != "200" { print NR }' "$1" | head -3 | while read -r i; do
        echo "--- answer $i: $(head -c 400 "$lb_tmp/answer.$i" 2>/dev/null)"
    done >&2
    lb_fail "$3: $got of $2 answered 200; others:" \
        "$(grep -v '^200$' "$1" | sort | uniq -c | tr '\n' ' ')"
}

# 0. The shipped settings agree with puzzled's defaults (--help): the body
# cap, the read timeout above the longest answer, the upstream keep-alive
# timeout below puzzled's idle timeout.
"$PUZZLED" serve --help >"$lb_tmp/help" || lb_fail "serve --help failed"
default() { awk -v f="--$1" '$1 == f { print $4 }' "$lb_tmp/help"; }
directive() { # the value of one directive, k/m and s suffixes expanded
    sed -n "s/^[ \t]*$1[ \t]\{1,\}\([0-9]*[kms]\{0,1\}\);.*/\1/p" \
        deploy/nginx/puzzled-*.conf | head -n 1 | awk '{
        v = $1 + 0; u = substr($1, length($1))
        if (u == "k") v *= 1024; else if (u == "m") v *= 1048576
        print v }'
}
[ "$(directive client_max_body_size)" = "$(default max-body-bytes)" ] ||
    lb_fail "client_max_body_size $(directive client_max_body_size) !=" \
        "puzzled's max_body_bytes $(default max-body-bytes)"
[ "$(directive proxy_read_timeout)" -gt $(( $(default batch-timeout-ms) / 1000 )) ] ||
    lb_fail "proxy_read_timeout is not above batch_timeout_ms"
[ "$(directive keepalive_timeout)" -lt "$(default connection-timeout-s)" ] ||
    lb_fail "upstream keepalive_timeout is not below connection_timeout_s"

# The complete example deploy/nginx/nginx.conf passes `nginx -t` (its
# log and pid paths moved into the temporary directory).
mkdir -p "$lb_tmp/example"
cp deploy/nginx/*.conf "$lb_tmp/example/"
sed -i "s|/var/log/nginx/|$lb_tmp/example/|; s|/run/nginx.pid|$lb_tmp/example/pid|" \
    "$lb_tmp/example/nginx.conf"
"$lb_nginx" -t -q -p "$lb_tmp/example/" -c "$lb_tmp/example/nginx.conf" \
    -e "$lb_tmp/example/error.log" >"$lb_tmp/example.err" 2>&1 ||
    lb_fail "nginx -t of deploy/nginx/nginx.conf: $(cat "$lb_tmp/example.err")"

lb_start_puzzled a --workers 2
a_pid=$lb_pid a_url=$lb_url a_port=$lb_port
# b has one worker and a one-job queue, so it is easy to fill.
lb_start_puzzled b --workers 1 --queue 1
b_pid=$lb_pid b_url=$lb_url b_port=$lb_port
lb_start_puzzled c --workers 1
c_pid=$lb_pid c_url=$lb_url c_port=$lb_port
lb_start_nginx "$a_port" "$b_port" "$c_port"
echo "nginx_lb: nginx $lb_nginx_url -> a $a_url, b $b_url, c $c_url"

# served URL: solves URL has answered 200 so far.
served() { lb_metric "$1" "$solve_series"; }

# 1. Request ids: a valid client id is passed through and echoed back,
# an unacceptable one is replaced by nginx's, and both sides agree.
hdr=$(curl -s -D - -o "$lb_tmp/body" -H 'Content-Type: application/json' \
      -H 'X-Request-Id: lb-test.42' --data-binary "$board" \
      "$lb_nginx_url/v1/solve" | tr -d '\r')
echo "$hdr" | grep -q '^HTTP/1.1 200' || lb_fail "solve via nginx: $hdr"
grep -q '"status":"solved"' "$lb_tmp/body" || lb_fail "solve body: \
$(cat "$lb_tmp/body")"
[ "$(echo "$hdr" | grep -ci '^x-request-id:')" = 1 ] ||
    lb_fail "not exactly one X-Request-Id: $hdr"
echo "$hdr" | grep -qi '^x-request-id: lb-test.42$' ||
    lb_fail "client request id not passed through: $hdr"
hdr=$(curl -s -D - -o /dev/null -H 'X-Request-Id: bad id!' \
      "$lb_nginx_url/livez" | tr -d '\r')
echo "$hdr" | grep -qiE '^x-request-id: [0-9a-f]{32}$' ||
    lb_fail "unacceptable id not replaced by nginx's \$request_id: $hdr"

# 2. The body cap: nginx answers 413 (as problem+json) before puzzled
# sees the body; a body just under it still reaches puzzled.
head -c 70000 /dev/zero | tr '\0' ' ' >"$lb_tmp/big"
code=$(curl -s -o "$lb_tmp/body" -w '%{http_code}' \
       -H 'Content-Type: application/json' \
       --data-binary @"$lb_tmp/big" "$lb_nginx_url/v1/solve")
[ "$code" = 413 ] || lb_fail "70000-byte body: $code, wanted 413"
grep -q '"status":413' "$lb_tmp/body" ||
    lb_fail "413 body: $(cat "$lb_tmp/body")"
{ printf '{"board":"8 6 7 2 5 4 3 0 1"'; head -c 60000 /dev/zero | tr '\0' ' '
  printf '}'; } >"$lb_tmp/padded"
code=$(curl -s -o /dev/null -w '%{http_code}' \
       -H 'Content-Type: application/json' \
       --data-binary @"$lb_tmp/padded" "$lb_nginx_url/v1/solve")
[ "$code" = 200 ] || lb_fail "60000-byte body: $code, wanted 200"

# 3. A few hundred solves, spread over every instance.
a0=$(served "$a_url") b0=$(served "$b_url") c0=$(served "$c_url")
solves 300 >"$lb_tmp/codes1"
all_ok "$lb_tmp/codes1" 300 "300 solves through nginx"
da=$(( $(served "$a_url") - a0 )) db=$(( $(served "$b_url") - b0 ))
dc=$(( $(served "$c_url") - c0 ))
echo "nginx_lb: 300 solves: a served $da, b served $db, c served $dc"
[ $((da + db + dc)) = 300 ] ||
    lb_fail "instances counted $((da + db + dc)) solves, not 300"
[ "$da" -ge 50 ] && [ "$db" -ge 50 ] && [ "$dc" -ge 50 ] ||
    lb_fail "unbalanced: a $da, b $db, c $dc (each should serve 50 or more)"

# 4. Fill b (its worker and its one queue slot, directly, not through
# nginx) so it answers 503; nginx must retry those solves elsewhere.
slow_solve() {
    curl -s -o /dev/null -H 'Content-Type: application/json' \
        --data-binary "$slow" "$b_url/v1/solve"
}
b_says() { [ "$(lb_metric "$b_url" "$1")" = "$2" ]; }
b_full() { b_says puzzled_workers_busy 1 && b_says puzzled_queue_depth 1; }
slow_solve &
slow_1=$!
wait_until 5000 b_says puzzled_workers_busy 1     # the first one runs
slow_solve &
slow_2=$!
wait_until 5000 b_full                            # the second waits
[ "$(lb_metric "$b_url" puzzled_queue_depth)" = 1 ] ||
    lb_fail "could not fill b's queue"
r0=$(lb_metric "$b_url" "$busy_series")
: >"$lb_tmp/codes2"
# Stop at b's first 503: three would take it out for fail_timeout.
for _ in 1 2 3 4 5 6; do
    solves 1 >>"$lb_tmp/codes2"
    [ "$(lb_metric "$b_url" "$busy_series")" -gt "$r0" ] && break
done
n=$(wc -l <"$lb_tmp/codes2")
all_ok "$lb_tmp/codes2" "$n" "solves while b is full"
[ "$(lb_metric "$b_url" "$busy_series")" -gt "$r0" ] ||
    lb_fail "b never answered 503: the retry path was not exercised"
echo "nginx_lb: b full: its 503 was retried elsewhere ($n requests, all 200)"
wait "$slow_1" "$slow_2"

# stream N URL WHAT SIGNAL PID: N solves in the background; once URL has
# served 30 of them, send SIGNAL to PID; every solve must succeed.
stream() {
    s0=$(served "$2")
    solves "$1" >"$lb_tmp/stream" &
    sp=$!
    served_since() { [ $(( $(served "$1") - $2 )) -ge "$3" ]; }
    wait_until 3000 served_since "$2" "$s0" 30
    kill -"$4" "$5"
    { wait "$5"; } 2>/dev/null
    st=$?
    lb_forget "$5"
    wait "$sp"
    all_ok "$lb_tmp/stream" "$1" "$1 solves with $3"
}

# 5. c drains (SIGTERM, exits 0) in the middle of a stream of solves:
# nginx moves on to the others without a single failed request.
stream 300 "$c_url" "c draining midway" TERM "$c_pid"
[ "$st" = 0 ] || lb_fail "c exited $st after SIGTERM"
echo "nginx_lb: c drained mid-stream: 300 of 300 solves answered 200"

# 6. Kill a (SIGKILL, no drain) in the middle of a stream: nginx retries
# what a dropped on b, and every request succeeds.
b0=$(served "$b_url")
stream 400 "$a_url" "a killed midway" KILL "$a_pid"
solves 50 >"$lb_tmp/codes4"
all_ok "$lb_tmp/codes4" 50 "50 solves after a died"
db=$(( $(served "$b_url") - b0 ))
echo "nginx_lb: a killed mid-stream: 450 of 450 solves answered 200," \
     "b served $db of them"
[ "$db" -ge 50 ] || lb_fail "b served only $db solves after a died"

# 7. Stop b gracefully (it exits 0); with no instance left nginx answers
# 503 problem+json with Retry-After itself. Then stop nginx.
kill "$b_pid"
wait "$b_pid"
rc=$?
lb_forget "$b_pid"
[ "$rc" = 0 ] || lb_fail "b exited $rc after SIGTERM"
hdr=$(curl -s -D - -o "$lb_tmp/body" -H 'Content-Type: application/json' \
      --data-binary "$board" "$lb_nginx_url/v1/solve" | tr -d '\r')
echo "$hdr" | grep -q '^HTTP/1.1 503' || lb_fail "no instance: $hdr"
echo "$hdr" | grep -qi '^content-type: application/problem+json' ||
    lb_fail "no instance: not problem+json: $hdr"
echo "$hdr" | grep -qi '^retry-after: ' || lb_fail "no Retry-After: $hdr"
grep -q '"status":503' "$lb_tmp/body" ||
    lb_fail "503 body: $(cat "$lb_tmp/body")"
lb_stop_nginx
echo "nginx_lb: ok"
