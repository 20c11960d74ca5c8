/*
 * jobsvc_db.c - the embedded jobs kept in the store's SQLite file (its
 * table `jobs`, store_sqlite.c's migration 7), so that a restart or a
 * crash loses no accepted job (issue 42): the registry's journal
 * (jobs.h), one row a job, written when the job is made (before its 202
 * goes out), started and ended, and deleted when the registry forgets
 * it; at the next start every row is handed back (jobs_restore) in the
 * order the jobs were accepted.
 *
 * A connection of its own (store_sqlite_connect), WAL with synchronous
 * NORMAL as the store's: a commit is a write() into the WAL, which a
 * kill -9 does not undo (a power cut may lose the last ones). Three
 * statements, prepared once; each write is one statement, so one
 * transaction. Calls come under the registry's lock: one at a time.
 *
 * The writes never checkpoint (wal_autocheckpoint 0): a checkpoint
 * fsyncs, and under the registry's lock it would hold every job route
 * behind a disk's flush. A worker about
 * to run a job checkpoints instead, on a second connection, at most
 * once a second (PASSIVE: it never waits for the writer, nor the writer
 * for it), and the service at its end: every write comes with a job, so
 * the WAL holds at most the writes since the last job started.
 */
#include "jobsvc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "puz_clock.h"
#include "store.h"

struct jobsvc__db {
    sqlite3 *db;
    sqlite3_stmt *ins, *upd, *del;
    sqlite3 *ckpt;                  /* the checkpoints' connection */
    int lock_fd;                    /* flock'd: the file's jobs are ours */
    pthread_mutex_t ckpt_lock;      /* one checkpoint at a time */
    _Atomic uint64_t checkpoint_us; /* the last one's */
    struct jobs_journal journal;
    size_t body_max, results_max;
    void (*log)(void *user, const char *line);
    void *log_user;
};

static void logf_(struct jobsvc__db *d, const char *fmt, ...)
{
    char line[3 * PUZ_MSG_MAX];
    va_list ap;

    if (d->log == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    d->log(d->log_user, line);
}

/* Runs st to its end and makes it ready for the next call: 0, or -1
 * (logged as what failed, for job id). */
static int step_once(struct jobsvc__db *d, sqlite3_stmt *st,
                     const char *what, const char *id)
{
    int rc = sqlite3_step(st);

    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_DONE)
        return 0;
    logf_(d, "puzzled: jobs: cannot %s job %s in the store: %s", what, id,
          sqlite3_errmsg(d->db));
    return -1;
}

static int db_insert(struct jobsvc__db *d, const struct jobs_record *r,
                     const struct jobs_task *task)
{
    sqlite3_stmt *st = d->ins;
    size_t len;
    const char *body = jobsvc__task_body(task, &len);

    sqlite3_bind_text(st, 1, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, r->owner, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, r->trace, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, r->idem.key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, r->idem.body, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, r->idem_until_ms);
    sqlite3_bind_text(st, 7, jobs_state_name(r->state), -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, r->created_ms);
    /* an empty request is an empty blob, not NULL */
    sqlite3_bind_blob(st, 9, len != 0 ? body : "", (int)len,
                      SQLITE_STATIC);
    return step_once(d, st, "keep", r->id);
}

/* A progress as the text of its column: written, read. */
#define PROGRESS_OUT "%u %" PRIu64 " %" PRIu64 " %" PRIu64 " %u %u %u"
#define PROGRESS_IN "%u %" SCNu64 " %" SCNu64 " %" SCNu64 " %u %u %u"

static int db_update(struct jobsvc__db *d, const struct jobs_record *r)
{
    sqlite3_stmt *st = d->upd;
    const struct puz_progress *p = &r->progress;
    char progress[160];

    snprintf(progress, sizeof(progress), PROGRESS_OUT,
             (unsigned)p->algorithm, p->expanded, p->generated,
             p->elapsed_us, p->bound, p->lower_bound, p->best_length);

    sqlite3_bind_text(st, 1, jobs_state_name(r->state), -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, r->attempts);
    sqlite3_bind_int64(st, 3, r->started_ms);
    sqlite3_bind_int64(st, 4, r->finished_ms);
    if (r->body != NULL)
        sqlite3_bind_blob(st, 5, r->body, (int)r->len, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, r->reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 8, (int64_t)r->elapsed_us);
    sqlite3_bind_text(st, 9, progress, -1, SQLITE_STATIC);
    return step_once(d, st, "update", r->id);
}

/* jobs_journal's put: a new row, or the row's state. */
static int db_put(void *user, const struct jobs_record *r,
                  const struct jobs_task *task, bool made)
{
    struct jobsvc__db *d = user;

    return made ? db_insert(d, r, task) : db_update(d, r);
}

static void db_drop(void *user, const char *id)
{
    struct jobsvc__db *d = user;

    sqlite3_bind_text(d->del, 1, id, -1, SQLITE_STATIC);
    step_once(d, d->del, "forget", id);
}

/* --- loading at start ---------------------------------------------------- */

/* Column i as text into out (size bytes); false when longer. */
static bool column_text(sqlite3_stmt *st, int i, char *out, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    size_t n = (size_t)sqlite3_column_bytes(st, i);

    if (n >= size)
        return false;
    memcpy(out, t != NULL ? (const char *)t : "", n);
    out[n] = '\0';
    return true;
}

#define LOAD_COLUMNS "seq, id, owner, trace, idem_key, idem_body, " \
    "idem_until_ms, state, attempts, created_ms, started_ms, "       \
    "finished_ms, request, result, reason, elapsed_us, progress"

/* The record of the row st is on (its answer's bytes, result, still
 * the row's); NULL when fine, else what is wrong with it. */
static const char *read_row(struct jobsvc__db *d, sqlite3_stmt *st,
                            struct jobs_record *r)
{
    char state[16], progress[160];
    struct puz_progress *p = &r->progress;
    unsigned alg = 0;
    int s;

    memset(r, 0, sizeof(*r));
    if (!column_text(st, 1, r->id, sizeof(r->id))
        || !column_text(st, 2, r->owner, sizeof(r->owner))
        || !column_text(st, 3, r->trace, sizeof(r->trace))
        || !column_text(st, 4, r->idem.key, sizeof(r->idem.key))
        || !column_text(st, 5, r->idem.body, sizeof(r->idem.body))
        || !column_text(st, 7, state, sizeof(state))
        || !column_text(st, 14, r->reason, sizeof(r->reason))
        || !column_text(st, 16, progress, sizeof(progress)))
        return "a field longer than a job's";
    if (progress[0] != '\0'
        && sscanf(progress, PROGRESS_IN, &alg, &p->expanded, &p->generated,
                  &p->elapsed_us, &p->bound, &p->lower_bound,
                  &p->best_length) != 7)
        return "a progress that is not one";
    p->algorithm = (enum puz_algorithm)alg;
    r->elapsed_us = (uint64_t)sqlite3_column_int64(st, 15);
    s = jobs_state_parse(state);
    if (s < 0)
        return "an unknown state";
    r->state = (enum jobs_state)s;
    r->idem_until_ms = sqlite3_column_int64(st, 6);
    r->attempts = (unsigned)sqlite3_column_int(st, 8);
    r->created_ms = sqlite3_column_int64(st, 9);
    r->started_ms = sqlite3_column_int64(st, 10);
    r->finished_ms = sqlite3_column_int64(st, 11);
    if (d->body_max != 0
        && (size_t)sqlite3_column_bytes(st, 12) > d->body_max)
        return "a request larger than max_body_bytes";
    r->len = (size_t)sqlite3_column_bytes(st, 13);
    if (d->results_max != 0 && r->len > d->results_max)
        return "an answer larger than job_results_max_bytes";
    r->body = r->len != 0 ? sqlite3_column_blob(st, 13) : NULL;
    if (r->len != 0 && !jobs_state_final(r->state))
        return "an answer before its end";
    return NULL;
}

/* Why jobs_restore refused a row, for the log (NULL: say nothing). */
static const char *refusal(puz_err rc)
{
    switch (rc) {
    case PUZ_EFINISHED:
        return NULL;        /* its job_ttl_s ran out meanwhile */
    case PUZ_EFULL:
        return "no room for it (job_max, job_queue or "
               "job_results_max_bytes)";
    case PUZ_EINVAL:
        return "not a job (its id or state)";
    default:
        return puz_strerror(rc);
    }
}

/* Hands the row st is on to the registry: 0 kept, 1 dropped (why
 * logged unless it had just expired), -1 out of memory. */
static int load_row(struct jobsvc__db *d, sqlite3_stmt *st, jobsvc *s,
                    char *id, size_t id_size)
{
    struct jobs_record r;
    struct jobs_task task;
    const char *why = read_row(d, st, &r);
    puz_err rc;

    snprintf(id, id_size, "%s", r.id[0] ? r.id : "(no id)");
    if (why != NULL) {
        logf_(d, "puzzled: jobs: dropped stored job %s: %s", id, why);
        return 1;
    }
    if (jobsvc__task_make(s, sqlite3_column_blob(st, 12),
                          (size_t)sqlite3_column_bytes(st, 12), r.owner,
                          r.trace, &task) != PUZ_OK)
        return -1;
    rc = jobs_restore(s->jobs, &task, &r);
    if (rc == PUZ_OK)
        return 0;
    task.free_arg(task.arg);
    if (rc == PUZ_ENOMEM)
        return -1;
    why = refusal(rc);
    if (why != NULL)
        logf_(d, "puzzled: jobs: dropped stored job %s: %s", id, why);
    return 1;
}

/*
 * Every row, in the order accepted. One row at a time (seq past the
 * last), so no statement is running while a refused row is deleted
 * or a restored one updated.
 */
void jobsvc__db_load(struct jobsvc__db *d, jobsvc *s)
{
    unsigned kept = 0, dropped = 0;
    int64_t seq = -1;
    sqlite3_stmt *st = NULL, *del = NULL;
    char id[JOBS_ID_LEN + 16];

    if (sqlite3_prepare_v2(d->db, "SELECT " LOAD_COLUMNS " FROM jobs "
                           "WHERE seq > ?1 ORDER BY seq LIMIT 1", -1, &st,
                           NULL)
        || sqlite3_prepare_v2(d->db, "DELETE FROM jobs WHERE seq = ?1", -1,
                              &del, NULL)) {
        logf_(d, "puzzled: jobs: cannot read the stored jobs: %s",
              sqlite3_errmsg(d->db));
        goto out_finalize;
    }
    for (;;) {
        int r, step;

        sqlite3_bind_int64(st, 1, seq);
        step = sqlite3_step(st);
        if (step != SQLITE_ROW) {
            if (step != SQLITE_DONE)
                logf_(d, "puzzled: jobs: stopped reading the stored jobs: "
                      "%s", sqlite3_errmsg(d->db));
            break;
        }
        seq = sqlite3_column_int64(st, 0);
        r = load_row(d, st, s, id, sizeof(id));
        sqlite3_reset(st);
        if (r < 0) {
            logf_(d, "puzzled: jobs: out of memory reading the stored "
                  "jobs; the rest stay in the store");
            break;
        }
        if (r > 0) {
            sqlite3_bind_int64(del, 1, seq);
            step_once(d, del, "forget", id);
            dropped++;
        }
        kept += r == 0;
    }
    if (kept + dropped != 0)
        logf_(d, "puzzled: jobs: %u stored jobs restored, %u dropped", kept,
              dropped);
out_finalize:
    sqlite3_finalize(st);
    sqlite3_finalize(del);
}

/* --- opening ------------------------------------------------------------- */

#define CHECKPOINT_US 1000000u

void jobsvc__db_checkpoint(struct jobsvc__db *d)
{
    uint64_t now = puz_clock_mono_us();

    if (d == NULL || now - atomic_load(&d->checkpoint_us) < CHECKPOINT_US
        || pthread_mutex_trylock(&d->ckpt_lock) != 0)
        return;     /* another worker checkpoints now */
    if (now - atomic_load(&d->checkpoint_us) >= CHECKPOINT_US) {
        sqlite3_wal_checkpoint_v2(d->ckpt, NULL, SQLITE_CHECKPOINT_PASSIVE,
                                  NULL, NULL);
        atomic_store(&d->checkpoint_us, puz_clock_mono_us());
    }
    pthread_mutex_unlock(&d->ckpt_lock);
}

void jobsvc__db_close(struct jobsvc__db *d)
{
    if (d == NULL)
        return;
    if (d->ckpt != NULL)        /* the last of the WAL into the file */
        sqlite3_wal_checkpoint_v2(d->ckpt, NULL, SQLITE_CHECKPOINT_PASSIVE,
                                  NULL, NULL);
    sqlite3_close(d->ckpt);
    if (d->lock_fd >= 0)
        close(d->lock_fd);
    pthread_mutex_destroy(&d->ckpt_lock);
    sqlite3_finalize(d->ins);
    sqlite3_finalize(d->upd);
    sqlite3_finalize(d->del);
    sqlite3_close(d->db);
    free(d);
}

static bool prepare(struct jobsvc__db *d)
{
    return sqlite3_prepare_v3(d->db, "INSERT INTO jobs (id, owner, trace, "
                              "idem_key, idem_body, idem_until_ms, state, "
                              "attempts, created_ms, started_ms, "
                              "finished_ms, request, result, reason, "
                              "elapsed_us, progress) VALUES (?1, ?2, ?3, "
                              "?4, ?5, ?6, ?7, 0, ?8, 0, 0, ?9, NULL, '', "
                              "0, '')", -1,
                              SQLITE_PREPARE_PERSISTENT, &d->ins, NULL)
           == SQLITE_OK
           && sqlite3_prepare_v3(d->db, "UPDATE jobs SET state = ?1, "
                                 "attempts = ?2, started_ms = ?3, "
                                 "finished_ms = ?4, result = ?5, reason = "
                                 "?6, elapsed_us = ?8, progress = ?9 "
                                 "WHERE id = ?7", -1,
                                 SQLITE_PREPARE_PERSISTENT, &d->upd, NULL)
              == SQLITE_OK
           && sqlite3_prepare_v3(d->db, "DELETE FROM jobs WHERE id = ?1",
                                 -1,
                                 SQLITE_PREPARE_PERSISTENT, &d->del, NULL)
              == SQLITE_OK;
}

/*
 * The jobs of one file belong to one process: two servers on one
 * state_dir (allowed for the daily leaderboard) would each restore and
 * run every job. An flock beside the file, which the kernel lets go of
 * when the process dies however it dies; the second process keeps its
 * jobs in memory. 0, or -1 with why.
 */
static int own_file(struct jobsvc__db *d, char *why)
{
    const char *db = sqlite3_db_filename(d->db, "main");
    char path[4200];

    snprintf(path, sizeof(path), "%s-jobs.lock", db != NULL ? db : "");
    d->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
    if (d->lock_fd < 0) {
        snprintf(why, PUZ_MSG_MAX, "%.200s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(d->lock_fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    snprintf(why, PUZ_MSG_MAX, "another process keeps its jobs in %.200s",
             db);
    return -1;
}

struct jobsvc__db *jobsvc__db_open(const struct jobs_config *cfg)
{
    struct jobsvc__db *d;
    char why[PUZ_MSG_MAX] = "";

    if (cfg->store == NULL
        || strcmp(store_backend(cfg->store), "embedded") != 0)
        return NULL;
    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return NULL;
    d->log = cfg->log;
    d->log_user = cfg->log_user;
    d->body_max = cfg->body_max_bytes;
    d->results_max = cfg->results_max_bytes;
    d->journal = (struct jobs_journal){ db_put, db_drop, d };
    d->lock_fd = -1;
    pthread_mutex_init(&d->ckpt_lock, NULL);
    d->db = store_sqlite_connect(cfg->store, why);
    if (d->db != NULL && own_file(d, why) == 0)
        d->ckpt = store_sqlite_connect(cfg->store, why);
    if (d->ckpt != NULL && (!prepare(d) || sqlite3_exec(d->db, "PRAGMA "
                            "wal_autocheckpoint = 0", NULL, NULL, NULL)))
        snprintf(why, sizeof(why), "%s", sqlite3_errmsg(d->db));
    else if (d->ckpt != NULL)
        return d;
    logf_(d, "puzzled: jobs: kept in memory only (a restart forgets "
          "them): the store cannot keep them: %s", why);
    jobsvc__db_close(d);
    return NULL;
}

const struct jobs_journal *jobsvc__db_journal(struct jobsvc__db *d)
{
    return &d->journal;
}
