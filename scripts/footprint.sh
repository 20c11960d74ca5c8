#!/bin/sh
# footprint.sh - measures what running and testing puzzled costs, so that
# the figures in README.md and docs/footprint.md come from a command, not
# from memory:
#   - the Debian packages `make run` and `make test` install on a fresh
#     Debian 12 (the lists scripts/deps.sh checks for), with download and
#     installed sizes: apt-get --simulate against an empty package status,
#     from what a fresh Debian 12 has (Priority: required, plus apt) and
#     the README's first command (git make ca-certificates), so the answer
#     does not depend on what this machine already has;
#   - node_modules/ (npm ci, make test's node tools), build/ and
#     pdb-cache/ as they are in this checkout;
#   - with --pdb, the first start's table builds, timed: `puzzled pdb
#     build` of the sets config/puzzled.conf asks for (4x4 6-6-3, the six
#     rectangles, 5x5 6-6-6-6z2: what pdb_5x5 = auto takes at the default
#     pdb_budget) into a scratch directory, and its size. Minutes of CPU
#     and ~1 GB of memory.
# usage: sh scripts/footprint.sh [--pdb]     (from the repository root;
# needs apt-get and apt-cache, i.e. Debian; reads, never installs)
cd "$(dirname "$0")/.." || exit 1
PUZZLED=${PUZZLED:-build/puzzled}
pdb=0
[ "$1" = --pdb ] && pdb=1
command -v apt-get >/dev/null 2>&1 || { echo "footprint: needs apt-get" >&2
                                        exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The packages deps.sh names: outside its option blocks (make run), and
# inside its `--test` block (make test adds them); other blocks (--fuzz:
# make fuzz's clang) are neither.
awk '
    /^if \[ "\$1" = --test \]; then/ { t = 1; next }
    /^if \[ "\$1" = --[a-z]+ \]; then/ { skip = 1; next }
    (t || skip) && /^fi/ { t = 0; skip = 0; next }
    skip { next }
    {
        n = split($0, w, " ")
        if (w[1] == "need_pc" || w[1] == "need_cmd") {
            for (i = 3; i <= n; i++) { gsub(/"/, "", w[i]); print (t ? "test" : "run"), w[i] }
        } else if (match($0, /missing="\$missing [a-z0-9.+-]+"/)) {
            s = substr($0, RSTART, RLENGTH); sub(/.* /, "", s); sub(/"$/, "", s)
            print (t ? "test" : "run"), s
        }
    }' scripts/deps.sh >"$tmp/lists"
run_pkgs=$(awk '$1 == "run" { printf "%s ", $2 }' "$tmp/lists")
test_pkgs=$(awk '$1 == "test" { printf "%s ", $2 }' "$tmp/lists")
quick_pkgs="git make ca-certificates"

# A fresh Debian 12 is what debootstrap's minbase variant (the Docker
# image) unpacks: the archive's Priority: required packages and apt. apt
# simulates against an empty package status; each step's list is what it
# adds to the step before.
required=$(apt-cache dumpavail | awk -v RS= '/\nPriority: required\n/' |
           awk '/^Package: / { print $2 }' | sort -u | tr '\n' ' ')
: >"$tmp/status"
# simulate PKG... - the packages apt-get would unpack, one a line.
simulate() {
    apt-get -s -o Dir::State::status="$tmp/status" -o Debug::NoLocking=1 \
        install --no-install-recommends "$@" 2>/dev/null |
        awk '/^Inst / { print $2 }' | sort -u
}
# sizes FILE - count, download MB, installed MB of the packages listed.
sizes() {
    # shellcheck disable=SC2046
    apt-cache show --no-all-versions $(cat "$1") 2>/dev/null | awk -v n="$(wc -l <"$1")" '
        /^Size: / { dl += $2 }
        /^Installed-Size: / { inst += $2 }
        END { printf "%d packages, %.1f MB to download, %.1f MB installed\n",
                     n, dl / 1e6, inst * 1024 / 1e6 }'
}
# shellcheck disable=SC2086
simulate $required apt >"$tmp/base"
# shellcheck disable=SC2086
simulate $required apt $quick_pkgs | comm -13 "$tmp/base" - >"$tmp/quick"
sort -u "$tmp/base" "$tmp/quick" >"$tmp/before"
# shellcheck disable=SC2086
simulate $required apt $quick_pkgs $run_pkgs |
    comm -13 "$tmp/before" - >"$tmp/run"
# shellcheck disable=SC2086
simulate $required apt $quick_pkgs $run_pkgs $test_pkgs |
    comm -13 "$tmp/before" - >"$tmp/test"
[ -s "$tmp/run" ] || { echo "footprint: apt-get --simulate gave nothing" \
                            "(no package lists? run apt-get update)" >&2
                       exit 1; }
nodes=$(grep -c '^node-' "$tmp/test")

echo "# puzzled footprint ($(date -u +%Y-%m-%d), $(. /etc/os-release && echo "$PRETTY_NAME"), $(nproc) cores)"
echo
echo "Simulated on a fresh Debian 12 (apt-get --simulate, --no-install-recommends as deps.sh; apt's package lists of $(date -u -r /var/lib/apt/lists +%Y-%m-%d 2>/dev/null)):"
echo "- a fresh Debian 12 (Priority: required + apt): $(wc -l <"$tmp/base") packages"
echo "- README's first command ($quick_pkgs): $(sizes "$tmp/quick")"
echo "- make run adds ($run_pkgs): $(sizes "$tmp/run")"
echo "- make test adds, in all (also $test_pkgs): $(sizes "$tmp/test"); $nodes of them node-* (Debian's npm)"
echo
echo "Measured in this checkout:"
kb() { du -skL "$1" 2>/dev/null | awk '{ printf "%.0f MB", $1 * 1024 / 1e6 }'; }
if [ -d node_modules ]; then
    echo "- node_modules/ (npm ci): $(kb node_modules/)"
else
    echo "- node_modules/: absent (make test runs npm ci)"
fi
[ -d build ] && echo "- build/ (objects, binaries, test output): $(kb build/)"
[ -d pdb-cache ] && echo "- pdb-cache/ as it is: $(kb pdb-cache/) ($(ls pdb-cache | wc -l) files)"
inst_test=$(sizes "$tmp/test" | sed 's/.*download, \([0-9.]*\) MB installed.*/\1/')
dl_test=$(sizes "$tmp/test" | sed 's/.*packages, \([0-9.]*\) MB to download.*/\1/')
inst_run=$(sizes "$tmp/run" | sed 's/.*download, \([0-9.]*\) MB installed.*/\1/')
nm=$(du -skL node_modules/ 2>/dev/null | awk '{ print $1 * 1024 / 1e6 }')
echo "- disk after make test, packages installed (simulated) + node_modules/: $(echo "$inst_test ${nm:-0}" | awk '{ printf "%.0f MB", $1 + $2 }') (+ $dl_test MB of .deb files in /var/cache/apt/archives until apt-get clean)"
echo "- disk after make run, packages installed (simulated): $inst_run MB"

if [ $pdb = 1 ]; then
    [ -x "$PUZZLED" ] || { echo "footprint: $PUZZLED not built (make)" >&2
                           exit 1; }
    echo
    echo "First start's tables, built into an empty directory with \`puzzled pdb build --threads 2\` (what pdb_background builds on a first start, one set after another):"
    export PUZZLED_PDB_DIR="$tmp/pdb"
    mkdir -p "$PUZZLED_PDB_DIR"
    total=0
    for set in 6-6-3 2x5 2x6 3x4 2x7 3x5 2x8 6-6-6-6z2; do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
            "$PUZZLED" pdb build --partition $set --threads 2 \
            >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
        read -r wall user sys rss <"$tmp/time"
        total=$(echo "$total $wall" | awk '{ print $1 + $2 }')
        echo "- $set: $wall s wall, $(echo "$user $sys" | awk '{ print $1 + $2 }') s CPU, peak $(( rss / 1024 )) MB"
    done
    echo "- all: $total s wall; pdb-cache/ then holds $(kb "$PUZZLED_PDB_DIR/")"
fi
