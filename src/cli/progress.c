/*
 * progress.c - the live progress line of `puzzled solve` and its Ctrl-C
 * handling. The line is drawn from the solver's progress callback (on
 * the solving thread, at most every 100 ms); the signal handler only
 * stores to a lock-free flag, which the search polls at its limit
 * checks.
 */
#include "cli_progress.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The one process-wide state here: a signal handler has no argument. */
static atomic_int interrupted;
static struct sigaction previous;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
    /* A second Ctrl-C kills: the default action is back. */
    signal(SIGINT, SIG_DFL);
}

const atomic_int *cli_interrupt_catch(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    atomic_store(&interrupted, 0);
    sigaction(SIGINT, &sa, &previous);
    return &interrupted;
}

bool cli_interrupted(void)
{
    return atomic_load(&interrupted) != 0;
}

void cli_interrupt_restore(void)
{
    sigaction(SIGINT, &previous, NULL);
}

/* 1234567 -> "1.23M"; keeps the line short and steady. */
static void human(char *buf, size_t size, double v)
{
    if (v >= 1e9)
        snprintf(buf, size, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, size, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, size, "%.1fk", v / 1e3);
    else
        snprintf(buf, size, "%.0f", v);
}

static void draw(const struct puz_progress *pr, void *user)
{
    struct cli_progress *p = user;
    char nodes[32], rate[32], bound[32] = "-", best[32] = "-";
    double secs = (double)pr->elapsed_us / 1e6;

    p->last = *pr;
    p->has_last = true;
    if (p->out == NULL || pr->elapsed_us < CLI_PROGRESS_AFTER_US)
        return;
    human(nodes, sizeof(nodes), (double)pr->expanded);
    human(rate, sizeof(rate), secs > 0 ? (double)pr->expanded / secs : 0);
    if (pr->bound != 0)
        snprintf(bound, sizeof(bound), "%u", pr->bound);
    if (pr->best_length != 0)
        snprintf(best, sizeof(best), "%u", pr->best_length);
    fprintf(p->out, "%s%s: bound %s, %s nodes, %s nodes/s, %.1f s, "
            "best %s%s", p->tty ? "\r\033[K" : "",
            puz_algorithm_name(pr->algorithm), bound, nodes, rate, secs,
            best, p->tty ? "" : "\n");
    fflush(p->out);
    p->shown = true;
}

void cli_progress_init(struct cli_progress *p, FILE *out, int mode,
                       struct puz_solve_opts *opts)
{
    memset(p, 0, sizeof(*p));
    p->out = out;
    p->tty = isatty(fileno(out)) != 0;
    /* Even when the line stays hidden the callback keeps the last
     * bound, for the Ctrl-C report. */
    opts->progress = draw;
    opts->progress_user = p;
    if (mode == 0 || (mode < 0 && !p->tty))
        p->out = NULL;
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->shown && p->tty)
        fprintf(p->out, "\r\033[K");
    if (p->out != NULL)
        fflush(p->out);
}
