# http_lib.sh - sourced by the HTTP benches (http.sh, http_cpu.sh).
#
# http_bench_init TOOL...: checks the tools are installed, makes the
# temporary directory $tmp and removes it (and stops the servers in
# $spid and $npid) on exit.
http_bench_init() {
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || {
            echo "bench: $tool not found" >&2; exit 1; }
    done
    [ -x "$PUZZLED" ] || { echo "bench: build $PUZZLED first (make)" >&2
                           exit 1; }
    tmp=$(mktemp -d)
    chmod 755 "$tmp"     # nginx workers may run as another user
    spid= npid=
    trap http_bench_cleanup EXIT INT TERM
}
http_bench_cleanup() {
    [ -n "$spid" ] && kill "$spid" 2>/dev/null
    [ -n "$npid" ] && kill "$npid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$tmp"
}

# nginx_static TMP ROOT PROBE starts nginx (its own config in TMP, loopback only, 2 workers,
# the same buffered access log as puzzled's default) serving the files
# of ROOT on a free port, waits until ROOT/PROBE answers, and sets
# nginx_pid and nginx_url; fails with nginx's errors on stderr.
nginx_static() {
    _t=$1 _root=$2 _probe=$3
    # a free loopback port (the kernel picks one for a moment)
    _port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1",
0)); print(s.getsockname()[1])' 2>/dev/null || echo 18080)
    cat >"$_t/nginx.conf" <<EOF
worker_processes 2;
pid $_t/nginx.pid;
error_log $_t/nginx-error.log;
events { worker_connections 4096; }
http {
    # The same logging as puzzled's default (access_log_flush_ms = 100,
    # a 32 KiB buffer), so both do the same work per request.
    access_log $_t/nginx-access.log combined buffer=32k flush=100ms;
    client_body_temp_path $_t/body;
    proxy_temp_path $_t/proxy;
    fastcgi_temp_path $_t/fastcgi;
    uwsgi_temp_path $_t/uwsgi;
    scgi_temp_path $_t/scgi;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$_port;
        root $_root;
        default_type application/json;
    }
}
EOF
    nginx -p "$_t" -c "$_t/nginx.conf" -g 'daemon off;' 2>"$_t/nginx.err" &
    nginx_pid=$!
    nginx_url=http://127.0.0.1:$_port
    for _ in $(seq 100); do
        curl -fsS "$nginx_url/$_probe" >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    cat "$_t/nginx.err" >&2
    return 1
}
