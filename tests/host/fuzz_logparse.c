/*
 * libFuzzer target for the serial-log parser (tools/src/results/logparse.c) and the
 * CSV reader and writer behind it (tools/src/results/table.c).
 *
 * An input is a first line "[rc=<exit status>] <kernel command line>", then
 * a serial log.  The
 * target parses the log against that command line as collect does, checks
 * what every row must satisfy (docs/tools.md: a failed row has a reason and
 * no metric; an ok row has plausible metrics), writes the rows as CSV and
 * reads them back, which must give the same table.  Any breach aborts, so
 * libFuzzer reports it with the input that caused it.
 *
 * Built by "make -C tests/host fuzz" (clang -fsanitize=fuzzer,address,undefined)
 * and run for a bounded time by tests/qemu/tools_fuzz.sh; docs/tools.md has
 * the command for a longer run.
 */
#include "logparse.h"
#include "table.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "fuzz_logparse: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* Every row: a status; a failed one has a reason and no metric. */
static void check_rows(const struct table *t, const struct boot_verdict *v)
{
    size_t ok = 0, failed = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *st = table_getn(t, r, "status");
        CHECK(st != NULL);
        CHECK(table_getn(t, r, "sched") && table_getn(t, r, "log"));
        if (strcmp(st, "ok") == 0) {
            ok++;
            CHECK(table_getn(t, r, "reason") == NULL);
            for (size_t c = 0; c < t->ncols; c++) {   /* an ok run's metrics are plausible */
                char *why = NULL;
                const char *value = table_get(t, r, (int)c);
                CHECK(!value || !is_metric_key(t->col[c]) || metric_check(t->col[c], value, NULL, &why) == METRIC_OK);
                free(why);
            }
            continue;
        }
        failed++;
        CHECK(table_getn(t, r, "reason") != NULL);
        for (size_t c = 0; c < t->ncols; c++)
            if (strcmp(st, "failed") == 0 && is_metric_key(t->col[c]))
                CHECK(table_get(t, r, (int)c) == NULL);
    }
    CHECK(ok == v->ok_rows);
    CHECK(failed == v->failed_rows);
    CHECK(v->ok == (v->reason == NULL));
    CHECK(v->expected == 0 || t->nrows >= v->expected);
}

/* The rows written as CSV and read back are the same rows. */
static void check_csv_round_trip(const struct table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    CHECK(table_write_csv(t, f) == 0);
    fclose(f);
    struct table back = { 0 };
    size_t warnings;
    const char *err = table_parse_csv(&back, buf, len, &warnings);
    if (t->ncols == 0) {
        CHECK(err != NULL);
    } else {
        CHECK(err == NULL);
        CHECK(warnings == 0);
        CHECK(back.nrows == t->nrows);
        int *map = xcalloc(t->ncols + 1, sizeof(int));
        for (size_t c = 0; c < t->ncols; c++)
            map[c] = table_col(&back, t->col[c]);
        for (size_t r = 0; r < t->nrows; r++)
            for (size_t c = 0; c < t->ncols; c++) {
                const char *a = table_get(t, r, (int)c), *b = table_get(&back, r, map[c]);
                CHECK((a == NULL) == (b == NULL));
                CHECK(!a || strcmp(a, b) == 0);
            }
        free(map);
    }
    table_free(&back);
    free(buf);
}

/* "rc=N " at the start of the first line: the wrapper's exit status (else 0). */
static int take_rc(char **cmdline)
{
    int rc = 0, used = 0;
    if (sscanf(*cmdline, "rc=%d %n", &rc, &used) == 1 && used > 0)
        memmove(*cmdline, *cmdline + used, strlen(*cmdline + used) + 1);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size < 300 ? size : 300);
    size_t cl = nl ? (size_t)(nl - data) : 0;
    char *cmdline = xstrndup((const char *)data, cl);
    int rc = take_rc(&cmdline);
    /* The log is copied without a terminating NUL so that reading past its end is caught. */
    size_t len = nl ? size - cl - 1 : size;
    char *log = xmalloc(len ? len : 1);
    memcpy(log, nl ? nl + 1 : data, len);
    struct expectation e;
    expectation_parse(&e, cmdline);
    char *why = NULL;
    size_t expected = expectation_count(&e, &why);
    free(why);
    if (expected > 20000) {   /* a row per run: fine in the tool, seconds under ASan (test_logparse has the limits) */
        expectation_free(&e);
        free(log);
        free(cmdline);
        return 0;
    }
    struct boot_desc b = { "fuzz", "goodness", 2, 1, rc, "no", "qemu: stderr tail" };
    struct table t = { 0 };
    struct boot_verdict v;
    collect_boot(&b, log, len, &e, &t, &v);
    check_rows(&t, &v);
    check_csv_round_trip(&t);
    boot_verdict_free(&v);
    table_free(&t);
    expectation_free(&e);
    free(log);
    free(cmdline);
    return 0;
}
