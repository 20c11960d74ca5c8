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

# Includes, from the sources.
for f in src/core/*/*.[ch]; do
    room=$(basename "$(dirname "$f")")
    mine=$(rank "$room")
    [ -n "$mine" ] || continue
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
    while IFS= read -r line; do
        hdr=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
        case $hdr in
        puz_*.h) continue ;;
        */*) ;;
        *) echo "core_rooms: $f:${line%%:*}: \"$hdr\" is not" \
                "room-qualified (\"<room>/$hdr\")" >&2
           echo x; continue ;;
        esac
        theirs=$(rank "${hdr%%/*}")
        if [ -z "$theirs" ] || [ "$theirs" -gt "$mine" ]; then
            echo "core_rooms: $f:${line%%:*}: $room includes $hdr" \
                 "(a room above it)" >&2
            echo x
        fi
    done | grep -q x && bad=1
done

# Calls and data, from the objects: who defines each global symbol.
if ls "$BUILD"/src/core/*/*.o >/dev/null 2>&1; then
    for o in "$BUILD"/src/core/*/*.o; do
        room=$(basename "$(dirname "$o")")
        nm "$o" | awk -v room="$room" -v obj="${o#"$BUILD"/}" \
            '$2 ~ /^[TDRBC]$/ { print "def", $3, room, obj }
             $1 == "U" { print "use", $2, room, obj }'
    done | awk -v rooms="$ROOMS" '
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
