/*
 * test_pool.c - the bounded job queue and its workers, without any HTTP:
 * every job runs exactly once (then done()), a full queue refuses at
 * once, a closed pool refuses, cancel flags reach waiting and running
 * jobs, drain waits and times out, and destroy still runs what was
 * queued. Run it under SANITIZER=thread too.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "pool.h"
#include "puz_clock.h"
#include "support/wait.h"

/* A gate jobs can wait at until the test opens it. */
struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;
    atomic_int waiting;
};

struct tjob {
    struct pool_job base;       /* first */
    struct gate *gate;          /* NULL: do not wait */
    atomic_int runs;
    atomic_int dones;
    atomic_int saw_cancel;
    atomic_int done_after_run;
    unsigned worker;
};

static void gate_init(struct gate *g)
{
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    g->open = false;
    atomic_store(&g->waiting, 0);
}

static void gate_open(struct gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->open = true;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static void gate_destroy(struct gate *g)
{
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->lock);
}

/* Wait at the gate; leave early once cancelled (like a solver does). */
static void tjob_run(struct pool_job *pj, unsigned worker)
{
    struct tjob *j = (struct tjob *)pj;

    j->worker = worker;
    atomic_fetch_add(&j->runs, 1);
    if (j->gate != NULL) {
        atomic_fetch_add(&j->gate->waiting, 1);
        pthread_mutex_lock(&j->gate->lock);
        while (!j->gate->open && !atomic_load(&j->base.cancel)) {
            /* Poll: the cancel flag has no condition variable (a job
             * waiting for its gate or cancel: the work, not the test's
             * synchronisation). */
            pthread_mutex_unlock(&j->gate->lock);
            usleep(1000);
            pthread_mutex_lock(&j->gate->lock);
        }
        pthread_mutex_unlock(&j->gate->lock);
    }
    atomic_store(&j->saw_cancel, atomic_load(&j->base.cancel));
}

static void tjob_done(struct pool_job *pj)
{
    struct tjob *j = (struct tjob *)pj;

    atomic_store(&j->done_after_run, atomic_load(&j->runs) == 1);
    atomic_fetch_add(&j->dones, 1);
}

static void tjob_init(struct tjob *j, struct gate *g)
{
    memset(j, 0, sizeof(*j));
    j->base.run = tjob_run;
    j->base.done = tjob_done;
    j->gate = g;
}

static pool_t *make_pool(unsigned workers, unsigned queue)
{
    struct pool_config cfg = { workers, queue, 0 };
    pool_t *p = NULL;

    assert_int_equal(pool_create(&cfg, &p), PUZ_OK);
    assert_non_null(p);
    return p;
}

struct at_least {
    atomic_int *v;
    int want;
};

static bool reached(void *arg)
{
    const struct at_least *a = arg;

    return atomic_load(a->v) >= a->want;
}

/* Until *v >= want: 5 s at most, then the test fails saying so. */
static void wait_for(atomic_int *v, int want)
{
    struct at_least a = { v, want };

    if (!wait_until(reached, &a, 5000))
        fail_msg("waited 5 s for jobs waiting at the gate");
}

static void test_rejects_bad_config(void **state)
{
    struct pool_config zero_workers = { 0, 4, 0 }, zero_queue = { 2, 0, 0 };
    pool_t *p = (pool_t *)1;

    (void)state;
    assert_int_equal(pool_create(&zero_workers, &p), PUZ_EINVAL);
    assert_null(p);
    assert_int_equal(pool_create(&zero_queue, &p), PUZ_EINVAL);
    assert_int_equal(pool_create(NULL, &p), PUZ_EINVAL);
}

/* A job that notes the niceness of the worker that runs it. */
struct nice_job {
    struct pool_job base;
    atomic_int seen;            /* niceness + 100, 0 = not run yet */
};

static void nice_run(struct pool_job *pj, unsigned worker)
{
    struct nice_job *j = (struct nice_job *)pj;

    (void)worker;
    atomic_store(&j->seen, getpriority(PRIO_PROCESS, (id_t)gettid()) + 100);
}

/* The workers run `nice` nicer than the thread that made the pool, so
 * searches give way to the network threads when every core is busy. */
static void test_workers_nicer(void **state)
{
    struct pool_config cfg = { 1, 4, 5 };
    struct nice_job j = { .base = { .run = nice_run } };
    int mine = getpriority(PRIO_PROCESS, (id_t)gettid());
    pool_t *p = NULL;

    (void)state;
    assert_int_equal(pool_create(&cfg, &p), PUZ_OK);
    assert_int_equal(pool_submit(p, &j.base), PUZ_OK);
    assert_int_equal(pool_drain(p, 5000), PUZ_OK);
    assert_int_equal(atomic_load(&j.seen) - 100, mine + 5 > 19 ? 19
                                                   : mine + 5);
    assert_int_equal(getpriority(PRIO_PROCESS, (id_t)gettid()), mine);
    pool_destroy(p);
}

static void test_every_job_runs_once(void **state)
{
    enum { N = 200 };
    struct tjob *jobs = calloc(N, sizeof(*jobs));
    pool_t *p = make_pool(3, N);
    struct pool_stats st;

    (void)state;
    for (int i = 0; i < N; i++) {
        tjob_init(&jobs[i], NULL);
        assert_int_equal(pool_submit(p, &jobs[i].base), PUZ_OK);
    }
    assert_int_equal(pool_drain(p, 5000), PUZ_OK);
    for (int i = 0; i < N; i++) {
        assert_int_equal(atomic_load(&jobs[i].runs), 1);
        assert_int_equal(atomic_load(&jobs[i].dones), 1);
        assert_true(atomic_load(&jobs[i].done_after_run));
        assert_true(jobs[i].worker < 3);
    }
    pool_get_stats(p, &st);
    assert_int_equal(st.workers, 3);
    assert_int_equal(st.submitted, N);
    assert_int_equal(st.completed, N);
    assert_int_equal(st.busy, 0);
    assert_int_equal(st.queued, 0);
    pool_destroy(p);
    free(jobs);
}

static void test_full_queue_refuses(void **state)
{
    struct gate g;
    struct tjob running, waiting, extra;
    pool_t *p = make_pool(1, 1);
    struct pool_stats st;

    (void)state;
    gate_init(&g);
    tjob_init(&running, &g);
    tjob_init(&waiting, &g);
    tjob_init(&extra, NULL);
    assert_int_equal(pool_submit(p, &running.base), PUZ_OK);
    wait_for(&g.waiting, 1);
    assert_int_equal(pool_submit(p, &waiting.base), PUZ_OK);
    assert_int_equal(pool_submit(p, &extra.base), PUZ_EFULL);
    pool_get_stats(p, &st);
    assert_int_equal(st.queued, 1);
    assert_int_equal(st.busy, 1);
    assert_int_equal(st.rejected, 1);
    assert_int_equal(pool_drain(p, 50), PUZ_ETIMEDOUT);
    gate_open(&g);
    assert_int_equal(pool_drain(p, 5000), PUZ_OK);
    assert_int_equal(atomic_load(&extra.runs), 0);
    assert_int_equal(atomic_load(&waiting.runs), 1);
    pool_destroy(p);
    gate_destroy(&g);
}

static void test_closed_pool_refuses(void **state)
{
    struct tjob j;
    pool_t *p = make_pool(2, 4);

    (void)state;
    tjob_init(&j, NULL);
    pool_close(p);
    assert_int_equal(pool_submit(p, &j.base), PUZ_ECLOSED);
    assert_int_equal(atomic_load(&j.runs), 0);
    pool_destroy(p);
}

static void test_cancel_waiting_then_all(void **state)
{
    struct gate g;
    struct tjob running, waiting;
    pool_t *p = make_pool(1, 4);

    (void)state;
    gate_init(&g);
    tjob_init(&running, &g);
    tjob_init(&waiting, &g);
    pool_submit(p, &running.base);
    wait_for(&g.waiting, 1);
    pool_submit(p, &waiting.base);
    pool_cancel_waiting(p);
    assert_int_equal(atomic_load(&waiting.base.cancel), 1);
    assert_int_equal(atomic_load(&running.base.cancel), 0);
    pool_cancel_all(p);     /* releases the running one */
    assert_int_equal(pool_drain(p, 5000), PUZ_OK);
    assert_int_equal(atomic_load(&running.saw_cancel), 1);
    assert_int_equal(atomic_load(&waiting.saw_cancel), 1);
    assert_int_equal(atomic_load(&waiting.runs), 1);
    pool_destroy(p);
    gate_destroy(&g);
}

static void test_destroy_runs_queued_jobs(void **state)
{
    enum { N = 5 };
    struct gate g;
    struct tjob jobs[N];
    pool_t *p = make_pool(1, N);

    (void)state;
    gate_init(&g);
    for (int i = 0; i < N; i++) {
        tjob_init(&jobs[i], &g);
        assert_int_equal(pool_submit(p, &jobs[i].base), PUZ_OK);
    }
    wait_for(&g.waiting, 1);
    pool_destroy(p);    /* cancels all; every job still runs, then done */
    for (int i = 0; i < N; i++) {
        assert_int_equal(atomic_load(&jobs[i].runs), 1);
        assert_int_equal(atomic_load(&jobs[i].dones), 1);
        assert_int_equal(atomic_load(&jobs[i].saw_cancel), 1);
    }
    gate_destroy(&g);
}

static void test_submit_clears_cancel(void **state)
{
    struct tjob j;
    pool_t *p = make_pool(1, 2);

    (void)state;
    tjob_init(&j, NULL);
    atomic_store(&j.base.cancel, 1);
    assert_int_equal(pool_submit(p, &j.base), PUZ_OK);
    assert_int_equal(pool_drain(p, 5000), PUZ_OK);
    assert_int_equal(atomic_load(&j.saw_cancel), 0);
    assert_true(j.base.enqueued_us > 0);
    assert_true(puz_clock_mono_us() >= j.base.enqueued_us);
    pool_destroy(p);
    pool_destroy(NULL);
}

/* Issue 15 item 6: with both workers idle, workers + queue jobs sent in
 * a burst are all taken (the jobs idle workers are about to pick up do
 * not count against the queue); one more is refused once they are. */
static void test_idle_workers_do_not_count_as_queue(void **state)
{
    enum { TRIES = 50 };

    (void)state;
    for (int t = 0; t < TRIES; t++) {
        struct gate g;
        struct tjob jobs[4];
        pool_t *p = make_pool(2, 1);

        gate_init(&g);
        for (int i = 0; i < 4; i++)
            tjob_init(&jobs[i], &g);
        for (int i = 0; i < 3; i++)
            assert_int_equal(pool_submit(p, &jobs[i].base), PUZ_OK);
        assert_int_equal(pool_submit(p, &jobs[3].base), PUZ_EFULL);
        wait_for(&g.waiting, 2);
        assert_int_equal(pool_submit(p, &jobs[3].base), PUZ_EFULL);
        gate_open(&g);
        assert_int_equal(pool_drain(p, 5000), PUZ_OK);
        pool_destroy(p);
        gate_destroy(&g);
    }
}

/* Issue 15 item 8: at shutdown the waiting jobs are answered at once on
 * the caller's thread, cancelled, while the running one carries on. */
static void test_flush_waiting_runs_them_now(void **state)
{
    struct gate g;
    struct tjob running, waiting[3];
    pool_t *p = make_pool(1, 4);
    struct pool_stats st;

    (void)state;
    gate_init(&g);
    tjob_init(&running, &g);
    assert_int_equal(pool_submit(p, &running.base), PUZ_OK);
    wait_for(&g.waiting, 1);
    for (int i = 0; i < 3; i++) {
        tjob_init(&waiting[i], &g);
        assert_int_equal(pool_submit(p, &waiting[i].base), PUZ_OK);
    }
    assert_int_equal(pool_flush_waiting(p), 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(atomic_load(&waiting[i].runs), 1);
        assert_int_equal(atomic_load(&waiting[i].dones), 1);
        assert_int_equal(atomic_load(&waiting[i].saw_cancel), 1);
        assert_int_equal(waiting[i].worker, POOL_NO_WORKER);
    }
    pool_get_stats(p, &st);
    assert_int_equal(st.queued, 0);
    assert_int_equal(st.busy, 1);
    assert_int_equal(atomic_load(&running.base.cancel), 0);
    gate_open(&g);
    assert_int_equal(pool_drain(p, 5000), PUZ_OK);
    pool_get_stats(p, &st);
    assert_int_equal(st.completed, 4);
    pool_destroy(p);
    gate_destroy(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_config),
        cmocka_unit_test(test_every_job_runs_once),
        cmocka_unit_test(test_workers_nicer),
        cmocka_unit_test(test_full_queue_refuses),
        cmocka_unit_test(test_closed_pool_refuses),
        cmocka_unit_test(test_cancel_waiting_then_all),
        cmocka_unit_test(test_destroy_runs_queued_jobs),
        cmocka_unit_test(test_submit_clears_cancel),
        cmocka_unit_test(test_idle_workers_do_not_count_as_queue),
        cmocka_unit_test(test_flush_waiting_runs_them_now),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
