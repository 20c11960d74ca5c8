#!/bin/sh
# http_dockerfile.sh - what can be checked of the Dockerfile without a
# container engine: a multi-stage Debian 12 build, a non-root user,
# EXPOSE 8080, a HEALTHCHECK on /livez, a 0.0.0.0 bind, every COPY source
# present, and the runtime packages providing exactly the shared
# libraries the built binary needs (ldd).
cd "$(dirname "$0")/../.." || exit 1
PUZZLED=${PUZZLED:-build/puzzled}
f=Dockerfile
fail() { echo "http_dockerfile: $*" >&2; exit 1; }
[ -f $f ] || fail "no Dockerfile"
[ "$(grep -c '^FROM debian:bookworm' $f)" -ge 2 ] \
    || fail "not a multi-stage bookworm build"
grep -q '^FROM .* AS build' $f || fail "no named build stage"
grep -q '^COPY --from=build ' $f || fail "runtime does not copy from build"
grep -Eq '^USER (10001|puzzled)' $f || fail "no non-root USER"
grep -q '^EXPOSE 8080' $f || fail "no EXPOSE 8080"
grep -A1 "^HEALTHCHECK" $f | grep -q /livez || fail "HEALTHCHECK not on /livez"
grep -q 'PUZZLED_BIND=0.0.0.0' $f || fail "does not listen on 0.0.0.0"
grep -q '^ENTRYPOINT \["/usr/local/bin/puzzled", "serve"\]' $f \
    || fail "entrypoint is not puzzled serve"
for src in $(sed -n 's/^COPY \([^-][^ ]*\) .*/\1/p' $f); do
    [ -e "$src" ] || fail "COPY source $src missing"
done
# The runtime stage installs the Debian packages of the libraries the
# binary is linked against; check they are the ones ldd reports.
if [ -x "$PUZZLED" ] && command -v ldd >/dev/null 2>&1; then
    libs=$(ldd "$PUZZLED" | awk '{print $1}')
    for lib in $libs; do
        case $lib in
        libmicrohttpd.so.12) grep -q libmicrohttpd12 $f || fail "$lib" ;;
        libjansson.so.4) grep -q libjansson4 $f || fail "$lib" ;;
        libsqlite3.so.0) grep -q libsqlite3-0 $f || fail "$lib" ;;
        libhiredis.so.0.14) grep -q libhiredis0.14 $f || fail "$lib" ;;
        libmicrohttpd*|libjansson*|libsqlite3*|libhiredis*)
            fail "unexpected $lib: fix packages" ;;
        esac
    done
fi
echo "http_dockerfile: ok"
