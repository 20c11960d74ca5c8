/*
 * pool.c - bounded FIFO of jobs and the worker threads that drain it.
 *
 * One mutex guards the queue and the counters; `work` wakes workers when
 * a job arrives or the pool stops, `idle` wakes pool_drain() when the
 * last job finishes. The queue is an intrusive singly linked list, so
 * submitting never allocates and a full queue costs nothing to refuse.
 */
#include "pool.h"
#include "puz_clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work;        /* a job was queued, or stopping */
    pthread_cond_t idle;        /* queue empty and no worker busy */
    struct pool_job *head;      /* oldest waiting job */
    struct pool_job *tail;
    struct pool_job **running;  /* per worker: the job it runs, or NULL */
    pthread_t *threads;
    int nice;                   /* added to each worker's niceness */
    bool stopping;              /* workers exit once the queue is empty */
    /* Counts and state as pool_get_stats hands them out; st.workers is
     * the threads actually started, st.closed: no more submissions. */
    struct pool_stats st;
};

/* What a worker thread needs to know; freed by the worker itself. */
struct worker_arg {
    pool_t *pool;
    unsigned index;
};

/* Pop the oldest job; the caller holds the lock and knows one exists. */
static struct pool_job *queue_pop(pool_t *p)
{
    struct pool_job *job = p->head;

    p->head = job->next;
    if (p->head == NULL)
        p->tail = NULL;
    job->next = NULL;
    p->st.queued--;
    return job;
}

static void *worker_main(void *argp)
{
    struct worker_arg *arg = argp;
    pool_t *p = arg->pool;
    unsigned w = arg->index;
    struct pool_job *job;

    free(arg);
    /* Best effort: a worker that cannot lower its priority still works. */
    if (p->nice != 0)
        (void)!setpriority(PRIO_PROCESS, (id_t)gettid(),
                           getpriority(PRIO_PROCESS, (id_t)gettid())
                           + p->nice);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->head == NULL && !p->stopping)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->head == NULL)
            break;
        job = queue_pop(p);
        p->running[w] = job;
        p->st.busy++;
        pthread_mutex_unlock(&p->lock);

        job->run(job, w);

        pthread_mutex_lock(&p->lock);
        p->running[w] = NULL;
        if (job->done != NULL) {
            /* Still counted busy, so pool_drain() waits for done(). */
            pthread_mutex_unlock(&p->lock);
            job->done(job);     /* the job may be gone from here on */
            pthread_mutex_lock(&p->lock);
        }
        p->st.busy--;
        p->st.completed++;
        if (p->st.busy == 0 && p->head == NULL)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static puz_err init_sync(pool_t *p)
{
    pthread_condattr_t attr;

    if (pthread_mutex_init(&p->lock, NULL) != 0)
        return PUZ_ENOMEM;
    pthread_condattr_init(&attr);
    /* pool_drain() measures its timeout on the monotonic clock. */
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->idle, &attr);
    pthread_condattr_destroy(&attr);
    return PUZ_OK;
}

static puz_err start_workers(pool_t *p, unsigned n)
{
    struct worker_arg *arg;

    for (unsigned i = 0; i < n; i++) {
        arg = malloc(sizeof(*arg));
        if (arg == NULL)
            return PUZ_ENOMEM;
        arg->pool = p;
        arg->index = i;
        if (pthread_create(&p->threads[i], NULL, worker_main, arg) != 0) {
            free(arg);
            return PUZ_EIO;
        }
        p->st.workers++;
    }
    return PUZ_OK;
}

puz_err pool_create(const struct pool_config *cfg, pool_t **out)
{
    pool_t *p;
    puz_err rc;

    *out = NULL;
    if (cfg == NULL || cfg->workers == 0 || cfg->queue == 0)
        return PUZ_EINVAL;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return PUZ_ENOMEM;
    p->st.capacity = cfg->queue;
    p->nice = cfg->nice;
    p->threads = calloc(cfg->workers, sizeof(*p->threads));
    p->running = calloc(cfg->workers, sizeof(*p->running));
    if (p->threads == NULL || p->running == NULL) {
        rc = PUZ_ENOMEM;
        goto out_free;
    }
    rc = init_sync(p);
    if (rc != PUZ_OK)
        goto out_free;
    rc = start_workers(p, cfg->workers);
    if (rc != PUZ_OK) {
        pool_destroy(p);    /* joins the threads that did start */
        return rc;
    }
    *out = p;
    return PUZ_OK;
out_free:
    free(p->running);
    free(p->threads);
    free(p);
    return rc;
}

puz_err pool_submit(pool_t *p, struct pool_job *job)
{
    puz_err rc = PUZ_OK;

    if (p == NULL || job == NULL || job->run == NULL)
        return PUZ_EINVAL;
    pthread_mutex_lock(&p->lock);
    if (p->st.closed) {
        rc = PUZ_ECLOSED;
        goto out_unlock;
    }
    /* Jobs idle workers are about to take are not waiting: only what
     * is queued beyond them counts against the capacity. (A worker that
     * was signalled but has not woken yet is still idle here.) */
    if (p->st.queued >= p->st.capacity + (p->st.workers - p->st.busy)) {
        p->st.rejected++;
        rc = PUZ_EFULL;
        goto out_unlock;
    }
    atomic_store(&job->cancel, 0);
    job->enqueued_us = puz_clock_mono_us();
    job->next = NULL;
    if (p->tail != NULL)
        p->tail->next = job;
    else
        p->head = job;
    p->tail = job;
    p->st.queued++;
    p->st.submitted++;
    pthread_cond_signal(&p->work);
out_unlock:
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void pool_close(pool_t *p)
{
    pthread_mutex_lock(&p->lock);
    p->st.closed = true;
    pthread_mutex_unlock(&p->lock);
}

/* The caller holds the lock. */
static void cancel_queued(pool_t *p)
{
    for (struct pool_job *j = p->head; j != NULL; j = j->next)
        atomic_store(&j->cancel, 1);
}

void pool_cancel_waiting(pool_t *p)
{
    pthread_mutex_lock(&p->lock);
    cancel_queued(p);
    pthread_mutex_unlock(&p->lock);
}

void pool_cancel_all(pool_t *p)
{
    pthread_mutex_lock(&p->lock);
    cancel_queued(p);
    for (unsigned i = 0; i < p->st.workers; i++) {
        if (p->running[i] != NULL)
            atomic_store(&p->running[i]->cancel, 1);
    }
    pthread_mutex_unlock(&p->lock);
}

unsigned pool_flush_waiting(pool_t *p)
{
    struct pool_job *list, *job;
    unsigned n = 0;

    pthread_mutex_lock(&p->lock);
    cancel_queued(p);
    list = p->head;
    p->head = p->tail = NULL;
    p->st.queued = 0;
    pthread_mutex_unlock(&p->lock);
    /* Outside the lock: run() and done() may take their own locks. */
    while (list != NULL) {
        job = list;
        list = job->next;
        job->next = NULL;
        job->run(job, POOL_NO_WORKER);
        if (job->done != NULL)
            job->done(job);
        n++;
    }
    pthread_mutex_lock(&p->lock);
    p->st.completed += n;
    if (p->st.busy == 0 && p->head == NULL)
        pthread_cond_broadcast(&p->idle);
    pthread_mutex_unlock(&p->lock);
    return n;
}

puz_err pool_drain(pool_t *p, unsigned timeout_ms)
{
    struct timespec until = puz_clock_timespec_in(PUZ_CLOCK_MONO,
                                                 timeout_ms);
    puz_err rc = PUZ_OK;
    int e = 0;

    pthread_mutex_lock(&p->lock);
    while ((p->st.busy > 0 || p->head != NULL) && e != ETIMEDOUT)
        e = pthread_cond_timedwait(&p->idle, &p->lock, &until);
    if (p->st.busy > 0 || p->head != NULL)
        rc = PUZ_ETIMEDOUT;
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void pool_destroy(pool_t *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    p->st.closed = true;
    p->stopping = true;
    pthread_mutex_unlock(&p->lock);
    pool_cancel_all(p);
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->st.workers; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->lock);
    free(p->running);
    free(p->threads);
    free(p);
}

void pool_get_stats(pool_t *p, struct pool_stats *out)
{
    pthread_mutex_lock(&p->lock);
    *out = p->st;
    pthread_mutex_unlock(&p->lock);
}
