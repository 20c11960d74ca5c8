/*
 * truth3.c - the exhaustive 3x3 BFS the tests trust. Deliberately simple
 * and unlike the solver's code: full 9! Lehmer ranks, a malloc'd queue of
 * ranks, neighbours by unranking.
 */
#include <stdlib.h>
#include <string.h>

#include "truth3.h"

uint32_t truth3_rank(const uint8_t *cells)
{
    static const uint32_t fact[9] = { 40320, 5040, 720, 120, 24, 6, 2, 1,
                                      1 };
    uint32_t rank = 0;

    for (int i = 0; i < 9; i++) {
        uint32_t smaller_after = 0;
        for (int j = i + 1; j < 9; j++)
            if (cells[j] < cells[i])
                smaller_after++;
        rank += smaller_after * fact[i];
    }
    return rank;
}

void truth3_unrank(uint32_t rank, uint8_t *cells)
{
    static const uint32_t fact[9] = { 40320, 5040, 720, 120, 24, 6, 2, 1,
                                      1 };
    int used[9] = { 0 };

    for (int i = 0; i < 9; i++) {
        uint32_t k = rank / fact[i];
        rank %= fact[i];
        for (int v = 0; v < 9; v++) {
            if (used[v])
                continue;
            if (k-- == 0) {
                cells[i] = (uint8_t)v;
                used[v] = 1;
                break;
            }
        }
    }
}

unsigned truth3_distance(const struct truth3 *t, const uint8_t *cells)
{
    return t->dist[truth3_rank(cells)];
}

int truth3_build(struct truth3 *t, const uint8_t *goal)
{
    uint32_t *queue = malloc(TRUTH3_PERMS * sizeof(*queue));
    uint32_t head = 0, tail = 0;

    if (queue == NULL)
        return -1;
    memcpy(t->goal, goal, 9);
    memset(t->dist, TRUTH3_NONE, sizeof(t->dist));
    queue[tail++] = truth3_rank(goal);
    t->dist[queue[0]] = 0;
    t->max_dist = 0;
    while (head < tail) {
        uint8_t cells[9];
        uint32_t r = queue[head++];
        int blank = 0;
        truth3_unrank(r, cells);
        while (cells[blank] != 0)
            blank++;
        for (int k = 0; k < 4; k++) {
            int row = blank / 3 + (k == 0 ? -1 : k == 1 ? 1 : 0);
            int col = blank % 3 + (k == 2 ? -1 : k == 3 ? 1 : 0);
            uint8_t next[9];
            uint32_t nr;
            if (row < 0 || row > 2 || col < 0 || col > 2)
                continue;
            memcpy(next, cells, 9);
            next[blank] = next[row * 3 + col];
            next[row * 3 + col] = 0;
            nr = truth3_rank(next);
            if (t->dist[nr] != TRUTH3_NONE)
                continue;
            t->dist[nr] = (uint8_t)(t->dist[r] + 1);
            if (t->dist[nr] > t->max_dist)
                t->max_dist = t->dist[nr];
            queue[tail++] = nr;
        }
    }
    t->reachable = tail;
    free(queue);
    return 0;
}
