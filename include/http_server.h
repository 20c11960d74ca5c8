/*
 * http_server.h - the puzzled HTTP/JSON service: a libmicrohttpd daemon
 * in front of a pool of solver threads.
 *
 * A server is a value: tests start several in one process, each on its
 * own port. http_serve_main() is `puzzled serve`: configuration, signals
 * and the lifecycle around one server.
 */
#ifndef HTTP_SERVER_H
#define HTTP_SERVER_H

#include <stddef.h>

#include "http_config.h"
#include "puz_err.h"

typedef struct http_server http_server;

/* Room for the one-line start-up error: a step's words around a config
 * or core message (the contract is at PUZ_MSG_MAX). */
#define HTTP_SERVER_MSG (HTTP_CONFIG_MSG + 128)

/*
 * Load the shared tables, open the listening socket, start the workers
 * and the daemon. On failure *out is NULL and msg (HTTP_SERVER_MSG) is
 * one line saying what went wrong ("cannot listen on 127.0.0.1:8080:
 * Address already in use"). cfg is copied.
 */
puz_err http_server_start(const struct http_config *cfg, http_server **out,
                          char *msg);

/* The port actually bound (useful with port 0). */
unsigned http_server_port(const http_server *s);

/* The probe listener's port (probe_port: /livez, /readyz, /metrics on
 * a daemon of their own); 0 when there is none. */
unsigned http_server_probe_port(const http_server *s);

/* "http://127.0.0.1:8080" (IPv6 in brackets). */
const char *http_server_url(const http_server *s);

/*
 * Reopen the access log file (after logrotate moved it): the new file
 * takes the old descriptor's place atomically (dup2), so network
 * threads writing at that moment lose no line. No-op when the log is
 * stderr or off. PUZ_EIO (and the old file kept) if it cannot be
 * opened.
 */
puz_err http_server_reopen_log(http_server *s);

/*
 * Graceful stop: stop accepting, answer 503 to new work, answer every
 * queued solve 503 at once (it never starts), give running ones cfg.shutdown_grace_ms, resume every
 * suspended connection, let the answers go out, stop the daemon.
 * Idempotent; the server can only be destroyed afterwards.
 */
void http_server_shutdown(http_server *s);

/* Shut down if still running, then free everything. NULL is a no-op. */
void http_server_destroy(http_server *s);

/* `puzzled serve [flags]`: argv[0] is "serve". Returns the exit status:
 * 0 after a clean shutdown on SIGINT/SIGTERM (or --help), 1 when the
 * server cannot start, 2 for bad configuration. SIGHUP and SIGUSR1
 * reopen the access log; SIGUSR2 is ignored (docs/operations.md). */
int http_serve_main(int argc, char **argv);

#endif
