/*
 * The memory model: caches, coherence and the bus (cache.h says what is
 * modelled and how; docs/caches.md lists the simplifications and their
 * measured effects).  Plain C: the kernel and tests/host/test_cache.c both
 * compile it.  Nothing here is instrumented (the Makefile compiles
 * kernel/machine/ without the memory-access instrumentation): the model's
 * own loads and stores are not the machine's.
 */
#include "cache.h"
#ifdef HOST_TEST
#include <string.h>
#else
#include "../lib.h"
#endif

/* ---- geometry ---- */

static inline struct cache_l2_line *l2_set(const struct cache_model *m, int dom, uint32_t line)
{
    return m->l2 + ((size_t)dom * m->l2_sets + (line & (m->l2_sets - 1))) * m->l2_ways;
}

static inline int domain_of(const struct cache_model *m, int cpu) { return m->dom_of[cpu]; }
static inline int core_of(const struct cache_model *m, int cpu) { return m->core_of[cpu]; }
static inline int cpu_of(const struct cache_model *m, int dom, int core) { return dom * (int)m->p.l2_cores + core; }

static bool pow2(uint32_t x) { return x && !(x & (x - 1)); }

/* ---- the fast-path filters (memhooks.c) ---- */

static void filter_drop(struct cache_model *m, int cpu, uint32_t line, bool reads_too)
{
    if (!m->rfilter)
        return;
    uint32_t chunks = m->p.line_bytes >> CACHE_CHUNK_SHIFT;
    uint32_t first = line << (m->line_shift - CACHE_CHUNK_SHIFT);
    uint32_t *rf = m->rfilter + (size_t)cpu * CACHE_FILTER_STRIDE, *wf = m->wfilter + (size_t)cpu * CACHE_FILTER_STRIDE;
    for (uint32_t c = first; c < first + chunks; c++) {
        uint32_t slot = c & (CACHE_FILTER - 1);
        if (wf[slot] == c)
            wf[slot] = CACHE_FILTER_EMPTY;
        if (reads_too && rf[slot] == c)
            rf[slot] = CACHE_FILTER_EMPTY;
    }
}

void cache_filter_forget(struct cache_model *m, int cpu, uint32_t addr)
{
    filter_drop(m, cpu, addr >> m->line_shift, true);
}

/* line is in cpu's L1 at stamp index `stamp`; writable: owned modified by it alone. */
static void filter_set(struct cache_model *m, int cpu, uint32_t line, uint32_t stamp, bool writable)
{
    if (!m->rfilter)
        return;
    uint32_t chunks = m->p.line_bytes >> CACHE_CHUNK_SHIFT;
    uint32_t first = line << (m->line_shift - CACHE_CHUNK_SHIFT);
    uint32_t *rf = m->rfilter + (size_t)cpu * CACHE_FILTER_STRIDE, *wf = m->wfilter + (size_t)cpu * CACHE_FILTER_STRIDE;
    for (uint32_t c = first; c < first + chunks; c++) {
        uint32_t slot = c & (CACHE_FILTER - 1);
        rf[slot] = c;
        rf[CACHE_FILTER + slot] = stamp;
        if (writable) {
            wf[slot] = c;
            wf[CACHE_FILTER + slot] = stamp;
        } else if (wf[slot] == c) {
            wf[slot] = CACHE_FILTER_EMPTY;
        }
    }
}

/* ---- L1 ----
 *
 * True LRU by stamps: each way keeps the LRU clock of its last use (one
 * counter for all CPUs; only the order within a set matters), and the
 * least recent way is the one whose stamp is oldest (clock - stamp, which
 * wraps correctly unless a line sat unused for 2^32 accesses).  Lines do
 * not move between ways, so a filter entry can name its stamp. */

static inline size_t l1_index(const struct cache_model *m, int cpu, uint32_t line)
{
    return ((size_t)cpu * m->l1_sets + (line & (m->l1_sets - 1))) * m->l1_ways;
}

static int l1_find(const struct cache_model *m, int cpu, uint32_t line)
{
    const uint32_t *s = m->l1 + l1_index(m, cpu, line);
    for (uint32_t w = 0; w < m->l1_ways; w++)
        if (s[w] == line + 1)
            return (int)w;
    return -1;
}

static inline void l1_touch(struct cache_model *m, int cpu, uint32_t line, int w)
{
    m->l1_stamp[l1_index(m, cpu, line) + (uint32_t)w] = ++*m->lru_clock;
}

static struct cache_l2_line *l2_find(const struct cache_model *m, int dom, uint32_t line, int *way)
{
    struct cache_l2_line *s = l2_set(m, dom, line);
    for (uint32_t w = 0; w < m->l2_ways; w++)
        if (s[w].tag == line + 1) {
            if (way)
                *way = (int)w;
            return &s[w];
        }
    return NULL;
}

/* The L1 of cpu loses line (an invalidation, or the L2 evicted it). */
static void l1_remove(struct cache_model *m, int cpu, uint32_t line)
{
    uint32_t *s = m->l1 + l1_index(m, cpu, line);
    for (uint32_t w = 0; w < m->l1_ways; w++)
        if (s[w] == line + 1) {
            s[w] = 0;
            filter_drop(m, cpu, line, true);
            return;
        }
}

/* line enters cpu's L1 as its most recent; an empty way or the least
 * recent line leaves: a line modified in this L1 goes back to the L2
 * (on-die, not charged).  Returns the way. */
static int l1_insert(struct cache_model *m, int cpu, uint32_t line, size_t base)
{
    uint32_t *s = m->l1 + base, *st = m->l1_stamp + base, now = *m->lru_clock;
    uint32_t w = 0, oldest = 0;
    for (uint32_t i = 0; i < m->l1_ways; i++) {
        if (!s[i]) {
            w = i;
            break;
        }
        if (now - st[i] > oldest || i == 0) {
            oldest = now - st[i];
            w = i;
        }
    }
    if (s[w]) {
        uint32_t victim = s[w] - 1;
        filter_drop(m, cpu, victim, true);
        struct cache_l2_line *e = l2_find(m, domain_of(m, cpu), victim, NULL);
        if (e) {
            e->l1_cores &= (uint16_t)~(1u << core_of(m, cpu));
            if (e->dirty_core == core_of(m, cpu) + 1)
                e->dirty_core = 0;
        }
    }
    s[w] = line + 1;
    st[w] = ++*m->lru_clock;
    return (int)w;
}

/* ---- the bus ---- */

/* n / d for a 32-bit d without libgcc's 64-bit division (the model runs
 * on every miss: two x86 divl). */
static inline uint64_t div_u64_u32(uint64_t n, uint32_t d)
{
#ifdef HOST_TEST
    return n / d;
#else
    uint32_t hi = (uint32_t)(n >> 32), lo = (uint32_t)n, qhi = hi / d, r = hi % d, qlo;
    __asm__("divl %3" : "=a"(qlo), "=d"(r) : "0"(lo), "rm"(d), "1"(r));
    return ((uint64_t)qhi << 32) | qlo;
#endif
}

uint64_t cache_bus_book(struct cache_bus *b, uint64_t now, uint64_t ns)
{
    if (!ns || !b->slot_ns)
        return now;
    uint32_t slot = (uint32_t)b->slot_ns;
    uint32_t k = ((uint32_t)ns + slot - 1) / slot;
    uint64_t s = div_u64_u32(now, slot);
    b->busy_ns += ns;
    /* Slot t is booked when booked[t mod the window] is t + 1 (in 32 bits:
     * the window is a power of two, so 32-bit arithmetic on the low bits
     * gives the same index and tag as 64-bit). */
    uint32_t t = (uint32_t)s, i;
    if (s > b->latest) {            /* nothing booked at or after s (the usual case) */
        for (i = 0; i < k; i++)
            b->booked[(t + i) & (CACHE_BUS_SLOTS - 1)] = t + i + 1;
        b->latest = s + k - 1;
        return now;
    }
    if (b->latest >= CACHE_BUS_SLOTS && s + CACHE_BUS_SLOTS <= b->latest) {
        b->stale++;                 /* older than the calendar: its slots may have been reused */
        return now;
    }
    for (;;) {                      /* the first k free slots at or after s */
        for (i = 0; i < k; i++)
            if (b->booked[(t + i) & (CACHE_BUS_SLOTS - 1)] == t + i + 1)
                break;
        if (i == k)
            break;
        t += i + 1;                 /* slot t+i is taken: look after it */
    }
    for (i = 0; i < k; i++)
        b->booked[(t + i) & (CACHE_BUS_SLOTS - 1)] = t + i + 1;
    uint64_t t64 = s + (uint32_t)(t - (uint32_t)s);
    if (t64 + k - 1 > b->latest)
        b->latest = t64 + k - 1;
    return t64 == s ? now : t64 * b->slot_ns;
}

/* ---- the L2 and coherence ---- */

static void notify(struct cache_model *m, int to, int from, uint32_t line, bool inval)
{
    if (m->moved)
        m->moved(m, to, from, line, inval);
}

/* The presence counts (cache.h): how many lines of each index domain
 * dom's L2 holds. */
static inline uint8_t *presence(const struct cache_model *m, int dom, uint32_t line)
{
    return m->presence + (size_t)(line & (CACHE_PRESENCE - 1)) * (uint32_t)m->ndomains + (uint32_t)dom;
}

/* Domain dom loses its copy e of line (another domain's store, or an eviction). */
static void l2_invalidate(struct cache_model *m, int dom, struct cache_l2_line *e, uint32_t line)
{
    (*presence(m, dom, line))--;
    for (uint32_t c = 0; c < m->p.l2_cores; c++)
        if (e->l1_cores & (1u << c))
            l1_remove(m, cpu_of(m, dom, (int)c), line);
    e->tag = 0;
    e->state = CACHE_I;
    e->l1_cores = 0;
    e->dirty_core = 0;
}

/* Every copy of line outside domain dom: invalidated (a store) or made
 * shared (a load).  Returns the domain that held it modified (-1: none);
 * *others says whether any held it. */
static int snoop(struct cache_model *m, int cpu, uint32_t line, bool write, bool *others)
{
    int dom = domain_of(m, cpu), owner = -1;
    *others = false;
    const uint8_t *pres = presence(m, 0, line);
    for (int d = 0; d < m->ndomains; d++) {
        if (d == dom || !pres[d])
            continue;
        struct cache_l2_line *f = l2_find(m, d, line, NULL);
        if (!f)
            continue;
        *others = true;
        if (f->state == CACHE_M)
            owner = d;
        int from = cpu_of(m, d, f->dirty_core ? f->dirty_core - 1 : 0);
        if (write) {
            m->stats[cpu].invalidations++;
            notify(m, cpu, from, line, true);
            l2_invalidate(m, d, f, line);
        } else {
            f->state = CACHE_S;     /* M: written back as it is supplied (P6: HITM, both shared) */
            f->dirty_core = 0;
            for (uint32_t c = 0; c < m->p.l2_cores; c++)
                if (f->l1_cores & (1u << c))
                    filter_drop(m, cpu_of(m, d, (int)c), line, false);
        }
    }
    return owner;
}

/* line enters domain dom's L2 as its most recent; an empty way or the
 * least recent line leaves (out of the domain's L1s too: inclusion), a
 * modified one written back over the bus (occupancy, no stall). */
static struct cache_l2_line *l2_insert(struct cache_model *m, int cpu, uint32_t line, uint64_t now)
{
    int dom = domain_of(m, cpu);
    struct cache_l2_line *s = l2_set(m, dom, line);
    uint32_t w = m->l2_ways - 1;
    for (uint32_t i = 0; i < m->l2_ways; i++)
        if (!s[i].tag) {
            w = i;
            break;
        }
    if (s[w].tag) {
        uint32_t victim = s[w].tag - 1;
        if (s[w].state == CACHE_M) {
            m->stats[cpu].writebacks++;
            cache_bus_book(&m->bus, now, m->p.bus_ns);
        }
        l2_invalidate(m, dom, &s[w], victim);
    }
    for (uint32_t i = w; i > 0; i--)
        s[i] = s[i - 1];
    s[0] = (struct cache_l2_line){ .tag = line + 1 };
    (*presence(m, dom, line))++;
    return &s[0];
}

static void l2_touch(struct cache_model *m, int dom, uint32_t line, int w)
{
    struct cache_l2_line *s = l2_set(m, dom, line);
    struct cache_l2_line t = s[w];
    for (int i = w; i > 0; i--)
        s[i] = s[i - 1];
    s[0] = t;
}

/* cpu stores to line, whose L2 entry is e: it becomes modified and this
 * core's alone.  Returns the stall if the store stalls (an atomic). */
static uint64_t own(struct cache_model *m, int cpu, struct cache_l2_line *e, uint32_t line, uint64_t now)
{
    uint64_t stall = 0;
    int dom = domain_of(m, cpu), core = core_of(m, cpu);
    if (e->state == CACHE_S) {
        /* An invalidation on the bus: the other domains' copies go. */
        uint64_t start = cache_bus_book(&m->bus, now, m->p.bus_inval_ns);
        m->stats[cpu].bus_wait_ns += start - now;
        m->stats[cpu].upgrades++;
        stall = start - now + m->p.bus_inval_ns;
        bool others;
        snoop(m, cpu, line, true, &others);
    }
    e->state = CACHE_M;
    for (uint32_t c = 0; c < m->p.l2_cores; c++)
        if (c != (uint32_t)core && (e->l1_cores & (1u << c))) {
            l1_remove(m, cpu_of(m, dom, (int)c), line);
            m->stats[cpu].invalidations++;
            notify(m, cpu, cpu_of(m, dom, (int)c), line, true);
        }
    e->l1_cores &= (uint16_t)(1u << core);
    e->dirty_core = (uint8_t)(core + 1);
    return stall;
}

static uint64_t access_line(struct cache_model *m, int cpu, uint32_t line, uint32_t flags, uint64_t now)
{
    struct cache_stats *st = &m->stats[cpu];
    bool write = flags & (CACHE_WRITE | CACHE_ATOMIC);
    bool stalls = !(flags & CACHE_WRITE) || (flags & CACHE_ATOMIC);
    int dom = domain_of(m, cpu), core = core_of(m, cpu), way;
    uint64_t stall = 0, wait, wait0 = st->bus_wait_ns;
    st->accesses++;

    size_t l1b = l1_index(m, cpu, line);
    const uint32_t *l1s = m->l1 + l1b;
    int w1 = -1;
    for (uint32_t w = 0; w < m->l1_ways; w++)
        if (l1s[w] == line + 1) {
            w1 = (int)w;
            break;
        }
    struct cache_l2_line *e;
    if (w1 >= 0) {
        m->l1_stamp[l1b + (uint32_t)w1] = ++*m->lru_clock;
        e = l2_find(m, dom, line, NULL);     /* there: the L2 includes the L1 */
        if (write && e && !(e->state == CACHE_M && e->dirty_core == core + 1 && e->l1_cores == (1u << core)))
            stall = own(m, cpu, e, line, now);
    } else {
        st->l1_misses++;
        /* (the directory's count says when no line of this index is there) */
        e = *presence(m, dom, line) ? l2_find(m, dom, line, &way) : NULL;
        if (e) {
            l2_touch(m, dom, line, way);
            e = l2_set(m, dom, line);
            stall = m->p.l2_ns;
            if (e->dirty_core && e->dirty_core != core + 1) {
                /* Modified in another core's L1 of this L2: it comes from there. */
                int from = cpu_of(m, dom, e->dirty_core - 1);
                stall = m->p.l1_xfer_ns;
                st->l1_xfers++;
                notify(m, cpu, from, line, false);
                filter_drop(m, from, line, false);
                e->dirty_core = 0;
            }
            if (write && !(e->state == CACHE_M && e->l1_cores == 0 && !e->dirty_core))
                stall += own(m, cpu, e, line, now + stall);
            else if (write)
                e->dirty_core = (uint8_t)(core + 1);
        } else {
            st->l2_misses++;
            bool others;
            int owner = snoop(m, cpu, line, write, &others);
            uint64_t start = cache_bus_book(&m->bus, now, m->p.bus_ns);
            st->bus_wait_ns += start - now;
            stall = start - now;
            if (owner >= 0) {
                st->c2c++;
                stall += m->p.c2c_ns;
                if (!write)
                    notify(m, cpu, cpu_of(m, owner, 0), line, false);
            } else {
                stall += m->p.mem_ns;
            }
            e = l2_insert(m, cpu, line, now + stall);
            e->state = write ? CACHE_M : others ? CACHE_S : CACHE_E;
            if (write)
                e->dirty_core = (uint8_t)(core + 1);
        }
        w1 = l1_insert(m, cpu, line, l1b);
        e->l1_cores |= (uint16_t)(1u << core);
    }
    wait = st->bus_wait_ns - wait0;
    if (e)
        filter_set(m, cpu, line, (uint32_t)(l1b + (uint32_t)w1),
                   e->state == CACHE_M && e->dirty_core == core + 1 && e->l1_cores == (1u << core));
    if (!stalls)
        stall = wait;               /* the store buffer takes it once the bus does */
    st->stall_ns += stall;
    return stall;
}

uint64_t cache_access(struct cache_model *m, int cpu, uint32_t addr, uint32_t size, uint32_t flags, uint64_t now)
{
    uint32_t first = addr >> m->line_shift;
    uint32_t last = (addr + (size ? size - 1 : 0)) >> m->line_shift;
    uint64_t stall = 0;
    for (uint32_t line = first;; line++) {
        /* A range (a copy): a line the filters answer takes the fast
         * path's one change (cache_fast), as the callers' entry points do
         * for one access (the same result: test_cache.c). */
        if (first != last && m->rfilter && cache_fast(m, cpu, line << m->line_shift, flags))
            m->stats[cpu].accesses++;
        else
            stall += access_line(m, cpu, line, flags, now + stall);
        if (line == last)
            break;
    }
    return stall;
}

int cache_state(const struct cache_model *m, int cpu, uint32_t addr, bool *in_l1)
{
    uint32_t line = addr >> m->line_shift;
    if (in_l1)
        *in_l1 = l1_find(m, cpu, line) >= 0;
    const struct cache_l2_line *e = l2_find(m, domain_of(m, cpu), line, NULL);
    return e ? e->state : CACHE_I;
}

/* ---- set-up ---- */

static uint32_t ilog2(uint32_t x)
{
    uint32_t n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

size_t cache_model_bytes(const struct cache_preset *p, int ncpus, bool filters)
{
    int ndomains = (ncpus + (int)p->l2_cores - 1) / (int)p->l2_cores;
    size_t l1 = (size_t)ncpus * (p->l1_bytes / p->line_bytes) * 2 * sizeof(uint32_t);   /* tags, stamps */
    size_t l2 = (size_t)ndomains * (p->l2_bytes / p->line_bytes) * sizeof(struct cache_l2_line);
    size_t f = filters ? (size_t)ncpus * CACHE_FILTER_STRIDE * 2 * sizeof(uint32_t) : 0;
    size_t pres = (size_t)CACHE_PRESENCE * (size_t)ndomains;
    return sizeof(struct cache_model) + l1 + l2 + f + pres;
}

static uint32_t scale(uint32_t ns, uint32_t pct) { return (uint32_t)((uint64_t)ns * pct / 100); }

struct cache_model *cache_init(void *mem, const struct cache_preset *p, int ncpus, uint32_t lat_pct, bool filters,
                               const char **why)
{
    if (ncpus < 1 || ncpus > CACHE_MAX_CPUS) {
        *why = "cpus out of range";
        return NULL;
    }
    if (!pow2(p->line_bytes) || p->line_bytes < (1u << CACHE_CHUNK_SHIFT) || !p->l1_ways || !p->l2_ways ||
        !pow2(p->l1_bytes / p->line_bytes / p->l1_ways) || !pow2(p->l2_bytes / p->line_bytes / p->l2_ways) ||
        p->l1_bytes % (p->line_bytes * p->l1_ways) || p->l2_bytes % (p->line_bytes * p->l2_ways) ||
        p->l2_bytes / p->line_bytes / p->l2_ways > CACHE_PRESENCE || p->l2_ways > 255 ||
        !p->l2_cores || p->l2_cores > 16) {
        *why = "the preset's geometry is not a power-of-two set count";
        return NULL;
    }
    struct cache_model *m = mem;
    memset(mem, 0, cache_model_bytes(p, ncpus, filters));
    m->p = *p;
    m->p.l2_ns = scale(p->l2_ns, lat_pct);
    m->p.mem_ns = scale(p->mem_ns, lat_pct);
    m->p.c2c_ns = scale(p->c2c_ns, lat_pct);
    m->p.l1_xfer_ns = scale(p->l1_xfer_ns, lat_pct);
    m->p.bus_ns = scale(p->bus_ns, lat_pct);
    m->p.bus_inval_ns = scale(p->bus_inval_ns, lat_pct);
    m->ncpus = ncpus;
    for (int c = 0; c < ncpus; c++) {
        m->dom_of[c] = (uint8_t)(c / (int)p->l2_cores);
        m->core_of[c] = (uint8_t)(c % (int)p->l2_cores);
    }
    m->ndomains = (ncpus + (int)p->l2_cores - 1) / (int)p->l2_cores;
    m->line_shift = ilog2(p->line_bytes);
    m->l1_ways = p->l1_ways;
    m->l1_sets = p->l1_bytes / p->line_bytes / p->l1_ways;
    m->l2_ways = p->l2_ways;
    m->l2_sets = p->l2_bytes / p->line_bytes / p->l2_ways;
    char *q = (char *)(m + 1);
    m->l1 = (uint32_t *)q;
    q += (size_t)ncpus * m->l1_sets * m->l1_ways * sizeof(uint32_t);
    m->l1_stamp = (uint32_t *)q;
    q += (size_t)ncpus * m->l1_sets * m->l1_ways * sizeof(uint32_t);
    m->lru_clock = &m->own_clock;
    m->l2 = (struct cache_l2_line *)q;
    q += (size_t)m->ndomains * m->l2_sets * m->l2_ways * sizeof(struct cache_l2_line);
    if (filters) {
        m->rfilter = (uint32_t *)q;
        q += (size_t)ncpus * CACHE_FILTER_STRIDE * sizeof(uint32_t);
        m->wfilter = (uint32_t *)q;
        q += (size_t)ncpus * CACHE_FILTER_STRIDE * sizeof(uint32_t);
        /* CACHE_FILTER_EMPTY chunks, stamp index 0 */
        for (int c = 0; c < ncpus; c++) {
            memset(m->rfilter + (size_t)c * CACHE_FILTER_STRIDE, 0xff, CACHE_FILTER * sizeof(uint32_t));
            memset(m->wfilter + (size_t)c * CACHE_FILTER_STRIDE, 0xff, CACHE_FILTER * sizeof(uint32_t));
        }
    }
    m->presence = (uint8_t *)q;
    q += (size_t)CACHE_PRESENCE * (size_t)m->ndomains;
    uint32_t slot = m->p.bus_inval_ns && m->p.bus_inval_ns < m->p.bus_ns ? m->p.bus_inval_ns : m->p.bus_ns;
    m->bus.slot_ns = slot;
    return m;
}
