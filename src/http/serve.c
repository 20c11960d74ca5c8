/*
 * serve.c - `puzzled serve`: read the configuration, start one server,
 * print where it listens, wait for SIGINT or SIGTERM, shut down
 * gracefully and exit 0.
 *
 * The signals are blocked before any thread starts (every thread
 * inherits the mask) and taken synchronously with sigwait(), so no
 * handler and no global flag is needed.
 */
#include "http_int.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

int http_serve_main(int argc, char **argv)
{
    struct http_config cfg;
    char msg[HTTP_SERVER_MSG];
    http_server *srv;
    sigset_t set;
    int help = 0, sig = 0;

    if (http_config_from_args(&cfg, argc, argv, &help, msg) != PUZ_OK) {
        fprintf(stderr, "puzzled serve: %s\n", msg);
        return 2;
    }
    if (help == HTTP_CONFIG_HELP) {
        http_config_usage(stdout);
        return 0;
    }
    if (help != HTTP_CONFIG_SERVE) {
        http_config_print(stdout, (enum http_config_action)help, &cfg);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    if (http_server_start(&cfg, &srv, msg) != PUZ_OK) {
        fprintf(stderr, "puzzled serve: %s\n", msg);
        return 1;
    }
    printf("listening on %s\n", http_server_url(srv));
    fflush(stdout);
    for (;;) {
        if (sigwait(&set, &sig) != 0)
            continue;
        if (sig == SIGINT || sig == SIGTERM)
            break;
        if (http_server_reopen_log(srv) == PUZ_OK)
            http__log_line("puzzled: %s received: access log reopened",
                           sig == SIGHUP ? "SIGHUP" : "SIGUSR1");
    }
    http__log_line("puzzled: %s received: draining (grace %u ms)",
                   sig == SIGINT ? "SIGINT" : "SIGTERM",
                   cfg.shutdown_grace_ms);
    http_server_destroy(srv);
    http__log_line("puzzled: stopped");
    return 0;
}
