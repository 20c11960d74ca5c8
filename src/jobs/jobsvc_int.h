/*
 * jobsvc_int.h - what jobsvc.c (the interface) asks of a backend:
 * jobsvc_embedded.c (the registry, jobs.h) and jobsvc_shared.c (Redis,
 * jobq.h). Each fills a struct jobsvc__ops; jobsvc.c dispatches, and
 * makes and frees the backend's own object (jobs_t, jobq_t).
 */
#ifndef JOBSVC_INT_H
#define JOBSVC_INT_H

#include "jobsvc.h"

struct jobsvc__ops {
    const char *name;           /* "embedded" or "shared" */
    bool may_block;             /* its calls may wait on the network */
    puz_err (*submit)(jobsvc *s, const struct jobsvc_submit *a,
                      struct jobsvc_job *out, enum jobs_idem_found *found,
                      char *msg);
    puz_err (*find)(jobsvc *s, const char *id, bool answer,
                    struct jobsvc_job *out, bool *found, char *msg);
    void (*release)(jobsvc *s, struct jobsvc_job *j);
    puz_err (*list)(jobsvc *s, int state, const char *owner,
                    struct jobs_view *out, size_t max, size_t *n,
                    char *msg);
    puz_err (*cancel)(jobsvc *s, const char *id, const char *reason,
                      unsigned wait_ms, enum jobsvc_cancelled *what,
                      char *msg);
    void (*progress)(const struct jobsvc_run *run,
                     const struct puz_progress *p);
    bool (*units)(const struct jobsvc_run *run, const puz_tables *t,
                  const struct puz_board *start,
                  const struct puz_board *goal, unsigned threads,
                  struct jobq_units *u, struct puz_solve_opts *o);
    bool (*event_id_ok)(const char *id);
    puz_err (*events)(jobsvc *s, const char *job, const char *after,
                      struct jobsvc_event *out, size_t max, size_t *n,
                      bool *gone, char *msg);
    void (*wait_change)(jobsvc *s, uint64_t *seen, unsigned timeout_ms);
    bool (*ready)(jobsvc *s, char *why);
    void (*stats)(jobsvc *s, struct jobsvc_stats *out);
    void (*shutdown)(jobsvc *s, const char *reason);
};

struct jobsvc {
    const struct jobsvc__ops *ops;
    jobsvc_run_fn run;
    void *user;
    jobs_t *jobs;               /* embedded */
    jobq_t *q;                  /* shared */
    unsigned workers, queue, max;   /* as configured, for refusals */
    struct jobsvc__db *db;      /* embedded, kept in SQLite; NULL: not */
};

/* jobsvc_embedded.c: a task of s running body (len bytes, copied), made
 * by owner with trace ("": none); PUZ_ENOMEM. The request's bytes of a
 * task so made. */
puz_err jobsvc__task_make(jobsvc *s, const void *body, size_t len,
                          const char *owner, const char *trace,
                          struct jobs_task *out);
const char *jobsvc__task_body(const struct jobs_task *t, size_t *len);

/* jobsvc_db.c: the embedded jobs in the SQLite file of cfg->store, NULL
 * when they stay in memory only (no store, a shared one, or one that
 * cannot keep them: logged); its journal for the registry; every job
 * it kept handed to s's registry (s->jobs) at start; closed (NULL is a
 * no-op). */
struct jobsvc__db;
struct jobsvc__db *jobsvc__db_open(const struct jobs_config *cfg);
const struct jobs_journal *jobsvc__db_journal(struct jobsvc__db *d);
void jobsvc__db_load(struct jobsvc__db *d, jobsvc *s);
void jobsvc__db_close(struct jobsvc__db *d);
/* On a worker about to run a job (no lock held): the WAL into the file,
 * at most once a second (d NULL: nothing). */
void jobsvc__db_checkpoint(struct jobsvc__db *d);

extern const struct jobsvc__ops jobsvc__embedded;
extern const struct jobsvc__ops jobsvc__shared;

#endif
