# serve_url.sh - sourced by the benches and test scripts that start
# `puzzled serve --port 0`: serve_url OUT PID [SECONDS] waits until the
# server's "listening on URL" line is in the file OUT and prints URL;
# fails (prints nothing) when PID exits first or after SECONDS (10).
serve_url() {
    _tries=$(( ${3:-10} * 20 ))
    while [ "$_tries" -gt 0 ]; do
        _url=$(sed -n 's/^listening on \(http:.*\)$/\1/p' "$1" 2>/dev/null)
        [ -n "$_url" ] && { echo "$_url"; return 0; }
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05      # a bounded poll of a file another process writes
        _tries=$((_tries - 1))
    done
    return 1
}
