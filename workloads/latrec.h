/*
 * A latency recorder for bench=wakeup: samples in nanoseconds, kept exactly
 * in 64 bits (a latency of seconds under an oversubscribed host is real and
 * must not be clamped), up to a fixed capacity; samples beyond it are
 * counted as dropped.  At the end the samples are sorted and the
 * percentiles taken by the nearest-rank rule.  Plain C with no kernel
 * services, so tests/host/test_latrec.c runs it on the host.
 */
#ifndef WORKLOADS_LATREC_H
#define WORKLOADS_LATREC_H

#include "../kernel/types.h"

struct latrec {
    uint64_t *samples;
    uint32_t capacity;
    /* Slots claimed (atomically; 8-byte aligned for cmpxchg8b); beyond capacity: dropped. */
    uint64_t claimed __attribute__((aligned(8)));
};

struct latrec_summary {
    uint32_t samples;              /* recorded */
    uint64_t dropped;
    uint64_t p50, p90, p99, p999, max;   /* nanoseconds */
};

void latrec_init(struct latrec *r, uint64_t *buf, uint32_t capacity);
void latrec_add(struct latrec *r, uint64_t ns);      /* any task on any CPU */
/* Sorts the samples in place; false when there are none. */
bool latrec_summarize(struct latrec *r, struct latrec_summary *s);
/* " samples=<n> p50_us=<..> p90_us=<..> p99_us=<..> p999_us=<..> max_us=<..> dropped=<d>"; returns the length. */
int latrec_format(char *buf, size_t size, const struct latrec_summary *s);
/* Sorts n values in place, ascending (a heap sort: no extra memory); also
 * the medians of lat_ctx and bench=machine. */
void latrec_sort(uint64_t *a, uint32_t n);
/* Nearest rank: the smallest sample with at least q/10000 of them at or below it (sorted, n > 0). */
uint64_t latrec_percentile(const uint64_t *sorted, uint32_t n, uint32_t q);

#endif
