#!/bin/sh
# cli.sh - the command-line contract: exit codes, messages and the
# answers the README promises, checked on the built binary.
PUZZLED=${PUZZLED:-build/puzzled}
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
rm -f /tmp/cli_err.$$
exit $fail
