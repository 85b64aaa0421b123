/*
 * collect DIR: the serial logs of a run matrix (DIR/matrix.txt, DIR/jobs.txt,
 * DIR/logs/NAME.{log,err,rc}) -> DIR/results.csv (a row per expected run)
 * and DIR/boots.csv (a row per boot).
 */
#include "cmds.h"
#include "cli.h"
#include "load.h"
#include "logparse.h"
#include "lost_ticks.h"
#include "provenance.h"
#include "util.h"
#include "view.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NOT_RUN_REASON "not run: the matrix stopped before this boot started (tools/schedlab run --resume DIR)"

static const struct verb_spec spec = {
    "collect", 0,
    "usage: schedlab collect DIR\n"
    "  Re-reads the serial logs of the run matrix in DIR (matrix.txt, jobs.txt, logs/, meta.txt)\n"
    "  into DIR/results.csv (a row per expected run, failed ones with a reason, boots that never\n"
    "  started as status=not_run), DIR/boots.csv (a row per boot) and DIR/schedstat.csv (a row\n"
    "  per boot and CPU); every row carries its provenance (meta.txt, the boot: line).\n"
    "  Exit: 0, 1 unreadable or malformed input, 2 usage error.\n",    NULL,
};

/* ---------------------------------------------------------------- results.csv */

/* The column order of results.csv: what the run was, the workload
 * parameters, the metrics, then status and bookkeeping. */
static void results_columns(const struct table *t, struct table *order)
{
    static const char *const head[] = { "sched", "smp", "boot", "run", "bench", NULL };
    static const char *const tail[] = { "cpus", "status", "reason", "exit", "oversubscribed", "log", NULL };
    for (int i = 0; head[i]; i++)
        table_add_col(order, head[i]);
    for (int pass = 0; pass < 2; pass++)
        for (size_t c = 0; c < t->ncols; c++)
            if (!is_fixed_column(t->col[c]) && !is_provenance_column(t->col[c]) &&
                is_metric_key(t->col[c]) == (pass == 1))
                table_add_col(order, t->col[c]);
    for (int i = 0; tail[i]; i++)
        table_add_col(order, tail[i]);
    for (size_t c = 0; c < t->ncols; c++)
        if (is_provenance_column(t->col[c]))
            table_add_col(order, t->col[c]);
}

static void write_rows(FILE *f, const struct table *t, const struct table *cols)
{
    int *order = xcalloc(cols->ncols + 1, sizeof(int));
    for (size_t c = 0; c < cols->ncols; c++)
        order[c] = table_col(t, cols->col[c]);
    for (size_t c = 0; c < cols->ncols; c++) {
        if (c)
            fputc(',', f);
        csv_field(f, cols->col[c]);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < cols->ncols; c++) {
            if (c)
                fputc(',', f);
            csv_field(f, table_get(t, r, order[c]));
        }
        fputc('\n', f);
    }
    free(order);
}

/* Writes t as CSV in the results.csv column order, through PATH.part. */
static int write_results(const struct table *t, const char *path)
{
    struct table cols = { 0 };
    results_columns(t, &cols);
    char *part = xasprintf("%s.part", path);
    FILE *f = fopen(part, "w");
    int bad = 1;
    if (!f) {
        errorf("%s: %s", part, strerror(errno));
    } else {
        write_rows(f, t, &cols);
        bad = ferror(f);
        bad |= fclose(f);
        if (!bad)
            bad = rename(part, path);
        if (bad)
            errorf("%s: cannot write", path);
    }
    free(part);
    table_free(&cols);
    return bad ? 1 : 0;
}

/* The value every ok row of this workload has in column c, or NULL when
 * they disagree or some lack it. */
static const char *agreed_value(const struct table *t, int c, const char *bench)
{
    int bc = table_col(t, "bench"), sc = table_col(t, "status");
    const char *agreed = NULL;
    for (size_t q = 0; q < t->nrows; q++) {
        if (!streq(table_get(t, q, bc), bench) || !streq(table_get(t, q, sc), "ok"))
            continue;
        const char *v = table_get(t, q, c);
        if (!v || (agreed && strcmp(agreed, v)))
            return NULL;
        agreed = v;
    }
    return agreed;
}

/* Keys on the matrix's kernel command line or swept across boots: a failed
 * row has its own value of each (or none), never one copied from other runs. */
static bool command_line_key(const struct matrix *m, const char *key)
{
    for (size_t i = 0; i < m->nsweep; i++)
        if (strcmp(m->sweep[i], key) == 0)
            return true;
    struct expectation e;
    expectation_parse(&e, m->cmdline);
    bool found = false;
    for (size_t i = 0; i < e.nparams && !found; i++)
        found = strcmp(e.key[i], key) == 0;
    expectation_free(&e);
    return found;
}

/* Failed rows carry only the parameters given on the command line; the
 * kernel prints its defaults too (datasize=100...).  Fill a missing default
 * of a failed row when every ok row of that workload agrees; never a
 * command-line key, a counter (tasks_started...) or a metric. */
static void fill_defaults(struct table *t, const struct matrix *m)
{
    int bc = table_col(t, "bench"), sc = table_col(t, "status");
    for (size_t c = 0; c < t->ncols; c++) {
        const char *name = t->col[c];
        if (is_fixed_column(name) || is_metric_key(name) || is_counter_key(name) || is_provenance_column(name) ||
            command_line_key(m, name))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            if (table_get(t, r, (int)c) || streq(table_get(t, r, sc), "ok"))
                continue;
            const char *agreed = agreed_value(t, (int)c, table_get(t, r, bc));
            if (agreed) {
                char *copy = xstrdup(agreed);
                table_set(t, r, (int)c, copy);
                free(copy);
            }
        }
    }
}

/* ---------------------------------------------------------------- one boot */

/* The last line of QEMU's stderr that is not the wrapper's "run: " note. */
static char *last_line_of(const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return NULL;
    char *last = NULL;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (strncmp(line, "run: ", 5) != 0 || !last)
            last = line;
    char *out = last ? xstrndup(last, strlen(last) > 160 ? 160 : strlen(last)) : NULL;
    for (char *c = out; c && *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    free(buf);
    return out;
}

/* logs/NAME.rc: "rc=<status> wall_s=<s> oversubscribed=<yes|no> [host=<name>]". */
struct rc_file {
    long rc, wall;
    char *over;     /* allocated: "unknown" when the file does not say */
    char *host;     /* allocated, whole (a host name is provenance): "" when not said */
    bool present;
};

/* The word after KEY= in buf (allocated), or NULL; a word ends at white space. */
static char *rc_word(const char *buf, const char *key)
{
    const char *p = strstr(buf, key);
    if (!p)
        return NULL;
    p += strlen(key);
    return xstrndup(p, strcspn(p, " \t\r\n"));
}

static void read_rc_file(const char *path, struct rc_file *rf)
{
    size_t len = 0;
    char *buf = read_file(path, &len);
    rf->rc = rf->wall = -1;
    rf->present = buf != NULL;
    rf->over = rf->host = NULL;
    char *p;
    if (buf && (p = strstr(buf, "rc=")))
        sscanf(p + 3, "%ld", &rf->rc);
    if (buf && (p = strstr(buf, "wall_s=")))
        sscanf(p + 7, "%ld", &rf->wall);
    if (buf) {
        rf->over = rc_word(buf, "oversubscribed=");
        rf->host = rc_word(buf, "host=");
    }
    if (!rf->over || !rf->over[0] || rf->over[strspn(rf->over, "abcdefghijklmnopqrstuvwxyz")]) {
        free(rf->over);
        rf->over = xstrdup("unknown");
    }
    if (!rf->host)
        rf->host = xstrdup("");
    for (char *c = rf->host; *c; c++)   /* printable: one CSV cell */
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    free(buf);
}

/* One line of jobs.txt: "NAME SCHED SMP BOOT [key=value...]". */
struct job {
    char *name, *sched;
    long smp, boot;
    const char *extra;   /* the words after the four fields */
};

/* NAME becomes logs/NAME.log: one file name (NAME_MAX, 255 bytes, with ".log"). */
#define MAX_JOB_NAME 250

/* The next space-separated word of *p (allocated), or NULL at the end. */
static char *next_word(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    size_t n = strcspn(*p, " \t");
    if (!n)
        return NULL;
    char *w = xstrndup(*p, n);
    *p += n;
    return w;
}

static void job_free(struct job *j)
{
    free(j->name);
    free(j->sched);
    memset(j, 0, sizeof(*j));
}

/* Parses a jobs.txt line; returns NULL or why it is not one (allocated). */
static char *parse_job(const char *line, struct job *j)
{
    memset(j, 0, sizeof(*j));
    const char *p = line;
    j->name = next_word(&p);
    j->sched = next_word(&p);
    char *smp = next_word(&p), *boot = next_word(&p);
    char *why = NULL;
    if (!boot || !parse_long(smp, &j->smp) || !parse_long(boot, &j->boot))
        why = xstrdup("expected NAME SCHED SMP BOOT [KEY=VALUE...]");
    else if (strlen(j->name) > MAX_JOB_NAME || strchr(j->name, '/'))
        why = xasprintf("boot name of %zu characters%s: logs/NAME.log needs a name of at most %d characters and no '/'",
                        strlen(j->name), strchr(j->name, '/') ? " with a '/'" : "", MAX_JOB_NAME);
    free(smp);
    free(boot);
    j->extra = p;
    if (why)
        job_free(j);
    return why;
}

static const char *const boot_cols[] = { "name", "sched", "smp", "boot", "rc", "verdict", "reason", "ok_results",
                                         "failed_results", "expected", "wall_s", "oversubscribed", "boot_line", NULL };

static void set_number(struct table *t, size_t r, const char *col, long n, bool known)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%ld", n);
    table_setn(t, r, col, known ? buf : NULL);
}

/* What became of a boot. */
enum outcome { BOOT_OK, BOOT_FAILED, BOOT_NOT_RUN };
static const char *const outcome_name[] = { "ok", "failed", "not_run" };

/* The boots.csv row of one boot: numeric columns hold numbers or nothing
 * (rc is empty when the boot has no exit status). */
static void add_boot_row(struct table *boots, const struct job *j, const struct rc_file *rf, const struct boot_verdict *v,
                         enum outcome out, const struct kvlist *prov)
{
    size_t r = table_add_row(boots);
    table_setn(boots, r, "name", j->name);
    table_setn(boots, r, "sched", j->sched);
    set_number(boots, r, "smp", j->smp, true);
    set_number(boots, r, "boot", j->boot, true);
    set_number(boots, r, "rc", rf->rc, rf->rc >= 0);
    table_setn(boots, r, "verdict", outcome_name[out]);
    table_setn(boots, r, "reason", out == BOOT_NOT_RUN ? NOT_RUN_REASON : v->reason);
    set_number(boots, r, "ok_results", (long)v->ok_rows, true);
    set_number(boots, r, "failed_results", out == BOOT_NOT_RUN ? 0 : (long)v->failed_rows, true);
    set_number(boots, r, "expected", (long)v->expected, true);
    set_number(boots, r, "wall_s", rf->wall, rf->wall >= 0);
    table_setn(boots, r, "oversubscribed", rf->over);
    table_setn(boots, r, "boot_line", v->boot_line);
    table_set_kvlist(boots, r, prov);
}

/* The expectation of one boot: the matrix's command line and the boot's own words. */
static void job_expectation(const struct matrix *m, const char *extra, struct expectation *e)
{
    char *cmd = xasprintf("%s%s", m->cmdline ? m->cmdline : "", extra);
    expectation_parse(e, cmd);
    if (m->sweep_known)
        expectation_set_sweep(e, m->sweep, m->nkernel);
    free(cmd);
}

/* The number of CPUs in a hex mask ("0x3" -> 2), or -1. */
static int mask_count(const char *mask)
{
    if (!mask || strncmp(mask, "0x", 2) != 0 || !mask[2] || strlen(mask) > 18)
        return -1;
    int n = 0;
    for (const char *c = mask + 2; *c; c++) {
        int d = *c >= '0' && *c <= '9' ? *c - '0' : *c >= 'a' && *c <= 'f' ? *c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        n += __builtin_popcount((unsigned)d);
    }
    return n;
}

/* The rows [from, t->nrows) of one boot, as results.csv has them: run
 * counted from 1 like boot, cpus_used also as a count, the boot's exit
 * status and the provenance; status=not_run for a boot that never started. */
static void finish_rows(struct table *t, size_t from, const struct rc_file *rf, enum outcome out,
                        const struct kvlist *prov)
{
    int runc = table_col(t, "run");
    for (size_t r = from; r < t->nrows; r++) {
        long run;
        if (parse_long(table_get(t, r, runc), &run) && run >= 0 && run < MAX_RUNS)
            set_number(t, r, "run", run + 1, true);
        int n = mask_count(table_getn(t, r, "cpus_used"));
        if (n >= 0)
            set_number(t, r, "cpus_used_count", n, true);
        set_number(t, r, "exit", rf->rc, rf->rc >= 0);
        if (out == BOOT_NOT_RUN) {
            table_setn(t, r, "status", "not_run");
            table_setn(t, r, "reason", NOT_RUN_REASON);
        }
        table_set_kvlist(t, r, prov);
    }
}

/* ---------------------------------------------------------------- schedstat.csv */

/* One complete "schedstat cpu=<n> sched=<s> key=<number>..." line into a
 * row of stats: the kernel's counters, and per second of the CPU's recorded
 * time (busy and idle) the rates that can be compared and plotted, and the
 * share of the ticks it expected that it did not take (ticks_lost_pct).  A line
 * that is not exactly that (cut off, garbage, another scheduler) is skipped. */
static void schedstat_line(struct table *stats, const char *line, size_t ll, const struct job *j, const char *bench,
                           const struct kvlist *prov)
{
    struct kvlist kv = { 0 };
    bool good = true;
    for (size_t i = 10; i < ll && good;) {
        while (i < ll && line[i] == ' ')
            i++;
        size_t w = i;
        while (i < ll && line[i] != ' ')
            i++;
        if (i == w)
            break;
        const char *eq = memchr(line + w, '=', i - w);
        size_t kl = eq ? (size_t)(eq - line - w) : 0;
        good = kl > 0 && kl <= 40 && eq + 1 < line + i && i - w < 80;
        for (size_t k = 0; good && k < kl; k++)
            good = (line[w + k] >= 'a' && line[w + k] <= 'z') || (line[w + k] >= '0' && line[w + k] <= '9') ||
                   line[w + k] == '_';
        if (!good)
            break;
        char *key = xstrndup(line + w, kl), *val = xstrndup(eq + 1, (size_t)(line + i - eq - 1));
        long num;
        if (strcmp(key, "sched") == 0)
            good = strcmp(val, j->sched) == 0;
        else
            good = parse_long(val, &num) && num >= 0 && !kvl_get(&kv, key);
        if (good)
            kvl_set(&kv, key, val);
        free(key);
        free(val);
    }
    if (!good || !kvl_get(&kv, "cpu")) {
        kvl_free(&kv);
        return;
    }
    size_t r = table_add_row(stats);
    table_setn(stats, r, "sched", j->sched);
    set_number(stats, r, "smp", j->smp, true);
    set_number(stats, r, "boot", j->boot, true);
    table_setn(stats, r, "bench", "schedstat");
    table_setn(stats, r, "workload", bench ? bench : "all");
    for (size_t i = 0; i < kv.n; i++)
        if (strcmp(kv.key[i], "sched"))
            table_setn(stats, r, kv.key[i], kv.value[i]);
    /* The CPU's recorded time, busy and idle, on its own clock: not its
     * ticks, which a loaded TCG host takes away (ticks_expected= says how
     * many it should have had). */
    long busy, idle_t, ticks, want;
    double secs = 0;
    if (parse_long(kvl_get(&kv, "busy_us"), &busy) && parse_long(kvl_get(&kv, "idle_us"), &idle_t))
        secs = (double)(busy + idle_t) / 1e6;
    else if (parse_long(kvl_get(&kv, "busy_ms"), &busy) && parse_long(kvl_get(&kv, "idle_ms"), &idle_t))
        secs = (double)(busy + idle_t) / 1e3;
    if (parse_long(kvl_get(&kv, "ticks"), &ticks) && parse_long(kvl_get(&kv, "ticks_expected"), &want) && want > 0) {
        char buf[24];
        snprintf(buf, sizeof(buf), "%.1f", ticks >= want ? 0.0 : 100.0 * (double)(want - ticks) / (double)want);
        table_setn(stats, r, "ticks_lost_pct", buf);
    }
    if (secs > 0) {
        char buf[48];
        snprintf(buf, sizeof(buf), "%.6g", secs);
        table_setn(stats, r, "seconds", buf);
        static const char *const per_s[][2] = { { "context_switches", "switches_per_s" },
                                                { "migrations", "migrations_per_s" },
                                                { "wakeups", "wakeups_per_s" } };
        for (size_t k = 0; k < sizeof(per_s) / sizeof(per_s[0]); k++) {
            long n;
            if (parse_long(kvl_get(&kv, per_s[k][0]), &n)) {
                snprintf(buf, sizeof(buf), "%.6g", (double)n / secs);
                table_setn(stats, r, per_s[k][1], buf);
            }
        }
        long idle;
        if (parse_long(kvl_get(&kv, "idle_us"), &idle) || parse_long(kvl_get(&kv, "idle_ms"), &idle)) {
            double share = (double)idle / (kvl_get(&kv, "idle_us") ? 1e6 : 1e3) / secs;
            snprintf(buf, sizeof(buf), "%.4f", share > 1 ? 1.0 : share);
            table_setn(stats, r, "idle_share", buf);
        }
    }
    long pick;
    if (parse_long(kvl_get(&kv, "pick_cycles_avg"), &pick) && pick > 0)
        table_setn(stats, r, "pick_cycles", kvl_get(&kv, "pick_cycles_avg"));
    table_setn(stats, r, "status", "ok");
    table_setn(stats, r, "log", j->name);
    table_set_kvlist(stats, r, prov);
    kvl_free(&kv);
}

static void schedstat_rows(struct table *stats, const char *log, size_t len, const struct job *j, const char *bench,
                           const struct kvlist *prov)
{
    for (size_t pos = 0; pos < len;) {
        const char *line = log + pos, *nl = memchr(line, '\n', len - pos);
        if (!nl)
            break;   /* the log ends inside this line: it is cut off */
        size_t ll = (size_t)(nl - line);
        pos += ll + 1;
        if (ll && line[ll - 1] == '\r')
            ll--;
        if (ll > 10 && ll < 1000 && memcmp(line, "schedstat ", 10) == 0)
            schedstat_line(stats, line, ll, j, bench, prov);
    }
}

/* What collect builds. */
struct outputs {
    struct table results, boots, stats;
    size_t counts[3];   /* boots per outcome */
};

/* Parses one boot's logs into the outputs.  A boot without an .rc file and
 * without a log never started: its runs are status=not_run. */
/* The largest share of its expected ticks that one CPU of the boot did not
 * take (schedstat ticks= against ticks_expected=), in percent; -1 when the
 * log does not say.  Above LOST_TICKS_PCT every result row of the boot
 * carries it (ticks_lost_pct), and the tools warn beside the numbers
 * (lost_ticks_warn): the host took the vCPUs away, so tick-driven policy
 * ran less often than the guest's clock says (TCG on a loaded host; vsmp
 * and icount never lose ticks). */
static double boot_lost_ticks_pct(const char *log, size_t len)
{
    double worst = -1;
    for (size_t pos = 0; pos < len;) {
        const char *line = log + pos, *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + 1;
        if (ll < 10 || memcmp(line, "schedstat ", 10) != 0)
            continue;
        char *l = xstrndup(line, ll), *tk = strstr(l, " ticks="), *te = strstr(l, " ticks_expected=");
        long got, want;
        if (tk && te && sscanf(tk, " ticks=%ld", &got) == 1 && sscanf(te, " ticks_expected=%ld", &want) == 1 &&
            want > 0) {
            double lost = got >= want ? 0 : 100.0 * (double)(want - got) / (double)want;
            worst = lost > worst ? lost : worst;
        }
        free(l);
    }
    return worst;
}

static void mark_lost_ticks(struct table *t, size_t from, const char *log, size_t len)
{
    double lost = boot_lost_ticks_pct(log, len);
    if (lost <= LOST_TICKS_PCT)
        return;
    char buf[24];
    snprintf(buf, sizeof(buf), "%.1f", lost);
    for (size_t r = from; r < t->nrows; r++)
        table_setn(t, r, "ticks_lost_pct", buf);
}

static void collect_job(const char *dir, const struct matrix *m, const struct meta *meta, const struct job *j,
                        struct outputs *o)
{
    struct expectation e;
    job_expectation(m, j->extra, &e);
    char *rcpath = xasprintf("%s/logs/%s.rc", dir, j->name);
    char *logpath = xasprintf("%s/logs/%s.log", dir, j->name);
    char *errpath = xasprintf("%s/logs/%s.err", dir, j->name);
    struct rc_file rf;
    read_rc_file(rcpath, &rf);
    size_t llen = 0;
    char *log = read_file(logpath, &llen);
    char *err_tail = last_line_of(errpath);
    struct boot_desc bd = { j->name, j->sched, j->smp, j->boot, (int)rf.rc, rf.over, err_tail };
    struct boot_verdict v;
    size_t from = o->results.nrows;
    collect_boot(&bd, log ? log : "", log ? llen : 0, &e, &o->results, &v);
    enum outcome out = v.ok ? BOOT_OK : !rf.present && !log ? BOOT_NOT_RUN : BOOT_FAILED;
    struct kvlist prov = { 0 };
    meta_row_provenance(meta, j->sched, &prov);
    if (rf.host[0])
        kvl_set(&prov, "host", rf.host);
    boot_line_provenance(v.boot_line, &prov);
    finish_rows(&o->results, from, &rf, out, &prov);
    if (log)
        mark_lost_ticks(&o->results, from, log, llen);
    add_boot_row(&o->boots, j, &rf, &v, out, &prov);
    if (log)
        schedstat_rows(&o->stats, log, llen, j, e.bench, &prov);
    o->counts[out]++;
    kvl_free(&prov);
    boot_verdict_free(&v);
    expectation_free(&e);
    free(err_tail);
    free(rf.over);
    free(rf.host);
    free(log);
    free(rcpath);
    free(logpath);
    free(errpath);
}

/* ---------------------------------------------------------------- jobs.txt */

/* collect writes a row per expected run: a matrix that claims more than
 * this in all is refused rather than written out. */
#define MAX_MATRIX_RUNS 1000000

struct jobs {
    struct job *j;
    size_t n;
};

static void jobs_free(struct jobs *js)
{
    for (size_t i = 0; i < js->n; i++)
        job_free(&js->j[i]);
    free(js->j);
}

/* How many runs one boot must report; 0 with *why when it cannot be counted
 * (bad runs=, too many; an unknown workload set counts as 0 without a why). */
static size_t job_runs(const struct matrix *m, const char *extra, char **why)
{
    struct expectation e;
    job_expectation(m, extra, &e);
    size_t n = expectation_count(&e, why);
    expectation_free(&e);
    return n;
}

/* Reads every line of jobs.txt (buf, NUL-terminated; modified) and checks
 * what the matrix claims.  Returns 0 or 1 after an error naming the line. */
static int read_jobs(const char *dir, const struct matrix *m, char *buf, size_t len, struct jobs *js)
{
    size_t total = 0, lineno = 0;
    memset(js, 0, sizeof(*js));
    if (strlen(buf) != len) {
        errorf("%s/jobs.txt: NUL bytes in it (not a jobs.txt written by tools/schedlab)", dir);
        return 1;
    }
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (line[strspn(line, " \t\r")] == '\0' || line[0] == '#')
            continue;
        line[strcspn(line, "\r")] = '\0';
        struct job j;
        char *why = parse_job(line, &j);
        size_t runs = why ? 0 : job_runs(m, j.extra, &why);
        total += runs;
        if (!why && total > MAX_MATRIX_RUNS)
            why = xasprintf("the matrix asks for more than %d runs in all", MAX_MATRIX_RUNS);
        if (why) {
            errorf("%s/jobs.txt:%zu: %s", dir, lineno, why);
            free(why);
            job_free(&j);
            return 1;
        }
        js->j = xrealloc(js->j, (js->n + 1) * sizeof(*js->j));
        js->j[js->n++] = j;
    }
    return 0;
}

/* ---------------------------------------------------------------- the verb */

/* Writes a whole table as CSV through PATH.part. */
static int write_csv_file(const struct table *t, const char *path)
{
    char *part = xasprintf("%s.part", path);
    FILE *f = fopen(part, "w");
    int bad = !f || table_write_csv(t, f) != 0;
    if (f && fclose(f) != 0)
        bad = 1;
    if (!bad && rename(part, path) != 0)
        bad = 1;
    if (bad)
        errorf("%s: cannot write", path);
    free(part);
    return bad;
}

static int write_outputs(const char *dir, const struct outputs *o, size_t nboots)
{
    char *rpath = xasprintf("%s/results.csv", dir), *bpath = xasprintf("%s/boots.csv", dir);
    char *spath = xasprintf("%s/schedstat.csv", dir);
    int rc = write_results(&o->results, rpath);
    if (!rc)
        rc = write_csv_file(&o->boots, bpath);
    if (!rc && o->stats.nrows)
        rc = write_csv_file(&o->stats, spath);
    else if (!rc)
        remove(spath);   /* no schedstat line in any log: no stale file either */
    size_t okrows = 0, notrun = 0;
    int sc = table_col(&o->results, "status");
    for (size_t r = 0; r < o->results.nrows; r++) {
        okrows += streq(table_get(&o->results, r, sc), "ok");
        notrun += streq(table_get(&o->results, r, sc), "not_run");
    }
    if (!rc) {
        fprintf(stderr, "collect: %zu boots (%zu failed", nboots, o->counts[BOOT_FAILED]);
        if (o->counts[BOOT_NOT_RUN])
            fprintf(stderr, ", %zu not run", o->counts[BOOT_NOT_RUN]);
        fprintf(stderr, "), %zu result rows (%zu ok, %zu not ok", o->results.nrows, okrows,
                o->results.nrows - okrows - notrun);
        if (notrun)
            fprintf(stderr, ", %zu not run", notrun);
        fprintf(stderr, ") -> %s\n", rpath);
    }
    free(rpath);
    free(bpath);
    free(spath);
    return rc;
}

/* The matrix's own command line must be one the runs can be counted for. */
static int check_matrix(const char *dir, const struct matrix *m)
{
    char *why = NULL;
    job_runs(m, "", &why);
    if (!why)
        return 0;
    errorf("%s/matrix.txt: %s", dir, why);
    free(why);
    return 1;
}

static int collect_dir(const char *dir)
{
    if (no_such_dir(dir, "results directory", "schedlab run ... --out DIR"))
        return 1;
    char *jpath = xasprintf("%s/jobs.txt", dir);
    size_t jlen;
    struct matrix m;
    bool have_matrix = read_matrix(dir, &m);
    char *buf = read_file(jpath, &jlen);
    struct jobs js = { 0 };
    int rc = 1;
    if (!have_matrix || !buf)
        errorf("%s: no %s (not a directory of schedlab run)", dir, have_matrix ? "jobs.txt" : "matrix.txt");
    else if (check_matrix(dir, &m) == 0 && read_jobs(dir, &m, buf, jlen, &js) == 0) {
        struct outputs o = { 0 };
        struct meta meta;
        meta_read(dir, &meta);
        for (int i = 0; boot_cols[i]; i++)
            table_add_col(&o.boots, boot_cols[i]);
        for (size_t i = 0; i < js.n; i++)
            collect_job(dir, &m, &meta, &js.j[i], &o);
        fill_defaults(&o.results, &m);
        rc = write_outputs(dir, &o, js.n);
        table_free(&o.results);
        table_free(&o.boots);
        table_free(&o.stats);
        meta_free(&meta);
    }
    jobs_free(&js);
    matrix_free(&m);
    free(buf);
    free(jpath);
    return rc;
}

int cmd_collect(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (!rc && o.ndirs != 1)
        rc = usage_error("%s", "collect needs exactly one results directory");
    if (!rc)
        rc = collect_dir(o.dirs[0]);
    cli_free(&o);
    return cli_exit(rc);
}
