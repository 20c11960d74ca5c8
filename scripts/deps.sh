#!/bin/sh
# deps.sh - install the Debian packages puzzled needs to build and test,
# but only when pkg-config cannot already find them (so it is a no-op on
# a prepared machine and never needs network there).
set -e

missing=""
need() { # need PKGCONFIG-NAME DEBIAN-PACKAGE
    pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"
}
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v cc >/dev/null 2>&1 || missing="$missing gcc libc6-dev"
need libmicrohttpd libmicrohttpd-dev
need jansson libjansson-dev
need cmocka libcmocka-dev
need libcurl libcurl4-openssl-dev
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: missing packages:$missing (run as root, or apt-get install them)" >&2
    exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
