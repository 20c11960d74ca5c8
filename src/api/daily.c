/*
 * daily.c - the day's boards (daily.h). The seed is a hash of the date
 * and the size, so every server hands out the same board on the same day
 * without storing it; a submission is replayed here before it is stored.
 */
#include "daily.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "puz_random.h"
#include "puz_solve.h"
#include "store.h"

bool daily_date_ok(const char *day)
{
    static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                31 };
    int y, m, d;
    char tail;

    if (!store_day_ok(day))
        return false;
    if (sscanf(day, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
        return false;
    if (y < 2000 || y > 2999 || m < 1 || m > 12 || d < 1 || d > days[m - 1])
        return false;
    return !(m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 || y % 400 == 0)));
}

void daily_today(int64_t now, char *buf)
{
    time_t t = (time_t)now;
    struct tm tm;

    gmtime_r(&t, &tm);
    strftime(buf, 11, "%Y-%m-%d", &tm);
}

unsigned daily_walk(unsigned size)
{
    return size == 3 ? 24 : size == 4 ? 40 : 60;
}

/* FNV-1a over "day/size": a stable seed. */
static uint64_t seed_of(const char *day, unsigned size)
{
    char key[32];
    uint64_t h = 1469598103934665603ull;

    snprintf(key, sizeof(key), "puzzled-daily/%s/%u", day, size);
    for (const char *p = key; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 1099511628211ull;
    }
    return h;
}

puz_err daily_board(const char *day, unsigned size, const puz_table3 *table,
                    struct puz_board *out)
{
    struct puz_rng rng;

    if (!daily_date_ok(day) || size < DAILY_MIN_SIZE ||
        size > DAILY_MAX_SIZE || (size == 3 && table == NULL))
        return PUZ_EINVAL;
    puz_rng_seed(&rng, seed_of(day, size));
    return puz_random_board(size, daily_walk(size), NULL,
                            size == 3 ? table : NULL, &rng, out);
}

puz_err daily_verify(const struct puz_board *start, const uint8_t *moves,
                     unsigned count, char *msg)
{
    struct puz_board end, goal;

    if (count == 0 || count > DAILY_MAX_MOVES) {
        snprintf(msg, PUZ_MSG_MAX, "a solution has 1 to %d moves",
                 DAILY_MAX_MOVES);
        return PUZ_EINVAL;
    }
    if (puz_replay(start, moves, count, &end) != PUZ_OK) {
        snprintf(msg, PUZ_MSG_MAX, "a move cannot be made on the day's "
                 "board: the move list does not come from playing it");
        return PUZ_EINVAL;
    }
    puz_board_goal(start->n, &goal);
    if (!puz_board_equal(&end, &goal)) {
        snprintf(msg, PUZ_MSG_MAX, "the moves are legal but do not reach "
                 "the goal");
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}
