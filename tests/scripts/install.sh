#!/bin/sh
# install.sh - `make install` as a packager runs it, then the installed
# files used as another project would: examples/solve8.c built through
# pkg-config against the installed library, shared and static, and run
# on the longest 8-puzzle (31 moves, checked by the installed `puzzled
# score`); the soname and the exported names; the man pages rendered;
# the systemd unit checked; `make uninstall` leaving no file behind.
# Once with PREFIX a scratch directory, once with DESTDIR and PREFIX=/usr.
# Quiet when it passes; 77 (skipped, reason on stderr) without a C
# compiler or binutils, on a sanitizer build, or after passing everything
# else without groff.
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
for tool in cc make pkg-config readelf nm; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "install: $tool is not installed" >&2
        exit 77
    fi
done
# A sanitizer build's library needs its runtime linked first: what a
# user installs is the release build, checked there.
if nm "$BUILD/libpuzzled.a" 2>/dev/null | grep -q '__[atu]*san_'; then
    echo "install: $BUILD is a sanitizer build; checked on the release build" >&2
    exit 77
fi
# Called from `make test`, a make of our own must not join that one's
# jobserver (it would warn that it cannot).
unset MAKEFLAGS MFLAGS MAKELEVEL
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail=0
skipped=""
bad() { echo "FAIL: install: $*"; fail=1; }

version=$(awk '/^#define PUZ_VERSION_(MAJOR|MINOR|PATCH) /{ v = v s $3; s = "." }
               END { print v }' include/puz_version.h)
major=${version%%.*}
board="8 6 7 2 5 4 3 0 1"       # the 8-puzzle's farthest from the goal

# mk ARGS...: make, its output shown only when it fails.
mk() {
    if ! nice make -s -j2 BUILD="$BUILD" "$@" >"$scratch/make.log" 2>&1; then
        cat "$scratch/make.log"
        bad "make $* failed"
        exit 1
    fi
}

# check_solve8 BINARY: the example's answer is 31 moves that the
# installed puzzled scores as optimal (score 1).
check_solve8() {
    out=$("$@" "$board") || { bad "$* exited $?"; return; }
    case $out in "31 moves: "*) ;; *) bad "$*: '$out'"; return ;; esac
    scored=$("$root/bin/puzzled" score "$board" "${out#31 moves: }")
    case $scored in
    *"optimal 31; score 1.000"*) ;;
    *) bad "$*: its moves score '$scored'" ;;
    esac
}

# --- 1. PREFIX: a prefix of one's own, as `./configure --prefix` -----------
root=$scratch/prefix
mk PREFIX="$root" install
lib=$root/lib
for f in bin/puzzled lib/libpuzzled.so.$version lib/libpuzzled.a \
    include/puzzled/puz_solve.h include/puzzled/puz_version.h \
    lib/pkgconfig/puzzled.pc share/man/man1/puzzled.1 \
    share/man/man5/puzzled.conf.5 lib/systemd/system/puzzled.service; do
    [ -f "$root/$f" ] || bad "$f not installed"
done
[ "$(readlink "$lib/libpuzzled.so.$major")" = "libpuzzled.so.$version" ] ||
    bad "libpuzzled.so.$major does not point at libpuzzled.so.$version"
[ "$(readlink "$lib/libpuzzled.so")" = "libpuzzled.so.$major" ] ||
    bad "the dev link libpuzzled.so does not point at libpuzzled.so.$major"
# Headers only of the core: nothing of the server or its services.
for h in "$root"/include/puzzled/*.h; do
    case ${h##*/} in puz_*.h) ;; *) bad "non-core header ${h##*/} installed";;
    esac
done

# One version everywhere: the header, the binary, pkg-config, the soname.
[ "$("$root/bin/puzzled" --version)" = "puzzled $version" ] ||
    bad "installed puzzled --version is not $version"
PKG_CONFIG_PATH=$lib/pkgconfig
export PKG_CONFIG_PATH
[ "$(pkg-config --modversion puzzled)" = "$version" ] ||
    bad "pkg-config --modversion puzzled is not $version"
readelf -d "$lib/libpuzzled.so.$version" |
    grep -q "(SONAME).*\[libpuzzled.so.$major\]" ||
    bad "soname is not libpuzzled.so.$major"

# Exported: the public puz_ names only (not the core's puz__ helpers).
nm -D --defined-only "$lib/libpuzzled.so.$version" | awk '{print $3}' \
    >"$scratch/syms"
grep -qx puz_solve "$scratch/syms" || bad "puz_solve is not exported"
grep -qx puz_board_parse "$scratch/syms" || bad "puz_board_parse not exported"
grep -qx puz_version "$scratch/syms" || bad "puz_version is not exported"
others=$(grep -v '^puz_[a-z0-9]' "$scratch/syms" | head -5)
[ -z "$others" ] || bad "exported beyond puz_*: $others"

# The example, as its README says, against the installed files only.
cflags="-std=c11 -Wall -Wextra -Wstrict-prototypes -Werror"
if cc $cflags -o "$scratch/solve8" examples/solve8.c \
    $(pkg-config --cflags --libs puzzled) 2>"$scratch/cc.log"; then
    readelf -d "$scratch/solve8" | grep -q "NEEDED.*\[libpuzzled.so.$major\]" ||
        bad "solve8 does not link libpuzzled.so.$major"
    check_solve8 env LD_LIBRARY_PATH="$lib" "$scratch/solve8"
else
    cat "$scratch/cc.log"; bad "solve8 does not build against the shared library"
fi
if cc $cflags -static -o "$scratch/solve8s" examples/solve8.c \
    $(pkg-config --cflags --libs --static puzzled) 2>"$scratch/cc.log"; then
    readelf -d "$scratch/solve8s" | grep -q NEEDED &&
        bad "the -static solve8 still needs shared libraries"
    check_solve8 "$scratch/solve8s"
else
    cat "$scratch/cc.log"; bad "solve8 does not build against libpuzzled.a"
fi

# The man pages: warning-free roff, and puzzled.conf(5) has every key
# `puzzled serve --help` lists (their one source, config.c's table).
man1=$root/share/man/man1/puzzled.1 man5=$root/share/man/man5/puzzled.conf.5
if command -v groff >/dev/null 2>&1; then
    for page in "$man1" "$man5"; do
        warn=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
        [ -z "$warn" ] || bad "${page##*/}: $warn"
    done
    if command -v man >/dev/null 2>&1; then
        LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$man1" 2>/dev/null |
            grep -q "puzzled - optimal sliding-tile" ||
            bad "puzzled(1) does not render"
    fi
else
    skipped="$skipped groff (man pages not rendered)"
fi
for key in $("$root/bin/puzzled" serve --help |
             sed -n 's/^  --\([a-z0-9-]*\)  *PUZZLED_.*/\1/p' | tr - _); do
    [ "$key" = config ] && continue
    grep -qx ".B $key" "$man5" ||
        bad "puzzled.conf(5) lacks the key $key"
done
for page in "$man1" "$man5"; do
    grep -q "^\.TH .*\"puzzled $version\"" "$page" ||
        bad "${page##*/} does not say puzzled $version"
done
for cmd in serve solve score random "pdb build" "pdb verify" "key new"; do
    grep -q "^\.B puzzled $cmd" "$man1" || bad "puzzled(1) lacks $cmd"
done

# The unit: its ExecStart is the installed binary; systemd accepts it.
unit=$root/lib/systemd/system/puzzled.service
grep -qx "ExecStart=$root/bin/puzzled serve --config /etc/puzzled/puzzled.conf" \
    "$unit" || bad "the unit's ExecStart is not $root/bin/puzzled"
if command -v systemd-analyze >/dev/null 2>&1; then
    # The Documentation= pages are looked up with man(1), which a minimal
    # Debian lacks (the pages themselves are checked with groff above).
    man=yes; command -v man >/dev/null 2>&1 || man=no
    warn=$(MANPATH=$root/share/man systemd-analyze verify --man=$man "$unit" 2>&1)
    [ -z "$warn" ] || bad "systemd-analyze verify: $warn"
fi

mk PREFIX="$root" uninstall
left=$(find "$root" ! -type d)
[ -z "$left" ] || bad "make uninstall left: $left"

# --- 2. DESTDIR: a package's staging tree for PREFIX=/usr ------------------
dest=$scratch/dest
mk DESTDIR="$dest" PREFIX=/usr install
[ -f "$dest/usr/lib/libpuzzled.so.$version" ] || bad "DESTDIR: no library"
grep -qx "prefix=/usr" "$dest/usr/lib/pkgconfig/puzzled.pc" ||
    bad "DESTDIR: puzzled.pc's prefix is not /usr"
grep -qx "ExecStart=/usr/bin/puzzled serve --config /etc/puzzled/puzzled.conf" \
    "$dest/usr/lib/systemd/system/puzzled.service" ||
    bad "DESTDIR: the unit's ExecStart is not /usr/bin/puzzled"
mk DESTDIR="$dest" PREFIX=/usr uninstall
left=$(find "$dest" ! -type d)
[ -z "$left" ] || bad "DESTDIR: make uninstall left: $left"

[ $fail = 0 ] || exit 1
if [ -n "$skipped" ]; then
    echo "install: not checked:$skipped" >&2
    exit 77
fi
exit 0
