/*
 * parse LOG --sched S ...: one serial log -> result rows as CSV on stdout
 * and the boot's verdict on stderr (for debugging and tests).
 */
#include "cmds.h"
#include "cli.h"
#include "logparse.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "parse", OPT_SCHED | OPT_SMP | OPT_BOOT | OPT_RC | OPT_CMDLINE,
    "usage: schedlab-tool parse LOG --sched S [--smp N] [--boot B] [--rc RC] [--cmdline '...']\n"
    "  One serial log as results.csv rows on stdout, the boot's verdict on stderr;\n"
    "  RC is the exit status of tools/qemu-run.sh (-1: the boot never finished).\n"
    "  Exit: 0 the boot is ok, 3 it failed, 1 unreadable input, 2 usage error.\n",
};

int cmd_parse(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (rc || o.ndirs != 1 || !o.sched) {
        cli_free(&o);
        return rc ? cli_exit(rc) : usage_error("%s", "parse LOG --sched S [--smp N] [--boot B] [--rc RC] [--cmdline '...']");
    }
    size_t len;
    char *log = read_file(o.dirs[0], &len);
    if (!log) {
        errorf("%s: %s", o.dirs[0], strerror(errno));
        cli_free(&o);
        return 1;
    }
    struct expectation e;
    expectation_parse(&e, o.cmdline);
    struct table t = { 0 };
    struct boot_desc bd = { "log", o.sched, o.smp, o.boot, (int)o.rc, "no", NULL };
    struct boot_verdict v;
    collect_boot(&bd, log, len, &e, &t, &v);
    table_write_csv(&t, stdout);
    fprintf(stderr, "verdict: %s%s%s (%zu ok, %zu failed, %zu expected)\n", v.ok ? "ok" : "failed", v.ok ? "" : ": ",
            v.ok ? "" : v.reason, v.ok_rows, v.failed_rows, v.expected);
    int out = v.ok ? 0 : 3;
    boot_verdict_free(&v);
    expectation_free(&e);
    table_free(&t);
    free(log);
    cli_free(&o);
    return out;
}
