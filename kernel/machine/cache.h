/*
 * The memory model of the machine layer (docs/caches.md): per logical CPU a
 * private L1 data cache, an L2 that is private or shared by the cores of a
 * package, MESI coherence between the L2s (the caches that snoop the bus),
 * memory, and the front-side bus as one shared resource in virtual time.
 *
 * This file and cache.c are plain C with no kernel dependency: the kernel
 * (kernel/machine/memhooks.c) calls cache_access() for every load and store
 * of the current logical CPU, and tests/host/test_cache.c drives it on the
 * host.  Times are nanoseconds of the accessing CPU's local clock; what
 * cache_access() returns is the stall the caller adds to that clock.
 *
 * The model (each point a simplification listed in docs/caches.md):
 *   - L1: set-associative, true LRU, write-back, write-allocate; its lines
 *     are a subset of the L2's (inclusion: an L2 eviction or invalidation
 *     removes the L1 copy).
 *   - L2: set-associative, true LRU; the coherence state (MESI) of a line
 *     lives here, one per L2 (a "domain": a CPU, or the cores sharing it).
 *   - A load that misses the L1 and hits the L2 stalls l2_ns; one that
 *     misses the L2 is a bus transaction: it waits for the bus, then stalls
 *     mem_ns, or c2c_ns when another L2 holds the line modified (HITM: the
 *     owner supplies it and both keep it shared, as the P6 bus did).
 *   - A store does not wait for its data (the store buffer hides the
 *     latency) but does wait for the bus to take its transaction (the
 *     buffer drains at the bus's pace: without that a burst of stores
 *     would run ahead of the bus without limit), and does everything else:
 *     the read-for-ownership or invalidation, the other copies
 *     invalidated, the line made modified.  A locked (atomic) access
 *     stalls like a load and also takes ownership.
 *   - Within a shared L2, a line modified in another core's L1 costs
 *     l1_xfer_ns to read, and a store invalidates the other cores' L1 copies.
 *   - The bus: each transaction occupies it for bus_ns (a line's data
 *     transfer; an invalidation bus_inval_ns); a transaction waits until the
 *     bus is free.  Requests arrive out of time order (vsmp runs the logical
 *     CPUs in turns, up to a quantum apart), so the bus keeps a calendar of
 *     booked slots over a window and a transaction takes the first free
 *     slots at or after its time.
 *   - Dirty evictions write back over the bus (occupancy, no stall).
 *   - No prefetching, no instruction fetches, no TLB, no memory-level
 *     parallelism (a miss stalls for its whole latency).
 */
#ifndef KERNEL_MACHINE_CACHE_H
#define KERNEL_MACHINE_CACHE_H

#include "../types.h"

#define CACHE_MAX_CPUS MAX_CPUS

/* A named machine (presets.c; docs/caches.md cites every figure). */
struct cache_preset {
    const char *name;           /* machine= word */
    const char *title;          /* what machine it stands for */
    uint32_t line_bytes;        /* 32 (P6) or 64 (Pentium 4, Core 2) */
    uint32_t l1_bytes, l1_ways; /* L1 data cache of one core */
    uint32_t l2_bytes, l2_ways; /* one L2 */
    uint32_t l2_cores;          /* cores that share one L2 (1: private) */
    uint32_t l2_ns;             /* stall of an L1 miss that hits the L2 */
    uint32_t mem_ns;            /* stall of an L2 miss served by memory (bus wait not included) */
    uint32_t c2c_ns;            /* ... served by another L2's modified copy */
    uint32_t l1_xfer_ns;        /* shared L2: a line modified in another core's L1 */
    uint32_t bus_ns;            /* bus occupancy of one line transfer */
    uint32_t bus_inval_ns;      /* ... of an invalidation (address only) */
};

extern const struct cache_preset cache_presets[];   /* ends with a NULL name */
const struct cache_preset *cache_preset_find(const char *name);

enum { CACHE_I = 0, CACHE_S = 1, CACHE_E = 2, CACHE_M = 3 };

/* An access: what it is. */
#define CACHE_WRITE 1u
#define CACHE_ATOMIC 2u         /* a locked read-modify-write: stalls, takes ownership */

/* What happened to an access, and per CPU totals (memstat lines). */
struct cache_stats {
    uint64_t accesses;
    uint64_t l1_misses;
    uint64_t l2_misses;         /* bus transactions for data (memory or cache-to-cache) */
    uint64_t c2c;               /* L2 misses served by another L2's modified copy */
    uint64_t l1_xfers;          /* shared L2: lines taken from another core's L1 */
    uint64_t upgrades;          /* stores to a shared line: an invalidation on the bus */
    uint64_t invalidations;     /* copies in other caches this CPU's stores invalidated */
    uint64_t writebacks;        /* dirty lines evicted */
    uint64_t bus_wait_ns;       /* waiting for the bus */
    uint64_t stall_ns;          /* everything this CPU's clock was advanced by */
};

/* An L2 line: the coherence state and, for a shared L2, which cores' L1s
 * hold it and which one (if any) holds it modified. */
struct cache_l2_line {
    uint32_t tag;               /* line number + 1; 0: invalid */
    uint8_t state;              /* CACHE_S, E, M (I when tag is 0) */
    uint8_t dirty_core;         /* shared L2: core index within the domain + 1, whose L1 has it modified */
    uint16_t l1_cores;          /* shared L2: bit per core of the domain whose L1 holds it */
};

#define CACHE_BUS_SLOTS 8192    /* the bus calendar's window, in slots */

struct cache_bus {
    uint64_t slot_ns;           /* a slot's length (the smallest occupancy) */
    uint64_t latest;            /* the latest slot booked */
    uint64_t stale;             /* requests older than the window (taken without a wait) */
    uint64_t busy_ns;           /* total occupancy */
    uint32_t booked[CACHE_BUS_SLOTS];   /* slot number + 1 that booked it (mod the window) */
};

/* Observers (the kernel's per-object report and trace events). */
struct cache_model;
typedef void (*cache_line_moved_fn)(struct cache_model *m, int to_cpu, int from_cpu, uint32_t line, bool invalidation);

struct cache_model {
    struct cache_preset p;      /* the preset with latencies scaled (lat_pct) */
    int ncpus, ndomains;
    uint32_t line_shift;
    uint32_t l1_sets, l1_ways, l2_sets, l2_ways;
    uint32_t *l1;               /* [cpu][set][way] line number + 1 (0: empty) */
    uint32_t *l1_stamp;         /* [cpu][set][way] the LRU clock when the way was last used */
    uint32_t *lru_clock;        /* one counter for every CPU's L1 (the callers' fast path bumps it too) */
    uint32_t own_clock;         /* lru_clock's default */
    struct cache_l2_line *l2;   /* [domain][set][way], way 0 most recent */
    struct cache_stats stats[CACHE_MAX_CPUS];
    struct cache_bus bus;
    cache_line_moved_fn moved;  /* NULL: none */
    /* Which L2s may hold a line (the snoop's directory, so that a miss looks
     * only in those): per index (line number mod CACHE_PRESENCE) and
     * domain, how many lines of that index the domain's L2 holds.  Every
     * preset has at most CACHE_PRESENCE sets, so lines of one index share
     * a set and a count is at most the L2's ways. */
    uint8_t *presence;          /* [CACHE_PRESENCE][ndomains] */
    /* The filters of the callers' fast path (memhooks.c, memhook-thunks.S):
     * each CPU's read filter says "this line is in the CPU's L1" (a load of
     * it only makes it the most recent of its set: *lru_clock + 1 into the
     * way's stamp, l1_stamp[the entry's second word]) and the write
     * filter "and the CPU owns it modified" (nor does a store change more).
     * The model keeps them exact: it adds and removes entries as lines
     * move.  NULL: no filters.  A CPU's filter is CACHE_FILTER_STRIDE
     * words: CACHE_FILTER chunk numbers (address >> 5, or
     * CACHE_FILTER_EMPTY), then CACHE_FILTER indices into l1_stamp. */
    uint32_t *rfilter, *wfilter;
    uint8_t dom_of[CACHE_MAX_CPUS], core_of[CACHE_MAX_CPUS];   /* each CPU's L2 and its core index in it */
};

#define CACHE_FILTER 4096           /* entries per CPU, direct mapped by 32-byte chunk (128 KB: few conflicts among the L1's lines) */
#define CACHE_FILTER_STRIDE (2 * CACHE_FILTER)
#define CACHE_PRESENCE (1u << 18)   /* the snoop directory's indices (8 MB of 32-byte lines) */
#define CACHE_CHUNK_SHIFT 5
#define CACHE_FILTER_EMPTY 0xffffffffu  /* no chunk number (addresses are 32 bits) */

/* Bytes of memory cache_init needs for these parameters (the caller gives them). */
size_t cache_model_bytes(const struct cache_preset *p, int ncpus, bool filters);
/* Sets up the model in mem (cache_model_bytes of it, zeroed or not); lat_pct
 * scales every latency and occupancy (100: the preset's; 0: none, for the
 * exactness check).  Returns NULL with *why set when the preset is unusable. */
struct cache_model *cache_init(void *mem, const struct cache_preset *p, int ncpus, uint32_t lat_pct, bool filters,
                               const char **why);
/* One access of `cpu` at its local time `now`, of the bytes [addr, addr+size)
 * (a range across lines is one access per line); returns the stall. */
uint64_t cache_access(struct cache_model *m, int cpu, uint32_t addr, uint32_t size, uint32_t flags, uint64_t now);
/* What the callers' fast path does for an access its filter answers
 * (memhook-thunks.S; tests/host/test_cache.c checks that it equals
 * cache_access): the line becomes the most recent of its L1 set.  Returns
 * false when the filter does not answer (the caller calls cache_access). */
static inline bool cache_fast(struct cache_model *m, int cpu, uint32_t addr, uint32_t flags)
{
    uint32_t chunk = addr >> CACHE_CHUNK_SHIFT, slot = chunk & (CACHE_FILTER - 1);
    uint32_t *f = (flags & (CACHE_WRITE | CACHE_ATOMIC) ? m->wfilter : m->rfilter) + (size_t)cpu * CACHE_FILTER_STRIDE;
    if (f[slot] != chunk)
        return false;
    m->l1_stamp[f[CACHE_FILTER + slot]] = ++*m->lru_clock;
    return true;
}
/* cpu's filters forget the line of addr (the next access to it takes the
 * slow path; the model is unchanged). */
void cache_filter_forget(struct cache_model *m, int cpu, uint32_t addr);
/* The state of a line in cpu's L2 (CACHE_I if absent) and whether its L1 has it. */
int cache_state(const struct cache_model *m, int cpu, uint32_t addr, bool *in_l1);
/* Books a bus transaction of `ns` at time `now`; returns when it starts. */
uint64_t cache_bus_book(struct cache_bus *b, uint64_t now, uint64_t ns);

#endif
