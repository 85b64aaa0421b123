/* HTML tables and shape plots of a reproduction (see repro_out.h). */
#define _DEFAULT_SOURCE
#include "repro_out.h"
#include "util.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------------- HTML tables */

void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

struct htable *ht_new(const char *cls, const char *caption, size_t ncols)
{
    struct htable *t = xcalloc(1, sizeof(*t));
    t->cls = xstrdup(cls ? cls : "");
    t->caption = caption ? xstrdup(caption) : NULL;
    t->ncols = ncols;
    t->head = xcalloc(ncols + 1, sizeof(char *));
    t->head_cls = xcalloc(ncols + 1, sizeof(char *));
    return t;
}

void ht_head(struct htable *t, size_t col, const char *text, const char *cls)
{
    if (col >= t->ncols)
        return;
    free(t->head[col]);
    free(t->head_cls[col]);
    t->head[col] = xstrdup(text ? text : "");
    t->head_cls[col] = cls ? xstrdup(cls) : NULL;
}

static struct hrow *add_row(struct htable *t)
{
    grow(&t->rows, &t->cap, t->nrows, sizeof(*t->rows));
    struct hrow *r = &t->rows[t->nrows++];
    memset(r, 0, sizeof(*r));
    r->c = xcalloc(t->ncols + 1, sizeof(*r->c));
    return r;
}

void ht_group(struct htable *t, const char *text)
{
    struct hrow *r = add_row(t);
    r->group = true;
    r->c[0].text = xstrdup(text);
    r->n = 1;
}

void ht_row(struct htable *t)
{
    add_row(t);
}

void ht_cell(struct htable *t, const char *text, const char *cls)
{
    if (!t->nrows)
        ht_row(t);
    struct hrow *r = &t->rows[t->nrows - 1];
    if (r->n >= t->ncols)
        return;
    r->c[r->n].text = text ? xstrdup(text) : NULL;
    r->c[r->n].cls = cls ? xstrdup(cls) : NULL;
    r->n++;
}

void ht_num(struct htable *t, double x, int decimals)
{
    if (!isfinite(x)) {
        ht_cell(t, "-", "num missing");
        return;
    }
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*f", decimals, x);
    ht_cell(t, buf, "num");
}

void ht_write(FILE *f, const struct htable *t)
{
    fprintf(f, "<table class=\"%s\">", t->cls);
    if (t->caption) {
        fputs("<caption>", f);
        html_text(f, t->caption);
        fputs("</caption>", f);
    }
    fputs("\n<thead><tr>", f);
    for (size_t c = 0; c < t->ncols; c++) {
        if (t->head_cls[c])
            fprintf(f, "<th class=\"%s\">", t->head_cls[c]);
        else
            fputs("<th>", f);
        html_text(f, t->head[c]);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = 0; r < t->nrows; r++) {
        const struct hrow *row = &t->rows[r];
        if (row->group) {
            fprintf(f, "<tr class=\"group\"><th colspan=\"%zu\">", t->ncols);
            html_text(f, row->c[0].text);
            fputs("</th></tr>\n", f);
            continue;
        }
        fputs("<tr>", f);
        for (size_t c = 0; c < t->ncols; c++) {
            const struct hcell *cell = c < row->n ? &row->c[c] : NULL;
            /* the first cell names the row */
            const char *tag = c == 0 ? "th" : "td";
            if (cell && cell->cls)
                fprintf(f, "<%s class=\"%s\">", tag, cell->cls);
            else
                fprintf(f, "<%s>", tag);
            if (cell && cell->text)
                html_text(f, cell->text);
            fprintf(f, "</%s>", tag);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

void ht_free(struct htable *t)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            free(t->rows[r].c[c].text);
            free(t->rows[r].c[c].cls);
        }
        free(t->rows[r].c);
    }
    for (size_t c = 0; c < t->ncols; c++) {
        free(t->head[c]);
        free(t->head_cls[c]);
    }
    free(t->head);
    free(t->head_cls);
    free(t->rows);
    free(t->caption);
    free(t->cls);
    free(t);
}

const char *dev_class(double dev)
{
    if (!isfinite(dev))
        return "missing";
    dev = fabs(dev);
    return dev <= 10.0 ? "dev-near" : dev <= 25.0 ? "dev-mid" : "dev-far";
}

static const char *sign_word(int s)
{
    return s == 2 ? "-" : s < 0 ? "<" : s > 0 ? ">" : "=";
}

void sc_write_html(FILE *f, const char *seed, const char *table, const char *cost, const struct sc_cell *c, size_t nc,
                   const struct sc_order *o, size_t no)
{
    struct sc_summary s;
    sc_summarize(c, nc, o, no, &s);
    char *cap = xasprintf("Scorecard of %s %s (cost=%s): each normalised cell, the post's beside ours", seed, table, cost);
    struct htable *t = ht_new("scorecard", cap, 5);
    free(cap);
    ht_head(t, 0, "normalised cell", NULL);
    ht_head(t, 1, "the post", "num");
    ht_head(t, 2, "here", "num");
    ht_head(t, 3, "deviation (here / post - 1)", "num");
    ht_head(t, 4, "", NULL);
    for (size_t i = 0; i < nc; i++) {
        ht_row(t);
        ht_cell(t, c[i].label, NULL);
        ht_num(t, c[i].seed, 3);
        double dev = sc_dev_pct(c[i].seed, c[i].ours);
        if (c[i].missing || !isfinite(c[i].ours)) {
            ht_cell(t, "-", "num missing");
            ht_cell(t, "-", "num missing");
            ht_cell(t, c[i].missing ? c[i].missing : "not measured", "why");
            continue;
        }
        ht_num(t, c[i].ours, 3);
        char buf[48], cls[48];
        snprintf(buf, sizeof(buf), "%+.1f%%", dev);
        snprintf(cls, sizeof(cls), "num %s", dev_class(dev));
        ht_cell(t, buf, cls);
        ht_cell(t, fabs(dev) <= 10 ? "within 10%" : fabs(dev) <= 25 ? "within 25%" : "beyond 25%", dev_class(dev));
    }
    if (no) {
        char *g = xasprintf("orderings: which of two is larger (= within %.0f%%)", SC_TIE_FRAC * 100);
        ht_group(t, g);
        free(g);
        for (size_t i = 0; i < no; i++) {
            ht_row(t);
            ht_cell(t, o[i].label, NULL);
            ht_cell(t, sign_word(o[i].seed), "num");
            ht_cell(t, sign_word(o[i].ours), "num");
            bool measured = o[i].ours != 2 && o[i].seed != 2;
            ht_cell(t, measured ? (o[i].ours == o[i].seed ? "agree" : "differs") : "-",
                    measured ? (o[i].ours == o[i].seed ? "num dev-near" : "num dev-far") : "num missing");
            ht_cell(t, "", NULL);
        }
    }
    ht_write(f, t);
    ht_free(t);
    fprintf(f, "<p class=\"summary\">%zu of %zu cells measured, %zu within 25%%; median |deviation| ", s.measured, s.cells,
            s.within25);
    if (isfinite(s.median_abs))
        fprintf(f, "%.1f%%, worst %.1f%%", s.median_abs, s.worst_abs);
    else
        fputs("NA", f);
    fprintf(f, "; orderings agree %zu of %zu measured (%zu in all).</p>\n", s.agree, s.orderings_measured, s.orderings);
}

/* ---------------------------------------------------------------- plots */

/* Okabe-Ito, the yellow last (pale on white). */
static const char *const palette[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442" };

const char *np_colour(int i)
{
    return palette[(size_t)(i < 0 ? 0 : i) % (sizeof(palette) / sizeof(palette[0]))];
}

struct nplot *np_new(const char *stem, const char *title, const char *xlabel, const char *ylabel)
{
    struct nplot *p = xcalloc(1, sizeof(*p));
    snprintf(p->stem, sizeof(p->stem), "%s", stem);
    for (char *c = p->stem; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' ||
              *c == '.'))
            *c = '_';
    snprintf(p->title, sizeof(p->title), "%s", title);
    snprintf(p->xlabel, sizeof(p->xlabel), "%s", xlabel);
    snprintf(p->ylabel, sizeof(p->ylabel), "%s", ylabel);
    return p;
}

struct np_series *np_series(struct nplot *p, const char *name, int colour)
{
    for (size_t i = 0; i < p->ns; i++)
        if (!strcmp(p->s[i].name, name))
            return &p->s[i];
    if (p->ns >= NP_MAXS)
        return NULL;
    struct np_series *s = &p->s[p->ns++];
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", name);
    s->colour = colour;
    for (size_t i = 0; i < NP_MAXX; i++)
        s->ours[i] = s->post[i] = s->lo[i] = s->hi[i] = NAN;
    return s;
}

int np_x(struct nplot *p, const char *label)
{
    for (size_t i = 0; i < p->nx; i++)
        if (!strcmp(p->xlab[i], label))
            return (int)i;
    if (p->nx >= NP_MAXX)
        return -1;
    snprintf(p->xlab[p->nx], sizeof(p->xlab[p->nx]), "%s", label);
    return (int)p->nx++;
}

static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('\'', f);
}

static void gp_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, " %.6g", x);
    else
        fputs(" NaN", f);
}

/* pngcairo when this gnuplot has it (gnuplot-nox may not), else png. */
static const char *png_terminal(void)
{
    static const char *term;
    if (term)
        return term;
    term = "png";
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        execlp("gnuplot", "gnuplot", "-e", "set terminal pngcairo", (char *)NULL);
        _exit(127);
    }
    int st;
    if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        term = "pngcairo";
    return term;
}

/* Runs gnuplot on path; its messages into log.  0 when it succeeded. */
static int run_gnuplot(const char *path, const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), null = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        if (null >= 0)
            dup2(null, 0);
        execlp("gnuplot", "gnuplot", path, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return 1;
    return WEXITSTATUS(st);
}

int np_render(const struct nplot *p, const char *dir)
{
    char *gp = xasprintf("%s/%s.gp", dir, p->stem), *log = xasprintf("%s/%s.gnuplot.log", dir, p->stem);
    FILE *f = fopen(gp, "w");
    if (!f) {
        errorf("cannot write %s", gp);
        free(gp);
        free(log);
        return 1;
    }
    /* the data: one block per series, a line per category: x ours post lo hi "ours" "post" */
    /* values written beside the points where they cannot crowd: one series a category (kernels across) */
    bool labels = true;
    for (size_t x = 0; x < p->nx; x++) {
        size_t with = 0;
        for (size_t s = 0; s < p->ns; s++)
            with += isfinite(p->s[s].ours[x]) || isfinite(p->s[s].post[x]);
        labels = labels && with <= 1;
    }
    fprintf(f, "# %s (written by schedlab scorecard)\n", p->title);
    double step = p->ns > 1 ? 0.08 : 0;
    for (size_t s = 0; s < p->ns; s++) {
        const struct np_series *se = &p->s[s];
        fprintf(f, "$s%zu << EOD\n", s);
        for (size_t x = 0; x < p->nx; x++) {
            bool one_point_series = false;   /* a series with one category only sits on it, undodged */
            size_t pts = 0;
            for (size_t k = 0; k < p->nx; k++)
                pts += isfinite(se->ours[k]) || isfinite(se->post[k]);
            one_point_series = pts <= 1;
            double off = one_point_series ? 0 : ((double)s - (double)(p->ns - 1) / 2) * step;
            /* ours a little left of the post's, so that equal values do not hide each other */
            fprintf(f, "%.4f %.4f", (double)x + off - 0.04, (double)x + off + 0.04);
            gp_num(f, se->ours[x]);
            gp_num(f, se->post[x]);
            gp_num(f, se->lo[x]);
            gp_num(f, se->hi[x]);
            if (isfinite(se->ours[x]))
                fprintf(f, " \"here %.4g\"", se->ours[x]);
            else
                fputs(" \"\"", f);
            if (isfinite(se->post[x]))
                fprintf(f, " \"post %.4g\"", se->post[x]);
            else
                fputs(" \"\"", f);
            /* the label of the larger value above its point, the other's below */
            fprintf(f, " %d\n", !(isfinite(se->post[x]) && se->post[x] > se->ours[x]));
        }
        fputs("EOD\n", f);
    }
    if (p->connect) {   /* the shape across the categories: ours, then the post's */
        fputs("$c << EOD\n", f);
        for (size_t x = 0; x < p->nx; x++)
            for (size_t s = 0; s < p->ns; s++)
                if (isfinite(p->s[s].ours[x]) || isfinite(p->s[s].post[x])) {
                    fprintf(f, "%.4f %.4f", (double)x - 0.04, (double)x + 0.04);
                    gp_num(f, p->s[s].ours[x]);
                    gp_num(f, p->s[s].post[x]);
                    fputc('\n', f);
                    break;
                }
        fputs("EOD\n", f);
    }
    const char *term = png_terminal();
    bool cairo = !strcmp(term, "pngcairo");
    fprintf(f, "set datafile missing 'NaN'\nset termoption noenhanced\n");
    fputs("set title ", f);
    gp_str(f, p->title);
    fputs("\nset xlabel ", f);
    gp_str(f, p->xlabel);
    fputs("\nset ylabel ", f);
    gp_str(f, p->ylabel);
    fprintf(f, "\nset grid ytics\nset border 3\nset tics nomirror\nset key outside right top vertical Left reverse box\n");
    fprintf(f, "set xrange [-0.6:%zu.6]\nset xtics (", p->nx ? p->nx - 1 : 0);
    for (size_t x = 0; x < p->nx; x++) {
        fputs(x ? ", " : "", f);
        gp_str(f, p->xlab[x]);
        fprintf(f, " %zu", x);
    }
    /* a ratio's axis follows the data (around 1); an absolute quantity starts at 0 */
    fprintf(f, p->post_absent ? ")\nset yrange [0:*]\nset offsets 0, 0, graph 0.12, 0\n"
                              : ")\nset autoscale y\nset offsets 0, 0, graph 0.12, graph 0.08\n");
    struct strbuf plot = { 0 };
    sb_add(&plot, "plot ");
    bool first = true;
    /* the legend: a colour per series, then what solid and dashed mean */
    for (size_t s = 0; s < p->ns; s++) {
        sb_printf(&plot, "%skeyentry with linespoints lw 2 pt 7 ps 1.4 lc rgb '%s' title '", first ? "" : ", ",
                  np_colour(p->s[s].colour));
        for (const char *c = p->s[s].name; *c; c++)
            sb_add(&plot, *c == '\'' ? "''" : (char[2]){ *c, 0 });
        sb_add(&plot, "'");
        first = false;
    }
    sb_add(&plot, ", keyentry with linespoints lw 2 pt 7 ps 1.4 dt 1 lc rgb '#333333' title 'here (solid, filled)'");
    if (!p->post_absent)
        sb_add(&plot, ", keyentry with linespoints lw 2 pt 6 ps 1.4 dt 2 lc rgb '#333333' title 'the post (dashed, open)'");
    if (p->connect) {
        sb_add(&plot, ", $c using 1:3 with lines lw 1.5 dt 1 lc rgb '#999999' notitle");
        if (!p->post_absent)
            sb_add(&plot, ", $c using 2:4 with lines lw 1.5 dt 2 lc rgb '#999999' notitle");
    }
    for (size_t s = 0; s < p->ns; s++) {
        const char *col = np_colour(p->s[s].colour);
        bool bars = false;
        for (size_t x = 0; x < p->nx; x++)
            bars = bars || (isfinite(p->s[s].lo[x]) && isfinite(p->s[s].hi[x]) && p->s[s].hi[x] > p->s[s].lo[x]);
        /* columns: 1 x of ours, 2 x of the post's, 3 ours, 4 post, 5 lo, 6 hi, 7 and 8 labels, 9 ours above */
        if (!p->post_absent)
            sb_printf(&plot, ", $s%zu using 2:4 with linespoints lw 2 pt 6 ps 1.5 dt 2 lc rgb '%s' notitle", s, col);
        sb_printf(&plot, ", $s%zu using 1:3 with linespoints lw 2 pt 7 ps 1.5 dt 1 lc rgb '%s' notitle", s, col);
        if (bars)
            sb_printf(&plot, ", $s%zu using 1:3:5:6 with yerrorbars lw 1 pt 7 ps 0 lc rgb '%s' notitle", s, col);
        if (labels) {
            sb_printf(&plot, ", $s%zu using 1:($9 > 0 ? $3 : 1/0):7 with labels offset char -0.5,1 right tc rgb '%s' notitle", s,
                      col);
            sb_printf(&plot, ", $s%zu using 1:($9 > 0 ? 1/0 : $3):7 with labels offset char -0.5,-1 right tc rgb '%s' notitle",
                      s, col);
            if (!p->post_absent) {
                sb_printf(&plot, ", $s%zu using 2:($9 > 0 ? 1/0 : $4):8 with labels offset char 0.5,1 left tc rgb '%s' notitle",
                          s, col);
                sb_printf(&plot, ", $s%zu using 2:($9 > 0 ? $4 : 1/0):8 with labels offset char 0.5,-1 left tc rgb '%s' notitle",
                          s, col);
            }
        }
    }
    if (p->ratio_line)
        sb_add(&plot, ", 1 with lines dt 3 lw 1 lc rgb '#777777' notitle");
    /* the PNG and the SVG: the same size and the same font in pixels */
    fprintf(f, "set terminal %s size 900,520 noenhanced font 'Sans,%d'\nset output ", term, cairo ? 10 : 13);
    char *png = xasprintf("%s/%s.png", dir, p->stem), *svg = xasprintf("%s/%s.svg", dir, p->stem);
    gp_str(f, png);
    fprintf(f, "\n%s\nset output\nset terminal svg size 900,520 noenhanced font 'Sans,13' background rgb 'white'\nset output ",
            plot.s);
    gp_str(f, svg);
    fprintf(f, "\n%s\nset output\n", plot.s);
    sb_free(&plot);
    fclose(f);
    int rc = run_gnuplot(gp, log);
    if (rc) {
        errorf("gnuplot failed on %s (exit %d; its messages: %s)", gp, rc, log);
    } else {
        remove(log);
    }
    free(png);
    free(svg);
    free(gp);
    free(log);
    return rc ? 1 : 0;
}
