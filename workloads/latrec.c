/* The wake-up latency recorder (see latrec.h). */
#include "latrec.h"
#include "../kernel/lib.h"

void latrec_init(struct latrec *r, uint64_t *buf, uint32_t capacity)
{
    r->samples = buf;
    r->capacity = capacity;
    r->claimed = 0;
}

void latrec_add(struct latrec *r, uint64_t ns)
{
    /* __sync, not __atomic: gcc inlines only the former as lock cmpxchg8b on i686 (no libatomic here). */
    uint64_t slot = __sync_fetch_and_add(&r->claimed, 1);
    if (slot < r->capacity)
        r->samples[slot] = ns;
}

/* In-place heap sort, ascending: O(n log n) and no extra memory. */
static void sift_down(uint64_t *a, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && a[child + 1] > a[child])
            child++;
        if (a[root] >= a[child])
            return;
        uint64_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

void latrec_sort(uint64_t *a, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (uint32_t end = n; end-- > 1;) {
        uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

uint64_t latrec_percentile(const uint64_t *sorted, uint32_t n, uint32_t q)
{
    uint64_t rank = ((uint64_t)n * q + 9999) / 10000;
    return sorted[rank ? rank - 1 : 0];
}

bool latrec_summarize(struct latrec *r, struct latrec_summary *s)
{
    uint64_t claimed = r->claimed;      /* every recording task has been reaped */
    uint32_t n = claimed < r->capacity ? (uint32_t)claimed : r->capacity;
    s->samples = n;
    s->dropped = claimed - n;
    if (n == 0)
        return false;
    latrec_sort(r->samples, n);
    s->p50 = latrec_percentile(r->samples, n, 5000);
    s->p90 = latrec_percentile(r->samples, n, 9000);
    s->p99 = latrec_percentile(r->samples, n, 9900);
    s->p999 = latrec_percentile(r->samples, n, 9990);
    s->max = r->samples[n - 1];
    return true;
}

int latrec_format(char *buf, size_t size, const struct latrec_summary *s)
{
    char p50[32], p90[32], p99[32], p999[32], max[32];
    return snprintf(buf, size, " samples=%u p50_us=%s p90_us=%s p99_us=%s p999_us=%s max_us=%s dropped=%llu",
                    s->samples, fmt_fixed(p50, s->p50, NSEC_PER_USEC, 1), fmt_fixed(p90, s->p90, NSEC_PER_USEC, 1),
                    fmt_fixed(p99, s->p99, NSEC_PER_USEC, 1), fmt_fixed(p999, s->p999, NSEC_PER_USEC, 1),
                    fmt_fixed(max, s->max, NSEC_PER_USEC, 1), (unsigned long long)s->dropped);
}
