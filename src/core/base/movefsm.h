/*
 * movefsm.h - the forbidden-move automaton (private to the core): which
 * blank-move strings IDA* may skip because a shorter or earlier string
 * with the same effect is searched instead (Taylor & Korf's duplicate
 * pruning). Built by movefsm.c (for 5x5 with the tables' child order:
 * heur/pdb_fsm.c), read per node by search/idastar_pdb.c.
 */
#ifndef PUZ_MOVEFSM_H
#define PUZ_MOVEFSM_H

#include <stdint.h>

#include "puz_arena.h"
#include "puz_err.h"

/* A transition into a state that ends a forbidden string. */
#define PUZ__FSM_DEAD UINT32_MAX
/* Longest forbidden string the builder looks for. */
#define PUZ__FSM_MAX_LEN 16u

struct puz__movefsm {
    uint32_t *next;          /* next[4 * state + dir]; state 0 = start */
    unsigned states;
    unsigned words;          /* forbidden strings found */
};

/*
 * Build the automaton of forbidden blank-move strings of up to max_len
 * moves (PUZ_UP..PUZ_RIGHT), memory from a. order[0..3] ranks the
 * directions: the order the search tries them in, which decides which of
 * two equal-length strings is "earlier".
 *
 * A string s is forbidden when another string t with the same effect on
 * every tile is shorter, or as long and earlier, and t's blank stays
 * inside the rectangle s's blank covers: then wherever s can be played
 * (on any board), t can, so the (length, order)-first shortest path to
 * any board never contains s, and skipping s keeps IDA* optimal.
 * Strings that undo the previous move are not included (the search
 * prunes them itself). PUZ_ENOMEM when a (or the builder's own scratch
 * memory) runs out; m is then empty.
 */
puz_err puz__movefsm_build(struct puz__movefsm *m, unsigned max_len,
                           const uint8_t order[4], puz_arena *a);

#endif
