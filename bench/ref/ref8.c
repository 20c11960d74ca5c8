/*
 * ref8.c - reference optimal 8-puzzle solver: a yardstick to run beside bench/sweep3, not code to copy.
 *
 * Origin: the reference solver handed out with the project's brief (shared/bench/ref8.c),
 * kept here so that a clone can run `sweep3 -r`. Not product code: it is not built by
 * `make` and not linked into anything. Changed from the original in two places only: the
 * default FILE (was ../shared/data/bfs8_distances.txt) and the Build line below.
 *
 * State: 64-bit word, nibble i (bits 4i..4i+3) = tile at cell i (row-major, 0 = blank),
 *        bits 36..39 = blank cell.  Goal 1 2 3 4 5 6 7 8 0.
 * Heuristic: Manhattan + linear conflict (rows and columns), consistent; updated
 *        incrementally per move from per-line lookup tables.
 * A*:    open-addressing hash table (linear probing, generation stamps so no clearing
 *        between solves), bucket priority queue indexed [f][g], pop lowest f, ties to
 *        larger g (LIFO inside a bucket), lazy deletion, goal test on pop, path rebuilt
 *        from stored moves and replayed to verify.
 * IDA*:  recursive DFS, incremental h, parent-move pruning.
 *
 * Usage: ref8 sweep astar|ida [FILE]      (FILE default bench/data/bfs8_distances.txt, run from the project root)
 *        ref8 solve astar|ida 812043765
 * Build: cc -O2 -Wall -Wextra -Werror -o build/ref8 bench/ref/ref8.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
#define NIB(s, i) ((int)(((s) >> (4 * (i))) & 15))
#define BLANK(s) NIB(s, 9)

static u64 GOAL;
static uint8_t md[9][9];          /* md[cell][tile] */
static uint8_t lcRow[3][4096];    /* linear conflict of a row, indexed by its 3 nibbles */
static uint8_t lcCol[3][4096];
static int nbr[9][4], nnbr[9];    /* neighbour cells of the blank */

static int line_lc(const int *tiles, const int *cells, int isrow, int line) {
    /* tiles in this line whose goal is in this line, in order of position */
    int goalpos[3], n = 0;
    for (int k = 0; k < 3; k++) {
        int t = tiles[k];
        if (!t) continue;
        int g = t - 1, gr = g / 3, gc = g % 3;
        if (isrow ? gr == line : gc == line) goalpos[n++] = isrow ? gc : gr;
    }
    (void)cells;
    /* minimum number of tiles to remove so the rest are in increasing goal order
       = n - LIS; LC = 2 * that */
    int best = 0;
    for (int mask = 0; mask < (1 << n); mask++) {
        int last = -1, ok = 1, cnt = 0;
        for (int k = 0; k < n; k++)
            if (mask >> k & 1) { if (goalpos[k] < last) { ok = 0; break; } last = goalpos[k]; cnt++; }
        if (ok && cnt > best) best = cnt;
    }
    return 2 * (n - best);
}

static void init_tables(void) {
    GOAL = 0;
    for (int i = 0; i < 8; i++) GOAL |= (u64)(i + 1) << (4 * i);
    GOAL |= (u64)8 << 36;
    for (int c = 0; c < 9; c++)
        for (int t = 1; t < 9; t++)
            md[c][t] = abs(c / 3 - (t - 1) / 3) + abs(c % 3 - (t - 1) % 3);
    for (int line = 0; line < 3; line++)
        for (int key = 0; key < 4096; key++) {
            int tiles[3] = {key & 15, (key >> 4) & 15, (key >> 8) & 15};
            if (tiles[0] > 8 || tiles[1] > 8 || tiles[2] > 8) continue;
            lcRow[line][key] = line_lc(tiles, 0, 1, line);
            lcCol[line][key] = line_lc(tiles, 0, 0, line);
        }
    for (int c = 0; c < 9; c++) {
        int r = c / 3, k = c % 3;
        nnbr[c] = 0;
        if (r > 0) nbr[c][nnbr[c]++] = c - 3;
        if (r < 2) nbr[c][nnbr[c]++] = c + 3;
        if (k > 0) nbr[c][nnbr[c]++] = c - 1;
        if (k < 2) nbr[c][nnbr[c]++] = c + 1;
    }
}

static inline int rowkey(u64 s, int r) { return (int)((s >> (12 * r)) & 0xfff); }
static inline int colkey(u64 s, int c) { return NIB(s, c) | NIB(s, c + 3) << 4 | NIB(s, c + 6) << 8; }

static int h_full(u64 s) {
    int h = 0;
    for (int i = 0; i < 9; i++) h += md[i][NIB(s, i)];
    for (int l = 0; l < 3; l++) h += lcRow[l][rowkey(s, l)] + lcCol[l][colkey(s, l)];
    return h;
}

/* Move the tile at cell p into the blank cell b. Returns new state, sets *dh. */
static inline u64 do_move(u64 s, int b, int p, int *dh) {
    u64 t = (s >> (4 * p)) & 15;
    u64 n = s - (t << (4 * p)) + (t << (4 * b));
    n = (n & ~((u64)15 << 36)) | ((u64)p << 36);
    int d = md[b][t] - md[p][t];
    if (b - p == 3 || p - b == 3) {          /* vertical: two rows change */
        int rb = b / 3, rp = p / 3;
        d += lcRow[rb][rowkey(n, rb)] - lcRow[rb][rowkey(s, rb)]
           + lcRow[rp][rowkey(n, rp)] - lcRow[rp][rowkey(s, rp)];
    } else {                                 /* horizontal: two columns change */
        int cb = b % 3, cp = p % 3;
        d += lcCol[cb][colkey(n, cb)] - lcCol[cb][colkey(s, cb)]
           + lcCol[cp][colkey(n, cp)] - lcCol[cp][colkey(s, cp)];
    }
    *dh = d;
    return n;
}

static int parse_board(const char *str, u64 *out) {
    u64 s = 0; int seen = 0, b = -1;
    for (int i = 0; i < 9; i++) {
        int v = str[i] - '0';
        if (v < 0 || v > 8 || (seen >> v & 1)) return 0;
        seen |= 1 << v;
        if (!v) b = i;
        s |= (u64)v << (4 * i);
    }
    *out = s | (u64)b << 36;
    return 1;
}

/* ------------------------------------------------------------------ A* */
#define HBITS 19
#define HSIZE (1u << HBITS)
#define HMASK (HSIZE - 1)
typedef struct { u64 key; uint32_t stamp; uint8_t g, closed, from; } Slot; /* from = cell the blank came from */
static Slot *tab;
static uint32_t cur_stamp;

static inline uint32_t hidx(u64 k) { return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> (64 - HBITS)); }
static inline Slot *lookup(u64 k, int *found) {
    uint32_t i = hidx(k);
    for (;;) {
        Slot *e = &tab[i];
        if (e->stamp != cur_stamp) { *found = 0; return e; }
        if (e->key == k) { *found = 1; return e; }
        i = (i + 1) & HMASK;
    }
}

#define FMAX 96
#define GMAX 64
typedef struct { u64 *a; uint32_t n, cap; } Bucket;
static Bucket bq[FMAX][GMAX];
static int maxg[FMAX];          /* highest non-empty g bucket for this f (-1: none) */
static int gtop[FMAX];          /* highest g pushed this solve (for cheap reset) */
static int curf, flo, fhi;

static inline void bq_push(int f, int g, u64 s) {
    if (f >= FMAX || g >= GMAX) { fprintf(stderr, "queue overflow\n"); exit(2); }
    Bucket *b = &bq[f][g];
    if (b->n == b->cap) { b->cap = b->cap ? 2 * b->cap : 64; b->a = realloc(b->a, b->cap * sizeof(u64)); }
    b->a[b->n++] = s;
    if (g > maxg[f]) maxg[f] = g;
    if (g > gtop[f]) gtop[f] = g;
    if (f < curf) curf = f;      /* never happens with a consistent h; kept for safety */
    if (f < flo) flo = f;
    if (f > fhi) fhi = f;
}

static long long astar_expanded;

/* returns optimal length, or -1; writes the move path (cells the blank visits) if path != NULL */
static int astar(u64 start, int *path) {
    if (++cur_stamp == 0) { memset(tab, 0, sizeof(Slot) * HSIZE); cur_stamp = 1; }
    int found;
    Slot *e = lookup(start, &found);
    e->key = start; e->stamp = cur_stamp; e->g = 0; e->closed = 0; e->from = 15;
    int h0 = h_full(start);
    curf = flo = fhi = h0;
    bq_push(h0, 0, start);
    int result = -1;
    long long exp = 0;
    while (curf <= fhi) {
        int f = curf, g = maxg[f];
        if (g < 0) { curf++; continue; }
        Bucket *bk = &bq[f][g];
        u64 s = bk->a[--bk->n];
        while (maxg[f] >= 0 && bq[f][maxg[f]].n == 0) maxg[f]--;
        e = lookup(s, &found);
        if (e->closed || e->g != g) continue;         /* stale entry */
        if (s == GOAL) { result = g; break; }           /* goal test on pop */
        e->closed = 1;
        exp++;
        int b = BLANK(s), h = f - g, from = e->from;
        for (int k = 0; k < nnbr[b]; k++) {
            int p = nbr[b][k];
            if (p == from) continue;                     /* parent */
            int dh;
            u64 n = do_move(s, b, p, &dh);
            Slot *c = lookup(n, &found);
            if (found && c->g <= g + 1) continue;
            if (!found) { c->key = n; c->stamp = cur_stamp; c->closed = 0; }
            c->g = g + 1; c->from = b;
            bq_push(g + 1 + h + dh, g + 1, n);
        }
    }
    /* clear the queue for the next solve */
    for (int ff = flo; ff <= fhi; ff++) {
        for (int gg = 0; gg <= gtop[ff]; gg++) bq[ff][gg].n = 0;
        maxg[ff] = gtop[ff] = -1;
    }
    astar_expanded += exp;
    if (result >= 0) {
        /* rebuild path back from the goal, then replay it forward from start */
        u64 s = GOAL;
        for (int i = result; i > 0; i--) {
            Slot *c = lookup(s, &found);
            int b = BLANK(s), p = c->from, dh;
            if (!found || p > 8) { fprintf(stderr, "path rebuild failed\n"); exit(2); }
            s = do_move(s, b, p, &dh);
            if (path) path[i - 1] = b;   /* blank moved into cell b at step i */
        }
        if (s != start) { fprintf(stderr, "path does not reach start\n"); exit(2); }
    }
    return result;
}

/* ------------------------------------------------------------------ IDA* */
static long long ida_expanded;
static int ida_limit, ida_next;
static int ida_path[128];

static int dfs(u64 s, int g, int h, int from) {
    int f = g + h;
    if (f > ida_limit) { if (f < ida_next) ida_next = f; return 0; }
    if (h == 0) return 1;
    ida_expanded++;
    int b = BLANK(s);
    for (int k = 0; k < nnbr[b]; k++) {
        int p = nbr[b][k];
        if (p == from) continue;
        int dh;
        u64 n = do_move(s, b, p, &dh);
        if (dfs(n, g + 1, h + dh, b)) { ida_path[g] = p; return 1; }
    }
    return 0;
}

static int ida(u64 start) {
    int h = h_full(start);
    ida_limit = h;
    for (;;) {
        ida_next = 1 << 30;
        if (dfs(start, 0, h, 15)) return ida_limit;
        if (ida_next >= (1 << 30)) return -1;
        ida_limit = ida_next;
    }
}

/* ------------------------------------------------------------------ driver */
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s sweep astar|ida [FILE] | solve astar|ida BOARD\n", argv[0]); return 1; }
    init_tables();
    tab = calloc(HSIZE, sizeof(Slot));
    for (int f = 0; f < FMAX; f++) maxg[f] = gtop[f] = -1;
    int use_ida = !strcmp(argv[2], "ida");
    if (!strcmp(argv[1], "solve")) {
        u64 s;
        if (argc < 4 || !parse_board(argv[3], &s)) { fprintf(stderr, "bad board\n"); return 1; }
        int path[64];
        double t0 = now();
        int len = use_ida ? ida(s) : astar(s, path);
        double t1 = now();
        printf("length %d seconds %.6f expanded %lld\n", len, t1 - t0, use_ida ? ida_expanded : astar_expanded);
        return 0;
    }
    const char *fn = argc > 3 ? argv[3] : "bench/data/bfs8_distances.txt";
    FILE *fp = fopen(fn, "r");
    if (!fp) { perror(fn); return 1; }
    int cap = 200000, n = 0;
    u64 *boards = malloc(cap * sizeof(u64));
    int *dist = malloc(cap * sizeof(int));
    char buf[64], bs[16];
    while (fgets(buf, sizeof buf, fp)) {
        int d;
        if (sscanf(buf, "%15s %d", bs, &d) != 2) continue;
        if (n == cap) { cap *= 2; boards = realloc(boards, cap * sizeof(u64)); dist = realloc(dist, cap * sizeof(int)); }
        if (!parse_board(bs, &boards[n])) { fprintf(stderr, "bad line: %s", buf); return 1; }
        dist[n++] = d;
    }
    fclose(fp);
    int wrong = 0;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        int len = use_ida ? ida(boards[i]) : astar(boards[i], NULL);
        if (len != dist[i]) { if (wrong < 10) fprintf(stderr, "wrong: line %d got %d want %d\n", i + 1, len, dist[i]); wrong++; }
    }
    double t1 = now();
    long long e = use_ida ? ida_expanded : astar_expanded;
    printf("%s boards %d wrong %d seconds %.3f expanded_total %lld mean_expanded %.1f\n",
           use_ida ? "ida" : "astar", n, wrong, t1 - t0, e, (double)e / n);
    return wrong != 0;
}
