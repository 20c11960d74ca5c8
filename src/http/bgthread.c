/*
 * bgthread.c - what the server's own background threads share (conns.c's
 * watchdog, keysync.c's rounds): each sleeps on a condition between
 * ticks, under its lock, until told to stop.
 */
#include "http_int.h"

void http__bgthread_cond_init(pthread_cond_t *wake)
{
    pthread_condattr_t attr;

    /* timed waits on the monotonic clock: a step of the wall clock
     * neither stalls a tick nor runs one early */
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(wake, &attr);
    pthread_condattr_destroy(&attr);
}

void http__bgthread_stop(pthread_mutex_t *lock, pthread_cond_t *wake,
                         bool *stop, pthread_t thread)
{
    pthread_mutex_lock(lock);
    *stop = true;
    pthread_cond_signal(wake);
    pthread_mutex_unlock(lock);
    pthread_join(thread, NULL);
}
