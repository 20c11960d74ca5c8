/*
 * puz_clock.h - the one clock of the library and of the service built on
 * it: monotonic time for spans and deadlines, wall time for what outlives
 * a process or is compared across instances (daily tokens, job records,
 * rate-limit minutes), and the absolute times a timed wait is given.
 * Every reading in src/ comes from here, so a test can move time forward
 * instead of sleeping (src/core/base/clock.h).
 */
#ifndef PUZ_CLOCK_H
#define PUZ_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic time in microseconds (CLOCK_MONOTONIC): spans, deadlines
 * (puz_limits.deadline_us), ages. Its origin means nothing. */
uint64_t puz_clock_mono_us(void);

/* Wall time in milliseconds since the Unix epoch (CLOCK_REALTIME): the
 * clock instances share (NTP), for times stored or compared between
 * processes. May step backwards when the system clock is set. */
int64_t puz_clock_wall_ms(void);

/* Which kernel clock a timed wait measures: PUZ_CLOCK_WALL for a
 * default pthread condition variable or a timed lock, PUZ_CLOCK_MONO for
 * a condition variable set up with pthread_condattr_setclock. */
enum puz_clock_kind { PUZ_CLOCK_MONO, PUZ_CLOCK_WALL };

/* ms from now on that clock as the absolute struct timespec that
 * pthread_cond_timedwait and its kin take. A wait's length is real time:
 * a test moving the clock forward does not shorten it. */
struct timespec puz_clock_timespec_in(enum puz_clock_kind k, unsigned ms);

#endif
