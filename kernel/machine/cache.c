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

static inline uint32_t *l1_set(const struct cache_model *m, int cpu, uint32_t line)
{
    return m->l1 + ((size_t)cpu * m->l1_sets + (line & (m->l1_sets - 1))) * m->l1_ways;
}

static inline struct cache_l2_line *l2_set(const struct cache_model *m, int dom, uint32_t line)
{
    return m->l2 + ((size_t)dom * m->l2_sets + (line & (m->l2_sets - 1))) * m->l2_ways;
}

static inline int domain_of(const struct cache_model *m, int cpu) { return cpu / (int)m->p.l2_cores; }
static inline int core_of(const struct cache_model *m, int cpu) { return cpu % (int)m->p.l2_cores; }
static inline int cpu_of(const struct cache_model *m, int dom, int core) { return dom * (int)m->p.l2_cores + core; }

static bool pow2(uint32_t x) { return x && !(x & (x - 1)); }

/* ---- the fast-path filters (memhooks.c) ---- */

static void filter_drop(struct cache_model *m, int cpu, uint32_t line, bool reads_too)
{
    if (!m->rfilter)
        return;
    uint32_t chunks = m->p.line_bytes >> CACHE_CHUNK_SHIFT;
    uint32_t first = line << (m->line_shift - CACHE_CHUNK_SHIFT);
    uint32_t *rf = m->rfilter + (size_t)cpu * CACHE_FILTER, *wf = m->wfilter + (size_t)cpu * CACHE_FILTER;
    for (uint32_t c = first; c < first + chunks; c++) {
        uint32_t slot = c & (CACHE_FILTER - 1);
        if (wf[slot] == c)
            wf[slot] = CACHE_FILTER_EMPTY;
        if (reads_too && rf[slot] == c)
            rf[slot] = CACHE_FILTER_EMPTY;
    }
}

static void filter_set(struct cache_model *m, int cpu, uint32_t line, bool writable)
{
    if (!m->rfilter)
        return;
    uint32_t chunks = m->p.line_bytes >> CACHE_CHUNK_SHIFT;
    uint32_t first = line << (m->line_shift - CACHE_CHUNK_SHIFT);
    uint32_t *rf = m->rfilter + (size_t)cpu * CACHE_FILTER, *wf = m->wfilter + (size_t)cpu * CACHE_FILTER;
    for (uint32_t c = first; c < first + chunks; c++) {
        uint32_t slot = c & (CACHE_FILTER - 1);
        rf[slot] = c;
        wf[slot] = writable ? c : (wf[slot] == c ? CACHE_FILTER_EMPTY : wf[slot]);
    }
}

/* ---- L1 ---- */

static int l1_find(const struct cache_model *m, int cpu, uint32_t line)
{
    const uint32_t *s = l1_set(m, cpu, line);
    for (uint32_t w = 0; w < m->l1_ways; w++)
        if (s[w] == line + 1)
            return (int)w;
    return -1;
}

/* Way w becomes the most recent: the previous most recent line is no longer
 * what a filter entry says. */
static void l1_touch(struct cache_model *m, int cpu, uint32_t line, int w)
{
    uint32_t *s = l1_set(m, cpu, line);
    if (w == 0)
        return;
    if (s[0])
        filter_drop(m, cpu, s[0] - 1, true);
    uint32_t t = s[w];
    for (int i = w; i > 0; i--)
        s[i] = s[i - 1];
    s[0] = t;
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
    uint32_t *s = l1_set(m, cpu, line);
    for (uint32_t w = 0; w < m->l1_ways; w++)
        if (s[w] == line + 1) {
            for (uint32_t i = w; i + 1 < m->l1_ways; i++)
                s[i] = s[i + 1];
            s[m->l1_ways - 1] = 0;
            filter_drop(m, cpu, line, true);
            return;
        }
}

/* line enters cpu's L1 as its most recent; the least recent (or an empty
 * way) leaves: a line modified in this L1 goes back to the L2 (on-die,
 * not charged). */
static void l1_insert(struct cache_model *m, int cpu, uint32_t line)
{
    uint32_t *s = l1_set(m, cpu, line);
    uint32_t w = m->l1_ways - 1;
    for (uint32_t i = 0; i < m->l1_ways; i++)
        if (!s[i]) {
            w = i;
            break;
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
    if (s[0] && w != 0)
        filter_drop(m, cpu, s[0] - 1, true);
    for (uint32_t i = w; i > 0; i--)
        s[i] = s[i - 1];
    s[0] = line + 1;
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
    uint64_t k = ((uint32_t)ns + slot - 1) / slot;
    uint64_t s = div_u64_u32(now, slot);
    b->busy_ns += ns;
    if (b->latest >= CACHE_BUS_SLOTS && s + CACHE_BUS_SLOTS <= b->latest) {
        b->stale++;                 /* older than the calendar: its slots may have been reused */
        return now;
    }
    for (uint64_t t = s;; t++) {
        uint64_t i = 0;
        while (i < k && b->booked[(t + i) % CACHE_BUS_SLOTS] != (uint32_t)(t + i + 1))
            i++;
        if (i < k) {
            t += i;                 /* slot t+i is taken: look after it */
            continue;
        }
        for (i = 0; i < k; i++)
            b->booked[(t + i) % CACHE_BUS_SLOTS] = (uint32_t)(t + i + 1);
        if (t + k - 1 > b->latest)
            b->latest = t + k - 1;
        return t == s ? now : t * b->slot_ns;
    }
}

/* ---- the L2 and coherence ---- */

static void notify(struct cache_model *m, int to, int from, uint32_t line, bool inval)
{
    if (m->moved)
        m->moved(m, to, from, line, inval);
}

/* Domain dom loses its copy e of line (another domain's store). */
static void l2_invalidate(struct cache_model *m, int dom, struct cache_l2_line *e, uint32_t line)
{
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
    for (int d = 0; d < m->ndomains; d++) {
        if (d == dom)
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

    int w1 = l1_find(m, cpu, line);
    struct cache_l2_line *e;
    if (w1 >= 0) {
        l1_touch(m, cpu, line, w1);
        e = l2_find(m, dom, line, NULL);     /* there: the L2 includes the L1 */
        if (write && e && !(e->state == CACHE_M && e->dirty_core == core + 1 && e->l1_cores == (1u << core)))
            stall = own(m, cpu, e, line, now);
    } else {
        st->l1_misses++;
        e = l2_find(m, dom, line, &way);
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
        l1_insert(m, cpu, line);
        e->l1_cores |= (uint16_t)(1u << core);
    }
    wait = st->bus_wait_ns - wait0;
    if (e)
        filter_set(m, cpu, line, e->state == CACHE_M && e->dirty_core == core + 1 && e->l1_cores == (1u << core));
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
    size_t l1 = (size_t)ncpus * (p->l1_bytes / p->line_bytes) * sizeof(uint32_t);
    size_t l2 = (size_t)ndomains * (p->l2_bytes / p->line_bytes) * sizeof(struct cache_l2_line);
    size_t f = filters ? (size_t)ncpus * CACHE_FILTER * 2 * sizeof(uint32_t) : 0;
    return sizeof(struct cache_model) + l1 + l2 + f;
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
    m->ndomains = (ncpus + (int)p->l2_cores - 1) / (int)p->l2_cores;
    m->line_shift = ilog2(p->line_bytes);
    m->l1_ways = p->l1_ways;
    m->l1_sets = p->l1_bytes / p->line_bytes / p->l1_ways;
    m->l2_ways = p->l2_ways;
    m->l2_sets = p->l2_bytes / p->line_bytes / p->l2_ways;
    char *q = (char *)(m + 1);
    m->l1 = (uint32_t *)q;
    q += (size_t)ncpus * m->l1_sets * m->l1_ways * sizeof(uint32_t);
    m->l2 = (struct cache_l2_line *)q;
    q += (size_t)m->ndomains * m->l2_sets * m->l2_ways * sizeof(struct cache_l2_line);
    if (filters) {
        m->rfilter = (uint32_t *)q;
        q += (size_t)ncpus * CACHE_FILTER * sizeof(uint32_t);
        m->wfilter = (uint32_t *)q;
        memset(m->rfilter, 0xff, (size_t)ncpus * CACHE_FILTER * 2 * sizeof(uint32_t));   /* CACHE_FILTER_EMPTY */
    }
    uint32_t slot = m->p.bus_inval_ns && m->p.bus_inval_ns < m->p.bus_ns ? m->p.bus_inval_ns : m->p.bus_ns;
    m->bus.slot_ns = slot;
    return m;
}
