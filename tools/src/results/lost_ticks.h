/*
 * Boots that lost ticks: under TCG on a loaded host a vCPU that the host
 * does not run takes fewer timer ticks than its clock expected (schedstat
 * ticks= against ticks_expected=), so tick-driven policy ran less often
 * than the guest's clock says and every timing of that boot is unreliable.
 * collect marks the result rows of a boot where one CPU lost more than
 * LOST_TICKS_PCT percent (column ticks_lost_pct); table, compare, report and
 * reproduce print lost_ticks_warn's lines beside the numbers.  vsmp and
 * icount never lose ticks.
 */
#ifndef SCHEDLAB_LOST_TICKS_H
#define SCHEDLAB_LOST_TICKS_H

#include "table.h"

#include <stdbool.h>
#include <stdio.h>

#define LOST_TICKS_PCT 10.0

/* One line per boot whose rows (of bench; all when NULL) carry
 * ticks_lost_pct, text or an HTML paragraph; returns how many boots. */
size_t lost_ticks_warn(FILE *f, const struct table *t, const char *bench, bool html);

#endif
