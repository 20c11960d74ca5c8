#!/bin/sh
# deps.sh - install what puzzled needs on a Debian 12 machine, but only
# what is missing (so it is a no-op on a prepared machine and needs no
# network there). Plain (make run): the build libraries (hiredis among
# them, for the shared store) and curl, which the README's examples use.
# --test (make test): also the tools the test suite drives (nginx,
# redis-server, chromium-headless-shell, python3, node and npm). --npm (make test,
# after --test): the pinned node packages via npm ci - among them the
# Node.js the tests run on: Debian 12's Node 18 only runs npm, see
# package.json; make test runs this step beside the build, since it
# mostly waits on the registry (~35 s on a clean clone) while the build
# has the cores. --fuzz (make fuzz): clang and its libFuzzer runtime
# (libclang-rt-dev: only recommended by clang, and recommends are not
# installed here).
#
# apt's output goes to build/deps.log (shown if it fails): a passing
# install printed pages of dpkg lines and service-script warnings.
set -e

# --npm: the node packages only (the packages they run on, Debian's
# node and npm, are --test's apt step, which make test runs first).
npm_only=false
if [ "$1" = --npm ]; then
    npm_only=true
fi

missing=""
need_pc() { # need_pc PKGCONFIG-NAME DEBIAN-PACKAGE
    pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"
}
need_cmd() { # need_cmd COMMAND DEBIAN-PACKAGE
    command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
need_cmd cc "gcc libc6-dev"
need_cmd make make
need_pc libmicrohttpd libmicrohttpd-dev
need_pc jansson libjansson-dev
need_pc sqlite3 libsqlite3-dev
need_pc hiredis libhiredis-dev
need_pc libcrypto libssl-dev
need_pc zlib zlib1g-dev
need_pc cmocka libcmocka-dev
need_pc libcurl libcurl4-openssl-dev
need_cmd curl curl
if [ "$1" = --test ]; then
    need_cmd python3 python3
    # The shared store's tests start a redis-server of their own (never
    # the system service: policy-rc.d below keeps it from starting).
    need_cmd redis-server redis-server
    [ -x /usr/sbin/nginx ] || missing="$missing nginx-light"
    # The browser suites drive Chromium's headless shell: the same
    # engine without the full browser's compositing, for a fifth less
    # CPU (tests/e2e/harness.mjs says how much); any chromium will do.
    [ -x /usr/bin/chromium-headless-shell ] || [ -x /usr/bin/chromium ] ||
        missing="$missing chromium-headless-shell"
    # Debian's npm (and the nodejs and ~335 node-* packages it pulls in)
    # only runs `npm ci`: nothing else here knows which registry npm is
    # configured with, and the repository names none.
    need_cmd node nodejs
    need_cmd npm npm
fi
if [ "$1" = --fuzz ]; then
    need_cmd clang clang
    if ! command -v clang >/dev/null 2>&1 ||
       ! ls "$(clang -print-resource-dir)"/lib/linux/libclang_rt.fuzzer-*.a \
            >/dev/null 2>&1; then
        missing="$missing libclang-rt-dev"
    fi
fi

log=build/deps.log
apt_install() {
    mkdir -p build
    : >"$log"
    # No service starts during the install: nginx's package would start
    # the system nginx on port 80 (the tests run their own, on other
    # ports). An existing policy-rc.d (container images have one) stays.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        trap 'rm -f /usr/sbin/policy-rc.d' EXIT INT TERM
    fi
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if ! { apt-get update -q >>"$log" 2>&1 &&
           apt-get install -y -q --no-install-recommends $missing \
               >>"$log" 2>&1; }; then
        tail -n 30 "$log" >&2
        echo "deps.sh: apt-get failed; its whole output is in $log" >&2
        exit 1
    fi
}

if [ -n "$missing" ] && ! $npm_only; then
    if [ "$(id -u)" != 0 ]; then
        echo "deps.sh: missing packages:$missing (run as root, or" \
             "apt-get install them)" >&2
        exit 1
    fi
    echo "deps.sh: installing$missing and what they need (apt-get;" \
         "make test's first run takes a few minutes here)" >&2
    start=$(date +%s)
    apt_install
    echo "deps.sh: installed in $(( $(date +%s) - start )) s:" \
         "$(grep -m1 'newly installed' "$log" || true)" \
         "$(grep -m1 '^Need to get' "$log" || true)" \
         "(apt's output: $log)" >&2
fi
# npm ci again whenever package-lock.json changed since the last install
# (npm writes node_modules/.package-lock.json at the end of each install).
# Debian's npm runs on Debian's Node 18, older than the tools ask for
# (they run on the pinned Node 24): its engine warnings are not shown.
if $npm_only &&
   { [ ! -f node_modules/.package-lock.json ] ||
     [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
    echo "deps.sh: npm ci (test tools: Node 24, playwright-core, redocly," \
         "ajv, axe-core)" >&2
    # Its "added N packages" goes to the log too, shown if it fails.
    mkdir -p build
    if ! npm ci --no-audit --no-fund --no-update-notifier --loglevel=error \
            >build/npm.log 2>&1; then
        tail -n 30 build/npm.log >&2
        echo "deps.sh: npm ci failed; its whole output is in build/npm.log" >&2
        exit 1
    fi
fi
