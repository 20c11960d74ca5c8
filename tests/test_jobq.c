/*
 * test_jobq.c - the shared jobs (jobq.h) against a redis-server of the
 * test's own (tredis.h), with a task of the test's own in place of the
 * solve: a job runs, its answer and events come back through another
 * instance; a DELETE through another instance stops it; a run whose
 * lease is gone writes nothing and another instance runs the job again;
 * the caps hold; Redis down fails at once, Redis back works again; a
 * 5x5 IDA* split into work units through the shared queue finds the
 * one-thread length with both instances running units, also when a
 * worker takes units and dies with them (they are claimed again).
 * Two jobq values on one store stand for two instances.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pthread.h>

#include "jobq.h"
#include "jobs/jobq_int.h"  /* the finish script, called as a stale run */
#include "puz_pdb.h"
#include "store.h"
#include "support/idem_race.h"
#include "support/pdbcache.h"
#include "support/tredis.h"
#include "support/walk.h"
#include "support/wait.h"

static char redis_url[160], prefix[32];
static unsigned prefixes;

/* The task: "echo:TEXT" answers TEXT; "wait" runs until cancelled;
 * "fill" fills Redis up to its maxmemory (keys fill:N) and answers
 * 100 kB, which Redis then refuses. */
static atomic_int runs;

static void fill_redis(void)
{
    redisContext *c = redisConnectUnix(redis_url + strlen("unix://"));
    char *big = malloc(10000);
    redisReply *r;
    bool full = false;

    /* small steps: Redis ends within 10 kB of its maxmemory, and the
     * answer's 100 kB cannot fit */
    memset(big, 'f', 10000);
    for (int i = 0; c != NULL && !c->err && !full && i < 2000; i++) {
        r = redisCommand(c, "SET fill:%d %b", i, big, (size_t)10000);
        full = r == NULL || (r->type == REDIS_REPLY_ERROR
                             && strstr(r->str, "OOM") != NULL);
        if (r != NULL)
            freeReplyObject(r);
    }
    if (c != NULL)
        redisFree(c);
    free(big);
}

static void task(void *user, const char *body, size_t len,
                 const struct jobq_run *run, struct jobs_outcome *out)
{
    struct puz_progress p = { .expanded = 1 };

    (void)user;
    atomic_fetch_add(&runs, 1);
    out->state = JOBS_DONE;
    if (len == 4 && memcmp(body, "fill", 4) == 0) {
        fill_redis();
        out->len = 100000;
        out->body = malloc(out->len);
        memset(out->body, 'y', out->len);
        return;
    }
    if (len > 5 && memcmp(body, "echo:", 5) == 0) {
        out->body = malloc(len - 5);
        memcpy(out->body, body + 5, len - 5);
        out->len = len - 5;
        return;
    }
    while (!atomic_load(run->cancel)) {
        jobq_run_progress(run, &p);
        p.expanded++;
        usleep(10000);      /* the fake work's pace until cancelled, not
                             * a wait for anything */
    }
    out->state = JOBS_CANCELLED;
}

struct fix {
    store *st;
    jobq_t *a, *b;
};

/* The 5x5 4x6 tables (built in a second into BUILD/pdb-cache), made
 * by the first test that needs them: both instances read them. */
static puz_tables *tables;

static const puz_tables *units_tables(void)
{
    char msg[PUZ_MSG_MAX] = "";

    if (tables != NULL)
        return tables;
    if (puz_tables_create(&tables) != PUZ_OK
        || test_pdb_add(tables, PUZ_PDB_4X6, msg) != 0)
        fail_msg("tables: %s", msg);
    return tables;
}

/* job_max_attempts of the instances made next: 10 unless a test says
 * otherwise, so that a lease lost on a loaded machine (400 ms here)
 * does not end another test's job. */
static unsigned max_attempts;

static jobq_t *instance_budget(store *st, unsigned queue, unsigned max,
                               const puz_tables *t, size_t budget)
{
    struct jobq_config c = {
        .store = st, .workers = 1, .queue = queue, .max = max,
        .ttl_s = 60, .lease_ms = 400, .timeout_ms = 300, .events_max = 100,
        .results_max_bytes = budget, .max_attempts = max_attempts,
        .retry_ms = 100, .tables = t, .run = task,
    };
    jobq_t *q = NULL;

    assert_int_equal(jobq_create(&c, &q), PUZ_OK);
    return q;
}

static jobq_t *instance_with(store *st, unsigned queue, unsigned max,
                             const puz_tables *t)
{
    return instance_budget(st, queue, max, t, 0);
}

static jobq_t *instance(store *st, unsigned queue, unsigned max)
{
    return instance_with(st, queue, max, NULL);
}

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof(*f));
    char msg[PUZ_MSG_MAX] = "";
    struct store_options o = { .redis_url = redis_url,
                               .redis_prefix = prefix, .timeout_ms = 300 };

    snprintf(prefix, sizeof(prefix), "jq%u:", ++prefixes);
    max_attempts = 10;
    if (store_start(&o, &f->st, msg) != PUZ_OK || !store_ready(f->st, msg))
        fail_msg("store_start: %s", msg);
    f->a = instance(f->st, 4, 8);
    f->b = instance(f->st, 4, 8);
    atomic_store(&runs, 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;

    jobq_destroy(f->a);
    jobq_destroy(f->b);
    store_close(f->st);
    free(f);
    return 0;
}

struct job_want {
    jobq_t *q;
    const char *id;
    enum jobs_state s;
    struct jobs_view *v;    /* the job as last found */
    redisContext *c;        /* set: the lease below deleted while it runs */
    const char *lease;
};

/* One look at the job (its view into w->v when found). */
static bool look(struct job_want *w)
{
    char msg[PUZ_MSG_MAX];
    bool found;

    return jobq_find(w->q, w->id, w->v, NULL, &found, msg) == PUZ_OK
           && found;
}

static bool in_state(void *arg)
{
    struct job_want *w = arg;

    return look(w) && w->v->state == w->s;
}

/* Waits up to ms for job id to be in state s (through q). */
static bool wait_state(jobq_t *q, const char *id, enum jobs_state s,
                       unsigned ms, struct jobs_view *v)
{
    struct job_want w = { q, id, s, v, NULL, NULL };

    return wait_until(in_state, &w, ms);
}

/* Running again, on its second attempt. */
static bool rerun(void *arg)
{
    struct job_want *w = arg;

    return look(w) && w->v->attempts >= 2 && w->v->state == JOBS_RUNNING;
}

/* In state w->s; its lease taken away whenever it runs meanwhile. */
static bool lease_lost_until(void *arg)
{
    struct job_want *w = arg;

    if (!look(w))
        return false;
    if (w->v->state == JOBS_RUNNING)
        freeReplyObject(redisCommand(w->c, "DEL %s", w->lease));
    return w->v->state == w->s;
}

static bool store_down(void *st)
{
    return !store_ready(st, NULL);
}

static bool store_up(void *st)
{
    return store_ready(st, NULL);
}

struct submit_try {
    jobq_t *q;
    const char *body;
    char *id, *msg;
    puz_err rc;         /* the last try's */
};

/* One submission of body; true once one is taken. */
static bool submitted(void *arg)
{
    struct submit_try *t = arg;

    t->rc = jobq_submit(t->q, t->body, strlen(t->body), "", 0, t->id,
                        t->msg);
    return t->rc == PUZ_OK;
}

static void test_runs_and_reads_through_another(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX], *result = NULL;
    struct jobq_event ev[8];
    struct jobs_view v;
    size_t n;
    bool found, gone;

    assert_int_equal(jobq_submit(f->a, "echo:{\"x\":1}", 12, "", 0, id,
                                 msg), PUZ_OK);
    assert_true(wait_state(f->b, id, JOBS_DONE, 3000, &v));
    assert_int_equal(jobq_find(f->b, id, &v, &result, &found, msg), PUZ_OK);
    assert_true(found);
    assert_int_equal(v.len, 7);
    assert_memory_equal(v.body, "{\"x\":1}", 7);
    assert_int_equal(v.attempts, 1);
    free(result);
    /* Its events: queued, running, done; the latest alone without an
     * id to start after, the rest after the first. */
    assert_int_equal(jobq_events(f->b, id, NULL, ev, 8, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 1);
    assert_string_equal(ev[0].type, "done");
    assert_true(jobq_event_id_ok(ev[0].id));
    assert_int_equal(jobq_events(f->a, id, "0-0", ev, 8, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 3);
    assert_int_equal(ev[0].v.state, JOBS_QUEUED);
    assert_int_equal(ev[1].v.state, JOBS_RUNNING);
    assert_string_equal(ev[2].type, "done");
    assert_int_equal(jobq_events(f->a, id, ev[1].id, ev, 8, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 1);
    assert_false(gone);
}

/* Idempotency-Key (issue 42): one key, through either instance and
 * from 6 threads at once, makes one job; the same body gets it back
 * (even past its owner's cap), another body is MISMATCH; the key lives
 * in Redis (P idem:DIGEST) for 24 h, then as long as its finished job
 * (job_ttl_s), and a forgotten job frees it. */
static void *idem_submit(void *arg)
{
    struct idem_race *r = arg;
    char msg[PUZ_MSG_MAX];

    pthread_barrier_wait(r->go);
    if (jobq_submit_idem(r->q, "wait", 4, "k", 1, r->idem, r->id, &r->found,
                         msg) != PUZ_OK)
        r->found = (enum jobs_idem_found)-1;
    return NULL;
}

static long long idem_ttl(redisContext *c, const struct jobs_idem *idem)
{
    redisReply *r = redisCommand(c, "TTL %sidem:%s", prefix, idem->key);
    long long t = r != NULL && r->type == REDIS_REPLY_INTEGER
                  ? r->integer : -9;

    freeReplyObject(r);
    return t;
}

static void test_idempotency_key(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX] = "";
    struct jobs_idem idem, other;
    enum jobs_idem_found found;
    struct idem_race r[6];
    pthread_t t[6];
    pthread_barrier_t go;
    struct jobs_view v;
    redisContext *c = store_redis_connect(f->st, msg);
    unsigned made = 0;
    int what;

    assert_non_null(c);
    memset(&idem, 0, sizeof(idem));
    memset(idem.key, 'a', JOBS_IDEM_LEN);
    memset(idem.body, 'b', JOBS_IDEM_LEN);
    pthread_barrier_init(&go, NULL, 6);
    for (int i = 0; i < 6; i++) {
        r[i] = (struct idem_race){ i % 2 ? f->a : f->b, &idem, &go,
                                   JOBS_IDEM_MISMATCH, "" };
        pthread_create(&t[i], NULL, idem_submit, &r[i]);
    }
    for (int i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    for (int i = 0; i < 6; i++) {
        assert_true(r[i].found == JOBS_IDEM_NEW
                    || r[i].found == JOBS_IDEM_REPLAY);
        made += r[i].found == JOBS_IDEM_NEW;
        assert_string_equal(r[i].id, r[0].id);
    }
    assert_int_equal(made, 1);      /* and owner k's cap (1) held none */
    assert_true(idem_ttl(c, &idem) > 86000);
    other = idem;
    other.body[0] = 'c';
    assert_int_equal(jobq_submit_idem(f->b, "echo:x", 6, "k", 1, &other,
                                      id, &found, msg), PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_MISMATCH);
    /* Ended: the key lives as long as the job is kept (ttl_s 60). */
    assert_int_equal(jobq_cancel(f->a, r[0].id, "x", 1000, &what, msg),
                     PUZ_OK);
    assert_true(wait_state(f->b, r[0].id, JOBS_CANCELLED, 3000, &v));
    assert_true(idem_ttl(c, &idem) <= 60 && idem_ttl(c, &idem) > 0);
    assert_int_equal(jobq_submit_idem(f->b, "wait", 4, "k", 1, &idem, id,
                                      &found, msg), PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_REPLAY);
    assert_string_equal(id, r[0].id);
    /* Forgotten (DELETE of an ended job): the key is free again. */
    assert_int_equal(jobq_cancel(f->b, r[0].id, "x", 0, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, 2);
    assert_int_equal(idem_ttl(c, &idem), -2);
    assert_int_equal(jobq_submit_idem(f->a, "echo:y", 6, "k", 1, &other,
                                      id, &found, msg), PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_NEW);
    assert_string_not_equal(id, r[0].id);
    /* No key: jobq_submit as before, nothing kept for it. */
    assert_int_equal(jobq_submit(f->a, "echo:z", 6, "", 0, id, msg), PUZ_OK);
    assert_true(wait_state(f->a, id, JOBS_DONE, 3000, &v));
    redisFree(c);
}

static void test_delete_through_another_stops_it(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX];
    struct jobs_view v;
    int what;

    assert_int_equal(jobq_submit(f->a, "wait", 4, "", 0, id, msg), PUZ_OK);
    assert_true(wait_state(f->a, id, JOBS_RUNNING, 3000, &v));
    assert_int_equal(jobq_cancel(f->b, id, "cancelled by the client", 1000,
                                 &what, msg), PUZ_OK);
    assert_int_equal(what, 1);
    assert_true(wait_state(f->b, id, JOBS_CANCELLED, 10, &v));
    assert_string_equal(v.reason, "cancelled by the client");
    /* A finished job's DELETE forgets it. */
    assert_int_equal(jobq_cancel(f->a, id, "x", 0, &what, msg), PUZ_OK);
    assert_int_equal(what, 2);
    assert_int_equal(jobq_cancel(f->a, id, "x", 0, &what, msg), PUZ_OK);
    assert_int_equal(what, 0);
}

/* A "wait" job submitted through a, running (its view in v), and a
 * connection to Redis of the test's own to tamper with it. */
static redisContext *running_job(struct fix *f, char *id,
                                 struct jobs_view *v)
{
    char msg[PUZ_MSG_MAX];
    redisContext *c = store_redis_connect(f->st, msg);

    assert_non_null(c);
    assert_int_equal(jobq_submit(f->a, "wait", 4, "", 0, id, msg), PUZ_OK);
    assert_true(wait_state(f->a, id, JOBS_RUNNING, 3000, v));
    return c;
}

static void test_lost_lease_runs_again_written_once(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX], key[128];
    struct jobs_view v;
    struct job_want want;
    redisContext *c = running_job(f, id, &v);
    redisReply *r;
    int what;

    /* The runner's lease vanishes (as when it stalled past it): its
     * keeper stops the run and writes nothing; an instance runs it
     * again. */
    snprintf(key, sizeof(key), "%sjob:%s:lease", prefix, id);
    r = redisCommand(c, "DEL %s", key);
    freeReplyObject(r);
    want = (struct job_want){ f->b, id, JOBS_RUNNING, &v, NULL, NULL };
    assert_true(wait_until(rerun, &want, 10000));
    assert_int_equal(v.attempts, 2);
    assert_int_equal(v.state, JOBS_RUNNING);
    assert_int_equal(jobq_cancel(f->b, id, "enough", 1000, &what, msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id, JOBS_CANCELLED, 10, &v));
    assert_int_equal(atomic_load(&runs), 2);
    redisFree(c);
}

/* The job's final events in its Redis stream. */
static unsigned final_events(redisContext *c, const char *id)
{
    redisReply *r = redisCommand(c, "XRANGE %sjob:%s:events - +", prefix,
                                 id);
    unsigned n = 0;

    assert_non_null(r);
    for (size_t i = 0; i < r->elements; i++) {
        const redisReply *kv = r->element[i]->element[1];

        for (size_t k = 0; k + 1 < kv->elements; k += 2)
            if (strcmp(kv->element[k]->str, "t") == 0
                && (strcmp(kv->element[k + 1]->str, "done") == 0
                    || strcmp(kv->element[k + 1]->str, "failed") == 0
                    || strcmp(kv->element[k + 1]->str, "cancelled") == 0))
                n++;
    }
    freeReplyObject(r);
    return n;
}

/* The finish script as a run calls it, with token as its lease: -1 is
 * "not yours to end" (nothing written). */
static long long finish_as(jobq_t *q, redisContext *c, const char *id,
                           const char *token)
{
    const char *extra[12] = { "done", "", "{\"stale\":1}", "0-0", "1", "1",
                              "0", "0", "0", "0", "0", "0" };
    size_t lens[12];
    char msg[PUZ_MSG_MAX];
    bool broken = false;
    redisReply *r;
    long long v;

    for (int i = 0; i < 12; i++)
        lens[i] = strlen(extra[i]);
    r = jobq__script(q, c, JOBQ_FINISH, id, token, 12, extra, lens,
                     &broken, msg);
    assert_non_null(r);
    assert_int_equal(r->type, REDIS_REPLY_INTEGER);
    v = r->integer;
    freeReplyObject(r);
    return v;
}

/*
 * Exactly one end, even for a run that lost its lease and did not notice
 * (its instance stopped past the lease, then let go on, its search
 * ending before its keeper looked again): the finish script ends a job
 * only for the run holding its lease, and only while it runs. The
 * chaos test meets such a run only by luck (a build without these
 * guards failed it 1 time in 5); here the script is called as that run
 * would, deterministically.
 */
static void test_finish_needs_its_lease(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX], token[64] = "";
    struct jobs_view v;
    redisContext *c = running_job(f, id, &v);
    redisReply *r;
    int what;

    r = redisCommand(c, "GET %sjob:%s:lease", prefix, id);
    assert_true(r != NULL && r->type == REDIS_REPLY_STRING);
    snprintf(token, sizeof(token), "%s", r->str);
    freeReplyObject(r);
    /* a run whose lease went to another: refused, nothing written */
    assert_int_equal(finish_as(f->b, c, id, "an-earlier-run"), -1);
    assert_true(look(&(struct job_want){ f->b, id, 0, &v, NULL, NULL }));
    assert_int_equal(v.state, JOBS_RUNNING);
    assert_int_equal(final_events(c, id), 0);
    /* the holder's run ends it (cancelled here: one end) ... */
    assert_int_equal(jobq_cancel(f->b, id, "enough", 1000, &what, msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id, JOBS_CANCELLED, 3000, &v));
    assert_int_equal(final_events(c, id), 1);
    /* ... and its lease, were it still there, ends nothing again */
    freeReplyObject(redisCommand(c, "SET %sjob:%s:lease %s", prefix, id,
                                 token));
    assert_int_equal(finish_as(f->b, c, id, token), -1);
    assert_true(look(&(struct job_want){ f->b, id, 0, &v, NULL, NULL }));
    assert_int_equal(v.state, JOBS_CANCELLED);
    assert_int_equal(final_events(c, id), 1);
    redisFree(c);
}

static void test_caps_hold(void **state)
{
    struct fix *f = *state;
    char id[4][JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX];
    struct jobs_view v;
    int what;

    /* An owner's cap: its second active job is refused. */
    assert_int_equal(jobq_submit(f->a, "wait", 4, "k", 1, id[0], msg),
                     PUZ_OK);
    assert_int_equal(jobq_submit(f->b, "wait", 4, "k", 1, id[1], msg),
                     PUZ_ELIMITED);
    assert_int_equal(jobq_submit(f->b, "wait", 4, "", 0, id[1], msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id[0], JOBS_RUNNING, 3000, &v));
    assert_true(wait_state(f->a, id[1], JOBS_RUNNING, 3000, &v));
    /* Both workers busy: 4 may wait, across the instances. */
    for (int i = 0; i < 4; i++)
        assert_int_equal(jobq_submit(f->a, "echo:1", 6, "", 0, id[2], msg),
                         PUZ_OK);
    assert_int_equal(jobq_queued(f->b), 4);
    assert_int_equal(jobq_submit(f->b, "echo:1", 6, "", 0, id[3], msg),
                     PUZ_EFULL);
    assert_int_equal(jobq_cancel(f->a, id[0], "x", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(jobq_cancel(f->a, id[1], "x", 1000, &what, msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id[2], JOBS_DONE, 3000, &v));
}

static void test_redis_down_and_back(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX] = "";
    struct jobs_view v;
    struct submit_try sub;
    bool found;

    assert_int_equal(tredis_pause(1), 0);       /* a Redis that hangs */
    wait_until(store_down, f->st, 3000);
    assert_int_equal(jobq_submit(f->a, "echo:1", 6, "", 0, id, msg),
                     PUZ_EIO);
    assert_non_null(strstr(msg, "unavailable"));
    assert_int_equal(jobq_find(f->b, id, &v, NULL, &found, msg), PUZ_EIO);
    assert_int_equal(tredis_pause(0), 0);
    wait_until(store_up, f->st, 10000);
    assert_int_equal(jobq_submit(f->a, "echo:2", 6, "", 0, id, msg),
                     PUZ_OK);
    assert_true(wait_state(f->b, id, JOBS_DONE, 5000, &v));
    /* Restarted (empty: no persistence here): the connections made
     * before are replaced; the first call may still meet one. */
    assert_int_equal(tredis_restart(), 0);
    sub = (struct submit_try){ f->a, "echo:3", id, msg, PUZ_EIO };
    assert_true(wait_until(submitted, &sub, 5000));
    assert_true(wait_state(f->b, id, JOBS_DONE, 5000, &v));
}

/* One of the two instances counted a dead letter. */
static bool gave_up_once(void *arg)
{
    struct fix *f = arg;
    struct jobq_stats sa, sb;

    jobq_get_stats(f->a, &sa);
    jobq_get_stats(f->b, &sb);
    return sa.gave_up + sb.gave_up >= 1;
}

/* A job whose runs keep dying (its lease vanishes, as when its
 * instance is killed) runs job_max_attempts times, a delay apart, then
 * ends failed saying so, once; the dead letter is counted. */
static void test_gives_up_after_max_attempts(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX], key[128];
    struct jobs_view v;
    struct job_want want;
    struct jobq_stats sa, sb;
    redisContext *c = store_redis_connect(f->st, msg);

    assert_non_null(c);
    memset(&v, 0, sizeof(v));
    jobq_destroy(f->a);
    jobq_destroy(f->b);
    max_attempts = 2;
    f->a = instance(f->st, 4, 8);
    f->b = instance(f->st, 4, 8);
    assert_int_equal(jobq_submit(f->a, "wait", 4, "", 0, id, msg), PUZ_OK);
    snprintf(key, sizeof(key), "%sjob:%s:lease", prefix, id);
    /* every run's lease taken away as soon as it runs */
    want = (struct job_want){ f->b, id, JOBS_FAILED, &v, c, key };
    wait_until(lease_lost_until, &want, 15000);
    assert_int_equal(v.state, JOBS_FAILED);
    assert_int_equal(v.attempts, 2);
    assert_non_null(strstr(v.reason, "gave up after 2 attempts: its "
                           "runner stopped"));
    assert_int_equal(atomic_load(&runs), 2);
    /* The instance counts the dead letter once the take script's answer
     * is back, a moment after the job reads failed (seen 0 at once in a
     * clean-clone make test at load 15). */
    assert_true(wait_until(gave_up_once, f, 5000));
    jobq_get_stats(f->a, &sa);
    jobq_get_stats(f->b, &sb);
    assert_int_equal(sa.gave_up + sb.gave_up, 1);
    redisFree(c);
}

/* Commands Redis has run so far (INFO stats), to tell a spin. */
static long long redis_commands(redisContext *c)
{
    redisReply *r = redisCommand(c, "INFO stats");
    const char *p = r != NULL && r->type == REDIS_REPLY_STRING
                    ? strstr(r->str, "total_commands_processed:") : NULL;
    long long n = p != NULL ? atoll(p + 25) : -1;

    if (r != NULL)
        freeReplyObject(r);
    return n;
}

/* The queue's stream (and its consumer group) deleted while two jobs
 * run and two wait: once the workers are free they make the group
 * again at once, the waiting jobs are queued again from their records
 * and run to done, and nothing spins meanwhile (Redis counts the
 * commands: a worker answered NOGROUP at once would send thousands a
 * second). */
static void test_lost_queue_made_again(void **state)
{
    struct fix *f = *state;
    char id[4][JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX], key[128];
    struct jobs_view v;
    struct jobq_stats sa, sb;
    redisContext *c = store_redis_connect(f->st, msg);
    redisReply *r;
    long long before, after;
    int what;

    assert_non_null(c);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(jobq_submit(f->a, "wait", 4, "", 0, id[i], msg),
                         PUZ_OK);
        assert_true(wait_state(f->a, id[i], JOBS_RUNNING, 3000, &v));
    }
    for (int i = 2; i < 4; i++)
        assert_int_equal(jobq_submit(f->b, "echo:x", 6, "", 0, id[i], msg),
                         PUZ_OK);
    snprintf(key, sizeof(key), "%sjobs:queue", prefix);
    r = redisCommand(c, "DEL %s", key);
    assert_int_equal(r->integer, 1);
    freeReplyObject(r);
    before = redis_commands(c);
    assert_int_equal(jobq_cancel(f->b, id[0], "x", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(jobq_cancel(f->b, id[1], "x", 1000, &what, msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id[2], JOBS_DONE, 5000, &v));
    assert_true(wait_state(f->a, id[3], JOBS_DONE, 5000, &v));
    assert_int_equal(v.attempts, 1);
    /* A window of real time in which the workers, healing the lost
     * queue with backoff, must not spin: what is counted is what they
     * send in it, so it cannot be a wait on a condition. */
    usleep(1500000);
    after = redis_commands(c);
    assert_true(after - before < 400);
    assert_true(jobq_ready(f->a, msg));
    assert_true(jobq_ready(f->b, msg));
    jobq_get_stats(f->a, &sa);
    jobq_get_stats(f->b, &sb);
    assert_true(sa.requeued + sb.requeued >= 2);
    redisFree(c);
}

/* FLUSHALL while a job runs and one waits: both are gone with their
 * records (the run stops and writes nothing); a job submitted after
 * runs to done within seconds, with no spin. */
static void test_flushall_recovers(void **state)
{
    struct fix *f = *state;
    char id[3][JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX];
    struct jobs_view v;
    redisContext *c = store_redis_connect(f->st, msg);
    redisReply *r;
    long long before;
    bool found = true;

    assert_non_null(c);
    assert_int_equal(jobq_submit(f->a, "wait", 4, "", 0, id[0], msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id[0], JOBS_RUNNING, 3000, &v));
    assert_int_equal(jobq_submit(f->a, "wait", 4, "", 0, id[1], msg),
                     PUZ_OK);
    r = redisCommand(c, "FLUSHALL");
    freeReplyObject(r);
    before = redis_commands(c);
    /* A window of real time in which the workers must not spin (as
     * above: the commands they send in it are what is counted). */
    usleep(1500000);
    /* Both workers free again, waiting on a queue that is not there. */
    assert_true(redis_commands(c) - before < 400);
    assert_int_equal(jobq_find(f->b, id[0], &v, NULL, &found, msg),
                     PUZ_OK);
    assert_false(found);
    assert_int_equal(jobq_submit(f->b, "echo:y", 6, "", 0, id[2], msg),
                     PUZ_OK);
    assert_true(wait_state(f->a, id[2], JOBS_DONE, 5000, &v));
    assert_true(jobq_ready(f->a, msg));
    redisFree(c);
}

/* A number of Redis's (GET key, or a field of INFO memory). */
static long long redis_num(redisContext *c, const char *key,
                           const char *info_field)
{
    redisReply *r = info_field != NULL ? redisCommand(c, "INFO memory")
                    : redisCommand(c, "GET %s", key);
    const char *p = r == NULL || r->type != REDIS_REPLY_STRING ? NULL
                    : info_field != NULL ? strstr(r->str, info_field)
                    : r->str;
    long long n = p != NULL ? atoll(p + (info_field != NULL
                                         ? strlen(info_field) : 0)) : 0;

    if (r != NULL)
        freeReplyObject(r);
    return n;
}

/* "echo:" and n bytes of x: a job whose answer is n bytes. */
static char *echo_body(size_t n)
{
    char *b = malloc(n + 6);

    memcpy(b, "echo:", 5);
    memset(b + 5, 'x', n);
    b[n + 5] = '\0';
    return b;
}

/* The kept answers' budget is cluster-wide, counted in Redis: 1000
 * bytes hold two 400-byte answers, the oldest finished job is
 * forgotten first, whichever instance ran it. */
static void test_answers_budget_cluster_wide(void **state)
{
    struct fix *f = *state;
    char id[4][JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX], key[128];
    char *body = echo_body(400);
    struct jobs_view v;
    redisContext *c = store_redis_connect(f->st, msg);
    bool found;

    assert_non_null(c);
    jobq_destroy(f->a);
    jobq_destroy(f->b);
    f->a = instance_budget(f->st, 4, 8, NULL, 1000);
    f->b = instance_budget(f->st, 4, 8, NULL, 1000);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(jobq_submit(i % 2 ? f->a : f->b, body, 405, "", 0,
                                     id[i], msg), PUZ_OK);
        assert_true(wait_state(f->a, id[i], JOBS_DONE, 3000, &v));
    }
    snprintf(key, sizeof(key), "%sjobs:result_total", prefix);
    assert_int_equal(redis_num(c, key, NULL), 800);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(jobq_find(f->b, id[i], &v, NULL, &found, msg),
                         PUZ_OK);
        assert_int_equal(found, i >= 2);
    }
    /* A DELETE of a finished job gives its bytes back. */
    assert_int_equal(jobq_cancel(f->a, id[3], "x", 0, &(int){ 0 }, msg),
                     PUZ_OK);
    assert_int_equal(redis_num(c, key, NULL), 400);
    free(body);
    redisFree(c);
}

/* Jobs still queued or running among the first n of the list. */
static size_t unfinished(jobq_t *q)
{
    struct jobs_view v[64];
    char msg[PUZ_MSG_MAX];
    size_t n = 0, k = 0;

    assert_int_equal(jobq_list(q, -1, NULL, v, 64, &n, msg), PUZ_OK);
    for (size_t i = 0; i < n; i++)
        k += !jobs_state_final(v[i].state);
    return k;
}

static bool all_finished(void *q)
{
    return unfinished(q) == 0;
}

/* Redis near its maxmemory (noeviction) with big answers: a new job is
 * refused (PUZ_EFULL, saying Redis is full) without a command sent,
 * the jobs are not ready, none is left running; the oldest answers are
 * forgotten and jobs are taken again within seconds. */
static void test_redis_full_refuses_then_recovers(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX] = "", why[PUZ_MSG_MAX];
    char *body = echo_body(100000);
    struct jobs_view v;
    struct jobq_stats sa, sb;
    struct submit_try sub;
    redisContext *c = store_redis_connect(f->st, msg);
    long long used;
    puz_err rc = PUZ_OK;
    int t;

    assert_non_null(c);
    jobq_destroy(f->a);         /* job_max no bound before Redis's */
    jobq_destroy(f->b);
    f->a = instance(f->st, 4, 64);
    f->b = instance(f->st, 4, 64);
    used = redis_num(c, NULL, "\nused_memory:");
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory-policy "
                                 "noeviction"));
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory %lld",
                                 used + (3 << 20)));
    for (t = 0; t < 100 && !(rc == PUZ_EFULL && msg[0] != '\0'); t++) {
        rc = jobq_submit(t % 2 ? f->a : f->b, body, 100005, "", 0, id, msg);
        if (rc == PUZ_OK)
            wait_state(f->a, id, JOBS_DONE, 3000, &v);
        /* The fill's pace: the keeper reads Redis's memory once a second
         * (MEM_EVERY_US), and the refusal tested is the one that reading
         * makes at 90 %, before Redis itself answers OOM. */
        usleep(50000);
    }
    assert_int_equal(rc, PUZ_EFULL);
    assert_non_null(strstr(msg, "full"));
    /* Held full by a key no job owns: the keeper forgets 4 answers a
       second, which on a busy machine emptied Redis below the mark
       before the next line ran (the refusal held, readiness did not). */
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory 0"));
    freeReplyObject(redisCommand(c, "SETRANGE puzzled-test-filler %d x",
                                 8 << 20));
    used = redis_num(c, NULL, "\nused_memory:");
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory %lld",
                                 used + (256 << 10)));
    /* the keeper reads INFO memory once a second */
    for (t = 0; t < 100 && jobq_ready(f->a, why); t++)
        usleep(50000);
    assert_false(jobq_ready(f->a, why));
    assert_non_null(strstr(why, "full"));
    wait_until(all_finished, f->a, 5000);
    assert_int_equal(unfinished(f->a), 0);
    /* The oldest answers go, the filler too: jobs are taken again. */
    freeReplyObject(redisCommand(c, "DEL puzzled-test-filler"));
    sub = (struct submit_try){ f->a, "echo:ok", id, msg, PUZ_EFULL };
    assert_true(wait_until(submitted, &sub, 10000));
    assert_true(wait_state(f->b, id, JOBS_DONE, 3000, &v));
    jobq_get_stats(f->a, &sa);
    jobq_get_stats(f->b, &sb);
    assert_true(sa.shed + sb.shed > 0);
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory 0"));
    free(body);
    redisFree(c);
}

/* Redis fills up while a job runs: its answer is refused (OOM) and the
 * job ends failed with why, on its first attempt, not run again. */
static void test_oom_during_run_fails_once(void **state)
{
    struct fix *f = *state;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX];
    struct jobs_view v;
    redisContext *c = store_redis_connect(f->st, msg);
    long long used;

    assert_non_null(c);
    used = redis_num(c, NULL, "\nused_memory:");
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory-policy "
                                 "noeviction"));
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory %lld",
                                 used + (1 << 20)));
    assert_int_equal(jobq_submit(f->a, "fill", 4, "", 0, id, msg), PUZ_OK);
    wait_state(f->b, id, JOBS_FAILED, 5000, &v);
    assert_int_equal(v.state, JOBS_FAILED);
    assert_int_equal(v.attempts, 1);
    assert_non_null(strstr(v.reason, "full"));
    /* A window past the 1 s retry backoff in which no rerun may come:
     * an absence is only seen over real time, the workers' loops run
     * on it (moving the clock makes the retry due, not taken). */
    usleep(1500000);
    assert_true(wait_state(f->b, id, JOBS_FAILED, 10, &v));
    assert_int_equal(atomic_load(&runs), 1);
    freeReplyObject(redisCommand(c, "CONFIG SET maxmemory 0"));
    for (int i = 0; i < 2000; i++)
        freeReplyObject(redisCommand(c, "DEL fill:%d", i));
    redisFree(c);
}

/* Deletes the first round's live key it sees, once: what a runner held
 * off Redis past a lease (a stalled Redis, a starved CPU) finds. */
struct saboteur {
    store *st;
    const char *what;       /* the keys' pattern after the prefix */
    unsigned deleted;
};

static void *saboteur_run(void *arg)
{
    struct saboteur *sb = arg;
    char msg[PUZ_MSG_MAX], match[128];
    redisContext *c = store_redis_connect(sb->st, msg);

    snprintf(match, sizeof(match), "%s%s", prefix, sb->what);
    /* polls Redis every 5 ms: the key lives only while a round runs */
    for (int t = 0; c != NULL && t < 4000 && sb->deleted == 0; t++) {
        redisReply *r = redisCommand(c, "SCAN 0 MATCH %s COUNT 1000", match);

        if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2
            && r->element[1]->elements > 0) {
            redisReply *d = redisCommand(c, "DEL %s",
                                         r->element[1]->element[0]->str);
            if (d != NULL && d->type == REDIS_REPLY_INTEGER)
                sb->deleted = (unsigned)d->integer;
            if (d != NULL)
                freeReplyObject(d);
        }
        if (r != NULL)
            freeReplyObject(r);
        if (sb->deleted == 0)
            usleep(5000);
    }
    if (c != NULL)
        redisFree(c);
    return NULL;
}

/* A worker that takes up to `want` units from the shared queue and
 * dies with them: never runs them, never acknowledges them. It looks
 * until it has some or is told to stop (once the solve it preys on is
 * over), not for a fixed time: that solve first runs alone on one thread,
 * which at load 34 outlasted the 10 s the thief used to look. */
struct thief {
    store *st;
    unsigned want, took;
    atomic_bool stop;
};

static void *thief_run(void *arg)
{
    struct thief *th = arg;
    char msg[PUZ_MSG_MAX], key[128];
    redisContext *c = store_redis_connect(th->st, msg);

    snprintf(key, sizeof(key), "%sunits:queue", prefix);
    while (c != NULL && th->took == 0 && !atomic_load(&th->stop)) {
        redisReply *r = redisCommand(c, "XREADGROUP GROUP workers thief "
                                     "COUNT %u BLOCK 100 STREAMS %s >",
                                     th->want, key);

        if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 1)
            th->took = (unsigned)r->element[0]->element[1]->elements;
        if (r != NULL)
            freeReplyObject(r);
    }
    if (c != NULL)
        redisFree(c);
    return NULL;
}

/* One board solved by one thread, then through instance a's units
 * runner (one local thread) with b's worker taking units too. */
static void units_solve(jobq_t *a, const struct puz_board *b,
                        unsigned *len1, unsigned *len)
{
    struct puz_board goal;
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct jobq_units ju = { a, "0123456789abcdef", NULL, b, &goal, "", 1,
                             "" };
    puz_arena *ar = puz_arena_create(1 << 16);

    assert_int_equal(puz_board_goal(5, &goal), PUZ_OK);
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.tables = units_tables();
    assert_int_equal(puz_solve(b, &o, ar, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    *len1 = r.length;
    snprintf(ju.tables, sizeof(ju.tables), "%s",
             puz_pdb_partition_name(PUZ_PDB_4X6));
    o.threads = 2;
    o.run = jobq_units_run;
    o.run_user = &ju;
    assert_int_equal(puz_solve(b, &o, ar, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_true(r.optimal);
    *len = r.length;
    {
        struct puz_board end;

        assert_int_equal(puz_replay(b, r.moves, r.length, &end), PUZ_OK);
        assert_true(puz_board_equal(&end, &goal));
    }
    puz_arena_destroy(ar);
}

static void test_units_across_instances(void **state)
{
    struct fix *f = *state;
    jobq_t *a, *b;
    struct puz_board goal, start[2];
    struct puz_rng rng;
    struct jobq_stats sa, sb;
    struct thief th;
    pthread_t tt;
    unsigned len1, len;

    /* instances with tables: their idle workers take units */
    a = instance_with(f->st, 4, 8, units_tables());
    b = instance_with(f->st, 4, 8, units_tables());
    assert_int_equal(puz_board_goal(5, &goal), PUZ_OK);
    puz_rng_seed(&rng, 33);         /* 56 moves, 2-6 M expansions */
    test_walk(&goal, 80, &rng, &start[0]);
    test_walk(&goal, 80, &rng, &start[1]);

    units_solve(a, &start[0], &len1, &len);
    assert_int_equal(len, len1);
    jobq_get_stats(a, &sa);
    jobq_get_stats(b, &sb);
    assert_true(sa.units_published > 0);
    assert_int_equal(sb.units_published, 0);
    assert_true(sa.units_run > 0);      /* the runner's own thread */
    assert_true(sb.units_run > 0);      /* the other instance's worker */

    /* A worker takes three units and dies: they are claimed again once
     * idle a lease, and the answer is the same. */
    th = (struct thief){ f->st, 3, 0, false };
    assert_int_equal(pthread_create(&tt, NULL, thief_run, &th), 0);
    units_solve(a, &start[1], &len1, &len);
    atomic_store(&th.stop, true);
    pthread_join(tt, NULL);
    assert_int_equal(len, len1);
    assert_true(th.took > 0);
    jobq_get_stats(a, &sa);
    jobq_get_stats(b, &sb);
    assert_true(sa.units_claimed + sb.units_claimed >= th.took);
    jobq_destroy(a);
    jobq_destroy(b);
}

/* A round whose live key lapsed (the workers then drop its entries as
 * ended) is published again by its runner, not waited on forever: this
 * hung test_units_across_instances at load 25 with a 400 ms lease. */
static void test_units_round_lost_published_again(void **state)
{
    struct fix *f = *state;
    jobq_t *a, *b;
    struct puz_board goal, start;
    struct puz_rng rng;
    struct jobq_stats sa;
    struct saboteur sb = { f->st, "units:*:live", 0 };
    pthread_t tt;
    unsigned len1, len;

    a = instance_with(f->st, 4, 8, units_tables());
    b = instance_with(f->st, 4, 8, units_tables());
    assert_int_equal(puz_board_goal(5, &goal), PUZ_OK);
    puz_rng_seed(&rng, 33);
    test_walk(&goal, 80, &rng, &start);
    /* The saboteur deletes the first live key it sees; on a loaded
     * machine that can be a round whose units were all filed already
     * (nothing to publish again: right, but not what this test is for;
     * seen once in a fresh Debian root beside a CI run). Each solve must
     * end with the right length; within three, one must have published
     * a round again. */
    memset(&sa, 0, sizeof(sa));
    for (int attempt = 0; attempt < 3 && sa.units_republished == 0;
         attempt++) {
        sb.deleted = 0;
        assert_int_equal(pthread_create(&tt, NULL, saboteur_run, &sb), 0);
        units_solve(a, &start, &len1, &len);
        pthread_join(tt, NULL);
        assert_int_equal(sb.deleted, 1);
        assert_int_equal(len, len1);
        jobq_get_stats(a, &sa);
    }
    assert_true(sa.units_republished >= 1);
    jobq_destroy(a);
    jobq_destroy(b);
}

static int redis_up(void **state)
{
    (void)state;
    if (tredis_start(redis_url, sizeof(redis_url)) != 0) {
        fprintf(stderr, "test_jobq: redis-server cannot be started "
                "(apt-get install redis-server; make test does)\n");
        return -1;
    }
    return 0;
}

static int redis_down(void **state)
{
    (void)state;
    tredis_stop();
    puz_tables_destroy(tables);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_runs_and_reads_through_another,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_idempotency_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_delete_through_another_stops_it,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_lost_lease_runs_again_written_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_finish_needs_its_lease, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_caps_hold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_redis_down_and_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_units_across_instances, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_units_round_lost_published_again,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_lost_queue_made_again, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_flushall_recovers, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_answers_budget_cluster_wide,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_redis_full_refuses_then_recovers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oom_during_run_fails_once,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_gives_up_after_max_attempts,
                                        setup, teardown),
    };

    return cmocka_run_group_tests(tests, redis_up, redis_down);
}
