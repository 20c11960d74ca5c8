/*
 * api.c - the route table of the JSON API, the two entry points that
 * run a route (api_start on the reading thread, api_work where the
 * search runs) and the answers every route ends with: JSON, problem
 * details or plain bytes, all encoded into the call's arena.
 */
#include "api_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api_jalloc.h"
#include "codec.h"
#include "puz_clock.h"

const struct api_route api_routes[API_ROUTES_MAX + 1] = {
    { "POST", "/v1/solve", true, api__solve, api__solve_work, false },
    { "POST", "/v1/solve/batch", true, api__batch, api__batch_work,
      false },
    { "GET", "/v1/puzzles/random", false, api__random, NULL, false },
    { "POST", "/v1/score", true, api__score, api__score_work, false },
    { "GET", "/v1/catalog", false, api__catalog, NULL, false },
    /* Jobs run on their own workers: these answer at once, unless the
     * jobs service may wait on the network (shared: Redis), which they
     * then leave to their work, on the server's waiting threads. */
    { "POST", "/v1/jobs", true, api__jobs_submit, api__jobs_submit_work,
      true },
    { "GET", "/v1/jobs", false, api__jobs_list, api__jobs_list_work, true },
    { "GET", "/v1/jobs/{id}", false, api__jobs_get, api__jobs_get_work,
      true },
    { "DELETE", "/v1/jobs/{id}", false, api__jobs_delete,
      api__jobs_delete_work, true },
    { "GET", "/v1/daily/{date}/{size}", false, api__daily, api__daily_work,
      false },
    { "POST", "/v1/daily/{date}/{size}/start", false, api__daily_start,
      api__daily_work, false },
    { "POST", "/v1/daily/{date}/{size}/finish", true, api__daily_finish,
      api__daily_work, false },
    { "POST", "/v1/daily/{date}/{size}/entries", true, api__daily_entry,
      api__daily_work, false },
    { NULL, NULL, false, NULL, NULL, false },
};

/* The bytes a path parameter may hold: RFC 3986's unreserved set. */
static bool name_byte(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
           || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.'
           || ch == '_' || ch == '~';
}

/* One "{name}" segment's n bytes at s into pp; false when the pattern
 * has more of them than API_PATH_PARAMS_MAX. */
static bool capture(struct api_path_params *pp, const char *s, size_t n)
{
    char *v;
    size_t i = 0;

    if (pp->n >= API_PATH_PARAMS_MAX)
        return false;
    v = pp->value[pp->n++];
    if (n <= API_PATH_PARAM_LEN_MAX)
        while (i < n && name_byte(s[i]))
            i++;
    if (i < n)
        n = 0;          /* too long, or a byte no name has: "" */
    memcpy(v, s, n);
    v[n] = '\0';
    return true;
}

bool api_path_match(const char *pattern, const char *path,
                    struct api_path_params *pp)
{
    struct api_path_params mine;
    const char *p = pattern, *s = path, *close;
    size_t n;

    if (pp == NULL)
        pp = &mine;
    pp->pattern = NULL;
    pp->n = 0;
    while (*p != '\0') {
        close = *p == '{' ? strchr(p, '}') : NULL;
        if (close == NULL) {
            if (*p++ != *s++)
                return false;
            continue;
        }
        n = strcspn(s, "/");
        if (n == 0 || !capture(pp, s, n))
            return false;
        p = close + 1;
        s += n;
    }
    if (*s != '\0')
        return false;
    pp->pattern = pattern;
    return true;
}

const struct api_route *api_route_find(const char *method, const char *path,
                                       struct api_path_params *pp)
{
    bool head = strcmp(method, "HEAD") == 0;

    for (const struct api_route *rt = api_routes; rt->path != NULL; rt++) {
        if (strcmp(rt->method, method) != 0
            && !(head && strcmp(rt->method, "GET") == 0))
            continue;
        if (api_path_match(rt->path, path, pp))
            return rt;
    }
    if (pp != NULL)
        pp->pattern = NULL;
    return NULL;
}

const char *api_path_param(const struct api_call *c, const char *name)
{
    const struct api_path_params *pp = &c->rq.params;
    size_t len = strlen(name);
    unsigned i = 0;

    if (pp->pattern == NULL)
        return NULL;
    for (const char *p = strchr(pp->pattern, '{'); p != NULL && i < pp->n;
         p = strchr(p + 1, '{'), i++)
        if (strncmp(p + 1, name, len) == 0 && p[1 + len] == '}')
            return pp->value[i];
    return NULL;
}

/* Kept out of every call's budget, so the problem answer that says the
 * budget ran out can always be built. */
#define PROBLEM_RESERVE (16u << 10)

void api_call_init(struct api_call *c, const struct api_ctx *ctx,
                   const struct api_request *rq, puz_arena *a)
{
    api_jalloc_install();   /* once per process; the rule below needs it */
    memset(c, 0, sizeof(*c));
    c->ctx = ctx;
    c->rq = *rq;
    c->arena = a;
    /* One budget over every byte the call causes: its search (in a
     * scratch arena under what is left, api__search), its JSON and its
     * answer's bytes. */
    if (a != NULL && puz_arena_budget(a) == 0 && ctx != NULL
        && ctx->lim != NULL && ctx->lim->solve_max_bytes > PROBLEM_RESERVE)
        puz_arena_set_budget(a, ctx->lim->solve_max_bytes - PROBLEM_RESERVE);
}

/* A query key given twice is refused: which one was meant is a guess
 * (limit=5&limit=200), and a proxy may have taken the other. */
static bool query_once(struct api_call *c)
{
    for (size_t i = 0; i < c->rq.nquery; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(c->rq.query[i].key, c->rq.query[j].key) == 0) {
                api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "%.40s: "
                                    "given more than once; give it once",
                                    c->rq.query[i].key);
                return false;
            }
    return true;
}

bool api_call_authorize(struct api_call *c)
{
    const char *h = c->rq.authorization;
    unsigned retry_s;
    char secs[16];

    if (h == NULL)
        return true;
    if (strncasecmp(h, "Bearer ", 7) == 0)
        c->key = api_keys_find(c->ctx->keys, h + 7 + strspn(h + 7, " "));
    if (c->key == NULL) {
        api_answer_problemf(c, API_PROBLEM_UNAUTHORIZED, "%s",
                            c->ctx->keys == NULL ? "this server has no API "
                            "keys: send no Authorization header"
                            : "Authorization must be 'Bearer KEY' with a "
                            "key of this server");
        api_answer_header(c, "WWW-Authenticate", "Bearer realm=\"puzzled\"");
        return false;
    }
    if (api_keys_take_request(c->ctx->keys, c->key,
                              (uint64_t)puz_clock_wall_ms(), &retry_s))
        return true;
    api_answer_problemf(c, API_PROBLEM_RATE_LIMITED, "the key %s made its "
                        "%u requests of this minute", c->key->name,
                        c->key->rpm);
    snprintf(secs, sizeof(secs), "%u", retry_s);
    api_answer_header(c, "Retry-After", secs);
    return false;
}

bool api_start(const struct api_route *rt, struct api_call *c)
{
    puz_arena *prev = api_jalloc_bind(c->arena);

    if (api_call_authorize(c) && query_once(c))
        rt->fn(c);
    api_jalloc_unbind(prev);
    if (c->answer.status != 0) {    /* answered here: no api_work */
        puz_arena_destroy(c->scratch);
        c->scratch = NULL;
    }
    if (c->answer.status == 0 && rt->work == NULL)
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "the route %s gave "
                            "no answer", rt->path);
    return c->answer.status != 0;
}

void api_work(const struct api_route *rt, struct api_call *c)
{
    puz_arena *prev = api_jalloc_bind(c->arena);
    struct api_problem p;

    if (c->cancel != NULL && atomic_load(c->cancel)) {
        api__cancelled(c, &p);     /* before it started */
        api_answer_problem(c, &p);
    } else {
        rt->work(c);
    }
    api_jalloc_unbind(prev);
    puz_arena_destroy(c->scratch);
    c->scratch = NULL;
    if (c->answer.status == 0)
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "the route %s gave "
                            "no answer", rt->path);
}

void api_run(const struct api_route *rt, struct api_call *c)
{
    if (!api_start(rt, c))
        api_work(rt, c);
}

/* Out of memory while answering: the one answer that needs none. */
static void answer_oops(struct api_call *c)
{
    static const char oops[] = "internal error\n";

    c->answer.status = 500;
    c->answer.content_type = "text/plain";
    c->answer.body = oops;
    c->answer.len = sizeof(oops) - 1;
    c->answer.nheaders = 0;
}

void api_answer_bytes(struct api_call *c, unsigned status,
                      const char *content_type, const void *buf,
                      size_t len)
{
    c->answer.status = status;
    c->answer.content_type = content_type;
    c->answer.body = buf;
    c->answer.len = len;
    c->answer.nheaders = 0;
}

void api_answer_header(struct api_call *c, const char *name,
                       const char *value)
{
    struct api_answer *an = &c->answer;
    char *v = puz_arena_strdup(c->arena, value);

    if (v == NULL || an->nheaders >= API_HEADERS_MAX) {
        answer_oops(c);
        return;
    }
    an->headers[an->nheaders].name = name;
    an->headers[an->nheaders].value = v;
    an->nheaders++;
}

void api__too_large(const struct api_call *c, size_t n,
                    struct api_problem *p)
{
    const struct api_limits *cfg = c->ctx->lim;

    if (n == 0)
        api_problem_set(p, API_PROBLEM_ANSWER_TOO_LARGE, "the answer "
                         "does not fit in the memory one request may use "
                         "(solve_max_bytes, %zu bytes); ask for less "
                         "(include_path false, fewer boards)",
                         cfg->solve_max_bytes);
    else
        api_problem_set(p, API_PROBLEM_ANSWER_TOO_LARGE, "the answer "
                         "would be %zu bytes, over this server's "
                         "max_response_bytes (%zu); ask for less "
                         "(include_path false, fewer boards)", n,
                         cfg->max_response_bytes);
}

bool api__answer_fits(const struct api_call *c, size_t n,
                      struct api_problem *p)
{
    size_t budget = puz_arena_budget(c->arena);
    size_t used = puz_arena_used(c->arena);

    if (api_jalloc_failed() || (budget != 0 && (used > budget
                                                || n > (budget - used) / 2)))
        api__too_large(c, 0, p);
    else if (n > c->ctx->lim->max_response_bytes)
        api__too_large(c, n, p);
    else
        return true;
    return false;
}

/* Compact JSON, reals with 6 significant digits, into the arena. A
 * problem is always encoded; any other answer only when it fits. */
static void answer_encoded(struct api_call *c, unsigned status,
                           const char *content_type, json_t *body,
                           bool problem)
{
    const size_t flags = CODEC_JSON_FLAGS;
    char small[4096], *buf = NULL;
    struct api_problem p;
    size_t n = body != NULL ? json_dumpb(body, small, sizeof(small), flags)
                            : 0;

    if (!problem && !api__answer_fits(c, n, &p)) {
        api_answer_problem(c, &p);
        return;
    }
    if (n > 0)
        buf = puz_arena_alloc(c->arena, n);
    if (buf != NULL && n <= sizeof(small))
        memcpy(buf, small, n);
    else if (buf != NULL && json_dumpb(body, buf, n, flags) != n)
        buf = NULL;
    if (buf == NULL)
        answer_oops(c);
    else
        api_answer_bytes(c, status, content_type, buf, n);
}

void api_answer_json(struct api_call *c, unsigned status, json_t *body)
{
    puz_arena *prev = api_jalloc_bind(c->arena);

    answer_encoded(c, status, "application/json", body, false);
    json_decref(body);
    api_jalloc_unbind(prev);
}

void api_answer_problem(struct api_call *c, const struct api_problem *p)
{
    unsigned status = api_problem_status(p->kind);
    size_t budget = puz_arena_budget(c->arena);
    puz_arena *prev;
    json_t *body;
    char secs[16];

    if (budget != 0)    /* the reserve is for this */
        puz_arena_set_budget(c->arena, budget + PROBLEM_RESERVE);
    prev = api_jalloc_bind(c->arena);
    body = api_problem_json(p, c->rq.path, c->rq.id);
    answer_encoded(c, status, "application/problem+json", body, true);
    json_decref(body);
    api_jalloc_unbind(prev);
    if (status == 503 && c->answer.status == 503) {
        snprintf(secs, sizeof(secs), "%u", c->ctx->lim->retry_after_s);
        api_answer_header(c, "Retry-After", secs);
    }
    puz_arena_set_budget(c->arena, budget);
}

void api_answer_problemv(struct api_call *c, enum api_problem_kind k,
                         const char *fmt, va_list ap)
{
    struct api_problem p;

    api_problem_set(&p, k, "%s", "");
    vsnprintf(p.detail, sizeof(p.detail), fmt, ap);
    api_answer_problem(c, &p);
}

void api_answer_problemf(struct api_call *c, enum api_problem_kind k,
                         const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    api_answer_problemv(c, k, fmt, ap);
    va_end(ap);
}

bool api__refuse_when_draining(struct api_call *c)
{
    if (c->ctx->draining == NULL || !atomic_load(c->ctx->draining))
        return false;
    api_answer_problemf(c, API_PROBLEM_SHUTTING_DOWN, "the server is "
                        "shutting down; retry on another instance or "
                        "after the restart");
    return true;
}

bool api__parse_body(struct api_call *c, json_t **root)
{
    struct api_problem p;

    if (api_decode_json(c->rq.body, c->rq.len, c->ctx->lim->json_max_depth,
                         root, &p) == PUZ_OK)
        return true;
    api_answer_problem(c, &p);
    return false;
}

bool api__open(struct api_call *c, size_t size, void **state,
               json_t **root)
{
    if (api__refuse_when_draining(c) || !api__parse_body(c, root))
        return false;
    *state = puz_arena_calloc(c->arena, 1, size);
    if (*state != NULL)
        return true;
    json_decref(*root);
    api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
    return false;
}

bool api__decoded(struct api_call *c, json_t *root, puz_err rc,
                  const struct api_problem *p)
{
    json_decref(root);
    if (rc != PUZ_OK)
        api_answer_problem(c, p);
    return rc == PUZ_OK;
}

uint64_t api__deadline_in(unsigned ms)
{
    return puz_clock_mono_us() + (uint64_t)ms * 1000u;
}
