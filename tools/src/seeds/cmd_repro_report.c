/*
 * repro-report DIR [--command TEXT] [--out FILE]: the report of a reproduction
 * (tools/schedlab reproduce) as one self-contained HTML page for people:
 * which post, the question it asked and a one-line verdict; an overview of
 * every table's scorecard; each table's section (schedlab scorecard
 * --html: what ran here and in the post, the scorecard with its cells
 * coloured by deviation, the notes, the post's table beside ours, the
 * plots); and the provenance (revision, build, accelerator, cost model,
 * host) at the bottom.  Tables are <table>s; the one <pre> is the command.
 */
#include "cmds.h"
#include "cli.h"
#include "repro_out.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
    "usage: schedlab repro-report DIR [--command TEXT] [--out FILE]\n"
    "  DIR: a directory of tools/schedlab reproduce (scorecard.txt, scorecard.csv, cost-C/TABLE.html,\n"
    "  cost-C/TABLE/rows).  Writes DIR/report.html (or FILE): one page that needs nothing else.\n"
    "  Exit: 0, 1 unreadable input, 2 usage error.\n";

/* What each post is and asked. */
static const struct post {
    const char *seed, *who, *subject, *question;
} posts[] = {
    { "seed000", "Craig Thomas (OSDL), LKML, November 2003", "Process scheduler improvements in 2.6.0-test9",
      "Does 2.6.0-test9's O(1) scheduler finish hackbench faster than 2.4.18's goodness scheduler, and run more groups "
      "before the machine runs out of resources, on 1, 2, 4 and 8 CPUs? Nick Piggin answered with his own scheduler's "
      "times on the 8-way." },
    { "seed001", "Rob Hussey, LKML, September 2007", "Re: [announce] CFS-devel, performance improvements",
      "How do 2.6.23-rc1, 2.6.23-rc6 and the CFS-devel patches compare on lat_ctx, hackbench and pipe-test on a dual "
      "core, with the tasks free to use both cores and bound to one?" },
    { "seed003", "Randy Hron, LKML, May 2002", "O(1) scheduler gives big boost to tbench 192",
      "How much do the O(1) scheduler backport (-ac2, -jam6) and -aa's dyn-sched raise tbench throughput over stock "
      "2.4.19-pre7 on a 4-way at 64 and 192 clients; and does MQ beat O(1) on AIM7 and VolanoMark, as the thread "
      "rumoured?" },
};

static const char css[] =
    "body{font-family:sans-serif;max-width:1180px;margin:1.5em auto;padding:0 1em;color:#222;line-height:1.4}\n"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:2em;border-bottom:2px solid #ddd;padding-bottom:.2em}\n"
    "h2 .sub{font-size:.6em;font-weight:normal;color:#666;margin-left:.5em}\n"
    "p.who{color:#555;margin-top:0}p.question{font-size:1.1em}\n"
    "p.verdict{font-size:1.1em;background:#f3f6fa;border-left:5px solid #0072B2;padding:.6em .8em}\n"
    "table{border-collapse:collapse;font-size:13px;margin:.6em 0 1em}caption{text-align:left;font-weight:bold;"
    "padding:.3em 0}\n"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}thead th{background:#e8e8e8}\n"
    ".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "tr.group th{background:#eef2f8;text-align:left}th.sub,td.sub{color:#666;font-style:italic;font-weight:normal}\n"
    "td.missing{color:#999}td.why{color:#666;font-size:12px}\n"
    ".dev-near{background:#d9f0d3}.dev-mid{background:#fdf0c2}.dev-far{background:#f8d0cc}\n"
    "table.ran{width:100%}table.ran th{width:9em;background:#f6f6f6}table.ran td{overflow-wrap:anywhere}\n"
    "table.provenance td{overflow-wrap:anywhere;font-family:monospace;font-size:12px}\n"
    ".side{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}.side>div{min-width:0;max-width:100%;overflow-x:auto}\n"
    "div.notes{background:#fafafa;border-left:4px solid #999;padding:.2em .8em;margin:.5em 0 1em}\n"
    "figure{margin:1em 0}figure svg{max-width:100%;height:auto;border:1px solid #e4e4e4}"
    "figcaption{color:#555;font-size:13px}\n"
    "pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}\n"
    ".legend span{padding:1px 8px;margin-right:.5em;border:1px solid #ccc}\n";

/* One scorecard line of scorecard.txt. */
struct line {
    char *table, *cost, *machine;   /* machine: the memory model's preset, NULL without one */
    char *model;                    /* model=host (the QEMU plugin ran it), NULL for the in-guest model or none */
    long cells, missing, agree, orderings;
    double median, worst;
};

static const char *word_value(const char *line, const char *key, size_t *len)
{
    const char *p = line;
    size_t kl = strlen(key);
    while ((p = strstr(p, key))) {
        if ((p == line || p[-1] == ' ') && p[kl] == '=') {
            p += kl + 1;
            *len = strcspn(p, " \n");
            return p;
        }
        p += kl;
    }
    return NULL;
}

static char *word(const char *line, const char *key)
{
    size_t n;
    const char *v = word_value(line, key, &n);
    return v ? xstrndup(v, n) : NULL;
}

static double word_num(const char *line, const char *key)
{
    char *v = word(line, key);
    double x;
    bool ok = v && parse_double(v, &x);
    free(v);
    return ok ? x : NAN;
}

/* scorecard.csv: the cells with a deviation, and within 25%. */
static void count_cells(const char *dir, size_t *measured, size_t *within25, size_t *within10)
{
    *measured = *within25 = *within10 = 0;
    char *path = xasprintf("%s/scorecard.csv", dir);
    size_t len;
    char *buf = read_file(path, &len);
    free(path);
    char *save = NULL;
    for (char *l = buf ? strtok_r(buf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        /* seed,table,cost,machine,cell,"label",seed_value,ours,dev_pct,"note": the deviation is the 3rd field from the end
         * (the label and the note are quoted and may hold commas) */
        if (!strstr(l, ",cell,"))
            continue;
        char *end = l + strlen(l);
        /* skip the quoted note */
        char *q = end;
        if (q > l && q[-1] == '"') {
            q--;
            while (q > l && !(q[-1] == ',' && q[0] == '"'))
                q--;
        }
        if (q <= l)
            continue;
        *--q = '\0';   /* the comma before the note */
        char *dev = strrchr(l, ',');
        double d;
        if (!dev || !parse_double(dev + 1, &d))
            continue;
        (*measured)++;
        *within25 += fabs(d) <= 25.0;
        *within10 += fabs(d) <= 10.0;
    }
    free(buf);
}

/* meta.txt values of every row of the run: key -> distinct values. */
struct prov {
    const char *key, *what;
    char *values;
};

static void prov_add(struct prov *p, const char *v)
{
    if (!v || !*v)
        return;
    if (p->values) {
        for (const char *s = p->values; s;) {   /* values are "; "-separated */
            const char *e = strstr(s, "; ");
            size_t n = e ? (size_t)(e - s) : strlen(s);
            if (n == strlen(v) && !strncmp(s, v, n))
                return;
            s = e ? e + 2 : NULL;
        }
        char *nv = xasprintf("%s; %s", p->values, v);
        free(p->values);
        p->values = nv;
    } else {
        p->values = xstrdup(v);
    }
}

static void read_meta(const char *rowdir, struct prov *pv, size_t np)
{
    char *path = xasprintf("%s/meta.txt", rowdir);
    size_t len;
    char *buf = read_file(path, &len);
    free(path);
    char *save = NULL;
    for (char *l = buf ? strtok_r(buf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        char *c = strstr(l, ": ");
        if (!c)
            continue;
        *c = '\0';
        for (size_t i = 0; i < np; i++)
            if (!strcmp(pv[i].key, l))
                prov_add(&pv[i], c + 2);
    }
    free(buf);
}

/* The first boot line's cost model words of a row (boot_cost, boot_charged): from its results.csv header row would
 * need the CSV reader; the boot line is in any log: cost= and charged= words. */
static void read_boot_cost(const char *rowdir, struct prov *cost, struct prov *charged)
{
    char *path = xasprintf("%s/boots.csv", rowdir);
    size_t len;
    char *buf = read_file(path, &len);
    free(path);
    const char *b = buf ? strstr(buf, "boot: ") : NULL;
    if (b) {
        char *eol = xstrndup(b, strcspn(b, "\n\""));
        char *c = word(eol, "cost"), *ch = word(eol, "charged");
        prov_add(cost, c);
        prov_add(charged, ch);
        free(c);
        free(ch);
        free(eol);
    }
    free(buf);
}

int cmd_repro_report(int argc, char **argv)
{
    const char *dir = NULL, *command = NULL, *out = NULL;
    static const char *const names[] = { "command", "out", "help", NULL };
    cli_set_usage(usage);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage);
            return 0;
        }
        if (!strcmp(a, "--command") || !strcmp(a, "--out")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            *(!strcmp(a, "--command") ? &command : &out) = argv[++i];
            continue;
        }
        if (a[0] == '-')
            return unknown_flag_error(a, names);
        if (dir)
            return usage_error("repro-report takes one directory (got '%s' too)", a);
        dir = a;
    }
    if (!dir)
        return usage_error("%s", "repro-report needs the directory of a reproduction");
    if (no_such_dir(dir, "directory of a reproduction", "schedlab reproduce SEED --out DIR"))
        return 1;
    char *scpath = xasprintf("%s/scorecard.txt", dir);
    size_t len;
    char *sc = read_file(scpath, &len);
    if (!sc) {
        errorf("%s: cannot be read (not a directory of schedlab reproduce)", scpath);
        free(scpath);
        return 1;
    }
    free(scpath);
    /* the configuration line, the tables in order, their scorecard lines */
    char *config = NULL, *seed = NULL;
    struct line *lines = NULL;
    size_t nl = 0, cap = 0;
    char *save = NULL;
    for (char *l = strtok_r(sc, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (!config && !strncmp(l, "# ", 2)) {
            config = xstrdup(l + 2);
            seed = xstrndup(l + 2, strcspn(l + 2, " "));
        } else if (!strncmp(l, "scorecard seed=", 15)) {
            grow(&lines, &cap, nl, sizeof(*lines));
            struct line *x = &lines[nl++];
            x->table = word(l, "table");
            x->cost = word(l, "cost");
            x->machine = word(l, "machine");
            x->model = word(l, "model");
            x->cells = (long)word_num(l, "cells");
            x->missing = (long)word_num(l, "cells_missing");
            x->median = word_num(l, "median_dev_pct");
            x->worst = word_num(l, "worst_dev_pct");
            char *o = word(l, "orderings_agree");
            x->agree = x->orderings = 0;
            if (o)
                sscanf(o, "%ld/%ld", &x->agree, &x->orderings);
            free(o);
            if (!seed)
                seed = word(l, "seed");
        }
    }
    const struct post *post = NULL;
    for (size_t i = 0; seed && i < sizeof(posts) / sizeof(posts[0]); i++)
        if (!strcmp(posts[i].seed, seed))
            post = &posts[i];
    char *outpath = out ? xstrdup(out) : xasprintf("%s/report.html", dir), *part = xasprintf("%s.part", outpath);
    FILE *f = fopen(part, "w");
    if (!f) {
        errorf("cannot write %s", part);
        return 1;
    }
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>schedlab reproduce ");
    html_text(f, seed ? seed : "?");
    fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<h1>", css);
    html_text(f, seed ? seed : "reproduction");
    if (post) {
        fputs(": ", f);
        html_text(f, post->subject);
    }
    fputs("</h1>\n", f);
    if (post) {
        fputs("<p class=\"who\">", f);
        html_text(f, post->who);
        fputs(", reproduced by <code>tools/schedlab reproduce</code>.</p>\n<p class=\"question\"><b>The post's question.</b> ",
              f);
        html_text(f, post->question);
        fputs("</p>\n", f);
    }
    /* the verdict: one line */
    size_t measured, w25, w10;
    count_cells(dir, &measured, &w25, &w10);
    long agree = 0, ords = 0, missing = 0, near = 0, mid = 0, far = 0, scored = 0;
    for (size_t i = 0; i < nl; i++) {
        agree += lines[i].agree;
        ords += lines[i].orderings;
        missing += lines[i].missing;
        if (!isfinite(lines[i].median))
            continue;
        scored++;
        double m = fabs(lines[i].median);
        near += m <= 10;
        mid += m > 10 && m <= 25;
        far += m > 25;
    }
    fputs("<p class=\"verdict\"><b>Verdict.</b> ", f);
    if (measured)
        fprintf(f, "Of the %zu normalised cells measured, %zu are within 25%% of the post's (%zu within 10%%); ", measured,
                w25, w10);
    fprintf(f, "the post's orderings agree in %ld of %ld", agree, ords);
    if (scored)
        fprintf(f, "; of the %ld table%s with cells, the median deviation is within 10%% in %ld, 10 to 25%% in %ld and "
                   "beyond 25%% in %ld",
                scored, scored == 1 ? "" : "s", near, mid, far);
    if (missing)
        fprintf(f, "; %ld cell%s not measured", missing, missing == 1 ? "" : "s");
    fputs(". The post's machine is about twenty years old, so seconds are not compared: shapes are (ratios between "
          "kernels, growth along a row).</p>\n",
          f);
    if (config) {
        fputs("<p><b>Configuration.</b> ", f);
        html_text(f, config);
        fputs("</p>\n", f);
    }
    if (command) {
        fputs("<p>Made with:</p>\n<pre>", f);
        html_text(f, command);
        fputs("</pre>\n", f);
    }
    /* the overview */
    struct htable *ov = ht_new("overview", "Every table's scorecard (the sections below have each cell)", 6);
    ht_head(ov, 0, "table", NULL);
    ht_head(ov, 1, "cost model (memory model)", NULL);
    ht_head(ov, 2, "cells measured", "num");
    ht_head(ov, 3, "median |deviation|", "num");
    ht_head(ov, 4, "worst |deviation|", "num");
    ht_head(ov, 5, "orderings agree", "num");
    for (size_t i = 0; i < nl; i++) {
        ht_row(ov);
        ht_cell(ov, lines[i].table, NULL);
        char *cm = lines[i].machine ? xasprintf("%s (machine=%s%s%s)", lines[i].cost, lines[i].machine,
                                                lines[i].model ? " model=" : "", lines[i].model ? lines[i].model : "")
                                    : xstrdup(lines[i].cost);
        ht_cell(ov, cm, NULL);
        free(cm);
        char b[64], cls[48];
        snprintf(b, sizeof(b), "%ld of %ld", lines[i].cells, lines[i].cells + lines[i].missing);
        ht_cell(ov, b, lines[i].missing ? "num dev-mid" : "num");
        for (int k = 0; k < 2; k++) {
            double d = k ? lines[i].worst : lines[i].median;
            if (isfinite(d)) {
                snprintf(b, sizeof(b), "%.1f%%", d);
                snprintf(cls, sizeof(cls), "num %s", dev_class(d));
                ht_cell(ov, b, cls);
            } else {
                ht_cell(ov, "-", "num missing");
            }
        }
        snprintf(b, sizeof(b), "%ld of %ld", lines[i].agree, lines[i].orderings);
        ht_cell(ov, b, lines[i].orderings == 0 ? "num missing" : lines[i].agree == lines[i].orderings ? "num dev-near"
                                                                                                     : "num dev-far");
    }
    ht_write(f, ov);
    ht_free(ov);
    fputs("<p class=\"legend\">Deviation = here / post - 1 of a normalised cell: <span class=\"dev-near\">within "
          "10%</span><span class=\"dev-mid\">10 to 25%</span><span class=\"dev-far\">beyond 25%</span>; the sections "
          "below say what each table compares, and what is missing where it stays far.</p>\n",
          f);
    /* the tables' sections, in the run's order */
    struct prov pv[] = {
        { "git_revision", "git revision", NULL }, { "build", "build settings", NULL },
        { "accel", "accelerator", NULL },         { "qemu", "QEMU", NULL },
        { "mem_mib", "guest memory (MiB)", NULL }, { "host", "host", NULL },
        { "host_cpu_model", "host CPU", NULL },   { "host_cpus", "host cores", NULL },
        { "host_kernel", "host kernel", NULL },   { "host_loadavg_start", "host load at the start", NULL },
        { "date", "date", NULL },
    };
    size_t npv = sizeof(pv) / sizeof(pv[0]);
    struct prov cost = { "cost", "cost model (boot: cost=)", NULL }, charged = { "charged", "charged (boot: charged=)", NULL };
    for (size_t i = 0; i < nl; i++) {
        char *frag = xasprintf("%s/cost-%s/%s.html", dir, lines[i].cost, lines[i].table);
        size_t fl;
        char *text = read_file(frag, &fl);
        if (text)
            fputs(text, f);
        else {
            fprintf(f, "<h2>");
            html_text(f, lines[i].table);
            fputs("</h2><p class=\"missing\">No section: ", f);
            html_text(f, frag);
            fputs(" cannot be read.</p>\n", f);
        }
        free(text);
        free(frag);
        char *rows = xasprintf("%s/cost-%s/%s/rows", dir, lines[i].cost, lines[i].table);
        char *rb = read_file(rows, &fl);
        char *s2 = NULL;
        for (char *l = rb ? strtok_r(rb, "\n", &s2) : NULL; l; l = strtok_r(NULL, "\n", &s2)) {
            char *eq = strchr(l, '=');
            if (!eq || eq[1] == '!')
                continue;
            char *d = xstrndup(eq + 1, strcspn(eq + 1, "#"));
            read_meta(d, pv, npv);
            read_boot_cost(d, &cost, &charged);
            free(d);
        }
        free(rb);
        free(rows);
    }
    /* provenance */
    fputs("<h2 id=\"provenance\">Provenance</h2>\n<p>What made these numbers, from every row's <code>meta.txt</code> "
          "and boot line (a value that differs between rows is listed each time it differs). Every row's own files: "
          "<code>cost-C/TABLE/ROW/</code> (results.csv, boots.csv, meta.txt, logs/); all of them in "
          "<code>scorecard.txt</code> and <code>scorecard.csv</code>.</p>\n",
          f);
    struct htable *pt = ht_new("provenance", NULL, 2);
    ht_head(pt, 0, "what", NULL);
    ht_head(pt, 1, "value", NULL);
    for (size_t i = 0; i < npv; i++) {
        ht_row(pt);
        ht_cell(pt, pv[i].what, NULL);
        ht_cell(pt, pv[i].values ? pv[i].values : "not recorded", pv[i].values ? NULL : "missing");
        free(pv[i].values);
    }
    struct prov *extra[] = { &cost, &charged };
    for (size_t i = 0; i < 2; i++) {
        ht_row(pt);
        ht_cell(pt, extra[i]->what, NULL);
        ht_cell(pt, extra[i]->values ? extra[i]->values : "not recorded", NULL);
        free(extra[i]->values);
    }
    time_t now = time(NULL);
    struct tm tm;
    char date[40];
    strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tm));
    ht_row(pt);
    ht_cell(pt, "this page", NULL);
    ht_cell(pt, date, NULL);
    ht_write(f, pt);
    ht_free(pt);
    fputs("</body></html>\n", f);
    int rc = fclose(f) ? 1 : 0;
    if (!rc && rename(part, outpath) != 0) {
        errorf("cannot write %s", outpath);
        rc = 1;
    }
    if (rc)
        remove(part);
    for (size_t i = 0; i < nl; i++) {
        free(lines[i].table);
        free(lines[i].cost);
        free(lines[i].machine);
        free(lines[i].model);
    }
    free(lines);
    free(config);
    free(seed);
    free(sc);
    free(part);
    free(outpath);
    return rc;
}
