/* The memory model (kernel/machine/cache.c): hits and misses by geometry,
 * LRU, inclusion, MESI between private L2s, the shared L2 of a Core 2,
 * the bus's queue in virtual time, the fast-path filters, and the presets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/machine/cache.h"

/* A small machine whose numbers are easy to read. */
static const struct cache_preset toy = {
    .name = "toy", .title = "toy", .line_bytes = 32,
    .l1_bytes = 4 * 32 * 2, .l1_ways = 2,        /* 4 sets x 2 ways */
    .l2_bytes = 16 * 32 * 4, .l2_ways = 4,       /* 16 sets x 4 ways */
    .l2_cores = 1, .l2_ns = 10, .mem_ns = 100, .c2c_ns = 60, .l1_xfer_ns = 0, .bus_ns = 40, .bus_inval_ns = 20,
};

static struct cache_model *make(const struct cache_preset *p, int ncpus, uint32_t pct, bool filters)
{
    const char *why = NULL;
    void *mem = malloc(cache_model_bytes(p, ncpus, filters));
    struct cache_model *m = cache_init(mem, p, ncpus, pct, filters, &why);
    assert_non_null(m);
    return m;
}

#define LD(m, cpu, a, t) cache_access(m, cpu, a, 4, 0, t)
#define ST(m, cpu, a, t) cache_access(m, cpu, a, 4, CACHE_WRITE, t)

static void test_memory_l2_l1(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 1, 100, false);
    assert_int_equal(LD(m, 0, 0x1000, 1000), 100);       /* from memory, bus free */
    assert_int_equal(LD(m, 0, 0x1004, 2000), 0);         /* same line: L1 hit */
    assert_int_equal(m->stats[0].l2_misses, 1);
    assert_int_equal(m->stats[0].l1_misses, 1);
    /* Three more lines of the same L1 set (4 sets: a stride of 128 bytes)
     * push 0x1000 out of the 2-way L1 but not out of the L2. */
    LD(m, 0, 0x1080, 3000);
    LD(m, 0, 0x1100, 4000);
    assert_int_equal(LD(m, 0, 0x1000, 5000), 10);        /* L2 hit */
    bool in_l1;
    assert_int_equal(cache_state(m, 0, 0x1000, &in_l1), CACHE_E);
    assert_true(in_l1);
    free(m);
}

static void test_lru(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 1, 100, false);
    /* L1 set 0, 2 ways: a, b, a again (a most recent), c evicts b, not a. */
    LD(m, 0, 0x0000, 0);
    LD(m, 0, 0x0080, 1000);
    LD(m, 0, 0x0000, 2000);
    LD(m, 0, 0x0100, 3000);
    bool in_l1;
    cache_state(m, 0, 0x0000, &in_l1);
    assert_true(in_l1);
    cache_state(m, 0, 0x0080, &in_l1);
    assert_false(in_l1);
    free(m);
}

static void test_l2_eviction_and_inclusion(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 1, 100, false);
    /* L2: 16 sets x 4 ways, a stride of 512 bytes maps to one L2 set. */
    for (int i = 0; i < 5; i++)
        LD(m, 0, 0x10000 + 512 * i, 1000 * (i + 1));
    bool in_l1;
    assert_int_equal(cache_state(m, 0, 0x10000, &in_l1), CACHE_I);   /* the least recent left the L2 ... */
    assert_false(in_l1);                                              /* ... and so the L1 */
    assert_int_equal(cache_state(m, 0, 0x10000 + 512 * 4, &in_l1), CACHE_E);
    /* A modified victim is written back over the bus. */
    ST(m, 0, 0x10000 + 512 * 1, 10000);
    for (int i = 5; i < 9; i++)
        LD(m, 0, 0x10000 + 512 * i, 20000 + 1000 * i);
    assert_int_equal(m->stats[0].writebacks, 1);
    free(m);
}

static void test_mesi_two_cpus(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 2, 100, false);
    bool in_l1;
    /* cpu 0 reads: E.  cpu 1 reads: both S, from memory. */
    assert_int_equal(LD(m, 0, 0x2000, 0), 100);
    assert_int_equal(cache_state(m, 0, 0x2000, NULL), CACHE_E);
    assert_int_equal(LD(m, 1, 0x2000, 1000), 100);
    assert_int_equal(cache_state(m, 0, 0x2000, NULL), CACHE_S);
    assert_int_equal(cache_state(m, 1, 0x2000, NULL), CACHE_S);
    /* cpu 0 stores: an upgrade invalidates cpu 1's copy; a store does not
     * wait for data, and the bus is free. */
    assert_int_equal(ST(m, 0, 0x2000, 2000), 0);
    assert_int_equal(m->stats[0].upgrades, 1);
    assert_int_equal(m->stats[0].invalidations, 1);
    assert_int_equal(cache_state(m, 0, 0x2000, NULL), CACHE_M);
    assert_int_equal(cache_state(m, 1, 0x2000, &in_l1), CACHE_I);
    assert_false(in_l1);
    /* cpu 1 reads it: a cache-to-cache transfer, both shared after. */
    assert_int_equal(LD(m, 1, 0x2000, 3000), 60);
    assert_int_equal(m->stats[1].c2c, 1);
    assert_int_equal(cache_state(m, 0, 0x2000, NULL), CACHE_S);
    assert_int_equal(cache_state(m, 1, 0x2000, NULL), CACHE_S);
    /* cpu 1 stores to a line cpu 0 holds modified: the read-for-ownership
     * takes it from cpu 0 (invalidated); no stall for a store, but an
     * atomic stalls as a load. */
    ST(m, 0, 0x3000, 4000);
    assert_int_equal(cache_access(m, 1, 0x3000, 4, CACHE_ATOMIC, 5000), 60);
    assert_int_equal(cache_state(m, 0, 0x3000, NULL), CACHE_I);
    assert_int_equal(cache_state(m, 1, 0x3000, NULL), CACHE_M);
    free(m);
}

static void test_bus_queue(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 4, 100, false);
    /* Four CPUs miss at the same time: the bus takes them one after another. */
    assert_int_equal(LD(m, 0, 0x4000, 1000), 100);
    assert_int_equal(LD(m, 1, 0x5000, 1000), 140);
    assert_int_equal(LD(m, 2, 0x6000, 1000), 180);
    /* Out of time order: a request before the others' fits in a free slot. */
    assert_int_equal(LD(m, 3, 0x7000, 900), 100);
    assert_int_equal(m->stats[2].bus_wait_ns, 80);
    /* A request long after: no wait. */
    assert_int_equal(LD(m, 3, 0x8000, 100000), 100);
    /* Far older than the calendar: taken without a wait, counted. */
    LD(m, 0, 0x9000, 10000000);
    assert_int_equal(LD(m, 1, 0xa000, 1000), 100);
    assert_int_equal(m->bus.stale, 1);
    free(m);
}

static void test_store_waits_for_bus(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 2, 100, false);
    /* cpu 1 fills the bus; cpu 0's store at the same time waits for it,
     * not for the data (a load would stall 40 + 100). */
    LD(m, 1, 0x5000, 1000);
    assert_int_equal(ST(m, 0, 0x6000, 1000), 40);
    assert_int_equal(LD(m, 0, 0x7000, 1000), 80 + 100);
    free(m);
}

static void test_zero_latency(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 2, 0, false);
    assert_int_equal(LD(m, 0, 0x2000, 0), 0);
    assert_int_equal(ST(m, 1, 0x2000, 0), 0);
    assert_int_equal(cache_access(m, 0, 0x2000, 4, CACHE_ATOMIC, 0), 0);
    assert_int_equal(m->stats[0].c2c, 1);               /* the events still happen */
    free(m);
}

static void test_range(void **state)
{
    (void)state;
    struct cache_model *m = make(&toy, 1, 100, false);
    /* 100 bytes from 0x1010: lines 0x1000, 0x1020, 0x1040, 0x1060 (4 lines). */
    cache_access(m, 0, 0x1010, 100, 0, 0);
    assert_int_equal(m->stats[0].accesses, 4);
    assert_int_equal(m->stats[0].l2_misses, 4);
    free(m);
}

static void test_shared_l2(void **state)
{
    (void)state;
    const struct cache_preset *p = cache_preset_find("core2-duo");
    assert_non_null(p);
    struct cache_model *m = make(p, 2, 100, false);
    assert_int_equal(m->ndomains, 1);
    /* core 0 writes, core 1 reads: from core 0's L1 through the shared L2. */
    ST(m, 0, 0x1000, 0);
    assert_int_equal(LD(m, 1, 0x1000, 1000), p->l1_xfer_ns);
    assert_int_equal(m->stats[1].l1_xfers, 1);
    assert_int_equal(m->stats[1].l2_misses, 0);
    /* core 1 writes: core 0's L1 copy goes; core 0 reads it back from core 1. */
    ST(m, 1, 0x1000, 2000);
    bool in_l1;
    cache_state(m, 0, 0x1000, &in_l1);
    assert_false(in_l1);
    assert_int_equal(LD(m, 0, 0x1000, 3000), p->l1_xfer_ns);
    /* A line only in the L2: an L2 hit. */
    LD(m, 0, 0x100000, 4000);
    for (int i = 1; i <= 8; i++)
        LD(m, 0, 0x100000 + i * 4096, 5000 + i);     /* push it out of the 8-way L1 */
    assert_int_equal(LD(m, 1, 0x100000, 10000), p->l2_ns);
    free(m);
}

/* The filters say exactly: a load of a filtered line is an L1 hit on the
 * most recent way (nothing to update), a store of a write-filtered line is
 * that and owned modified. */
static void check_filters(struct cache_model *m)
{
    for (int cpu = 0; cpu < m->ncpus; cpu++)
        for (int slot = 0; slot < CACHE_FILTER; slot++) {
            uint32_t r = m->rfilter[cpu * CACHE_FILTER + slot], w = m->wfilter[cpu * CACHE_FILTER + slot];
            if (w != CACHE_FILTER_EMPTY)
                assert_int_equal(r, w);
            if (r == CACHE_FILTER_EMPTY)
                continue;
            uint32_t addr = r << CACHE_CHUNK_SHIFT;
            uint32_t line = addr >> m->line_shift;
            uint32_t *set = m->l1 + ((size_t)cpu * m->l1_sets + (line & (m->l1_sets - 1))) * m->l1_ways;
            assert_int_equal(set[0], line + 1);
            if (w != CACHE_FILTER_EMPTY)
                assert_int_equal(cache_state(m, cpu, addr, NULL), CACHE_M);
        }
}

static void test_filters_exact(void **state)
{
    (void)state;
    const struct cache_preset *presets[] = { &toy, cache_preset_find("core2-duo") };
    for (int k = 0; k < 2; k++) {
        struct cache_model *m = make(presets[k], 4, 100, true);
        uint32_t seed = 12345;
        for (int i = 0; i < 20000; i++) {
            seed = seed * 1103515245 + 12345;
            int cpu = (seed >> 8) % 4;
            uint32_t addr = ((seed >> 12) % 64) * 32 + ((seed >> 20) % 4) * 0x10000;
            uint32_t flags = (seed >> 28) % 3 == 0 ? CACHE_WRITE : 0;
            uint32_t chunk = addr >> CACHE_CHUNK_SHIFT, slot = chunk & (CACHE_FILTER - 1);
            bool rhit = m->rfilter[cpu * CACHE_FILTER + slot] == chunk;
            bool whit = m->wfilter[cpu * CACHE_FILTER + slot] == chunk;
            uint64_t before = m->stats[cpu].l1_misses, inv = m->stats[cpu].invalidations;
            uint64_t stall = cache_access(m, cpu, addr, 4, flags, (uint64_t)i * 10);
            if ((flags ? whit : rhit)) {
                /* what the fast path would have skipped changes nothing */
                assert_int_equal(stall, 0);
                assert_int_equal(m->stats[cpu].l1_misses, before);
                assert_int_equal(m->stats[cpu].invalidations, inv);
            }
            if (i % 97 == 0)
                check_filters(m);
        }
        check_filters(m);
        free(m);
    }
}

static void test_presets(void **state)
{
    (void)state;
    const char *why;
    int n = 0;
    for (const struct cache_preset *p = cache_presets; p->name; p++, n++) {
        void *mem = malloc(cache_model_bytes(p, 8, true));
        assert_non_null(cache_init(mem, p, 8, 100, true, &why));
        free(mem);
    }
    assert_int_equal(n, 3);
    const struct cache_preset *p = cache_preset_find("piii-xeon-1m");
    assert_non_null(p);
    assert_int_equal(p->line_bytes, 32);
    assert_int_equal(p->l2_bytes / p->line_bytes / p->l2_ways, 4096);     /* sets */
    /* 8 KB-aligned blocks (2.4's task structures) fall into L2 size / 8 KB lines */
    assert_int_equal(p->l2_bytes / 8192, 128);
    assert_int_equal(p->bus_ns, 40);                                      /* 32 bytes at 800 MB/s */
    assert_int_equal(p->mem_ns, 155);
    assert_null(cache_preset_find("pentium-9"));
    struct cache_preset bad = *p;
    bad.l2_bytes = 3 * 1024 * 1024;
    void *mem = malloc(cache_model_bytes(&bad, 1, false));
    assert_null(cache_init(mem, &bad, 1, 100, false, &why));
    free(mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_l2_l1),
        cmocka_unit_test(test_lru),
        cmocka_unit_test(test_l2_eviction_and_inclusion),
        cmocka_unit_test(test_mesi_two_cpus),
        cmocka_unit_test(test_bus_queue),
        cmocka_unit_test(test_store_waits_for_bus),
        cmocka_unit_test(test_zero_latency),
        cmocka_unit_test(test_range),
        cmocka_unit_test(test_shared_l2),
        cmocka_unit_test(test_filters_exact),
        cmocka_unit_test(test_presets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
