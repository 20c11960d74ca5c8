/*
 * truth3.h - independent ground truth for the 3x3 puzzle: a plain
 * breadth-first search over all 9! permutations written separately from
 * the solver (its own ranking, its own move code), so the tests compare
 * the solver against something that shares none of its code.
 */
#ifndef TRUTH3_H
#define TRUTH3_H

#include <stdint.h>

#define TRUTH3_PERMS 362880u
#define TRUTH3_NONE 255u

struct truth3 {
    uint8_t goal[9];
    uint8_t dist[TRUTH3_PERMS];   /* by full Lehmer rank; 255 unreachable */
    uint32_t reachable;
    unsigned max_dist;
};

/* Fill t by BFS from goal (9 cells, 0 = blank). Returns 0 on success. */
int truth3_build(struct truth3 *t, const uint8_t *goal);
uint32_t truth3_rank(const uint8_t *cells);
void truth3_unrank(uint32_t rank, uint8_t *cells);
unsigned truth3_distance(const struct truth3 *t, const uint8_t *cells);

#endif
