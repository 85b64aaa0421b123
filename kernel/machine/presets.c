/*
 * The named machines of machine= (docs/caches.md has the table with every
 * source; tests/host/test_cache.c checks these figures against it).
 *
 * Latencies are what an access stalls beyond an L1 hit, in ns: the L1 hit
 * itself is in the instruction (one instruction is one nanosecond under
 * icount and vsmp), so a measured load-to-use latency loses the L1's.
 *
 * Pentium III Xeon (Cascades, 0.18 um, 700 MHz, 100 MHz bus): the seed
 * 000/003 machines (OSDL's 4- and 8-way PIII Xeons, 2.4.18/2.6.0-test9).
 *   - 32-byte lines, L1D 16 KB 4-way: Intel SDM vol. 3A, "Characteristics
 *     of the Caches, TLBs, Store Buffer and Write Combining Buffer" (P6
 *     family).
 *   - L2 1 MB or 2 MB, 8-way, 32-byte lines: CPUID leaf 2 descriptors 84h
 *     and 85h (SDM vol. 2A, table "Encoding of CPUID Leaf 2 Descriptors"),
 *     the full-speed on-die L2 ("Advanced Transfer Cache") of the
 *     Coppermine-class cores; the off-die L2 of the earlier Tanner Xeons
 *     was 4-way (44h, 45h).  Which descriptor the OSDL parts reported is
 *     not recorded: 8-way is inferred.  Either way an 8 KB stride maps
 *     onto L2 size / 8 KB = 128 lines of a 1 MB L2.
 *   - L1 hit 3 cycles (P6: Intel Architecture Optimization Reference
 *     Manual, 1999, "load latency 3 clocks").
 *   - L2 hit: lmbench lat_mem_rd 8.8 ns on a PIII 797 MHz with the same
 *     on-die L2 (Paolo Ciarrocchi, LKML 2002-09-08, "2.5.33-mm5"):
 *     7.0 cycles; at 700 MHz 7 - 3 = 4 cycles = 5.7 ns -> 6.
 *   - memory: 158.9 ns on the same run (a desktop board; an 8-way
 *     Profusion server was slower: not found measured), less the L1 hit
 *     (3.8 ns at 797 MHz) = 155.
 *   - cache-to-cache (HITM): a P6 bus read whose snoop hits a modified
 *     line completes with the owner supplying the data through the same
 *     bus phases (and writing it back): taken as the memory latency
 *     (Intel P6 Family of Processors Hardware Developer's Manual, 1998,
 *     "Bus transactions": implicit writeback).  No measured PIII Xeon
 *     ping-pong figure was found.
 *   - bus: 100 MHz, 64 bits: a 32-byte line is 4 data transfers, 40 ns
 *     (800 MB/s peak, Pentium III Xeon processor datasheet); an
 *     invalidation (a read-invalidate with no data, or a snoop-only
 *     request) is the 2-clock request phase, 20 ns.
 *
 * Core 2 Duo (Conroe/Merom, 2.4 GHz, 1066 MT/s bus): seed 001's class of
 * machine (2.6.23).
 *   - 64-byte lines, L1D 32 KB 8-way; L2 4 MB 16-way shared by both cores
 *     (CPUID leaf 2 descriptor 49h; SDM vol. 3A cache table).
 *   - L1 hit 3 cycles, L2 14 cycles (CPU-Z latency on a Core 2 Extreme
 *     QX6850, xbitlabs, as docs/cost-model.md): (14 - 3) / 2.4 GHz = 4.6 ns -> 5.
 *   - a line modified in the other core's L1: 36.5 ns one way (a
 *     lock-cmpxchg round trip of 73 ns on a Core 2 Duo T7700,
 *     docs/cost-model.md).
 *   - memory: NOT SOURCED (hand-chosen, 70 ns: no period lat_mem_rd figure
 *     was found for a Core 2 with DDR2); the two cores share one L2, so the
 *     2-CPU figures depend on it only through misses of the shared L2.
 *   - cache-to-cache between packages: taken as memory (one package here
 *     for 2 CPUs).
 *   - bus: 1066 MT/s x 8 bytes: a 64-byte line is 8 transfers, 7.5 ns ->
 *     8; an invalidation 2 bus clocks at 266 MHz, 7.5 ns -> 8.
 */
#include "cache.h"
#ifdef HOST_TEST
#include <string.h>
#else
#include "../lib.h"
#endif

const struct cache_preset cache_presets[] = {
    { .name = "piii-xeon-1m", .title = "Pentium III Xeon 700 MHz, 1 MB L2, 100 MHz bus (seed 000/003)",
      .line_bytes = 32, .l1_bytes = 16 * 1024, .l1_ways = 4, .l2_bytes = 1024 * 1024, .l2_ways = 8, .l2_cores = 1,
      .l2_ns = 6, .mem_ns = 155, .c2c_ns = 155, .l1_xfer_ns = 0, .bus_ns = 40, .bus_inval_ns = 20 },
    { .name = "piii-xeon-2m", .title = "Pentium III Xeon 700 MHz, 2 MB L2, 100 MHz bus",
      .line_bytes = 32, .l1_bytes = 16 * 1024, .l1_ways = 4, .l2_bytes = 2048 * 1024, .l2_ways = 8, .l2_cores = 1,
      .l2_ns = 6, .mem_ns = 155, .c2c_ns = 155, .l1_xfer_ns = 0, .bus_ns = 40, .bus_inval_ns = 20 },
    { .name = "core2-duo", .title = "Core 2 Duo 2.4 GHz, 4 MB shared L2, 1066 MT/s bus (seed 001)",
      .line_bytes = 64, .l1_bytes = 32 * 1024, .l1_ways = 8, .l2_bytes = 4096 * 1024, .l2_ways = 16, .l2_cores = 2,
      .l2_ns = 5, .mem_ns = 70, .c2c_ns = 70, .l1_xfer_ns = 37, .bus_ns = 8, .bus_inval_ns = 8 },
    { .name = NULL },
};

const struct cache_preset *cache_preset_find(const char *name)
{
    for (const struct cache_preset *p = cache_presets; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}
