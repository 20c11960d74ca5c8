# lb_lib.sh - shared by tests/scripts/nginx_lb.sh and bench/scale.sh:
# start puzzled instances and an nginx in front of them, on loopback
# ports, with everything (config, pid, logs, temp files) under one
# temporary directory, and stop it all again. Source it; POSIX sh.
#
#   lb_init NAME           temp dir in $lb_tmp, cleanup trap installed
#   lb_start_puzzled NAME [ARGS...]   sets lb_pid, lb_port, lb_url
#                          (LB_WRAP, e.g. "taskset -c 1", prefixes it)
#   lb_start_nginx PORT... nginx balancing those ports; sets lb_nginx_url
#   lb_stop_puzzled PID    SIGTERM, wait
#   lb_forget PID          an instance that exited by other means
#   lb_fail MESSAGE        print "NAME: MESSAGE" and the logs, exit 1
#   lb_start_redis SOCK    a redis-server of the test's own on that unix
#                          socket (AOF, appendfsync always, in $lb_tmp);
#                          sets lb_redis_pid
#   lb_wait_ready URL WHY  /readyz 200 within 10 s, or lb_fail "URL WHY"
#   lb_kill_redis PID URL  redis-server killed (-9), until URL/readyz says 503
#   lb_expect_503 WHAT CURL-ARGS...   the store-down answer, or lb_fail
#   lb_ready_again URL...  each URL ready within 10 s of Redis coming back
#
# The upstream is deploy/nginx/puzzled-http.conf with its server lines
# replaced by the given ports (their parameters kept), and the server
# block includes deploy/nginx/puzzled-server.conf unchanged, so what is
# tested is the shipped configuration.

# The caller sets lb_root (the repository) before sourcing this file.
. "$lb_root/tests/ops/wait.sh"
PUZZLED=${PUZZLED:-build/puzzled}
case $PUZZLED in /*) ;; *) PUZZLED=$lb_root/$PUZZLED ;; esac
lb_pids=""
lb_nginx_pid=""
lb_tmp=""

lb_cleanup() {
    if [ -n "$lb_nginx_pid" ]; then
        kill "$lb_nginx_pid" 2>/dev/null
        wait "$lb_nginx_pid" 2>/dev/null
    fi
    for p in $lb_pids; do kill "$p" 2>/dev/null; done
    for p in $lb_pids; do wait "$p" 2>/dev/null; done
    [ -n "$lb_tmp" ] && rm -rf "$lb_tmp"
}

lb_init() {
    lb_name=$1
    lb_tmp=$(mktemp -d "${TMPDIR:-/tmp}/puzzled-$1.XXXXXX") || exit 1
    trap lb_cleanup EXIT
    trap 'exit 1' INT TERM HUP PIPE
}

# lb_require NAME TOOL...: a test script's start: skipped (77) when a
# tool is missing, failed when $PUZZLED is not built.
lb_require() {
    lb_rname=$1; shift
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 || { echo "$lb_rname: skipped: no $t" \
            "(scripts/deps.sh --test installs it)" >&2; exit 77; }
    done
    [ -x "$PUZZLED" ] || { echo "$lb_rname: $PUZZLED not built" >&2; exit 1; }
}

lb_fail() {
    echo "$lb_name: $*" >&2
    for f in "$lb_tmp"/*.err "$lb_tmp"/nginx-error.log; do
        [ -s "$f" ] || continue
        echo "--- $(basename "$f") (last lines)" >&2
        tail -n 15 "$f" >&2
    done
    # nginx's lines for the answers that were not 2xx: which instance
    # said what (upstream=, ustatus=), or nginx itself (upstream=-).
    if [ -s "$lb_tmp/nginx-access.log" ]; then
        echo "--- nginx-access.log (last non-2xx lines)" >&2
        grep -v '" 2[0-9][0-9] ' "$lb_tmp/nginx-access.log" | tail -n 8 >&2
    fi
    exit 1
}

# The nginx binary: $NGINX, then PATH, then /usr/sbin (not in every PATH).
lb_find_nginx() {
    if [ -n "${NGINX:-}" ]; then
        lb_nginx=$NGINX
    elif command -v nginx >/dev/null 2>&1; then
        lb_nginx=$(command -v nginx)
    elif [ -x /usr/sbin/nginx ]; then
        lb_nginx=/usr/sbin/nginx
    else
        return 1
    fi
    [ -x "$lb_nginx" ]
}

lb_start_puzzled() {
    name=$1; shift
    # shellcheck disable=SC2086 # LB_WRAP is a command prefix
    # Created here: the background job opens them only when it runs.
    : >"$lb_tmp/$name.out"
    : >"$lb_tmp/$name.err"
    ${LB_WRAP:-} "$PUZZLED" serve --bind 127.0.0.1 --port 0 \
        --access-log off --static-root "" --pdb none "$@" \
        >"$lb_tmp/$name.out" 2>"$lb_tmp/$name.err" &
    lb_pid=$!
    lb_pids="$lb_pids $lb_pid"
    for _ in $(seq 200); do
        lb_url=$(sed -n 's/^listening on \(http:.*\)$/\1/p' \
                 "$lb_tmp/$name.out")
        if [ -n "$lb_url" ]; then
            lb_port=${lb_url##*:}
            return 0
        fi
        kill -0 "$lb_pid" 2>/dev/null || break
        sleep 0.05  # a bounded poll (200 looks) of a file another
                    # process writes: nothing to block on
    done
    lb_fail "$name: no 'listening on' line from $PUZZLED"
}

lb_start_redis() {
    redis-server --port 0 --unixsocket "$1" --unixsocketperm 700 \
        --save "" --appendonly yes --appendfsync always --dir "$lb_tmp" \
        --logfile "$lb_tmp/redis.log" &
    lb_redis_pid=$!
    lb_pids="$lb_pids $lb_redis_pid"
    for _ in $(seq 100); do
        [ -S "$1" ] && return 0
        sleep 0.05  # a bounded poll (100 looks) for the socket
    done
    lb_fail "redis-server did not start: $(tail -n 5 "$lb_tmp/redis.log")"
}

lb_ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' "$1/readyz")" = 200 ]; }
lb_wait_ready() {
    wait_until 10000 lb_ready "$1" || lb_fail "$1 $2"
}

# lb_kill_redis PID URL: Redis crashes (SIGKILL, no clean shutdown) and
# the test goes on once URL's /readyz has noticed (503), for up to 3 s.
lb_kill_redis() {
    kill -9 "$1"
    wait "$1" 2>/dev/null
    lb_forget "$1"
    wait_until 3000 lb_readyz_503 "$2" || :
}
lb_readyz_503() {
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1/readyz")" = 503 ]
}

# lb_expect_503 WHAT CURL-ARGS...: what a route that needs the store
# answers while it cannot be reached: 503, problem+json, Retry-After.
# Else lb_fail "WHAT: ...". Headers in $lb_tmp/h, body in $lb_tmp/body.
lb_expect_503() {
    lb_what=$1; shift
    lb_code=$(curl -s -D "$lb_tmp/h" -o "$lb_tmp/body" -w '%{http_code}' "$@")
    [ "$lb_code" = 503 ] ||
        lb_fail "$lb_what: $lb_code, not 503: $(cat "$lb_tmp/body")"
    grep -qi '^content-type: application/problem+json' "$lb_tmp/h" ||
        lb_fail "$lb_what: the 503 is not problem+json"
    grep -qi '^retry-after:' "$lb_tmp/h" ||
        lb_fail "$lb_what: 503 without Retry-After"
}

# lb_ready_again URL...: after Redis came back, each URL's /readyz is 200
# again (puzzled reconnects by itself, no restart), or lb_fail.
lb_ready_again() {
    for lb_u in "$@"; do
        lb_wait_ready "$lb_u" "not ready 10 s after Redis came back"
    done
}

lb_stop_puzzled() {
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    lb_forget "$1"
}

# lb_forget PID: an instance that has exited, so cleanup leaves its
# (possibly reused) pid alone.
lb_forget() {
    rest=""
    for p in $lb_pids; do [ "$p" = "$1" ] || rest="$rest $p"; done
    lb_pids=$rest
}

# The shipped http{} part with our ports in place of its server lines.
lb_write_upstream() {
    awk -v ports="$*" '
        /^[ \t]*server[ \t]+127\.0\.0\.1:[0-9]+[ \t;]/ {
            if (done++) next
            match($0, /^[ \t]*/)
            indent = substr($0, 1, RLENGTH)
            rest = $0
            sub(/^[ \t]*server[ \t]+[^ \t;]+/, "", rest)
            n = split(ports, p, " ")
            for (i = 1; i <= n; i++)
                print indent "server 127.0.0.1:" p[i] rest
            next
        }
        { print }
    ' "$lb_root/deploy/nginx/puzzled-http.conf" >"$lb_tmp/puzzled-http.conf"
    grep -q "server 127.0.0.1:$1" "$lb_tmp/puzzled-http.conf" ||
        lb_fail "no upstream server line in deploy/nginx/puzzled-http.conf"
}

lb_write_nginx_conf() {
    port=$1; shift
    lb_write_upstream "$@"
    mkdir -p "$lb_tmp/nginx"
    {
        echo "daemon off;"
        echo "worker_processes ${LB_NGINX_WORKERS:-1};"
        echo "pid $lb_tmp/nginx/nginx.pid;"
        echo "error_log $lb_tmp/nginx-error.log notice;"
        # A master started as root would switch its workers to "nobody".
        [ "$(id -u)" = 0 ] && echo "user $(id -un) $(id -gn);"
        echo "events { worker_connections 1024; }"
        echo "http {"
        for t in client_body proxy fastcgi uwsgi scgi; do
            echo "    ${t}_temp_path $lb_tmp/nginx/$t;"
        done
        echo "    include $lb_tmp/puzzled-http.conf;"
        if [ "${LB_NGINX_ACCESS_LOG:-on}" = off ]; then
            echo "    access_log off;"
        else
            echo "    access_log $lb_tmp/nginx-access.log puzzled;"
        fi
        echo "    server {"
        echo "        listen 127.0.0.1:$port;"
        echo "        include $lb_root/deploy/nginx/puzzled-server.conf;"
        echo "    }"
        echo "}"
    } >"$lb_tmp/nginx.conf"
}

# Port for nginx: it cannot take port 0 and tell us, so try a few random
# ports and keep the first it can bind. They are drawn below the kernel's
# ephemeral range, where every `--port 0` server of the suites running
# beside this one lives: a port taken by one of those would otherwise
# answer /livez while our nginx fails to bind it.
lb_start_nginx() {
    low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
    [ "$low" -gt 12000 ] 2>/dev/null || low=32768
    for _ in 1 2 3 4 5 6 7 8; do
        port=$(( 10000 + $(od -An -N2 -tu2 /dev/urandom) % (low - 10000) ))
        lb_write_nginx_conf "$port" "$@"
        : >"$lb_tmp/nginx-error.log"
        "$lb_nginx" -p "$lb_tmp/nginx/" -c "$lb_tmp/nginx.conf" \
            -e "$lb_tmp/nginx-error.log" 2>>"$lb_tmp/nginx-error.log" &
        lb_nginx_pid=$!
        for _ in $(seq 100); do
            if curl -sf -o /dev/null "http://127.0.0.1:$port/livez" &&
               kill -0 "$lb_nginx_pid" 2>/dev/null &&
               ! grep -q "Address already in use" "$lb_tmp/nginx-error.log"; then
                lb_nginx_url=http://127.0.0.1:$port
                return 0
            fi
            kill -0 "$lb_nginx_pid" 2>/dev/null || break
            sleep 0.05  # a bounded poll (100 looks) for nginx's answer
        done
        kill "$lb_nginx_pid" 2>/dev/null
        wait "$lb_nginx_pid" 2>/dev/null
        lb_nginx_pid=""
        grep -q "Address already in use" "$lb_tmp/nginx-error.log" ||
            lb_fail "nginx did not start"
    done
    lb_fail "nginx found no free port"
}

lb_stop_nginx() {
    [ -n "$lb_nginx_pid" ] || return 0
    kill "$lb_nginx_pid" 2>/dev/null
    wait "$lb_nginx_pid" 2>/dev/null
    lb_nginx_pid=""
}

# lb_metric URL SERIES: the value of one series of /metrics (0 if absent).
lb_metric() {
    curl -sf "$1/metrics" | awk -v s="$2" '
        index($0, s " ") == 1 { v = $2 } END { print v + 0 }'
}
