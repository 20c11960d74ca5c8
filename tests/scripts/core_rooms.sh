#!/bin/sh
# core_rooms.sh - the core's rooms stay layered (docs/architecture.md):
# a file in src/core/<room>/ includes private headers of its own room or
# of rooms below it only, always room-qualified ("base/search.h"), and
# its object file calls no function (uses no data) defined in a room
# above it. Public headers (include/puz_*.h) are everyone's. Fails
# naming each offending line or symbol.
# Environment: BUILD (build directory holding src/core/*/*.o).
BUILD=${BUILD:-build}
ROOMS="base heur search large solve"     # bottom first
cd "$(dirname "$0")/../.." || exit 2

rank() { # rank ROOM: its place in ROOMS, or nothing when unknown
    i=0
    for r in $ROOMS; do
        [ "$r" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
}

bad=0
for f in src/core/*.c src/core/*.h; do
    [ -e "$f" ] || continue
    echo "core_rooms: $f is in no room (src/core/<room>/)" >&2
    bad=1
done
for d in src/core/*/; do
    room=$(basename "$d")
    [ -n "$(rank "$room")" ] && continue
    echo "core_rooms: src/core/$room/ is not one of: $ROOMS" >&2
    bad=1
done

# Includes, from the sources (one awk over every file).
awk -v rooms="$ROOMS" '
    BEGIN {
        n = split(rooms, r, " ")
        for (i = 1; i <= n; i++)
            rk[r[i]] = i
    }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        split(FILENAME, p, "/")
        room = p[3]
        hdr = $0
        sub(/^[^"]*"/, "", hdr)
        sub(/".*/, "", hdr)
        if (!(room in rk) || hdr ~ /^puz_.*\.h$/)
            next
        if (hdr !~ /\//) {
            printf "core_rooms: %s:%d: \"%s\" is not room-qualified " \
                "(\"<room>/%s\")\n", FILENAME, FNR, hdr, hdr > "/dev/stderr"
            bad = 1
            next
        }
        split(hdr, h, "/")
        if (!(h[1] in rk) || rk[h[1]] > rk[room]) {
            printf "core_rooms: %s:%d: %s includes %s (a room above " \
                "it)\n", FILENAME, FNR, room, hdr > "/dev/stderr"
            bad = 1
        }
    }
    END { exit bad }' src/core/*/*.[ch] || bad=1

# Calls and data, from the objects: who defines each global symbol.
if ls "$BUILD"/src/core/*/*.o >/dev/null 2>&1; then
    nm -A "$BUILD"/src/core/*/*.o | awk -v build="$BUILD/" '
        {
            obj = $1
            sub(/:.*/, "", obj)
            sub("^" build, "", obj)
            split(obj, p, "/")
        }
        $2 ~ /^[TDRBC]$/ { print "def", $3, p[3], obj }
        $2 == "U" { print "use", $3, p[3], obj }' | awk -v rooms="$ROOMS" '
        BEGIN {
            n = split(rooms, r, " ")
            for (i = 1; i <= n; i++)
                rk[r[i]] = i
        }
        $1 == "def" { where[$2] = $3; file[$2] = $4; next }
        { use[++u] = $0 }
        END {
            for (i = 1; i <= u; i++) {
                split(use[i], f, " ")
                if (!(f[2] in where)) continue
                if (rk[where[f[2]]] > rk[f[3]]) {
                    printf "core_rooms: %s (%s) uses %s of %s (%s, " \
                        "a room above it)\n", f[4], f[3], f[2], \
                        file[f[2]], where[f[2]] > "/dev/stderr"
                    bad = 1
                }
            }
            exit bad
        }' || bad=1
else
    echo "core_rooms: no objects in $BUILD/src/core/*/: symbols not checked" >&2
    bad=1
fi
[ $bad = 0 ] && echo "core_rooms: $ROOMS layered, no circle"
exit $bad
