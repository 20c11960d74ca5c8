#!/bin/sh
# nginx_hostile.sh - issue 15's framing attacks sent through the shipped
# nginx front (deploy/nginx), which covers what libmicrohttpd 0.9.75
# cannot: a malformed Content-Length (MHD writes its status line and
# headers twice), MHD's HTML bodies for 400/414/431/505 without an
# X-Request-Id. Through nginx each gets exactly one answer, as
# problem+json with X-Request-Id, and the request smuggled behind
# Content-Length + Transfer-Encoding is never served. About 3 s.
# Skipped (77) only when nginx or python3 is not installed.
cd "$(dirname "$0")/../.." || exit 1
lb_root=$(pwd)
. tests/ops/lb_lib.sh

command -v curl >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 || {
    echo "nginx_hostile: curl or python3 not installed" >&2; exit 77; }
if ! lb_find_nginx; then
    echo "nginx_hostile: skipped: nginx is not installed" >&2
    exit 77
fi
[ -x "$PUZZLED" ] || { echo "nginx_hostile: $PUZZLED not built" >&2; exit 1; }
lb_init nginx_hostile

lb_start_puzzled a --workers 1 --queue 8
lb_start_nginx "$lb_port"
nport=${lb_nginx_url##*:}

python3 - "$nport" >"$lb_tmp/probe.out" 2>&1 <<'PY' || lb_fail "probes: $(cat "$lb_tmp/probe.out")"
import socket, sys
port = int(sys.argv[1])
H = b"Host: t\r\nContent-Type: application/json\r\n"
def exchange(data, wait=3.0):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(wait)
    try:
        s.sendall(data)
    except OSError:
        pass
    out = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            out += d
    except (socket.timeout, ConnectionResetError):
        pass
    s.close()
    return out.decode("latin1")
cases = [
    ("CL -1", b"POST /v1/solve HTTP/1.1\r\n" + H + b"Content-Length: -1\r\n\r\n", "400"),
    ("CL abc", b"POST /v1/solve HTTP/1.1\r\n" + H + b"Content-Length: abc\r\n\r\n", "400"),
    ("CL empty", b"POST /v1/solve HTTP/1.1\r\n" + H + b"Content-Length: \r\n\r\n", "400"),
    ("CL 29, 29", b"POST /v1/solve HTTP/1.1\r\n" + H + b"Content-Length: 29, 29\r\n\r\n", "400"),
    ("CL+TE smuggling", b"POST /v1/solve HTTP/1.1\r\n" + H + b"Content-Length: 30\r\n"
     b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /livez HTTP/1.1\r\nHost: t\r\n\r\n", "400"),
    ("two Host", b"GET /livez HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"),
    ("space before colon", b"GET /livez HTTP/1.1\r\nHost : a\r\n\r\n", "400"),
    ("gzip, chunked", b"POST /v1/solve HTTP/1.1\r\n" + H + b"Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "501"),
    ("70 KB URL", b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", "414"),
    ("70 KB header", b"GET /livez HTTP/1.1\r\nHost: t\r\nX-Big: " + b"b" * 70000 + b"\r\n\r\n", "431"),
    ("HTTP/2.0 line", b"GET /livez HTTP/2.0\r\nHost: t\r\n\r\n", "505"),
    # What libmicrohttpd 0.9.75 closes without a word or lets through
    # (issue 29 item 10, docs/operations.md "HTTP framing"): the front
    # answers them.
    ("space in target", b"GET /li vez HTTP/1.1\r\nHost: t\r\n\r\n", "400"),
    ("obsolete line folding", b"GET /livez HTTP/1.1\r\nHost: t\r\nX-A: a\r\n  b\r\n\r\n", "400"),
    ("NUL in a value", b"GET /livez HTTP/1.1\r\nHost: t\r\nX-A: a\x00b\r\n\r\n", "400"),
    ("CR in a value", b"GET /livez HTTP/1.1\r\nHost: t\r\nX-A: a\rb\r\n\r\n", "400"),
]
bad = 0
for name, data, want in cases:
    out = exchange(data)
    lines = out.count("HTTP/1.1 ")
    ok = (lines == 1 and out.startswith("HTTP/1.1 " + want)
          and "application/problem+json" in out
          and "\nX-Request-Id: " in out.replace("\r\n", "\n")
          and '"status":"ok"' not in out and "<html" not in out)
    if not ok:
        bad += 1
        print("FAIL %s (want %s):\n%s\n" % (name, want, out[:600]))
sys.exit(1 if bad else 0)
PY

echo "nginx_hostile: ok"
