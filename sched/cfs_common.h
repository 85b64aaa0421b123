/*
 * sched/cfs_common.h - what the CFS of 2.6.23 (sched/cfs23.c) and of 2.6.24
 * (sched/cfs.c) have in common before their per-task state: the one
 * scheduling domain of the machine, the load constants and the
 * nice-to-weight tables (prio_to_weight / prio_to_wmult, kernel/sched.c,
 * identical in 2.6.23 and 2.6.24).  Included once, by one scheduler file:
 * everything is static.  sched/cfs23.c defines CFS_2_6_23 before it.
 *
 * The domain.  A Core 2 Duo, the machine of seed001, got one domain
 * spanning its two cores: build_sched_domains made an SD_CPU_INIT
 * (physical) level and, with CONFIG_SCHED_MC, an SD_MC_INIT level below it
 * over cpu_coregroup_map (both cores: one package, one L2); the physical
 * level spans the same CPUs in one group, so sd_parent_degenerate dropped
 * it, and the SMT level (one CPU) was degenerate too.  CONFIG_SCHED_MC is
 * "default y" in 2.6.23's arch/i386/Kconfig and 2.6.24's arch/x86/Kconfig,
 * and =y in the i386 and x86_64 defconfigs of both, with
 * CONFIG_SCHED_SMT=y, which is what compiles wake_idle() in
 * (include/linux/topology.h defines ARCH_HAS_SCHED_WAKE_IDLE under
 * CONFIG_SCHED_SMT); the configs of the post's kernels were attachments
 * that are not in the stored sources.  The flags and indices
 * (include/linux/topology.h):
 *                    2.6.23 SD_MC_INIT  2.6.23 SD_CPU_INIT  2.6.24 SD_MC_INIT  2.6.24 SD_CPU_INIT
 *   idle_idx         0                  0                   0                  1
 *   newidle_idx      0                  0                   0                  2
 *   SD_WAKE_IDLE     yes                yes                 yes                no
 * and the same elsewhere: intervals 1..4 ms, busy_factor 64,
 * imbalance_pct 125, cache_nice_tries 1, busy_idx 2, wake_idx 1,
 * SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_WAKE_AFFINE.
 * The tunable sched_mc (default 1) chooses the level; idle_idx, newidle_idx
 * and wake_idle follow it unless given.  With more than two CPUs the model
 * keeps one domain over all of them (one package of N cores).
 */
#ifndef SCHED_CFS_COMMON_H
#define SCHED_CFS_COMMON_H

#ifndef CFS_2_6_23
#define CFS_2_6_23 0
#endif

/* The one scheduling domain (above); SCHED_TUNABLE_UNSET fields follow sched_mc (cfs_domain_init). */
static struct {
    unsigned int min_interval, max_interval;      /* ms: balance_interval doubles from min to max while balanced */
    unsigned int busy_factor;                     /* interval x this on a busy CPU */
    unsigned int imbalance_pct;                   /* balanced unless 100 x busiest > pct x ours */
    unsigned int cache_nice_tries;                /* failed balances before cache-hot tasks move anyway */
    unsigned int busy_idx, idle_idx, newidle_idx, wake_idx;   /* which cpu_load[] average (0: now) */
    unsigned int sched_mc;                        /* 1: SD_MC_INIT (cores of one package), 0: SD_CPU_INIT */
    unsigned int wake_idle;                       /* SD_WAKE_IDLE, with wake_idle() compiled in */
} sd_init = { 1, 4, 64, 125, 1, 2, SCHED_TUNABLE_UNSET, SCHED_TUNABLE_UNSET, 1, 1, SCHED_TUNABLE_UNSET };

/* The indices and SD_WAKE_IDLE of the level sched_mc chooses, where not given. */
static void cfs_domain_init(void)
{
    bool cpu_level_2_6_24 = !CFS_2_6_23 && !sd_init.sched_mc;
    if (sd_init.idle_idx == SCHED_TUNABLE_UNSET)
        sd_init.idle_idx = cpu_level_2_6_24 ? 1 : 0;
    if (sd_init.newidle_idx == SCHED_TUNABLE_UNSET)
        sd_init.newidle_idx = cpu_level_2_6_24 ? 2 : 0;
    if (sd_init.wake_idle == SCHED_TUNABLE_UNSET)
        sd_init.wake_idle = cpu_level_2_6_24 ? 0 : 1;
}

#define SCHED_LOAD_SCALE 1024u
#define SCHED_LOAD_SCALE_FUZZ SCHED_LOAD_SCALE   /* 2.6.24 include/linux/sched.h */
#define CPU_LOAD_IDX_MAX 5
#define MAX_PINNED_INTERVAL 512                   /* ms */
#define NR_CPUS_2_6_24 8                          /* i386 CONFIG_NR_CPUS default: caps the interval at HZ*8/10 */

/* enum cpu_idle_type, in 2.6.24's order (they index the schedstat counters). */
enum { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE, CPU_MAX_IDLE_TYPES };

/* Real-time class. */
#define MAX_RT_PRIO 100
#define DEF_TIMESLICE (100 * HZ / 1000 > 0 ? 100 * HZ / 1000 : 1)   /* SCHED_RR, ticks */

/* ---- weights (2.6.24 kernel/sched.c, verbatim constants) ---- */

#define NICE_0_LOAD 1024
#define WMULT_CONST 0xffffffffull   /* ~0UL on a 32-bit kernel, which this is */
#define WMULT_SHIFT 32
#define LONG_MAX_32 0x7fffffffull   /* calc_delta_mine clamps to a 32-bit LONG_MAX */

static const uint32_t prio_to_weight[40] = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548,  7620,  6100,  4904,  3906,
    /*  -5 */ 3121,  2501,  1991,  1586,  1277,
    /*   0 */ 1024,  820,   655,   526,   423,
    /*   5 */ 335,   272,   215,   172,   137,
    /*  10 */ 110,   87,    70,    56,    45,
    /*  15 */ 36,    29,    23,    18,    15,
};

/* 2^32 / weight. */
static const uint32_t prio_to_wmult[40] = {
    /* -20 */ 48388,     59856,     76040,     92818,     118348,
    /* -15 */ 147320,    184698,    229616,    287308,    360437,
    /* -10 */ 449829,    563644,    704093,    875809,    1099582,
    /*  -5 */ 1376151,   1717300,   2157191,   2708050,   3363326,
    /*   0 */ 4194304,   5237765,   6557202,   8165337,   10153587,
    /*   5 */ 12820798,  15790321,  19976592,  24970740,  31350126,
    /*  10 */ 39045157,  49367440,  61356676,  76695844,  95443717,
    /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

#endif
