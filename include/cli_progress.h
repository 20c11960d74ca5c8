/*
 * cli_progress.h - `puzzled solve`'s live progress line on stderr and
 * its Ctrl-C: the line appears when the solve has run half a second
 * (bound, nodes, nodes/s, elapsed, best length so far), on a terminal
 * or when forced, and SIGINT asks the search to stop instead of killing
 * the process, so what is known can still be printed.
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "puz_solve.h"

#define CLI_PROGRESS_AFTER_US 500000u

struct cli_progress {
    FILE *out;
    bool tty;               /* redraw one line; else one line each */
    bool shown;             /* a line is on the screen */
    struct puz_progress last;
    bool has_last;
};

/* mode: 1 forced on (--progress), 0 off (--quiet, --json), -1 when out
 * is a terminal. Sets opts->progress when the line may show. */
void cli_progress_init(struct cli_progress *p, FILE *out, int mode,
                       struct puz_solve_opts *opts);

/* Clear the line (on a terminal) before the answer is printed. */
void cli_progress_end(struct cli_progress *p);

/*
 * Make the first SIGINT set the flag returned (hand it to
 * opts->limits.cancel); a second one kills as usual. Call
 * cli_interrupt_restore() afterwards.
 */
const atomic_int *cli_interrupt_catch(void);
bool cli_interrupted(void);
void cli_interrupt_restore(void);

#endif
