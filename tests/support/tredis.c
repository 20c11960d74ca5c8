/*
 * tredis.c - the test's own redis-server (tredis.h).
 */
#include "tredis.h"
#include "wait.h"

#include <hiredis/hiredis.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t pid = -1;
static char dir[64], sock[128];

static int answers(void)
{
    struct timeval tv = { 0, 200000 };
    redisContext *c = redisConnectUnixWithTimeout(sock, tv);
    redisReply *r = NULL;
    int ok;

    if (c != NULL && !c->err)
        r = redisCommand(c, "PING");
    ok = r != NULL && r->type == REDIS_REPLY_STATUS;
    if (r != NULL)
        freeReplyObject(r);
    if (c != NULL)
        redisFree(c);
    return ok;
}

/* True once the server answers, or once it exited (pid -1 then). */
static bool up_or_gone(void *arg)
{
    int st;

    (void)arg;
    if (answers())
        return true;
    if (waitpid(pid, &st, WNOHANG) == pid) {
        pid = -1;
        return true;
    }
    return false;
}

static int launch(void)
{
    char log[128];

    snprintf(log, sizeof(log), "%s/redis.log", dir);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);

        /* Gone with the test, even one that crashed; and not holding
         * the test's output open. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execlp("redis-server", "redis-server", "--port", "0",
               "--unixsocket", sock, "--unixsocketperm", "700", "--save", "",
               "--appendonly", "no", "--dir", dir, "--logfile", log,
               (char *)NULL);
        _exit(127);
    }
    if (wait_until(up_or_gone, NULL, 5000) && pid > 0)
        return 0;
    if (pid > 0)
        tredis_stop();
    return -1;
}

int tredis_start(char *url, size_t size)
{
    snprintf(dir, sizeof(dir), "/tmp/puzzled-redis-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(sock, sizeof(sock), "%s/redis.sock", dir);
    snprintf(url, size, "unix://%s", sock);
    return launch();
}

int tredis_pause(int paused)
{
    return pid > 0 ? kill(pid, paused ? SIGSTOP : SIGCONT) : -1;
}

static void halt(void)
{
    if (pid <= 0)
        return;
    kill(pid, SIGCONT);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    pid = -1;
}

void tredis_stop(void)
{
    char cmd[96];

    halt();
    if (dir[0] != '\0') {
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "tredis: could not remove %s\n", dir);
        dir[0] = '\0';
    }
}

int tredis_restart(void)
{
    halt();
    return launch();
}
