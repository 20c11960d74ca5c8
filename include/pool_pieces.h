/*
 * pool_pieces.h - run n pieces of one piece of work at once, one thread
 * each, and wait for them: what the core asks of a caller that wants a
 * table build spread over cores (puz_pdb_opts.run; the core itself
 * starts no threads). Knows nothing of puzzles.
 */
#ifndef POOL_PIECES_H
#define POOL_PIECES_H

/* Runs piece(work, i) for every i < n: piece 0 on the calling thread,
 * the others on threads started for this call, and returns when all
 * have finished (joined). A thread that cannot be started leaves its
 * piece to the calling thread, after its own. user is unused (the
 * signature is puz_pdb_run_fn's). */
void pool_run_pieces(void (*piece)(void *work, unsigned i), void *work,
                     unsigned n, void *user);

/* Runs piece(work, i) for every i < n on *(const unsigned *)user threads
 * (this one included; NULL or 0: one), each taking the next index from
 * one shared counter until none is left, and returns when all have
 * finished. The signature is puz_run_fn's (parallel IDA*'s units). */
void pool_run_units(void (*piece)(void *work, unsigned i), void *work,
                    unsigned n, void *user);

#endif
