/*
 * pdb_fsm.c - the forbidden-move automaton of 5x5 searches with pattern
 * databases (movefsm.c), in the child order those searches use, and the
 * copy a loaded 5x5 set keeps so that every search with it shares one.
 */
#include <stdlib.h>
#include <string.h>

#include "heur/pdb_impl.h"

/*
 * The order children are tried in on 5x5: Korf & Felner's (blank
 * up, left, right, down in their frame, whose goal is ours turned by 180
 * degrees): the last iteration then walks the tree as theirs did, and the
 * node counts can be compared with the published ones (without the
 * automaton below they are the same, node for node on #38 and #40).
 * Ordering children by h instead moved each count by 0.37x to 4.3x on
 * the 5 easiest instances, and by 0.92x in total.
 */
const uint8_t puz__pdb_order5[4] = {
    PUZ_DOWN, PUZ_RIGHT, PUZ_LEFT, PUZ_UP,
};

/*
 * 5x5 searches skip the move strings movefsm.c forbids, found up to a
 * length: 10 moves forbid 1,104 strings in a 4,691-state automaton built
 * in about 10 ms and 5 MB of scratch, and cut the nodes of Korf &
 * Felner's easiest instances by about 30%; 12 moves cut about 9% more
 * nodes and CPU again (6-6-6-6z2, 3 easiest, one core: 11.7-11.8 s
 * against 12.8-13.2 s) but cost ~0.3 s and ~75 MB of scratch to build
 * and keep 48,972 states (783 KB). So the automaton a set shares is built
 * once, for 12 moves, when the tables join a puz_tables
 * (puz__pdb_attach_fsm), and the many small window searches of the
 * anytime search get it too; a search whose tables have none builds a
 * 10-move one in its arena (idastar_pdb.c).
 */
puz_err puz__pdb_fsm_build(struct puz__movefsm *fsm, unsigned len,
                           puz_arena *a)
{
    return puz__movefsm_build(fsm, len, puz__pdb_order5, a);
}

puz_err puz__pdb_attach_fsm(struct puz_pdb *d)
{
    struct puz__movefsm fsm;
    puz_arena *scratch;
    size_t bytes;

    if (d->n != 5 || d->rect || d->fsm != NULL)
        return PUZ_OK;
    scratch = puz_arena_create(1u << 20);
    if (scratch == NULL)
        return PUZ_ENOMEM;
    if (puz__pdb_fsm_build(&fsm, PUZ__PDB_FSM_LEN_SHARED, scratch) !=
        PUZ_OK) {
        puz_arena_destroy(scratch);
        return PUZ_ENOMEM;
    }
    bytes = (size_t)fsm.states * 4 * sizeof(*fsm.next);
    d->fsm = malloc(bytes);
    if (d->fsm != NULL) {
        memcpy(d->fsm, fsm.next, bytes);
        d->fsm_bytes = bytes;
    }
    puz_arena_destroy(scratch);
    return d->fsm != NULL ? PUZ_OK : PUZ_ENOMEM;
}
