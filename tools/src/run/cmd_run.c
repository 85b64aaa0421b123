/*
 * run, resume: a matrix of boots (runreq.c does the work).
 */
#include "cli.h"
#include "cmds.h"
#include "runreq.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec run_spec = {
    "run", 0,
    "usage: schedlab run --sched LIST --bench NAME --out DIR [--smp LIST] [--KEY VALUE...] [flags]\n"
    "  boot every combination of schedulers x SMP x boots and collect the results\n"
    "  --sched LIST        schedulers, comma separated (make -s list-scheds)          [required]\n"
    "  --smp LIST          vCPU counts, e.g. 1,2,4,8                                   [1]\n"
    "  --bench NAME        one workload (bench= on the kernel command line)            [required]\n"
    "  --runs R            runs inside each boot (runs=)                               [1]\n"
    "  --boots B           boots of each scheduler x SMP combination                   [1]\n"
    "  -j N, --jobs N      boots at once; never more vCPUs at once than host cores     [host cores]\n"
    "  --accel A           tcg | kvm | icount | vsmp (vsmp: N logical CPUs in virtual\n"
    "                      time on one icount vCPU, docs/vsmp.md)                      [tcg]\n"
    "  --mem MIB           guest memory                                                [256]\n"
    "  --timeout S         seconds per boot before it is killed and marked failed      [600]\n"
    "  --hz N, --lock tas|ticket, --cflags-extra 'FLAGS', --caches 0|1|host\n"
    "                      build settings (make HZ= LOCK= CFLAGS_EXTRA= CACHES=; the environment's\n"
    "                      HZ, LOCK, CFLAGS_EXTRA, CACHES otherwise): each configuration is built in\n"
    "                      its own directory, and meta.txt records the exact flags [1000, tas, none, 0]\n"
    "                      (--caches 1: the memory model's instrumented kernels; a machine with\n"
    "                      --set machine=PRESET and --accel vsmp, docs/caches.md; --caches host:\n"
    "                      make CACHES=host's kernels, which take --set machine=PRESET --set model=host,\n"
    "                      the model in QEMU, and give a 2.4 scheduler 2.4's task layout, \"The host model\")\n"
    "  --engine E          who boots them:                                             [local]\n"
    "                        local     this program's own pool of boots\n"
    "                        parallel  GNU parallel (job log DIR/parallel.joblog); with\n"
    "                                  --hosts FILE (parallel's --sshloginfile) on several\n"
    "                                  machines that see ROOT and DIR at the same paths\n"
    "                        slurm     a Slurm job array (DIR/slurm.sbatch, one boot per task),\n"
    "                                  submitted with sbatch --wait, then collected\n"
    "                        none      prepare DIR only (every boot \"not run\"); boot them later\n"
    "                                  with schedlab boot DIR or resume\n"
    "  --hosts FILE        parallel's --sshloginfile (lines like 4/host or : for this machine)\n"
    "  --sbatch-args 'A'   more sbatch arguments (--partition=..., --time=...)\n"
    "  --force             replace the results of a non-empty --out DIR\n"
    "  --out DIR           results directory (must be new or empty; --force reuses)    [required]\n"
    "  --quiet             no status line (boots done / total, elapsed, ETA from the recorded\n"
    "                      times of earlier boots: in place on a terminal, every 10 s otherwise)\n"
    "  --groups INC:MAX    hackbench/maxgroups groups as \"increment and maximum\" (the STP form of\n"
    "                      seed 000: --groups 25:200 is 25,50,...,200); a comma list otherwise\n"
    "  --KEY VALUE         any key of the chosen workload, or of the kernel (watchdog, bind),\n"
    "                      as the kernel lists them with bench=list: --pipe-size is pipe_size=;\n"
    "                      --set KEY=VALUE does the same (for a key named like a flag above).\n"
    "                      Checked before anything boots against the key's type and range; a key\n"
    "                      the workload does not read is an error.  A comma list of a uint_list\n"
    "                      key (groups, procs, clients, runnable) runs every value in one boot; a\n"
    "                      list of a uint or choice key (size, loops, mode...) gives one boot per\n"
    "                      value; int_list and cpu_list values (nice=, bind=) are passed as they are.\n"
    "                      --set sched.NAME=a,b,c: a scheduler tunable (bench=list's tunable lines,\n"
    "                      each scheduler of --sched must have it) or sched.preset=P: one boot per value.\n"
    "  --trace-boot NAME   trace one boot (NAME as in DIR/jobs.txt, e.g. o1-smp2-boot1, or first) into\n"
    "                      DIR/traces/NAME/ (--trace-events LIST, --trace-buf-kib N: see schedlab trace)\n"
    "  --resume DIR        finish an interrupted matrix: boot only the boots of DIR that never\n"
    "                      finished (no logs/NAME.rc), with DIR's own kernels and settings;\n"
    "                      --retry-failed also boots again those that failed.  Takes -j,\n"
    "                      --engine, --hosts, --sbatch-args; no matrix flags.\n"
    "  Writes DIR/results.csv (a row per run), DIR/boots.csv, DIR/schedstat.csv, DIR/meta.txt,\n"
    "  DIR/logs/.  Boots that never started are status=not_run, never failures.\n"
    "  Exit: 0 all boots ok, 1 some boot failed (its rows say why), 2 usage error,\n"
    "  130 interrupted (SIGINT), 143 terminated (SIGTERM).\n",
    NULL,
};

int cmd_run(int argc, char **argv)
{
    cli_set_verb("run", &run_spec);
    struct run_req r;
    run_req_init(&r);
    bool help;
    int rc = run_req_parse(&r, argc, argv, &help);
    if (!rc && help)
        fputs(run_spec.usage, stdout);
    else if (!rc)
        rc = run_matrix(&r);
    run_req_free(&r);
    return rc;
}

static const struct verb_spec resume_spec = {
    "resume", 0,
    "usage: schedlab resume DIR [--retry-failed] [-j N] [--engine local|parallel|slurm] [--hosts FILE]\n"
    "  the same as run --resume DIR: boot what never finished, then collect\n",
    NULL,
};

int cmd_resume(int argc, char **argv)
{
    cli_set_verb("resume", &resume_spec);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(resume_spec.usage, stdout);
            return 0;
        }
    static const char *const flags[] = { "retry-failed", "jobs", "engine", "hosts", "sbatch-args", "quiet", "help", NULL };
    for (int i = 1; i < argc; i++) {   /* an unknown flag first, wherever it is */
        const char *f = argv[i] + strspn(argv[i], "-");
        bool known = !strcmp(argv[i], "-j");
        for (size_t k = 0; flags[k] && !known; k++)
            known = !strncmp(f, flags[k], strlen(flags[k])) && (!f[strlen(flags[k])] || f[strlen(flags[k])] == '=');
        if (argv[i][0] == '-' && !known)
            return unknown_flag_error(argv[i], flags);
        if (known && !strchr(argv[i], '=') && strcmp(f, "retry-failed") && strcmp(f, "quiet"))
            i++;   /* its value */
    }
    if (argc < 2 || argv[1][0] == '-')
        return verb_usage_error("resume needs a results directory (resume DIR [flags])");
    /* run --resume DIR FLAGS... */
    char **av = xcalloc((size_t)argc + 3, sizeof(char *));
    int n = 0;
    av[n++] = "run";
    av[n++] = "--resume";
    av[n++] = argv[1];
    for (int i = 2; i < argc; i++)
        av[n++] = argv[i];
    struct run_req r;
    run_req_init(&r);
    bool help;
    int rc = run_req_parse(&r, n, av, &help);
    if (!rc)
        rc = run_matrix(&r);
    run_req_free(&r);
    free(av);
    return rc;
}
