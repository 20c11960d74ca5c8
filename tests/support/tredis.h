/*
 * tredis.h - a redis-server of the test's own: started on a unix socket
 * in a temporary directory (never a system service, never a TCP port
 * another test could take), with no persistence, and stopped again.
 */
#ifndef TREDIS_H
#define TREDIS_H

#include <stddef.h>

/* Starts one; its URL ("unix:///tmp/.../redis.sock") in url. -1 when
 * redis-server is not installed or does not answer within 5 s. */
int tredis_start(char *url, size_t size);

/* SIGSTOP/SIGCONT it (a Redis that hangs), or stop it (SIGTERM, wait)
 * and start it again on the same socket. */
int tredis_pause(int paused);
void tredis_stop(void);
int tredis_restart(void);

#endif
