/*
 * wait.c - wait_until (wait.h): the tests' one poll loop.
 */
#include "wait.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* TEST_TIMEOUT_SCALE (tests/run.py's: 4 under the sanitizers, whose code
 * runs several times slower) stretches every wait as it does the suites'
 * timeouts. */
static double scale(void)
{
    const char *s = getenv("TEST_TIMEOUT_SCALE");
    double v = s != NULL ? atof(s) : 1.0;

    return v >= 1.0 ? v : 1.0;
}

double wait_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

bool wait_until(bool (*cond)(void *arg), void *arg, unsigned ms)
{
    double until = wait_now_ms() + ms * scale();
    useconds_t step = 500;

    for (;;) {
        if (cond(arg))
            return true;
        if (wait_now_ms() > until)
            return cond(arg);   /* once more: the pause may have been long */
        /* The poll's pause: what cond waits for has no signal a test
         * can block on (another thread, process or socket moves it). */
        usleep(step);
        if (step < 10000)
            step *= 2;
    }
}
