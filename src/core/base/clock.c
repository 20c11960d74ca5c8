/*
 * clock.c - the one clock (puz_clock.h): the kernel's monotonic and wall
 * clocks plus one offset a test may add (base/clock.h). The offset is
 * the only process-wide state of the core; it is an atomic because the
 * server's threads read the clock while a test's thread moves it.
 */
#include <stdatomic.h>

#include "base/clock.h"
#include "puz_solve.h"

/* Added to both clocks: 0 outside tests. Relaxed loads suffice: a test
 * that moves time then acts (a request, a call) synchronises through
 * that action, and a reader racing the move sees the old time or the
 * new, both honest. */
static _Atomic uint64_t shift_us;

static uint64_t read_us(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t puz_clock_mono_us(void)
{
    return read_us(CLOCK_MONOTONIC)
           + atomic_load_explicit(&shift_us, memory_order_relaxed);
}

int64_t puz_clock_wall_ms(void)
{
    return (int64_t)((read_us(CLOCK_REALTIME)
                      + atomic_load_explicit(&shift_us,
                                             memory_order_relaxed))
                     / 1000u);
}

struct timespec puz_clock_timespec_in(enum puz_clock_kind k, unsigned ms)
{
    struct timespec until;

    clock_gettime(k == PUZ_CLOCK_MONO ? CLOCK_MONOTONIC : CLOCK_REALTIME,
                  &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    return until;
}

/* Deprecated (puz_solve.h): the monotonic clock under its old name, kept
 * for programs built against 0.1.0. */
uint64_t puz_now_us(void)
{
    return puz_clock_mono_us();
}

void puz__clock_advance_us(uint64_t us)
{
    atomic_fetch_add_explicit(&shift_us, us, memory_order_relaxed);
}
