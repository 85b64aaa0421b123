/*
 * sched/cfs_common.h - what the CFS of 2.6.23 (sched/cfs23.c) and of 2.6.24
 * (sched/cfs.c) have in common before their per-task state: the one
 * scheduling domain of a flat SMP machine (SD_CPU_INIT, the same in both
 * releases), the load constants and the nice-to-weight tables
 * (prio_to_weight / prio_to_wmult, kernel/sched.c, identical in 2.6.23 and
 * 2.6.24).  Included once, by one scheduler file: everything is static.
 */
#ifndef SCHED_CFS_COMMON_H
#define SCHED_CFS_COMMON_H

/* The one scheduling domain of a flat SMP machine: 2.6.24 SD_CPU_INIT. */
static struct {
    unsigned int min_interval, max_interval;      /* ms: balance_interval doubles from min to max while balanced */
    unsigned int busy_factor;                     /* interval x this on a busy CPU */
    unsigned int imbalance_pct;                   /* balanced unless 100 x busiest > pct x ours */
    unsigned int cache_nice_tries;                /* failed balances before cache-hot tasks move anyway */
    unsigned int busy_idx, idle_idx, newidle_idx, wake_idx;   /* which cpu_load[] average (0: now) */
} sd_init = { 1, 4, 64, 125, 1, 2, 1, 2, 1 };

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
