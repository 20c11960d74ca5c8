#!/bin/sh
# deps.sh - install what puzzled needs on a Debian 12 machine, but only
# what is missing (so it is a no-op on a prepared machine and needs no
# network there). Plain (make run): the build libraries and curl, which
# the README's examples use. --test (make test): also the tools the test
# suite drives (nginx, chromium, python3, and the pinned node packages via
# npm ci - among them the Node.js the tests run on: Debian 12's Node 18
# only bootstraps npm, see package.json).
set -e

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
need_pc cmocka libcmocka-dev
need_pc libcurl libcurl4-openssl-dev
need_cmd curl curl
if [ "$1" = --test ]; then
    need_cmd python3 python3
    [ -x /usr/sbin/nginx ] || missing="$missing nginx-light"
    [ -x /usr/bin/chromium ] || missing="$missing chromium"
    need_cmd node nodejs
    need_cmd npm npm
fi

if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "deps.sh: missing packages:$missing (run as root, or" \
             "apt-get install them)" >&2
        exit 1
    fi
    echo "deps.sh: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >&2
fi
# npm ci again whenever package-lock.json changed since the last install
# (npm writes node_modules/.package-lock.json at the end of each install).
if [ "$1" = --test ] &&
   { [ ! -f node_modules/.package-lock.json ] ||
     [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
    echo "deps.sh: npm ci (test tools: node 20, playwright-core, redocly," \
         "ajv)" >&2
    npm ci --no-audit --no-fund >&2
fi
