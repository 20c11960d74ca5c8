#!/bin/sh
# deps.sh - install what puzzled needs on a Debian 12 machine, but only
# what is missing (so it is a no-op on a prepared machine and needs no
# network there). Plain: the build libraries. --test: also the tools the
# test suite drives (curl, nginx, chromium, node packages via npm ci).
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
need_pc cmocka libcmocka-dev
need_pc libcurl libcurl4-openssl-dev
if [ "$1" = --test ]; then
    need_cmd curl curl
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
if [ "$1" = --test ] && [ ! -d node_modules/playwright-core ]; then
    echo "deps.sh: npm ci (test tools: playwright-core, redocly, ajv)" >&2
    npm ci --no-audit --no-fund >&2
fi
