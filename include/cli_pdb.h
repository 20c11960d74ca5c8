/*
 * cli_pdb.h - `puzzled pdb`: build, save and check pattern database
 * files, and the helper other subcommands use to get tables for a goal.
 */
#ifndef CLI_PDB_H
#define CLI_PDB_H

#include "puz_board.h"
#include "puz_pdb.h"
#include "puz_solve.h"

/* Where tables are cached unless PUZZLED_PDB_DIR says otherwise. */
#define CLI_PDB_DEFAULT_DIR "pdb-cache"

/* `puzzled pdb build|verify ...`; returns the process exit status. */
int cli_pdb_main(int argc, char **argv);

/*
 * Tables for one solve of start with options o, or NULL when the solve
 * does not use the pdb heuristic (the core decides:
 * puz_algorithm_uses_tables; an explicit other heuristic, bnb, bfs, dfs,
 * constructive) or the size has none. 3x3: the exact tables (ms). 4x4:
 * the cached 7-8 set if there is one, else the 6-6-3 set loaded from the
 * cache or built into it on demand (stderr says so and that it takes a
 * few seconds). Problems are reported on stderr and give NULL, so the
 * solve goes on with the formula heuristics. Free with
 * puz_tables_destroy.
 */
puz_tables *cli_pdb_tables_for(const struct puz_board *start,
                               const struct puz_solve_opts *o);

#endif
