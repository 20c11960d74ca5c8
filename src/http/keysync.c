/*
 * keysync.c - shared mode (redis_url and API keys with rpm= or
 * streams=): a thread of the server that, every KEYSYNC_MS, adds this
 * instance's use of each key (requests since the last sync, event
 * streams open) to the cluster's count in Redis and brings the other
 * instances' back into the keys table (api_keys_use_collect/_apply,
 * store_key_use_sync), so a key's caps hold across instances (issue 42
 * item 3: with streams=2 a key held 4 streams on 2 instances).
 *
 * The checks themselves (api.c's rpm, streams.c's admission) read the
 * table only: no network thread waits for Redis. The price is a window
 * of one sync: requests that arrive on several instances within it may
 * pass a cap together (at most rpm + the others' requests of 100 ms).
 * A Redis that is down leaves the last numbers in place; an instance
 * that dies stops counting after STORE_KEY_USE_TTL_MS. /metrics counts
 * the rounds (puzzled_key_syncs_total, _errors_total).
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define KEYSYNC_MS 100

struct http__keysync {
    struct http_server *srv;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stop;
    char instance[33];          /* this process's id in Redis */
    struct store_key_use *use;  /* one per key */
    size_t cap;
};

static void sync_once(struct http__keysync *k)
{
    struct http_server *s = k->srv;
    uint64_t now = (uint64_t)puz_clock_wall_ms();
    size_t n = api_keys_use_collect(s->keys, now, k->use, k->cap);
    char msg[PUZ_MSG_MAX];

    if (n == 0)
        return;
    if (store_key_use_sync(s->store, k->instance, (int64_t)now, k->use, n,
                           msg) == PUZ_OK) {
        api_keys_use_apply(s->keys, now, k->use, n);
        atomic_fetch_add(&s->key_syncs, 1);
    } else {
        atomic_fetch_add(&s->key_sync_errors, 1);
    }
}

/* Shared mode with API keys: the only case in which keys are counted
 * across instances. */
static bool keysync_wanted(const struct http_server *s)
{
    return s->keys != NULL && s->store != NULL
           && strcmp(store_backend(s->store), "shared") == 0;
}

static void *keysync_main(void *arg)
{
    struct http__keysync *k = arg;
    struct timespec until;

    pthread_mutex_lock(&k->lock);
    while (!k->stop) {
        pthread_mutex_unlock(&k->lock);
        sync_once(k);
        pthread_mutex_lock(&k->lock);
        until = puz_clock_timespec_in(PUZ_CLOCK_MONO, KEYSYNC_MS);
        if (!k->stop)
            pthread_cond_timedwait(&k->wake, &k->lock, &until);
    }
    pthread_mutex_unlock(&k->lock);
    return NULL;
}

puz_err http__keysync_start(struct http_server *s)
{
    struct http__keysync *k;
    unsigned char id[16];

    if (!keysync_wanted(s))
        return PUZ_OK;
    k = calloc(1, sizeof(*k));
    if (k == NULL)
        return PUZ_ENOMEM;
    k->srv = s;
    k->cap = api_keys_count(s->keys);
    k->use = calloc(k->cap ? k->cap : 1, sizeof(*k->use));
    if (k->use == NULL || getrandom(id, sizeof(id), 0) != (ssize_t)sizeof(id)) {
        free(k->use);
        free(k);
        return PUZ_ENOMEM;
    }
    for (size_t i = 0; i < sizeof(id); i++)
        snprintf(k->instance + 2 * i, 3, "%02x", id[i]);
    pthread_mutex_init(&k->lock, NULL);
    http__bgthread_cond_init(&k->wake);
    if (pthread_create(&k->thread, NULL, keysync_main, k) != 0) {
        pthread_cond_destroy(&k->wake);
        pthread_mutex_destroy(&k->lock);
        free(k->use);
        free(k);
        return PUZ_ENOMEM;
    }
    s->keysync = k;
    return PUZ_OK;
}

void http__keysync_stop(struct http_server *s)
{
    struct http__keysync *k = s->keysync;

    if (k == NULL)
        return;
    http__bgthread_stop(&k->lock, &k->wake, &k->stop, k->thread);
    pthread_cond_destroy(&k->wake);
    pthread_mutex_destroy(&k->lock);
    free(k->use);
    free(k);
    s->keysync = NULL;
}

/* The rounds tell an operator the counting is alive (and a test when the
 * other instance has heard of a request: shared_keys.sh). */
char *http__keysync_metrics_render(struct http_server *s, size_t *len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f;

    *len = 0;
    if (!keysync_wanted(s))
        return calloc(1, 1);
    f = open_memstream(&buf, &size);
    if (f == NULL)
        return NULL;
    fprintf(f,
        "# HELP puzzled_key_syncs_total Rounds in which this instance "
        "added its API keys' use to Redis and read the others' back\n"
        "# TYPE puzzled_key_syncs_total counter\n"
        "puzzled_key_syncs_total %llu\n"
        "# HELP puzzled_key_sync_errors_total Rounds that failed to reach "
        "Redis (the last numbers stay in place)\n"
        "# TYPE puzzled_key_sync_errors_total counter\n"
        "puzzled_key_sync_errors_total %llu\n",
        (unsigned long long)atomic_load(&s->key_syncs),
        (unsigned long long)atomic_load(&s->key_sync_errors));
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    *len = size;
    return buf;
}
