#!/bin/sh
# cli.sh - the command-line contract: exit codes, messages and the
# answers the README promises, checked on the built binary.
PUZZLED=${PUZZLED:-build/puzzled}
# 4x4 commands read the 6-6-3 tables the unit tests keep in
# $BUILD/pdb-cache (built there on first use, as pdb-cache/ would be; the
# file is written whole and renamed, so a build beside another's is
# safe). A clean clone's make test built them again in ./pdb-cache for
# this script alone: 8 of its 10 CPU-s.
PUZZLED_PDB_DIR="${BUILD:-build}/pdb-cache"
export PUZZLED_PDB_DIR
fail=0
check() { # check DESCRIPTION EXPECTED-EXIT COMMAND...
    desc=$1 want=$2; shift 2
    out=$("$@" 2>/tmp/cli_err.$$); rc=$?
    err=$(cat /tmp/cli_err.$$)
    if [ "$rc" != "$want" ]; then
        echo "FAIL: $desc: exit $rc, wanted $want; stderr: $err"
        fail=1
    fi
}
expect_text() { # expect_text DESCRIPTION HAYSTACK NEEDLE
    case $2 in *"$3"*) ;; *) echo "FAIL: $1: output lacks '$3'"; fail=1 ;; esac
}

check "31-move board solves" 0 "$PUZZLED" solve "8 6 7 2 5 4 3 0 1"
expect_text "31-move board" "$out" "solved in 31 moves (optimal)"
expect_text "31-move board shows boards" "$out" "31. "
check "unsolvable exits 1" 1 "$PUZZLED" solve "1 2 3 4 5 6 8 7 0"
expect_text "unsolvable reason" "$err" "inversions: 1 (odd)"
check "too short exits 2" 2 "$PUZZLED" solve "1 2 3"
expect_text "too short reason" "$err" "got 3"
check "duplicate exits 2" 2 "$PUZZLED" solve "1 1 3 4 5 6 7 8 0"
expect_text "duplicate reason" "$err" "tile 1 appears twice"
check "unknown algorithm exits 2" 2 "$PUZZLED" solve -a magic "123456780"
check "json output" 0 "$PUZZLED" solve --json "8 6 7 2 5 4 3 0 1"
expect_text "json status" "$out" '"status":"solved"'
expect_text "json length" "$out" '"length":31'
check "compact form and quiet" 0 "$PUZZLED" solve -q "123456708"
[ "$out" = "right" ] || { echo "FAIL: quiet output '$out'"; fail=1; }
check "goal option" 0 "$PUZZLED" solve -q --goal "0 1 2 3 4 5 6 7 8" \
    "1 0 2 3 4 5 6 7 8"
[ "$out" = "left" ] || { echo "FAIL: goal option output '$out'"; fail=1; }
check "node limit exits 3" 3 "$PUZZLED" solve -a bfs -n 10 "8 6 7 2 5 4 3 0 1"
expect_text "node limit names the limit" "$err" "limit_nodes"
check "help" 0 "$PUZZLED" --help
# solve --help lists every algorithm and heuristic the spec names (the
# help is printed from the core's registries; test_api_catalog checks
# the spec's enums against them).
spec_enum() { # spec_enum SCHEMA: the names of its enum in openapi.yaml
    awk -v head="    $1:" '$0 == head { on = 1; next }
        on && /enum: \[/ { grab = 1 }
        grab { line = line " " $0 } grab && /\]/ { print line; exit }' \
        "$(dirname "$0")/../../openapi.yaml" | sed 's/.*\[//; s/\].*//; s/,/ /g'
}
check "solve help" 0 "$PUZZLED" solve --help
help=$out
names="$(spec_enum Algorithm) $(spec_enum Heuristic)"
[ "$(echo $names | wc -w)" -ge 10 ] || { echo "FAIL: spec enums: '$names'"; fail=1; }
for name in $names; do
    expect_text "solve --help lists $name" "$help" "$name"
done
check "version" 0 "$PUZZLED" --version
expect_text "version text" "$out" "puzzled "
check "unknown command exits 2" 2 "$PUZZLED" frobnicate

# random: a 3x3 board at exact distance K really is K from the goal
for k in 0 1 17 31; do
    check "random 3x3 $k" 0 "$PUZZLED" random --size 3 --moves $k --seed 7
    board=$out
    check "solve random $k" 0 "$PUZZLED" solve --json "$board"
    expect_text "random board $k is exactly $k away" "$out" "\"length\":$k,"
done
check "random 3x3 too far exits 2" 2 "$PUZZLED" random --size 3 --moves 32
check "random 5x5" 0 "$PUZZLED" random --size 5 --moves 30 --seed 3
check "random bad size" 2 "$PUZZLED" random --size 9
# score: the same numbers as POST /v1/score (which, beyond 3x3, leaves
# optimal_moves null for moves short of the goal rather than search:
# here the optimum is searched for), the same exit codes
check "score a detour" 0 "$PUZZLED" score "1 2 3 4 5 6 0 7 8" "right up down right"
expect_text "score ratio" "$out" "solved in 4 moves; optimal 2; score 0.500"
check "score by tile numbers" 0 "$PUZZLED" score "1 2 3 4 5 6 0 7 8" "7, 8"
expect_text "score tiles" "$out" "score 1.000"
check "score json" 0 "$PUZZLED" score --json "1 2 3 4 5 6 0 7 8" "right down"
expect_text "score json illegal" "$out" '"legal":false,"solved":false,"player_moves":1,"optimal_moves":2,"score":0.0'
check "score unsolvable exits 1" 1 "$PUZZLED" score "1 2 3 4 5 6 8 7 0" "up"
check "score bad move exits 2" 2 "$PUZZLED" score "1 2 3 4 5 6 0 7 8" "right sideways"
expect_text "score bad move names it" "$err" "moves[1] 'sideways' is not a move"
check "score needs two arguments" 2 "$PUZZLED" score "1 2 3 4 5 6 0 7 8"
check "score 4x4 searches" 0 "$PUZZLED" score "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15" "14 15"
expect_text "score 4x4" "$out" "optimal 2; score 1.000"
check "score limit exits 3" 3 "$PUZZLED" score -t 1 \
    --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" \
    "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4" "up"
check "score help" 0 "$PUZZLED" score --help
# Issue 44 finding 4: `key new` refuses what the server's keys file
# refuses (one check, api_keys_parse_words), and prints no key then.
check "key new bad name exits 2" 2 "$PUZZLED" key new "bad name"
expect_text "key new bad name says why" "$err" "a key's name is 1 to 32"
[ -z "$out" ] || { echo "FAIL: key new bad name printed a key"; fail=1; }
check "key new jobs=lots exits 2" 2 "$PUZZLED" key new ok jobs=lots
expect_text "key new jobs=lots names it" "$err" "'jobs=lots' is not"
check "key new 33-byte name exits 2" 2 "$PUZZLED" key new \
    abcdefghijabcdefghijabcdefghijabc
check "key new good" 0 "$PUZZLED" key new ci.bot-1 jobs=3 streams=2 rpm=60
expect_text "key new good line" "$err" "ci.bot-1 "
# pdb build --partition auto: the strongest 5x5 set whose build fits
# --budget (here the small pair, seconds); a budget no set fits, and a
# named set over its budget, are refused (issue 47).
pdbdir=$(mktemp -d)
check "pdb build auto" 0 env PUZZLED_PDB_DIR="$pdbdir" "$PUZZLED" pdb build \
    --partition auto --budget 64m
expect_text "pdb build auto says which" "$err" "auto: 4x6z2, the strongest"
expect_text "pdb build auto builds it" "$out" "4x6z2 tables ready"
check "pdb build auto, budget too small" 2 env PUZZLED_PDB_DIR="$pdbdir" \
    "$PUZZLED" pdb build --partition auto --budget 1m
expect_text "budget too small reason" "$err" "no 5x5 set's build fits"
check "pdb build over budget" 2 env PUZZLED_PDB_DIR="$pdbdir" "$PUZZLED" \
    pdb build --partition 6-6-6-6 --budget 64m
expect_text "over budget reason" "$err" "holds 733.2 MB, over --budget"
check "pdb build bad budget" 2 "$PUZZLED" pdb build --budget 12q
check "pdb choose default" 0 "$PUZZLED" pdb choose
expect_text "pdb choose default takes 6-6-6-6z2" "$out" "6-6-6-6z2: the strongest"
check "pdb choose 768m" 0 "$PUZZLED" pdb choose --budget 768m
expect_text "pdb choose 768m takes 6-6-6-6" "$out" "6-6-6-6: the strongest"
check "pdb choose too small" 2 "$PUZZLED" pdb choose --budget=1k
rm -rf "$pdbdir"
rm -f /tmp/cli_err.$$
exit $fail
