#!/bin/sh
# core_rooms.sh - the core's rooms stay layered (docs/architecture.md):
# a file in src/core/<room>/ includes private headers of its own room or
# of rooms below it only, always room-qualified ("base/search.h"), and
# its object file calls no function (uses no data) defined in a room
# above it. Public headers (include/puz_*.h) are everyone's. The same
# holds for the layers above the core (APP_LAYERS): the codec and the
# pool stand on the core, the store on the pool, the jobs on the store,
# the API on the jobs (it never includes http), the HTTP glue on the API,
# the CLI on all of them; a header belongs to the layer its name's prefix
# names. Fails naming each offending line or symbol.
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
# The application's layers, bottom first: a directory under src/ (main.c
# is the top), the header prefixes that are its own, and its rank.
APP_LAYERS="core:puz_:0 codec:codec:1 pool:pool:1 conf:conf_key:1 \
store:store:2 jobs:jobs,jobq:3 api:api,daily:4 http:http:5 cli:cli:6 main:-:7"

# Includes: every src/<layer>/ file and every include/ header.
awk -v layers="$APP_LAYERS" '
    BEGIN {
        n = split(layers, l, " ")
        for (i = 1; i <= n; i++) {
            split(l[i], f, ":")
            dirrank[f[1]] = f[3]
            np = split(f[2], pre, ",")
            for (k = 1; k <= np; k++)
                if (pre[k] != "-") { prefix[++npre] = pre[k]; prerank[npre] = f[3]; prename[npre] = f[1] }
        }
    }
    function layer_of_header(h,    k, best, bl) {
        best = -1
        for (k = 1; k <= npre; k++)
            if (index(h, prefix[k]) == 1 && length(prefix[k]) > bl) {
                best = k; bl = length(prefix[k])
            }
        return best
    }
    FNR == 1 {
        me = -1; myname = ""
        if (FILENAME ~ /^include\//) {
            split(FILENAME, p, "/")
            k = layer_of_header(p[2])
            if (k > 0) { me = prerank[k]; myname = prename[k] }
        } else if (FILENAME == "src/main.c") {
            me = dirrank["main"]; myname = "main"
        } else {
            split(FILENAME, p, "/")
            if (p[2] in dirrank) { me = dirrank[p[2]]; myname = p[2] }
        }
    }
    me >= 0 && /^[ \t]*#[ \t]*include[ \t]*"/ {
        hdr = $0
        sub(/^[^"]*"/, "", hdr)
        sub(/".*/, "", hdr)
        if (hdr ~ /\//) next          # a room of the core, checked above
        k = layer_of_header(hdr)
        if (k < 0) {
            printf "core_rooms: %s:%d: \"%s\" belongs to no layer\n", \
                FILENAME, FNR, hdr > "/dev/stderr"
            bad = 1
        } else if (prerank[k] > me) {
            printf "core_rooms: %s:%d: %s includes %s (%s, a layer above " \
                "it)\n", FILENAME, FNR, myname, hdr, prename[k] > "/dev/stderr"
            bad = 1
        }
    }
    END { exit bad }' src/*/*.[ch] src/main.c include/*.h || bad=1

[ $bad = 0 ] && echo "core_rooms: $ROOMS layered, no circle; application layers" \
    "core < codec, pool < store < jobs < api < http < cli < main"
exit $bad
