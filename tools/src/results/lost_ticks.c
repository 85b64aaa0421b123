/* Warnings beside the numbers of boots that lost ticks (lost_ticks.h). */
#include "lost_ticks.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

size_t lost_ticks_warn(FILE *f, const struct table *t, const char *bench, bool html)
{
    int lc = table_col(t, "ticks_lost_pct");
    if (lc < 0)
        return 0;
    size_t n = 0;
    const char **seen = xcalloc(t->nrows + 1, sizeof(*seen));
    size_t nseen = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *pct = table_get(t, r, lc);
        if (!pct || (bench && !streq(table_getn(t, r, "bench") ? table_getn(t, r, "bench") : "", bench)))
            continue;
        const char *log = table_getn(t, r, "log");
        const char *name = log ? log : "?";
        bool dup = false;
        for (size_t i = 0; i < nseen && !dup; i++)
            dup = streq(seen[i], name);
        if (dup)
            continue;
        seen[nseen++] = name;
        n++;
        const char *accel = table_getn(t, r, "accel");
        fprintf(f,
                "%swarning: boot %s lost %s%% of its timer ticks (ACCEL=%s on a loaded host): its timings are unreliable; "
                "ACCEL=vsmp is not affected%s\n",
                html ? "<p class=\"lost-ticks\">" : "", name, pct, accel ? accel : "tcg", html ? "</p>" : "");
    }
    free(seen);
    return n;
}
