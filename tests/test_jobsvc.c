/*
 * test_jobsvc.c - the jobs service's interface (jobsvc.h) over its
 * embedded backend, with a run function of the test's own (the body is
 * "ms,len": run ms milliseconds, watching the cancel flag, then answer
 * len bytes): the request's bytes reach the worker, a submission's view,
 * its trace id kept, a refusal worded by the backend, the owner's cap, an Idempotency-Key's
 * replay and mismatch, find and list, a cancel then a forget, malformed
 * ids asked of nobody, and the events a stream reads (snapshots whose
 * cursor is the job's version). With a store the jobs outlive the
 * service (issue 42): a new service on the same SQLite file runs the
 * queued ones, runs the running one again (attempt 2, or gives up past
 * max_attempts), answers the finished one as before, forgets it in the
 * file too at its ttl, and drops a corrupt row with a log line. The
 * shared backend answers the same calls in test_jobq (jobq itself) and
 * over HTTP in shared_jobs.sh; jobs_restart.sh kills a server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "jobsvc.h"
#include "store.h"
#include "support/tmpdir.h"
#include "support/wait.h"

/* What the run function saw last: the bytes, for the test to compare. */
static char seen_body[64];
/* Set: a job of 0 ms ("0,len", else run until cancelled) ends at once. */
static atomic_int released;

static void fake_run(void *user, const char *body, size_t len,
                     const struct jobsvc_run *run, struct jobs_outcome *out)
{
    struct puz_progress p = { 0 };
    unsigned ms = 0, n = 0;

    (void)user;
    snprintf(seen_body, sizeof(seen_body), "%.*s", (int)len, body);
    sscanf(seen_body, "%u,%u", &ms, &n);
    for (unsigned t = 0; (ms == 0 && !atomic_load(&released)) || t < ms;
         t++) {
        if (atomic_load(run->cancel)) {
            out->state = JOBS_CANCELLED;
            return;
        }
        p.expanded = t + 1;
        if (t % 10 == 0)
            jobsvc_run_progress(run, &p);
        usleep(1000);       /* the fake work's pace, not a wait */
    }
    out->state = JOBS_DONE;
    out->body = malloc(n + 1);
    memset(out->body, 'x', n);
    out->len = n;
}

static jobsvc *start(unsigned queue, unsigned max)
{
    struct jobs_config c = { .workers = 1, .queue = queue, .ttl_s = 3600,
                             .max = max, .results_max_bytes = 1u << 20 };
    jobsvc *s = NULL;

    assert_int_equal(jobsvc_create_embedded(&c, fake_run, NULL, &s),
                     PUZ_OK);
    assert_string_equal(jobsvc_backend(s), "embedded");
    assert_false(jobsvc_may_block(s));
    return s;
}

/* The trace id every job here is submitted with (W3C's example). */
#define TRACE "4bf92f3577b34da6a3ce929d0e0e4736"

/* Submit body as owner (cap: its jobs at most) with key (NULL: none). */
static puz_err submit(jobsvc *s, const char *body, const char *owner,
                      unsigned cap, const struct jobs_idem *idem,
                      struct jobsvc_job *job, enum jobs_idem_found *found,
                      char *msg)
{
    const struct jobsvc_submit a = { body, strlen(body), owner, cap, idem,
                                     TRACE };

    return jobsvc_submit(s, &a, job, found, msg);
}

/* Submit body, expecting a new job; its id into id. */
static void submit_new(jobsvc *s, const char *body, char *id)
{
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char msg[JOBSVC_MSG_MAX];

    assert_int_equal(submit(s, body, "", 0, NULL, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_NEW);
    memcpy(id, job.v.id, JOBS_ID_LEN + 1);
    jobsvc_job_release(s, &job);
}

struct want {
    jobsvc *s;
    const char *id;
    enum jobs_state state;
};

static bool in_state(void *arg)
{
    const struct want *w = arg;
    struct jobsvc_job job;
    char msg[JOBSVC_MSG_MAX];
    bool found = false, ok;

    assert_int_equal(jobsvc_find(w->s, w->id, false, &job, &found, msg),
                     PUZ_OK);
    ok = found && job.v.state == w->state;
    jobsvc_job_release(w->s, &job);
    return ok;
}

static void test_submit_runs_the_bytes(void **state)
{
    jobsvc *s = start(4, 8);
    struct want w = { s, NULL, JOBS_DONE };
    struct jobsvc_job job;
    struct jobs_view v[4];
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];
    bool found = false;
    size_t n = 0;

    (void)state;
    submit_new(s, "5,3", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    assert_string_equal(seen_body, "5,3");
    assert_int_equal(jobsvc_find(s, id, true, &job, &found, msg), PUZ_OK);
    assert_true(found);
    assert_int_equal(job.v.len, 3);
    assert_memory_equal(job.v.body, "xxx", 3);
    assert_string_equal(job.v.trace, TRACE);    /* kept with the job */
    jobsvc_job_release(s, &job);
    assert_int_equal(jobsvc_list(s, -1, NULL, v, 4, &n, msg), PUZ_OK);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].id, id);
    assert_null(v[0].body);     /* a list never carries answers */
    jobsvc_destroy(s);
}

static void test_refusals_worded(void **state)
{
    jobsvc *s = start(1, 8);
    struct want w = { s, NULL, JOBS_RUNNING };
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];

    (void)state;
    submit_new(s, "0,0", id);       /* runs until cancelled */
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(submit(s, "0,0", "alice", 1, NULL, &job, &found, msg),
                     PUZ_OK);
    jobsvc_job_release(s, &job);
    /* alice's one job is queued: her cap, worded by the caller */
    assert_int_equal(submit(s, "0,0", "alice", 1, NULL, &job, &found, msg),
                     PUZ_ELIMITED);
    /* the queue (1) is full: the backend says why */
    assert_int_equal(submit(s, "0,0", "", 0, NULL, &job, &found, msg),
                     PUZ_EFULL);
    assert_string_equal(msg, "1 job workers are busy and 1 jobs are "
                        "waiting (or 8 are held); retry after the delay "
                        "in Retry-After");
    jobsvc_shutdown(s, "test over");
    assert_int_equal(submit(s, "0,0", "", 0, NULL, &job, &found, msg),
                     PUZ_ECLOSED);
    assert_string_equal(msg, "no new jobs are taken: shutting down");
    jobsvc_destroy(s);
}

static void test_idempotency_key(void **state)
{
    jobsvc *s = start(4, 8);
    struct jobs_idem idem, other;
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];

    (void)state;
    memset(&idem, 0, sizeof(idem));
    memset(idem.key, 'a', JOBS_IDEM_LEN);
    memset(idem.body, 'b', JOBS_IDEM_LEN);
    other = idem;
    other.body[0] = 'c';
    assert_int_equal(submit(s, "5,1", "", 0, &idem, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_NEW);
    memcpy(id, job.v.id, sizeof(id));
    jobsvc_job_release(s, &job);
    /* a replay is not held by a cap: it makes nothing */
    assert_int_equal(submit(s, "5,1", "", 1, &idem, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_REPLAY);
    assert_string_equal(job.v.id, id);
    jobsvc_job_release(s, &job);
    assert_int_equal(submit(s, "5,2", "", 0, &other, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_MISMATCH);
    jobsvc_destroy(s);
}

static void test_cancel_then_forget(void **state)
{
    jobsvc *s = start(4, 8);
    struct want w = { s, NULL, JOBS_CANCELLED };
    enum jobsvc_cancelled what;
    struct jobsvc_job job;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];
    bool found = true;

    (void)state;
    submit_new(s, "0,0", id);
    w.id = id;
    assert_int_equal(jobsvc_cancel(s, id, "by the test", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, JOBSVC_STOPPED);
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(jobsvc_cancel(s, id, "again", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, JOBSVC_FORGOTTEN);
    assert_int_equal(jobsvc_find(s, id, false, &job, &found, msg), PUZ_OK);
    assert_false(found);
    assert_int_equal(jobsvc_cancel(s, id, "gone", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, JOBSVC_NO_JOB);
    jobsvc_destroy(s);
}

static void test_malformed_ids_unknown(void **state)
{
    jobsvc *s = start(4, 8);
    static const char *const ids[] = {
        "", "abc", "0123456789ABCDEF0123456789ABCDEF",
        "0123456789abcdef0123456789abcdef0", "../../etc/passwd" };
    struct jobsvc_event ev[2];
    enum jobsvc_cancelled what;
    struct jobsvc_job job;
    char msg[JOBSVC_MSG_MAX];
    bool found, gone;
    size_t n;

    (void)state;
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        found = true;
        assert_int_equal(jobsvc_find(s, ids[i], true, &job, &found, msg),
                         PUZ_OK);
        assert_false(found);
        assert_int_equal(jobsvc_cancel(s, ids[i], "x", 10, &what, msg),
                         PUZ_OK);
        assert_int_equal(what, JOBSVC_NO_JOB);
        assert_int_equal(jobsvc_events(s, ids[i], NULL, ev, 2, &n, &gone,
                                       msg), PUZ_OK);
        assert_true(gone);
        assert_int_equal(n, 0);
    }
    jobsvc_destroy(s);
}

/* The events a stream reads: one snapshot, its id the version it shows;
 * nothing new after it until the job changes; a final one typed by its
 * state; gone once forgotten. */
static void test_events_are_snapshots(void **state)
{
    jobsvc *s = start(4, 8);
    struct want w = { s, NULL, JOBS_DONE };
    struct jobsvc_event ev[4];
    enum jobsvc_cancelled what;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX], cursor[64];
    bool gone;
    size_t n;

    (void)state;
    assert_false(jobsvc_event_id_ok(s, "1"));  /* no id to resume from */
    submit_new(s, "20,2", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(jobsvc_events(s, id, NULL, ev, 4, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 1);
    assert_false(gone);
    assert_true(ev[0].snapshot);
    assert_string_equal(ev[0].type, "done");
    assert_null(ev[0].v.body);      /* answers come from jobsvc_find */
    snprintf(cursor, sizeof(cursor), "%llu",
             (unsigned long long)ev[0].v.version);
    assert_string_equal(ev[0].id, cursor);
    assert_int_equal(jobsvc_events(s, id, cursor, ev, 4, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 0);
    assert_int_equal(jobsvc_cancel(s, id, "x", 10, &what, msg), PUZ_OK);
    assert_int_equal(what, JOBSVC_FORGOTTEN);
    assert_int_equal(jobsvc_events(s, id, cursor, ev, 4, &n, &gone, msg),
                     PUZ_OK);
    assert_true(gone);
    jobsvc_destroy(s);
}

/* --- kept in the store's SQLite file ------------------------------------ */

static char dir[64];
static char logged[2048];      /* the service's log lines, one a line */

static void log_line(void *user, const char *line)
{
    size_t n = strlen(logged);

    (void)user;
    snprintf(logged + n, sizeof(logged) - n, "%s\n", line);
}

/* A service keeping its jobs in dir's store (opened here, s's to keep:
 * closed by stop()); one worker, ttl_s, at most max_attempts runs. */
static jobsvc *start_kept(store **st, unsigned ttl_s, unsigned attempts)
{
    struct jobs_config c = { .workers = 1, .queue = 8, .ttl_s = ttl_s,
                             .max = 16, .results_max_bytes = 1u << 20,
                             .max_attempts = attempts, .log = log_line };
    char msg[PUZ_MSG_MAX];
    jobsvc *s = NULL;

    assert_int_equal(store_open(dir, st, msg), PUZ_OK);
    c.store = *st;
    assert_int_equal(jobsvc_create_embedded(&c, fake_run, NULL, &s),
                     PUZ_OK);
    return s;
}

static void stop(jobsvc *s, store *st)
{
    jobsvc_destroy(s);
    store_close(st);
}

/* One integer from sql on dir's file, by a connection of the test's. */
static int64_t sql_int(const char *sql)
{
    char path[128];
    sqlite3 *db;
    sqlite3_stmt *q;
    int64_t v = -1;

    snprintf(path, sizeof(path), "%s/%s", dir, STORE_FILE);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

static void sql_exec(const char *sql)
{
    char path[128];
    sqlite3 *db;

    snprintf(path, sizeof(path), "%s/%s", dir, STORE_FILE);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* Each test: a state directory of its own, no lines, nothing released. */
static int make_dir(void **state)
{
    (void)state;
    logged[0] = '\0';
    atomic_store(&released, 0);
    return tmpdir_make(dir, sizeof(dir), "jobsvc");
}

static int remove_dir(void **state)
{
    (void)state;
    return tmpdir_remove(dir);
}

/* A job's view (found), its answer copied into body (size bytes). */
static struct jobs_view view_of(jobsvc *s, const char *id, char *body,
                                size_t size)
{
    struct jobsvc_job job;
    struct jobs_view v;
    char msg[JOBSVC_MSG_MAX];
    bool found = false;

    assert_int_equal(jobsvc_find(s, id, true, &job, &found, msg), PUZ_OK);
    assert_true(found);
    v = job.v;
    assert_true(v.len < size);
    if (v.len != 0)
        memcpy(body, v.body, v.len);
    body[v.len] = '\0';
    v.body = NULL;
    jobsvc_job_release(s, &job);
    return v;
}

/*
 * The service stops with one job done, one running (it runs until
 * cancelled, or released) and two queued behind it on the one worker;
 * a new service on the same file has them all: the queued ones run (in
 * the order accepted), the running one again as attempt 2, the done one
 * answers the same bytes, progress and times.
 */
static void test_restart_keeps_jobs(void **state)
{
    store *st;
    jobsvc *s = start_kept(&st, 3600, 3);
    struct want w = { s, NULL, JOBS_DONE };
    struct jobs_view before, after, list[8];
    char done[JOBS_ID_LEN + 1], run[JOBS_ID_LEN + 1], q[2][JOBS_ID_LEN + 1];
    char body[64], msg[JOBSVC_MSG_MAX];
    size_t n;

    (void)state;
    submit_new(s, "20,5", done);
    w.id = done;
    assert_true(wait_until(in_state, &w, 5000));
    before = view_of(s, done, body, sizeof(body));
    submit_new(s, "0,4", run);
    w = (struct want){ s, run, JOBS_RUNNING };
    assert_true(wait_until(in_state, &w, 5000));
    submit_new(s, "1,1", q[0]);
    submit_new(s, "1,2", q[1]);
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 4);
    stop(s, st);                /* mid-run: the rows stay as they were */
    assert_int_equal(sql_int("SELECT count(*) FROM jobs WHERE state = "
                             "'running' AND attempts = 1"), 1);
    assert_int_equal(sql_int("SELECT count(*) FROM jobs WHERE state = "
                             "'queued'"), 2);

    atomic_store(&released, 1);     /* the rerun ends at once */
    s = start_kept(&st, 3600, 3);
    assert_non_null(strstr(logged, "4 stored jobs restored, 0 dropped"));
    for (int i = 0; i < 2; i++) {
        w = (struct want){ s, q[i], JOBS_DONE };
        assert_true(wait_until(in_state, &w, 5000));
        after = view_of(s, q[i], body, sizeof(body));
        assert_int_equal(after.attempts, 1);
        assert_int_equal(after.len, (size_t)i + 1);
    }
    w = (struct want){ s, run, JOBS_DONE };
    assert_true(wait_until(in_state, &w, 5000));
    after = view_of(s, run, body, sizeof(body));
    assert_int_equal(after.attempts, 2);
    assert_string_equal(body, "xxxx");
    after = view_of(s, done, body, sizeof(body));
    assert_string_equal(body, "xxxxx");
    assert_int_equal(after.attempts, 1);
    assert_int_equal(after.created_ms, before.created_ms);
    assert_int_equal(after.finished_ms, before.finished_ms);
    assert_int_equal(after.elapsed_us, before.elapsed_us);
    assert_memory_equal(&after.progress, &before.progress,
                        sizeof(before.progress));
    assert_string_equal(after.trace, TRACE);
    /* newest first, as before the restart */
    assert_int_equal(jobsvc_list(s, -1, NULL, list, 8, &n, msg), PUZ_OK);
    assert_int_equal(n, 4);
    assert_string_equal(list[0].id, q[1]);
    assert_string_equal(list[3].id, done);
    assert_int_equal(sql_int("SELECT count(*) FROM jobs WHERE state = "
                             "'done'"), 4);
    stop(s, st);
}

static bool gone_from_file(void *arg)
{
    (void)arg;
    return sql_int("SELECT count(*) FROM jobs") == 0;
}

static bool forgotten(void *arg)
{
    const struct want *w = arg;
    struct jobsvc_job job;
    char msg[JOBSVC_MSG_MAX];
    bool found = true;

    assert_int_equal(jobsvc_find(w->s, w->id, false, &job, &found, msg),
                     PUZ_OK);
    jobsvc_job_release(w->s, &job);
    return !found;
}

/* A finished job restored keeps the rest of its ttl_s, then goes from
 * the file too; a DELETE forgets it there at once; one whose ttl ran
 * out while no service ran is dropped at the start. */
static void test_restart_ttl_removes_rows(void **state)
{
    store *st;
    jobsvc *s = start_kept(&st, 1, 3);
    struct want w = { s, NULL, JOBS_DONE };
    enum jobsvc_cancelled what;
    char id[JOBS_ID_LEN + 1], gone[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];

    (void)state;
    submit_new(s, "1,3", gone);
    w.id = gone;
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(jobsvc_cancel(s, gone, "x", 10, &what, msg), PUZ_OK);
    assert_int_equal(what, JOBSVC_FORGOTTEN);
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 0);
    submit_new(s, "1,3", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    stop(s, st);
    s = start_kept(&st, 1, 3);
    w.s = s;
    assert_true(wait_until(forgotten, &w, 5000));   /* its second passes */
    assert_true(wait_until(gone_from_file, NULL, 1000));
    stop(s, st);

    /* expired while no service ran: dropped as it loads */
    s = start_kept(&st, 3600, 3);
    submit_new(s, "1,3", id);
    w = (struct want){ s, id, JOBS_DONE };
    assert_true(wait_until(in_state, &w, 5000));
    stop(s, st);
    sql_exec("UPDATE jobs SET finished_ms = finished_ms - 3601000");
    s = start_kept(&st, 3600, 3);
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 0);
    w.s = s;
    assert_true(forgotten(&w));
    stop(s, st);
}

/* A job that was running when its service stopped max_attempts times
 * ends failed, saying so, instead of running again. */
static void test_restart_gives_up(void **state)
{
    store *st;
    jobsvc *s = start_kept(&st, 3600, 2);
    struct want w = { s, NULL, JOBS_RUNNING };
    struct jobs_view v;
    char id[JOBS_ID_LEN + 1], body[16];

    (void)state;
    submit_new(s, "0,1", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    stop(s, st);
    s = start_kept(&st, 3600, 2);      /* attempt 2 */
    w.s = s;
    assert_true(wait_until(in_state, &w, 5000));
    stop(s, st);
    s = start_kept(&st, 3600, 2);
    v = view_of(s, id, body, sizeof(body));
    assert_int_equal(v.state, JOBS_FAILED);
    assert_int_equal(v.attempts, 2);
    assert_string_equal(v.reason, "gave up after 2 attempts: the server "
                        "stopped while it ran");
    assert_int_equal(sql_int("SELECT count(*) FROM jobs WHERE state = "
                             "'failed'"), 1);
    stop(s, st);
}

/* Rows no job could come from (an unknown state, an id too long, an
 * answer over the budget) are dropped with a line each; the rest load. */
static void test_restart_drops_bad_rows(void **state)
{
    store *st;
    jobsvc *s = start_kept(&st, 3600, 3);
    struct want w = { s, NULL, JOBS_DONE };
    char id[JOBS_ID_LEN + 1];

    (void)state;
    submit_new(s, "1,2", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    stop(s, st);
    /* copies of its row: an unknown state, an id of 41 digits, an
     * answer of 2 MB (the budget is 1 MiB) */
    sql_exec("INSERT INTO jobs SELECT seq + 1, printf('%.32c', 'a'), "
             "owner, trace, idem_key, idem_body, idem_until_ms, 'weird', "
             "attempts, created_ms, started_ms, finished_ms, request, "
             "elapsed_us, progress, result, reason FROM jobs;"
             "INSERT INTO jobs SELECT seq + 2, printf('%.41c', 'b'), owner, "
             "trace, idem_key, idem_body, idem_until_ms, state, attempts, "
             "created_ms, started_ms, finished_ms, request, elapsed_us, "
             "progress, result, reason FROM jobs WHERE seq = 1;"
             "INSERT INTO jobs SELECT seq + 3, printf('%.32c', 'c'), owner, "
             "trace, idem_key, idem_body, idem_until_ms, state, attempts, "
             "created_ms, started_ms, finished_ms, request, elapsed_us, "
             "progress, zeroblob(2000000), reason FROM jobs WHERE seq = 1;");
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 4);
    s = start_kept(&st, 3600, 3);
    assert_non_null(strstr(logged, "dropped stored job "
                           "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: an unknown "
                           "state"));
    assert_non_null(strstr(logged, "a field longer than a job's"));
    assert_non_null(strstr(logged, "dropped stored job "
                           "cccccccccccccccccccccccccccccccc: an answer "
                           "larger than job_results_max_bytes"));
    assert_non_null(strstr(logged, "1 stored jobs restored, 3 dropped"));
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 1);
    w.s = s;
    assert_true(in_state(&w));
    stop(s, st);
}

/* A second service on the same file (a second server on one
 * state_dir) keeps its jobs in memory, saying so: the file's are the
 * first one's, and nobody runs them twice. */
static void test_one_owner_per_file(void **state)
{
    store *st, *st2;
    jobsvc *s = start_kept(&st, 3600, 3), *s2;
    struct want w = { NULL, NULL, JOBS_DONE };
    char id[JOBS_ID_LEN + 1];

    (void)state;
    s2 = start_kept(&st2, 3600, 3);
    assert_non_null(strstr(logged, "kept in memory only (a restart "
                           "forgets them): the store cannot keep them: "
                           "another process keeps its jobs in "));
    submit_new(s2, "1,1", id);
    w = (struct want){ s2, id, JOBS_DONE };
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 0);
    submit_new(s, "1,1", id);
    assert_int_equal(sql_int("SELECT count(*) FROM jobs"), 1);
    stop(s2, st2);
    stop(s, st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submit_runs_the_bytes),
        cmocka_unit_test(test_refusals_worded),
        cmocka_unit_test(test_idempotency_key),
        cmocka_unit_test(test_cancel_then_forget),
        cmocka_unit_test(test_malformed_ids_unknown),
        cmocka_unit_test(test_events_are_snapshots),
        cmocka_unit_test_setup_teardown(test_restart_keeps_jobs, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_restart_ttl_removes_rows,
                                        make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_restart_gives_up, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_restart_drops_bad_rows,
                                        make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_one_owner_per_file, make_dir,
                                        remove_dir),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
