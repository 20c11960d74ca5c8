/*
 * wait.h - the one way a C test waits for something to happen: poll a
 * condition until it holds or a deadline of real time passes. A test
 * waits on what it needs (a state, a metric, a file's lines), never for
 * a guessed time; the few sleeps left in tests/ each say why they must
 * be sleeps.
 */
#ifndef TEST_WAIT_H
#define TEST_WAIT_H

#include <stdbool.h>

/* Calls cond(arg) until it returns true or ms milliseconds of real time
 * (the kernel's monotonic clock, not the puz_clock a test may move)
 * have passed; returns cond's last answer. The pause between calls
 * grows from 0.5 ms to 10 ms: quick when the answer is near, cheap on a
 * loaded machine when it is not. cond may do work (a request, a scrape)
 * and keep what it saw in arg for the caller. */
bool wait_until(bool (*cond)(void *arg), void *arg, unsigned ms);

/* The monotonic clock in ms, real time: a test's own timings. */
double wait_now_ms(void);

#endif
