/* The scorecard's arithmetic (see scorecard.h). */
#include "scorecard.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double sc_ratio(double a, double b)
{
    if (!isfinite(a) || !isfinite(b) || b == 0)
        return NAN;
    return a / b;
}

double sc_dev_pct(double seed, double ours)
{
    double r = sc_ratio(ours, seed);
    return isfinite(r) ? (r - 1.0) * 100.0 : NAN;
}

int sc_order_sign(double a, double b, double tie)
{
    if (!isfinite(a) || !isfinite(b))
        return 2;
    double m = fmax(fabs(a), fabs(b));
    if (fabs(a - b) <= tie * m)
        return 0;
    return a > b ? 1 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sc_median(const double *x, size_t n)
{
    if (!n)
        return NAN;
    double *c = malloc(n * sizeof(double));
    if (!c)
        return NAN;
    memcpy(c, x, n * sizeof(double));
    qsort(c, n, sizeof(double), cmp_double);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2.0;
    free(c);
    return m;
}

void sc_summarize(const struct sc_cell *c, size_t nc, const struct sc_order *o, size_t no, struct sc_summary *s)
{
    memset(s, 0, sizeof(*s));
    s->cells = nc;
    double *d = malloc((nc ? nc : 1) * sizeof(double));
    s->worst_abs = NAN;
    for (size_t i = 0; i < nc; i++) {
        double dev = sc_dev_pct(c[i].seed, c[i].ours);
        if (c[i].missing || !isfinite(dev) || !d)
            continue;
        d[s->measured++] = fabs(dev);
        if (!isfinite(s->worst_abs) || fabs(dev) > s->worst_abs)
            s->worst_abs = fabs(dev);
        if (fabs(dev) <= 25.0)
            s->within25++;
    }
    s->median_abs = d ? sc_median(d, s->measured) : NAN;
    free(d);
    s->orderings = no;
    for (size_t i = 0; i < no; i++) {
        if (o[i].ours == 2 || o[i].seed == 2)
            continue;
        s->orderings_measured++;
        if (o[i].ours == o[i].seed)
            s->agree++;
    }
}

static void print_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.1f", x);
    else
        fputs("NA", f);
}

void sc_print_line(FILE *f, const char *seed, const char *table, const char *cost, const char *machine,
                   const struct sc_summary *s)
{
    fprintf(f, "scorecard seed=%s table=%s cost=%s cells=%zu median_dev_pct=", seed, table, cost, s->measured);
    print_num(f, s->median_abs);
    fputs(" worst_dev_pct=", f);
    print_num(f, s->worst_abs);
    fprintf(f, " orderings_agree=%zu/%zu cells_missing=%zu", s->agree, s->orderings_measured, s->cells - s->measured);
    if (machine && strcmp(machine, "none"))
        fprintf(f, " machine=%s", machine);
    fputc('\n', f);
}

static const char *sign_text(int s)
{
    return s == 2 ? "-" : s < 0 ? "<" : s > 0 ? ">" : "=";
}

void sc_print(FILE *f, const char *seed, const char *table, const char *cost, const char *machine, const struct sc_cell *c,
              size_t nc, const struct sc_order *o, size_t no)
{
    struct sc_summary s;
    sc_summarize(c, nc, o, no, &s);
    bool model = machine && strcmp(machine, "none");
    fprintf(f, "scorecard of %s %s (cost=%s%s%s): normalised cells, seed beside ours; dev = ours/seed - 1\n", seed, table,
            cost, model ? ", machine=" : "", model ? machine : "");
    fprintf(f, "  %-44s %10s %10s %9s\n", "cell", "seed", "ours", "dev %");
    for (size_t i = 0; i < nc; i++) {
        fprintf(f, "  %-44s %10.3f ", c[i].label, c[i].seed);
        double dev = sc_dev_pct(c[i].seed, c[i].ours);
        if (c[i].missing || !isfinite(c[i].ours))
            fprintf(f, "%10s %9s   %s\n", "-", "-", c[i].missing ? c[i].missing : "not measured");
        else
            fprintf(f, "%10.3f %+9.1f%s\n", c[i].ours, dev, fabs(dev) > 25.0 ? "   (beyond 25%)" : "");
    }
    if (no) {
        fprintf(f, "  orderings (a vs b; = within %.0f%%):\n", SC_TIE_FRAC * 100);
        for (size_t i = 0; i < no; i++)
            fprintf(f, "  %-44s %10s %10s %9s\n", o[i].label, sign_text(o[i].seed), sign_text(o[i].ours),
                    o[i].ours == 2 || o[i].seed == 2 ? "-" : o[i].ours == o[i].seed ? "agree" : "DIFFER");
    }
    fprintf(f, "  %zu of %zu cells measured, %zu within 25%%; median |dev| ", s.measured, s.cells, s.within25);
    print_num(f, s.median_abs);
    fputs("%, worst ", f);
    print_num(f, s.worst_abs);
    fprintf(f, "%%; orderings agree %zu of %zu measured (%zu in all)\n", s.agree, s.orderings_measured, s.orderings);
    sc_print_line(f, seed, table, cost, machine, &s);
}

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void sc_write_csv(FILE *f, bool header, const char *seed, const char *table, const char *cost, const char *machine,
                  const struct sc_cell *c, size_t nc, const struct sc_order *o, size_t no)
{
    if (header)
        fputs("seed,table,cost,machine,kind,label,seed_value,ours,dev_pct,note\n", f);
    for (size_t i = 0; i < nc; i++) {
        fprintf(f, "%s,%s,%s,%s,cell,", seed, table, cost, machine);
        csv_text(f, c[i].label);
        fprintf(f, ",%.6g,", c[i].seed);
        if (!c[i].missing && isfinite(c[i].ours))
            fprintf(f, "%.6g,%.2f,", c[i].ours, sc_dev_pct(c[i].seed, c[i].ours));
        else
            fputs(",,", f);
        csv_text(f, c[i].missing ? c[i].missing : "");
        fputc('\n', f);
    }
    for (size_t i = 0; i < no; i++) {
        fprintf(f, "%s,%s,%s,%s,ordering,", seed, table, cost, machine);
        csv_text(f, o[i].label);
        fprintf(f, ",%s,%s,,%s\n", sign_text(o[i].seed), sign_text(o[i].ours),
                o[i].ours == 2 || o[i].seed == 2 ? "not measured" : o[i].ours == o[i].seed ? "agree" : "differ");
    }
}
