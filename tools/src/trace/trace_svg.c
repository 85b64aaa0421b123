/*
 * The timeline of a trace: one lane per CPU with a slice per time a task
 * ran there (coloured by task, or by hackbench group), the scheduler's own
 * events as ticks above the lanes, optional wake-up arrows from the waker's
 * CPU to where the woken task then ran, the run-queue length of each CPU
 * below, and a time axis in ms.
 *
 * Slices live in one group whose x unit is the microsecond; a little script
 * (no library, nothing from the network) zooms it with the mouse wheel,
 * pans it by dragging, resets on a double click, and redraws the axis, so
 * the same SVG is zoomable inline in an HTML page or opened on its own.
 * Without scripts it is a plain picture of the whole trace.  A page opened
 * as timeline.html#from=120&to=125 starts on that window (ms since the
 * start of the trace), for pictures and links to a moment.
 */
#include "trace_data.h"
#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEFT 100
#define PLOT_W 1100
#define RIGHT 20
#define TOP 56
#define LANE_H 30
#define LANE_GAP 14
#define RQ_H 26
#define AXIS_H 34
#define LEGEND_ROW 18
#define MAX_TITLED_SLICES 40000       /* tooltips cost ~60 bytes a slice: none above this */

static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
                fputc(*s, out);
            else
                fputc('?', out);
        }
    }
}

/* The lane's own colour is idle: light grey.  A task that is in no
 * hackbench group (the runner, bench-main, and the kernel's own tasks) is
 * near black when slices are coloured by group, so neither is mistaken for
 * the other or for a group.  The scheduler's events are black ticks above
 * the lanes, told apart by their dash pattern, never by a group's hue. */
#define IDLE_COLOR "#f0f0f0"
#define OTHER_COLOR "#3b3b3b"

/* A colour per task (its pid spread over the hues) or per group (receivers darker than senders). */
static void task_color(const struct trace_task *p, bool by_group, char *buf, size_t size)
{
    if (by_group && p && p->group >= 0) {
        /* Ten hues far apart (a categorical palette, grey left out: it is
         * the runner's), turned a little for each further ten groups. */
        static const int hue[10] = { 210, 30, 120, 0, 275, 180, 320, 55, 95, 240 };
        bool rx = !strcmp(p->comm, "hb-receiver");
        snprintf(buf, size, "hsl(%d,62%%,%d%%)", (hue[p->group % 10] + 13 * (p->group / 10)) % 360, rx ? 40 : 63);
    } else if (by_group) {
        snprintf(buf, size, OTHER_COLOR);
    } else {
        uint32_t pid = p ? (uint32_t)p->pid : 0;
        snprintf(buf, size, "hsl(%u,58%%,%u%%)", (pid * 137u) % 360u, 45u + (pid * 7u) % 20u);
    }
}

/* The dash pattern of the k-th scheduler event name (black ticks). */
/* A memstall mark's colour by where the line came from. */
static const char *stall_color(int src)
{
    switch (src) {
    case TRACE_STALL_MEMORY: return "#c0392b";
    case TRACE_STALL_C2C: return "#8e44ad";
    case TRACE_STALL_L2: return "#e67e22";
    default: return "#2c3e50";
    }
}

static const char *event_dash(size_t k)
{
    static const char *const dash[] = { "none", "4,2", "1,2", "6,2,1,2", "2,4", "8,3" };
    return dash[k % (sizeof(dash) / sizeof(dash[0]))];
}

static double us_of(const struct trace *t, uint64_t ts) { return ts > t->start_ns ? (double)(ts - t->start_ns) / 1e3 : 0.0; }

static int lane_shift;   /* below the lines that say what was dropped */
static int lane_y(int cpu) { return TOP + lane_shift + cpu * (LANE_H + LANE_GAP); }

/* A tick step of 1, 2 or 5 x 10^n microseconds giving at least 6 ticks. */
static double tick_step(double span_us)
{
    double raw = span_us / 8.0, p = pow(10.0, floor(log10(raw > 0 ? raw : 1)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void write_axis(FILE *out, double span_us, int y)
{
    double step = tick_step(span_us);
    int dec = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
    fprintf(out, "<g class=\"tl-axis\" font-size=\"11\" fill=\"#333\">\n");
    for (double v = 0; v <= span_us + 1e-9; v += step) {
        double x = LEFT + v / span_us * PLOT_W;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>", x, y, x, y + 5);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>\n", x, y + 17, dec, v / 1000.0);
    }
    fprintf(out, "</g>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#333\" text-anchor=\"end\">ms</text>\n", LEFT - 12,
            y + 17);
}

static const char script[] =
    "(function(){\n"
    "var svg=document.getElementById('%s');if(!svg||svg.__tl)return;svg.__tl=1;\n"
    "var L=+svg.getAttribute('data-plot-x'),W=+svg.getAttribute('data-plot-w'),T=+svg.getAttribute('data-span-us'),"
    "AY=+svg.getAttribute('data-axis-y');\n"
    "var data=svg.querySelector('.tl-data'),axis=svg.querySelector('.tl-axis'),NS='http://www.w3.org/2000/svg';\n"
    "var v0=0,v1=T,drag=null;\n"
    "function el(n,a){var e=document.createElementNS(NS,n);for(var k in a)e.setAttribute(k,a[k]);return e;}\n"
    "function draw(){var k=W/(v1-v0);data.setAttribute('transform','translate('+(L-v0*k)+',0) scale('+k+',1)');\n"
    " while(axis.firstChild)axis.removeChild(axis.firstChild);var span=v1-v0,raw=span/8,p=Math.pow(10,Math.floor(Math.log10(raw))),"
    "m=raw/p,step=(m<1.5?1:m<3.5?2:m<7.5?5:10)*p,dec=step>=1000?0:step>=100?1:step>=10?2:3;\n"
    " for(var v=Math.ceil(v0/step)*step;v<=v1+1e-9;v+=step){var x=L+(v-v0)/span*W;"
    "axis.appendChild(el('line',{x1:x,y1:AY,x2:x,y2:AY+5,stroke:'#999'}));"
    "var t=el('text',{x:x,y:AY+17,'text-anchor':'middle'});t.textContent=(v/1000).toFixed(dec);axis.appendChild(t);}}\n"
    "function at(cx){var r=svg.getBoundingClientRect(),x=(cx-r.left)*svg.viewBox.baseVal.width/r.width;"
    "return v0+(x-L)/W*(v1-v0);}\n"
    "function set(a,b){var s=b-a;if(s<1){a=(a+b)/2-0.5;b=a+1;s=1;}if(s>T){a=0;b=T;}if(a<0){b-=a;a=0;}if(b>T){a-=b-T;b=T;}"
    "v0=Math.max(0,a);v1=Math.min(T,b);draw();}\n"
    "function zoom(t,f){set(t-(t-v0)*f,t+(v1-t)*f);}\n"
    "svg.addEventListener('wheel',function(e){e.preventDefault();zoom(at(e.clientX),e.deltaY<0?0.8:1.25);},{passive:false});\n"
    "svg.addEventListener('mousedown',function(e){drag={x:at(e.clientX),a:v0,b:v1};e.preventDefault();});\n"
    "window.addEventListener('mousemove',function(e){if(!drag)return;var d=drag.x-(drag.a+(at(e.clientX)-v0));"
    "set(drag.a+d,drag.b+d);});\n"
    "window.addEventListener('mouseup',function(){drag=null;});\n"
    "svg.addEventListener('dblclick',function(){set(0,T);});\n"
    "svg.querySelectorAll('[data-action]').forEach(function(b){b.addEventListener('click',function(e){var a=b.getAttribute('data-action'),"
    "c=(v0+v1)/2;if(a=='in')zoom(c,0.5);else if(a=='out')zoom(c,2);else set(0,T);e.stopPropagation();});"
    "b.addEventListener('mousedown',function(e){e.stopPropagation();});});\n"
    "var h=/from=([0-9.]+)&to=([0-9.]+)/.exec(location.hash||'');if(h)set(1000*h[1],1000*h[2]);else draw();})();\n";

void trace_write_svg(const struct trace *t, const struct timeline_opts *o, FILE *out, bool standalone)
{
    struct trace_analysis a;
    trace_analyze(t, &a);
    bool by_group = o->color == TIMELINE_COLOR_GROUP || (o->color == TIMELINE_COLOR_AUTO && a.ngroups > 0);
    const char *id = o->id ? o->id : "tl";
    double span = a.window_ns ? (double)a.window_ns / 1e3 : 1.0;
    int ncpu = (int)t->ncpus;
    lane_shift = 0;
    for (uint32_t c = 0; c < t->ncpus; c++)
        lane_shift += t->cpu[c].dropped ? 14 : 0;
    lane_shift = lane_shift > 5 * 14 ? 5 * 14 : lane_shift;
    int rq_top = lane_y(ncpu) + 10;
    int axis_y = rq_top + ncpu * (RQ_H + 4) + 6;
    /* Legend entries: groups, or the tasks that ran longest. */
    const struct trace_task **legend = xcalloc(a.ntask + 1, sizeof(*legend));
    size_t nleg = 0;
    if (by_group) {
        for (uint64_t g = 0; g < a.ngroups && nleg < 48; g++)
            for (size_t i = 0; i < a.ntask; i++)
                if (a.task[i].group == (int)g) {
                    legend[nleg++] = &a.task[i];
                    break;
                }
    } else {
        for (size_t i = 0; i < a.ntask; i++)
            if (a.task[i].slices)
                legend[nleg++] = &a.task[i];
        for (size_t i = 0; i < nleg; i++)        /* longest runtime first (selection: nleg is small enough) */
            for (size_t j = i + 1; j < nleg; j++)
                if (legend[j]->runtime_ns > legend[i]->runtime_ns) {
                    const struct trace_task *x = legend[i];
                    legend[i] = legend[j], legend[j] = x;
                }
        if (nleg > 36)
            nleg = 36;
    }
    /* Scheduler event names, for their legend. */
    char enames[16][TRACE_COMM_LEN];
    size_t nen = 0;
    for (size_t i = 0; i < t->nev && nen < 16; i++)
        if (t->ev[i].type == TRACE_SCHED) {
            size_t j = 0;
            for (; j < nen && strcmp(enames[j], t->ev[i].comm2); j++)
                ;
            if (j == nen)
                snprintf(enames[nen++], TRACE_COMM_LEN, "%s", t->ev[i].comm2);
        }
    int per_row = 6;
    /* A line in words per CPU that dropped its oldest records (at most 4, then how many more). */
    char *drops = NULL;
    size_t drops_len = 0;
    FILE *dm = open_memstream(&drops, &drops_len);
    size_t ndrop = trace_write_drops(t, dm, NULL, NULL);
    fclose(dm);
    int drop_lines = ndrop > 4 ? 5 : (int)ndrop;
    int shift = drop_lines * 14;
    (void)shift;   /* lane_y() has moved everything below the title by as much */
    int legend_y = axis_y + AXIS_H;
    /* The memory model's stalls (memstall): the biggest of each CPU and tick. */
    size_t nstall = 0;
    int64_t stall_max = 1;
    for (size_t i = 0; i < t->nev; i++)
        if (t->ev[i].type == TRACE_MEMSTALL) {
            nstall++;
            if (t->ev[i].value > stall_max)
                stall_max = t->ev[i].value;
        }
    int legend_rows = (int)((nleg + (size_t)per_row - 1) / (size_t)per_row) + (nen ? 1 : 0) + (nstall ? 1 : 0) + 2;
    int height = legend_y + legend_rows * LEGEND_ROW + 10;
    int width = LEFT + PLOT_W + RIGHT;

    if (standalone)
        fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"schedlab-timeline\" id=\"%s\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" data-plot-x=\"%d\" data-plot-w=\"%d\" "
            "data-span-us=\"%.3f\" data-axis-y=\"%d\" data-cpus=\"%d\" style=\"user-select:none\">\n",
            id, width, height, width, height, LEFT, PLOT_W, span, axis_y, ncpu);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
    fprintf(out, "<defs><clipPath id=\"%s-clip\"><rect x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\"/></clipPath>"
                 "<pattern id=\"%s-nodata\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
                 "patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#fff\"/>"
                 "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#c8c8c8\" stroke-width=\"3\"/></pattern></defs>\n",
            id, LEFT, PLOT_W, height, id);
    fprintf(out, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">");
    xml_text(out, o->title && o->title[0] ? o->title : "schedlab trace");
    fprintf(out, "</text>\n<text x=\"10\" y=\"40\" font-size=\"11\" fill=\"#555\">");
    char line[400];
    uint64_t kept = 0, dropped = 0;
    for (uint32_t c = 0; c < t->ncpus; c++)
        kept += t->cpu[c].kept, dropped += t->cpu[c].dropped;
    snprintf(line, sizeof(line),
             "sched=%s, %u CPUs, %.3f ms, %" PRIu64 " events%s; wheel: zoom, drag: pan, double-click: whole trace",
             t->sched, t->ncpus, span / 1000.0, kept, dropped ? " kept" : "");
    xml_text(out, line);
    fprintf(out, "</text>\n");
    /* The drops in words, under the title: hatched where a CPU has no data. */
    {
        int k = 0;
        for (char *s = drops, *nl; s && *s && k < drop_lines; s = nl + 1, k++) {
            nl = strchr(s, '\n');
            if (!nl)
                break;
            *nl = 0;
            fprintf(out, "<text class=\"drops\" x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#a33\">", 54 + 14 * k);
            if (k == 4)
                fprintf(out, "... and %zu more CPUs dropped events (summary.txt has them all)", ndrop - 4);
            else {
                xml_text(out, s);
                fputs(" (hatched: no data)", out);
            }
            fprintf(out, "</text>\n");
        }
    }
    const char *labels[3][2] = { { "in", "zoom in" }, { "out", "zoom out" }, { "reset", "whole trace" } };
    for (int b = 0; b < 3; b++) {
        int bx = LEFT + PLOT_W - 3 * 84 + b * 84;
        fprintf(out,
                "<g data-action=\"%s\" style=\"cursor:pointer\"><rect x=\"%d\" y=\"8\" width=\"78\" height=\"20\" rx=\"3\" "
                "fill=\"#eee\" stroke=\"#aaa\"/><text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"11\">%s</text></g>\n",
                labels[b][0], bx, bx + 39, labels[b][1]);
    }
    for (int c = 0; c < ncpu; c++) {
        fprintf(out, "<rect class=\"tl-lane\" data-cpu=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"" IDLE_COLOR "\"/>",
                c, LEFT, lane_y(c), PLOT_W, LANE_H);
        fprintf(out, "<text x=\"10\" y=\"%d\">cpu %d</text>\n", lane_y(c) + LANE_H / 2 + 4, c);
    }
    int rq_max = 1;
    for (int c = 0; c < ncpu; c++)
        rq_max = a.cpu[c].rq_max > rq_max ? a.cpu[c].rq_max : rq_max;
    for (int c = 0; c < ncpu; c++) {
        int y = rq_top + c * (RQ_H + 4);
        fprintf(out, "<rect class=\"tl-rq\" data-cpu=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
                     "stroke=\"#eee\"/>",
                c, LEFT, y, PLOT_W, RQ_H);
        fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"11\">rq %d (max %u)</text>\n", y + RQ_H / 2 + 4, c,
                a.cpu[c].rq_max);
    }

    /* The data: x in microseconds since the start of the trace. */
    fprintf(out, "<g clip-path=\"url(#%s-clip)\"><g class=\"tl-data\" transform=\"translate(%d,0) scale(%.9g,1)\">\n", id,
            LEFT, PLOT_W / span);
    size_t nslices = 0;
    for (size_t i = 0; i < t->nev; i++)
        nslices += t->ev[i].type == TRACE_SWITCH;
    bool titles = nslices <= MAX_TITLED_SLICES;
    int32_t curr[TRACE_MAX_CPUS];
    uint64_t since[TRACE_MAX_CPUS];
    for (int c = 0; c < TRACE_MAX_CPUS; c++)
        curr[c] = -1, since[c] = t->start_ns;
    /* A CPU that dropped its oldest records: nothing is known there before
     * its first kept one, so no slice starts before it (a hatched no-data
     * area instead); the run-queue rows are known from where every CPU's
     * record is complete (a.valid_from). */
    for (int c = 0; c < ncpu; c++) {
        uint64_t first = trace_cpu_first_kept(t, (uint32_t)c);
        if (!t->cpu[c].dropped)
            continue;
        since[c] = first ? first : t->stop_ns;
        fprintf(out, "<rect class=\"no-data\" data-cpu=\"%d\" x=\"0\" y=\"%d\" width=\"%.3f\" height=\"%d\" "
                     "fill=\"url(#%s-nodata)\"><title>no data: cpu %d dropped its oldest %" PRIu64 " of %" PRIu64
                     " events</title></rect>\n",
                c, lane_y(c), us_of(t, since[c]), LANE_H, id, c, t->cpu[c].dropped, t->cpu[c].written);
    }
    if (a.valid_from > t->start_ns)
        for (int c = 0; c < ncpu; c++)
            fprintf(out, "<rect class=\"no-data\" data-rq=\"%d\" x=\"0\" y=\"%d\" width=\"%.3f\" height=\"%d\" "
                         "fill=\"url(#%s-nodata)\"><title>run-queue length not known: some CPU dropped its oldest "
                         "events</title></rect>\n",
                    c, rq_top + c * (RQ_H + 4), us_of(t, a.valid_from), RQ_H, id);
    char color[48];
    for (size_t i = 0; i <= t->nev; i++) {
        const struct tev *e = i < t->nev ? &t->ev[i] : NULL;
        if (e && e->type != TRACE_SWITCH)
            continue;
        for (int c = 0; c < ncpu; c++) {
            if (e && e->cpu != c)
                continue;
            /* The slice that ends here: the previous task (or, before the first switch, prev itself). */
            int32_t pid = curr[c] >= 0 ? curr[c] : e ? e->pid : -1;
            uint64_t end = e ? e->ts : t->stop_ns;
            if (pid > 0 && end > since[c]) {
                const struct trace_task *p = trace_find_task(&a, pid);
                task_color(p, by_group, color, sizeof(color));
                double x0 = us_of(t, since[c]), x1 = us_of(t, end);
                fprintf(out, "<rect x=\"%.3f\" y=\"%d\" width=\"%.3f\" height=\"%d\" fill=\"%s\">", x0, lane_y(c) + 2,
                        x1 - x0, LANE_H - 4, color);
                if (titles && p) {
                    char group[32] = "";
                    if (by_group && p->group >= 0)
                        snprintf(group, sizeof(group), " (group %d)", p->group);
                    fprintf(out, "<title>");
                    xml_text(out, p->comm);
                    fprintf(out, " %d%s: %.3f-%.3f ms</title>", pid, group, x0 / 1000, x1 / 1000);
                }
                fprintf(out, "</rect>\n");
            }
            if (e)
                curr[c] = e->pid2, since[c] = e->ts;
        }
    }
    /* Run-queue length: a step area per CPU. */
    for (int c = 0; c < ncpu; c++) {
        int base = rq_top + c * (RQ_H + 4) + RQ_H;
        fprintf(out, "<path fill=\"#7a9cc6\" d=\"M%.3f,%d", us_of(t, a.valid_from), base);
        unsigned nr = 0;
        for (size_t i = 0; i < a.nrq; i++) {
            if (a.rq[i].cpu != c)
                continue;
            double x = us_of(t, a.rq[i].ts);
            fprintf(out, " L%.3f,%.2f L%.3f,%.2f", x, base - (double)nr * (RQ_H - 2) / rq_max, x,
                    base - (double)a.rq[i].nr * (RQ_H - 2) / rq_max);
            nr = a.rq[i].nr;
        }
        fprintf(out, " L%.3f,%.2f L%.3f,%d Z\"/>\n", span, base - (double)nr * (RQ_H - 2) / rq_max, span, base);
    }
    /* The scheduler's own events: a tick above the lane of the CPU they concern. */
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type != TRACE_SCHED || e->tcpu >= ncpu)
            continue;
        double x = us_of(t, e->ts);
        int y = lane_y(e->tcpu);
        size_t k = 0;
        while (k < nen && strcmp(enames[k], e->comm2))
            k++;
        fprintf(out, "<line class=\"sched-event\" x1=\"%.3f\" y1=\"%d\" x2=\"%.3f\" y2=\"%d\" stroke=\"#000\" "
                     "stroke-width=\"2\" stroke-dasharray=\"%s\" vector-effect=\"non-scaling-stroke\"><title>",
                x, y - 12, x, y, event_dash(k));
        xml_text(out, e->comm2);
        fprintf(out, " %" PRId64 " (cpu %u, %.3f ms)</title></line>\n", e->value, e->tcpu, x / 1000);
    }
    /* Memory stalls: a mark at the lane's foot, as high as the stall against
     * the trace's biggest, coloured by where the line came from. */
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type != TRACE_MEMSTALL || e->cpu >= ncpu)
            continue;
        double x = us_of(t, e->ts);
        int y = lane_y(e->cpu) + LANE_H;
        double h = 6 + 16.0 * (double)e->value / (double)stall_max;
        fprintf(out, "<line class=\"memstall\" x1=\"%.3f\" y1=\"%d\" x2=\"%.3f\" y2=\"%.1f\" stroke=\"%s\" "
                     "stroke-width=\"3\" vector-effect=\"non-scaling-stroke\"><title>",
                x, y, x, y - h, stall_color(e->flags));
        xml_text(out, e->what[0] ? e->what : "?");
        fprintf(out, ": %" PRId64 " ns from %s (cpu %u, %.3f ms; this tick's stalls %.1f us; site 0x%08x)</title></line>\n",
                e->value, tev_stall_source_name(e->flags), e->cpu, x / 1000, e->pid2 / 1000.0, tev_stall_site(e));
    }
    /* Wake-up arrows: from the wake-up on the waker's CPU to where the task ran next. */
    if (o->arrows) {
        struct pending {
            uint64_t ts;
            int cpu;
        } *pend = xcalloc(a.ntask + 1, sizeof(*pend));
        for (size_t i = 0; i < a.ntask; i++)
            pend[i].cpu = -1;
        for (size_t i = 0; i < t->nev; i++) {
            const struct tev *e = &t->ev[i];
            if (e->type == TRACE_WAKEUP || e->type == TRACE_WAKEUP_NEW) {
                const struct trace_task *p = trace_find_task(&a, e->pid);
                if (p)
                    pend[p - a.task] = (struct pending){ e->ts, e->cpu };
            } else if (e->type == TRACE_SWITCH && e->pid2 > 0) {
                const struct trace_task *p = trace_find_task(&a, e->pid2);
                if (!p || pend[p - a.task].cpu < 0)
                    continue;
                struct pending w = pend[p - a.task];
                pend[p - a.task].cpu = -1;
                fprintf(out, "<line x1=\"%.3f\" y1=\"%d\" x2=\"%.3f\" y2=\"%d\" stroke=\"#c0392b\" stroke-opacity=\"0.55\" "
                             "vector-effect=\"non-scaling-stroke\"/>",
                        us_of(t, w.ts), lane_y(w.cpu) + LANE_H / 2, us_of(t, e->ts), lane_y(e->cpu) + 3);
                fprintf(out, "<line x1=\"%.3f\" y1=\"%d\" x2=\"%.3f\" y2=\"%d\" stroke=\"#c0392b\" stroke-width=\"2\" "
                             "vector-effect=\"non-scaling-stroke\"/>\n",
                        us_of(t, e->ts), lane_y(e->cpu), us_of(t, e->ts), lane_y(e->cpu) + 6);
            }
        }
        free(pend);
    }
    fprintf(out, "</g></g>\n");
    write_axis(out, span, axis_y);

    /* Legend. */
    int y = legend_y;
    for (size_t i = 0; i < nleg; i++) {
        int x = LEFT + (int)(i % (size_t)per_row) * (PLOT_W / per_row);
        int row_y = y + (int)(i / (size_t)per_row) * LEGEND_ROW;
        task_color(legend[i], by_group, color, sizeof(color));
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, row_y, color);
        if (by_group) {
            struct trace_task tx = *legend[i];
            snprintf(tx.comm, sizeof(tx.comm), "hb-sender");
            task_color(&tx, true, color, sizeof(color));
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x + 13, row_y, color);
            fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">group %d (receivers, senders)</text>\n", x + 30,
                    row_y + 10, legend[i]->group);
        } else {
            fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">", x + 16, row_y + 10);
            xml_text(out, legend[i]->comm);
            fprintf(out, " %d</text>\n", legend[i]->pid);
        }
    }
    y += (int)((nleg + (size_t)per_row - 1) / (size_t)per_row) * LEGEND_ROW;
    if (nen) {
        int x = LEFT;
        for (size_t j = 0; j < nen; j++, x += 150) {
            fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\" stroke-width=\"2\" "
                         "stroke-dasharray=\"%s\"/>",
                    x + 6, y, x + 6, y + 12, event_dash(j));
            fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">sched_event ", x + 14, y + 10);
            xml_text(out, enames[j]);
            fprintf(out, "</text>\n");
        }
        y += LEGEND_ROW;
    }
    if (nstall) {
        static const int srcs[] = { TRACE_STALL_MEMORY, TRACE_STALL_C2C, TRACE_STALL_L2, TRACE_STALL_UPGRADE };
        static const char *const labels[] = { "memory", "cache-to-cache", "L2", "other (invalidation, L1, bus)" };
        int x = LEFT;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">memory stalls (the biggest of each CPU and tick, "
                     "at the lane's foot; hover for the object):</text>\n", x, y + 10);
        x += 510;
        for (int j = 0; j < 4; j++, x += 120) {
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"4\" height=\"12\" fill=\"%s\"/>"
                         "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n",
                    x, y, stall_color(srcs[j]), x + 8, y + 10, labels[j]);
        }
        y += LEGEND_ROW;
    }
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"" IDLE_COLOR "\" stroke=\"#bbb\"/>"
                 "<text x=\"%d\" y=\"%d\" font-size=\"11\">idle</text>\n", LEFT, y, LEFT + 16, y + 10);
    if (by_group)
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"" OTHER_COLOR "\"/>"
                     "<text x=\"%d\" y=\"%d\" font-size=\"11\">other tasks (bench-main, the runner)</text>\n",
                LEFT + 60, y, LEFT + 76, y + 10);
    if (ndrop)
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"url(#%s-nodata)\" stroke=\"#bbb\"/>"
                     "<text x=\"%d\" y=\"%d\" font-size=\"11\">no data (dropped)</text>\n",
                LEFT + 300, y, id, LEFT + 316, y + 10);
    y += LEGEND_ROW;
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#555\">blue area: tasks runnable on that "
                 "CPU (running one included)%s</text>\n",
            LEFT, y + 10, o->arrows ? "; red lines: wake-ups, from the waker's CPU to where the task ran" : "");
    fprintf(out, "<script><![CDATA[\n");
    fprintf(out, script, id);
    fprintf(out, "]]></script>\n</svg>\n");
    free(legend);
    free(drops);
    trace_analysis_free(&a);
}

void trace_write_html(const struct trace *t, const struct timeline_opts *o, FILE *out)
{
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    xml_text(out, o->title && o->title[0] ? o->title : "schedlab trace");
    fprintf(out, "</title>\n<style>body{margin:0;font-family:sans-serif;color:#222}"
                 "p{margin:6px 12px;font-size:13px;color:#444}</style></head><body>\n");
    trace_write_svg(t, o, out, false);
    fprintf(out, "<p>Written by <code>tools/schedlab trace</code>; everything is in this file. Lanes: what ran on each "
                 "CPU; hover a slice for its task and times. trace.txt beside it opens in the Perfetto UI, trace.dat in "
                 "KernelShark.</p>\n</body></html>\n");
}
