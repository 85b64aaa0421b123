/* The per-CPU utilisation heatmap of a trace (see trace_heatmap.h). */
#include "trace_heatmap.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BINS_MAX 120
#define LEFT 70      /* the CPU labels */
#define CELL_W 7
#define ROW_H 18
#define TOP 46
#define BOTTOM 64    /* the time axis and the legend */

struct lane {
    double busy[BINS_MAX], known[BINS_MAX];   /* ns of each bin: running a task, and with a known state */
    int state;                                 /* -1 unknown, 0 idle, 1 a task */
    uint64_t since;
};

/* Adds [a, b) in state s to the lane's bins. */
static void account(struct lane *l, uint64_t start, uint64_t width, size_t nb, uint64_t a, uint64_t b, int s)
{
    if (s < 0 || b <= a)
        return;
    for (size_t i = 0; i < nb; i++) {
        uint64_t lo = start + width * i, hi = lo + width;
        uint64_t x = a > lo ? a : lo, y = b < hi ? b : hi;
        if (y <= x)
            continue;
        l->known[i] += (double)(y - x);
        if (s == 1)
            l->busy[i] += (double)(y - x);
    }
}

/* White (idle) to dark blue (busy): a single hue, readable in print and with any colour vision. */
static void shade(double share, char *buf, size_t n)
{
    static const double from[3] = { 0xf7, 0xfb, 0xff }, to[3] = { 0x08, 0x30, 0x6b };
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(from[k] + (to[k] - from[k]) * share);
    snprintf(buf, n, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static void svg_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
}

void trace_write_heatmap(const struct trace *t, FILE *f)
{
    uint32_t ncpus = t->ncpus > TRACE_MAX_CPUS ? TRACE_MAX_CPUS : t->ncpus;
    uint64_t start = t->start_ns, stop = t->stop_ns > t->start_ns ? t->stop_ns : t->start_ns + 1;
    size_t nb = BINS_MAX;
    uint64_t width = (stop - start + nb - 1) / nb;
    if (!width)
        width = 1;
    struct lane *lane = calloc(ncpus ? ncpus : 1, sizeof(*lane));
    if (!lane)
        return;
    for (uint32_t c = 0; c < ncpus; c++)
        lane[c].state = -1;
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type != TRACE_SWITCH || e->cpu >= ncpus)
            continue;
        struct lane *l = &lane[e->cpu];
        account(l, start, width, nb, l->since, e->ts, l->state);
        l->state = e->pid2 != 0;
        l->since = e->ts;
    }
    for (uint32_t c = 0; c < ncpus; c++)
        account(&lane[c], start, width, nb, lane[c].since, stop, lane[c].state);
    int w = LEFT + (int)nb * CELL_W + 20, h = TOP + (int)ncpus * ROW_H + BOTTOM;
    double ms = (double)width / 1e6;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            w, h, w, h);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"14\">CPU utilisation over time (", LEFT);
    svg_text(f, t->sched[0] ? t->sched : "trace");
    fprintf(f, ", %u CPU%s): the share of each %.3g ms a CPU ran a task, not idle</text>\n", ncpus, ncpus == 1 ? "" : "s",
            ms);
    fprintf(f, "<text x=\"%d\" y=\"34\" fill=\"#555\">from the sched_switch events; grey: no event of that CPU yet "
               "(state unknown)</text>\n",
            LEFT);
    for (uint32_t c = 0; c < ncpus; c++) {
        int y = TOP + (int)c * ROW_H;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">CPU %u</text>\n", LEFT - 8, y + ROW_H - 5, c);
        for (size_t b = 0; b < nb; b++) {
            double known = lane[c].known[b], busy = lane[c].busy[b];
            char col[16];
            double share = known > 0 ? busy / known : NAN;
            if (known > 0)
                shade(share, col, sizeof(col));
            else
                snprintf(col, sizeof(col), "#d9d9d9");
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>CPU %u, %.3f-%.3f ms: ",
                    LEFT + (int)b * CELL_W, y, CELL_W, ROW_H - 2, col, c, ms * (double)b, ms * (double)(b + 1));
            if (known > 0)
                fprintf(f, "busy %.0f%%%s</title></rect>\n", share * 100, known < (double)width ? " (of the part known)" : "");
            else
                fputs("no event yet</title></rect>\n", f);
        }
    }
    /* the time axis: about five ticks, in ms since the start of the trace */
    int ay = TOP + (int)ncpus * ROW_H + 4;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT, ay, LEFT + (int)nb * CELL_W, ay);
    double total_ms = ms * (double)nb, step = pow(10, floor(log10(total_ms / 5)));
    if (total_ms / step > 10)
        step *= total_ms / step > 20 ? 5 : 2;
    for (double x = 0; x <= total_ms + 1e-9 && step > 0; x += step) {
        int px = LEFT + (int)lround(x / total_ms * (double)(nb * CELL_W));
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/><text x=\"%d\" y=\"%d\" "
                   "text-anchor=\"middle\">%g</text>\n",
                px, ay, px, ay + 4, px, ay + 17, x);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since the start of the trace (ms)</text>\n",
            LEFT + (int)nb * CELL_W / 2, ay + 33);
    /* the legend: idle to busy */
    int lx = LEFT, ly = ay + 42;
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">idle</text>\n", lx - 4, ly + 10);
    for (int k = 0; k <= 10; k++) {
        char col[16];
        shade(k / 10.0, col, sizeof(col));
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" fill=\"%s\" stroke=\"#999\" stroke-width=\"0.5\"/>\n",
                lx + k * 14, ly, col);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">busy (100%%)</text>\n", lx + 11 * 14 + 4, ly + 10);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" fill=\"#d9d9d9\"/><text x=\"%d\" y=\"%d\">unknown</text>\n",
            lx + 11 * 14 + 100, ly, lx + 11 * 14 + 118, ly + 10);
    fputs("</svg>\n", f);
    free(lane);
}
