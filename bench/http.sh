#!/bin/sh
# bench/http.sh - puzzled's HTTP throughput and latency next to nginx's.
#
# Starts puzzled and nginx (its own temporary config, loopback only)
# serving a static copy of puzzled's own answers (same bytes), drives
# both with wrk using the same threads, connections and duration, and
# prints req/s, p50/p99 latency and the puzzled/nginx ratio for an easy
# 3x3 solve, the hard 31-move 3x3 solve, and /livez. Every scenario also
# counts non-2xx answers and socket errors, which should be zero.
#
# usage: bench/http.sh   (env: PUZZLED, DURATION=5s, CONNECTIONS=64,
#                          THREADS=2, WARMUP=1s, ROUNDS=3)
# Bounded: about ROUNDS x 6 x (DURATION + WARMUP) plus a few seconds.
set -eu
cd "$(dirname "$0")/.."
. scripts/serve_url.sh
. bench/http_lib.sh
PUZZLED=${PUZZLED:-build/puzzled}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
WARMUP=${WARMUP:-1s}
ROUNDS=${ROUNDS:-3}
EASY='{"board": "1 2 3 4 5 6 7 0 8"}'
HARD='{"board": "8 6 7 2 5 4 3 0 1"}'

http_bench_init wrk nginx curl python3

# puzzled on a free port; its access log goes to a file, like nginx's.
"$PUZZLED" serve --bind 127.0.0.1 --port 0 --access-log "$tmp/puzzled.log" \
    >"$tmp/puzzled.out" 2>"$tmp/puzzled.err" &
spid=$!
purl=$(serve_url "$tmp/puzzled.out" "$spid") || true
[ -n "$purl" ] || { cat "$tmp/puzzled.err" >&2; exit 1; }

# The static answers nginx serves: puzzled's own bytes.
mkdir -p "$tmp/www"
curl -fsS --json "$EASY" "$purl/v1/solve" >"$tmp/www/easy.json"
curl -fsS --json "$HARD" "$purl/v1/solve" >"$tmp/www/hard.json"
curl -fsS "$purl/livez" >"$tmp/www/livez.json"

# nginx serving $tmp/www on a free loopback port (bench/http_lib.sh).
nginx_static "$tmp" "$tmp/www" livez.json || exit 1
npid=$nginx_pid nurl=$nginx_url

post_script() { # post_script FILE BODY
    cat >"$1" <<EOF
wrk.method = "POST"
wrk.body = '$2'
wrk.headers["Content-Type"] = "application/json"
EOF
}
post_script "$tmp/easy.lua" "$EASY"
post_script "$tmp/hard.lua" "$HARD"

# run NAME URL [SCRIPT]: wrk output into $tmp/NAME.$round.txt after a
# warm-up.
run() {
    name=$1 url=$2
    shift 2
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$@" "$url" >/dev/null
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "$url" \
        >"$tmp/$name.$round.txt"
}

# Milliseconds from wrk's "1.23ms" / "456.00us" / "1.02s".
to_ms() {
    awk -v v="$1" 'BEGIN {
        if (v ~ /us$/) { sub(/us$/, "", v); printf "%.2f", v / 1000 }
        else if (v ~ /ms$/) { sub(/ms$/, "", v); printf "%.2f", v }
        else if (v ~ /s$/) { sub(/s$/, "", v); printf "%.2f", v * 1000 }
        else printf "?" }'
}
# The median over the rounds of one figure of NAME's runs.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rps() {
    for f in "$tmp/$1".*.txt; do
        awk '/^Requests\/sec:/ {printf "%.0f\n", $2}' "$f"
    done | median
}
pct() {
    for f in "$tmp/$1".*.txt; do
        to_ms "$(awk -v p="$2%" '$1 == p {print $2}' "$f")"; echo
    done | median
}
bad() {
    cat "$tmp/$1".*.txt | awk '/Non-2xx or 3xx responses:/ {n += $NF}
         /Socket errors:/ {gsub(",", ""); n += $4 + $6 + $8 + $10}
         END {print n + 0}'
}
# The ratio puzzled/nginx of each round, lowest and highest.
spread() {
    for r in $(seq "$ROUNDS"); do
        awk '/^Requests\/sec:/ {print $2}' "$tmp/$1-puzzled.$r.txt" \
            "$tmp/$1-nginx.$r.txt" | paste -s -d' ' |
            awk '{printf "%.2f\n", $2 ? $1 / $2 : 0}'
    done | sort -n | paste -s -d' ' | awk '{printf "%s-%s", $1, $NF}'
}

# Rounds alternate the two servers, so a noisy moment on the machine
# lands on both; the table shows each figure's median over the rounds.
for round in $(seq "$ROUNDS"); do
    run easy-puzzled "$purl/v1/solve" -s "$tmp/easy.lua"
    run easy-nginx "$nurl/easy.json"
    run hard-puzzled "$purl/v1/solve" -s "$tmp/hard.lua"
    run hard-nginx "$nurl/hard.json"
    run livez-puzzled "$purl/livez"
    run livez-nginx "$nurl/livez.json"
done

# The network threads the default (http_threads = 0) came to here: the
# figures depend on it (docs/performance.md).
nthreads=$(curl -fsS "$purl/metrics" | awk '/^puzzled_http_threads / {print $2}')
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on loopback, $ROUNDS rounds" \
     "(medians); nginx serves the same bytes statically"
echo "puzzled network threads: ${nthreads:-?}, nginx worker processes: 2 ($(nproc) CPUs)"
printf '%-12s %12s %12s %7s %11s %9s %9s %9s %9s %8s\n' scenario \
    "puzzled r/s" "nginx r/s" ratio "ratio range" "p50 (ms)" "p99 (ms)" \
    "ngx p50" "ngx p99" "non-2xx"
for s in easy hard livez; do
    p=$(rps "$s-puzzled") n=$(rps "$s-nginx")
    ratio=$(awk -v a="$p" -v b="$n" 'BEGIN {printf "%.2f", b ? a / b : 0}')
    printf '%-12s %12s %12s %7s %11s %9s %9s %9s %9s %8s\n' "$s" "$p" "$n" \
        "$ratio" "$(spread "$s")" "$(pct "$s-puzzled" 50)" \
        "$(pct "$s-puzzled" 99)" "$(pct "$s-nginx" 50)" \
        "$(pct "$s-nginx" 99)" "$(bad "$s-puzzled")/$(bad "$s-nginx")"
done
# What one 3x3 answer's search held (its own stats), and every request's
# whole arena as the server counts it: the smallest bucket of the
# histogram that holds them all.
ab() { sed -n 's/.*"arena_bytes":\([0-9]*\).*/\1/p' "$tmp/www/$1.json"; }
all_within=$(curl -fsS "$purl/metrics" | awk -F'"' '
    /^puzzled_request_arena_bytes_count/ { total = $0; sub(/.* /, "", total) }
    /^puzzled_request_arena_bytes_bucket/ { n = $3; sub(/^} */, "", n)
        le[++k] = $2; c[k] = n }
    END { for (i = 1; i <= k; i++) if (c[i] == total) { print le[i]; exit } }')
echo "arena_bytes of the answers: easy $(ab easy), hard $(ab hard);" \
     "every request's arena within $all_within bytes (the histogram's bucket)"
