/*
 * clock.h - the clock's test hook (private: not in the shared library's
 * exports, reached by tests linking libpuzzled.a). A test moves
 * puz_clock_mono_us and puz_clock_wall_ms forward together, for every
 * thread at once, to let a TTL, a lease or a token expire without
 * sleeping through it.
 */
#ifndef PUZ_BASE_CLOCK_H
#define PUZ_BASE_CLOCK_H

#include <stdint.h>

#include "puz_clock.h"

/* Both clocks read us later from now on (cumulative). Safe from any
 * thread; a reader sees the new time once it synchronises with the
 * caller (a lock, a socket, a thread start). There is no way back: a
 * monotonic clock that went back would turn every age computed as now
 * minus then into a huge number. */
void puz__clock_advance_us(uint64_t us);

#endif
