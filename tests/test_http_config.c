/*
 * test_http_config.c - where settings come from and in what order
 * (defaults < file < PUZZLED_* < flags), and every rejection: unknown
 * keys, out-of-range numbers, bad lines with their line number, missing
 * files and flag values. Also checks that config/puzzled.conf, the file
 * `make run` uses, loads cleanly, that --help lists every key, and that
 * the reference --print-defaults prints is a file that loads back as the
 * defaults (tests/scripts/config_docs.sh compares it with the tree).
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "http_config.h"

static const char *write_conf(const char *text)
{
    static char path[] = "test-output/test_http_config.conf";
    FILE *f;

    mkdir("test-output", 0755);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void clear_env(void)
{
    unsetenv("PUZZLED_PORT");
    unsetenv("PUZZLED_WORKERS");
    unsetenv("PUZZLED_CONFIG");
    unsetenv("PUZZLED_BIND");
    unsetenv("PUZZLED_QUEUE");
}

static void test_defaults(void **state)
{
    struct http_config c;

    (void)state;
    http_config_defaults(&c);
    assert_string_equal(c.bind, "127.0.0.1");
    assert_int_equal(c.port, 8080);
    assert_int_equal(c.queue, 256);
    assert_int_equal(c.api.max_body_bytes, 64 * 1024);
    assert_int_equal(c.api.batch_max, 100);
    assert_int_equal(c.workers, 0);
    assert_true(http_config_workers(&c) >= 1);
    assert_string_equal(c.static_root, "www");
    assert_string_equal(c.state_dir, "state");
}

/* http_threads = 0 is half the usable cores, at least one: restricted
 * to one CPU the process gets one network thread, whatever the machine
 * has; an explicit count is taken as it is. */
static void test_http_threads_auto(void **state)
{
    struct http_config c;
    cpu_set_t all, one;
    unsigned cpus;

    (void)state;
    http_config_defaults(&c);
    assert_int_equal(c.http_threads, 0);
    cpus = http_config_workers(&c);
    assert_int_equal(http_config_http_threads(&c), cpus / 2 > 0 ? cpus / 2
                                                                : 1);
    assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
    CPU_ZERO(&one);
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &all)) {
            CPU_SET(i, &one);
            break;
        }
    assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
    assert_int_equal(http_config_workers(&c), 1);
    assert_int_equal(http_config_http_threads(&c), 1);
    assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
    c.http_threads = 3;
    assert_int_equal(http_config_http_threads(&c), 3);
}

/* The store's directory: file, then PUZZLED_STATE_DIR, then the flag. */
static void test_state_dir(void **state)
{
    const char *path = write_conf("state_dir = /srv/from-file\n");
    char *argv[] = { "serve", "--config", (char *)path, "--state-dir",
                     "/srv/from-flag", NULL };
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];
    int help;

    (void)state;
    clear_env();
    assert_int_equal(http_config_from_args(&c, 3, argv, &help, msg), PUZ_OK);
    assert_string_equal(c.state_dir, "/srv/from-file");
    setenv("PUZZLED_STATE_DIR", "/srv/from-env", 1);
    assert_int_equal(http_config_from_args(&c, 3, argv, &help, msg), PUZ_OK);
    assert_string_equal(c.state_dir, "/srv/from-env");
    assert_int_equal(http_config_from_args(&c, 5, argv, &help, msg), PUZ_OK);
    assert_string_equal(c.state_dir, "/srv/from-flag");
    unsetenv("PUZZLED_STATE_DIR");
}

static void test_precedence(void **state)
{
    const char *path = write_conf("# comment\nport = 9000\nworkers=3\n"
                                  "queue = 10  # trailing comment\n"
                                  "bind = 0.0.0.0\n\n");
    char *argv[] = { "serve", "--config", (char *)path, "--port", "9002",
                     "--max-body-bytes=2k", NULL };
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];
    int help;

    (void)state;
    clear_env();
    setenv("PUZZLED_PORT", "9001", 1);
    setenv("PUZZLED_WORKERS", "5", 1);
    assert_int_equal(http_config_from_args(&c, 6, argv, &help, msg), PUZ_OK);
    assert_int_equal(help, 0);
    assert_int_equal(c.port, 9002);         /* flag beats env */
    assert_int_equal(c.workers, 5);         /* env beats file */
    assert_int_equal(c.queue, 10);          /* file beats default */
    assert_string_equal(c.bind, "0.0.0.0");
    assert_int_equal(c.api.max_body_bytes, 2048);
    clear_env();
}

static void test_config_from_env(void **state)
{
    const char *path = write_conf("queue = 7\n");
    char *argv[] = { "serve", NULL };
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];
    int help;

    (void)state;
    clear_env();
    setenv("PUZZLED_CONFIG", path, 1);
    setenv("PUZZLED_BIND", "::1", 1);
    assert_int_equal(http_config_from_args(&c, 1, argv, &help, msg), PUZ_OK);
    assert_int_equal(c.queue, 7);
    assert_string_equal(c.bind, "::1");
    clear_env();
}

static void expect_error(int argc, char **argv, const char *needle)
{
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];
    int help;

    assert_int_not_equal(http_config_from_args(&c, argc, argv, &help, msg),
                         PUZ_OK);
    if (strstr(msg, needle) == NULL)
        fprintf(stderr, "\"%s\" lacks \"%s\"\n", msg, needle);
    assert_non_null(strstr(msg, needle));
}

static void test_rejections(void **state)
{
    char *unknown[] = { "serve", "--colour", "red", NULL };
    char *range[] = { "serve", "--port", "70000", NULL };
    char *neg[] = { "serve", "--workers=-1", NULL };
    char *missing[] = { "serve", "--queue", NULL };
    char *zero_queue[] = { "serve", "--queue", "0", NULL };
    char *stray[] = { "serve", "extra", NULL };
    char *nofile[] = { "serve", "--config", "test-output/nope.conf", NULL };

    (void)state;
    clear_env();
    expect_error(3, unknown, "unknown option '--colour'");
    expect_error(3, range, "port: '70000' is not a whole number from 0 "
                 "to 65535");
    expect_error(2, neg, "workers");
    expect_error(2, missing, "needs a value");
    expect_error(3, zero_queue, "queue");
    expect_error(2, stray, "unexpected argument 'extra'");
    expect_error(3, nofile, "cannot read config file");
    setenv("PUZZLED_QUEUE", "lots", 1);
    expect_error(1, stray, "PUZZLED_QUEUE");
    clear_env();
}

/* pdb_budget (issue 47): a size with k, m or g, 1.25 GiB by default,
 * anything else refused with the key's name; pdb_5x5 stays none unless
 * asked (a bare `puzzled serve`, every test's, builds nothing large). */
static void test_pdb_budget(void **state)
{
    static const char *const bad[] = { "1.5g", "-1", "12q", "1t", "",
                                       "2048g", "g" };
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];

    (void)state;
    http_config_defaults(&c);
    assert_int_equal(c.pdb_budget, (size_t)1280 << 20);
    assert_string_equal(c.pdb_5x5, "none");
    assert_int_equal(http_config_set(&c, "pdb_budget", "1g", msg), PUZ_OK);
    assert_int_equal(c.pdb_budget, (size_t)1 << 30);
    assert_int_equal(http_config_set(&c, "pdb_budget", "0", msg), PUZ_OK);
    assert_int_equal(c.pdb_budget, 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        msg[0] = '\0';
        assert_int_equal(http_config_set(&c, "pdb_budget", bad[i], msg),
                         PUZ_EINVAL);
        assert_non_null(strstr(msg, "pdb_budget: '"));
    }
    assert_int_equal(c.pdb_budget, 0);      /* unchanged by a refusal */
    assert_int_equal(http_config_set(&c, "pdb_5x5", "auto", msg), PUZ_OK);
}

static void test_file_errors_name_the_line(void **state)
{
    char *argv[] = { "serve", "--config", NULL, NULL };
    char want[128];

    (void)state;
    clear_env();
    argv[2] = (char *)write_conf("port = 1\n\nnonsense\n");
    snprintf(want, sizeof(want), "%s:3: expected 'key = value'", argv[2]);
    expect_error(3, argv, want);
    argv[2] = (char *)write_conf("port = 1\ncolour = red\n");
    expect_error(3, argv, ":2: unknown setting 'colour'");
    argv[2] = (char *)write_conf("max_body_bytes = 12q\n");
    expect_error(3, argv, ":1: max_body_bytes");
}

static void test_help_and_shipped_config(void **state)
{
    char *help_argv[] = { "serve", "--bogus", "--help", NULL };
    char *ship[] = { "serve", "--config", "config/puzzled.conf", NULL };
    struct http_config c;
    char msg[HTTP_CONFIG_MSG], *text = NULL;
    size_t len = 0;
    int help;
    FILE *f = open_memstream(&text, &len);

    (void)state;
    clear_env();
    assert_int_equal(http_config_from_args(&c, 3, help_argv, &help, msg),
                     PUZ_OK);
    assert_int_equal(help, 1);
    assert_int_equal(http_config_from_args(&c, 3, ship, &help, msg), PUZ_OK);
    assert_int_equal(c.port, 8080);
    /* make run: the strongest 5x5 set the default budget allows, built
     * in the background (issue 47) */
    assert_string_equal(c.pdb_5x5, "auto");
    assert_int_equal(c.pdb_background, 1);
    /* Issue 15 item 9: one client address can fill the whole queue
     * (and get its 503s) before the per-address cap refuses it. */
    assert_true(c.max_connections_per_ip == 0 || c.max_connections_per_ip
                >= http_config_workers(&c) + c.queue);
    http_config_usage(f);
    fclose(f);
    assert_non_null(strstr(text, "--bind"));
    assert_non_null(strstr(text, "PUZZLED_PORT"));
    assert_non_null(strstr(text, "--shutdown-grace-ms"));
    assert_non_null(strstr(text, "PUZZLED_CONFIG"));
    free(text);
}

/* Print to a string (the caller frees it). */
static char *print_to_string(enum http_config_action what,
                             const struct http_config *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    http_config_print(f, what, c);
    fclose(f);
    return text;
}

/*
 * --print-defaults is a file the server takes back as it is: every key
 * uncommented ("#port = 8080" -> "port = 8080") loads (so every row's
 * default is in its own range and fits its buffer) and comes out as no
 * change at all; one key changed comes out set, and only that one.
 */
static void test_print_defaults_round_trip(void **state)
{
    struct http_config c, d;
    char msg[HTTP_CONFIG_MSG];
    char *text, *line, *save, *active, *want;
    FILE *f;
    unsigned keys = 0;

    (void)state;
    clear_env();
    http_config_defaults(&d);
    text = print_to_string(HTTP_CONFIG_PRINT_CONF, NULL);
    mkdir("test-output", 0755);
    f = fopen("test-output/test_http_config.all.conf", "w");
    assert_non_null(f);
    for (line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
        if (line[0] == '#' && line[1] >= 'a' && line[1] <= 'z') {
            fprintf(f, "%s\n", line + 1);
            keys++;
        }
    fclose(f);
    free(text);
    assert_true(keys >= 62);       /* every key of the day of writing */
    c = d;
    assert_int_equal(http_config_load_file(&c, "test-output/"
                     "test_http_config.all.conf", msg), PUZ_OK);
    text = print_to_string(HTTP_CONFIG_PRINT_EFFECTIVE, &c);
    want = print_to_string(HTTP_CONFIG_PRINT_CONF, NULL);
    assert_string_equal(text, want);
    free(text);

    assert_int_equal(http_config_set(&c, "job_results_max_bytes", "3m", msg),
                     PUZ_OK);
    text = print_to_string(HTTP_CONFIG_PRINT_EFFECTIVE, &c);
    active = strstr(text, "\njob_results_max_bytes = 3m\n");
    assert_non_null(active);
    /* nothing else uncommented */
    for (line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
        if (line[0] >= 'a' && line[0] <= 'z')
            assert_string_equal(line, "job_results_max_bytes = 3m");
    free(text);
    free(want);
}

/* The reference's other forms name every key (install.sh greps the man
 * page for each; the docs' table is a key's only list of its range). */
static void test_print_reference_forms(void **state)
{
    char *md = print_to_string(HTTP_CONFIG_PRINT_MARKDOWN, NULL);
    char *man = print_to_string(HTTP_CONFIG_PRINT_MAN, NULL);

    (void)state;
    assert_non_null(strstr(md, "| `max_body_bytes` | `--max-body-bytes` / "
                           "`PUZZLED_MAX_BODY_BYTES` | `64k` | 64–64m |"));
    assert_non_null(strstr(md, "| `job_max_nodes` | `--job-max-nodes` / "
                           "`PUZZLED_JOB_MAX_NODES` | `2^40` | 1–2^50 |"));
    assert_non_null(strstr(md, "| `pdb_dir` | `--pdb-dir` / "
                           "`PUZZLED_PDB_DIR` | empty |"));
    assert_non_null(strstr(man, ".B pdb_5x5\n"));
    assert_non_null(strstr(man, "4x6z2"));
    assert_non_null(strstr(man, "Default 8080; accepts 0\\(en65535; "
                           "environment \\fBPUZZLED_PORT\\fR, flag "
                           "\\fB\\-\\-port\\fR.\n"));
    free(md);
    free(man);
}

/* The action flags: --print-defaults[=FORMAT] reads nothing else, a
 * format it does not know is an error, --print-config reads everything
 * first. */
static void test_print_flags(void **state)
{
    char *defaults[] = { "serve", "--print-defaults=man", "--port", "x",
                         NULL };
    char *bad[] = { "serve", "--print-defaults=yaml", NULL };
    char *effective[] = { "serve", "--port", "9001", "--print-config",
                          NULL };
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];
    int action;

    (void)state;
    clear_env();
    assert_int_equal(http_config_from_args(&c, 4, defaults, &action, msg),
                     PUZ_OK);
    assert_int_equal(action, HTTP_CONFIG_PRINT_MAN);
    assert_int_not_equal(http_config_from_args(&c, 2, bad, &action, msg),
                         PUZ_OK);
    assert_non_null(strstr(msg, "conf, markdown or man"));
    assert_int_equal(http_config_from_args(&c, 4, effective, &action, msg),
                     PUZ_OK);
    assert_int_equal(action, HTTP_CONFIG_PRINT_EFFECTIVE);
    assert_int_equal(c.port, 9001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_http_threads_auto),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_state_dir),
        cmocka_unit_test(test_config_from_env),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_file_errors_name_the_line),
        cmocka_unit_test(test_help_and_shipped_config),
        cmocka_unit_test(test_print_defaults_round_trip),
        cmocka_unit_test(test_print_reference_forms),
        cmocka_unit_test(test_print_flags),
        cmocka_unit_test(test_pdb_budget),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
