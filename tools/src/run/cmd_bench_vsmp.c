/*
 * schedlab bench-vsmp: what a vsmp boot costs the host, this tree against
 * a baseline git revision, side by side in one run (docs/vsmp.md, "What the
 * dispatcher costs").  The flags are checked here; the boots, the builds
 * (the baseline exported with git archive into build/bench-vsmp/) and the
 * table are tools/bench-vsmp.sh's, which this runs (make bench-vsmp runs
 * it too).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli.h"
#include "../cmds.h"
#include "../util.h"
#include "procs.h"

static const struct verb_spec spec = {
    "bench-vsmp", 0,
    "usage: schedlab bench-vsmp [--base REV] [--runs N] [--sched LIST] [--cpus LIST] [--workloads LIST]\n"
    "                           [--timeout S] [--out DIR]\n"
    "  host seconds per virtual CPU-second of vsmp boots, this tree against a baseline git\n"
    "  revision built in its own directory (build/bench-vsmp/base-COMMIT/), each boot on both\n"
    "  one right after the other: o1 and goodness on 2, 4 and 8 logical CPUs, hackbench\n"
    "  (groups=20 loops=100) and tbench (clients=32 load_ops=2000 sock_model=2.4.18).  Per boot:\n"
    "  virtual CPU-seconds, host seconds, host seconds and dispatches per virtual CPU-second,\n"
    "  the dispatcher's share of the physical instructions and the workload's own figure, for\n"
    "  both; last the geometric mean of new/base.  Host times depend on the host's load (printed).\n"
    "  --base REV          the baseline revision                                   [main]\n"
    "  --runs N            boots of each configuration on each side                 [1]\n"
    "  --sched LIST        schedulers, comma separated                              [o1,goodness]\n"
    "  --cpus LIST         logical CPU counts (2..32)                                [2,4,8]\n"
    "  --workloads LIST    hackbench, tbench                                         [hackbench,tbench]\n"
    "  --timeout S         seconds per boot                                          [900]\n"
    "  --out DIR           consoles, times and the report                            [a new /tmp directory]\n"
    "  Exit: 0, 2 usage error or a failed build.\n",
    NULL,
};

int cmd_bench_vsmp(int argc, char **argv)
{
    cli_set_verb("bench-vsmp", &spec);
    static const char *const flags[] = { "base", "runs", "sched", "cpus", "workloads", "timeout", "out", "help",
                                         NULL };
    char **args = xcalloc((size_t)argc * 2 + 2, sizeof(*args));
    int n = 0;
    args[n++] = xasprintf("%s/tools/bench-vsmp.sh", schedlab_root());
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(spec.usage, stdout);
            return 0;
        }
        const char *val;
        int rc;
        char *opt = cli_flag_value(argc, argv, &i, flags, NULL, &val, &rc);
        if (!opt)
            return rc;
        args[n++] = opt;
        args[n++] = xstrdup(val);
    }
    args[n] = NULL;
    fflush(stdout);
    setenv("BENCH_VSMP_ME", "schedlab bench-vsmp", 1);
    execv(args[0], args);
    fprintf(stderr, "schedlab bench-vsmp: error: cannot run %s: %s\n", args[0], strerror(errno));
    return 1;
}
