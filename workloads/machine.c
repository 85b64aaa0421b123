/*
 * workloads/machine.c - bench=machine: what the accelerator charges for the
 * machine mechanisms the scheduler comparison rests on, so that a TCG run
 * and an icount run of the same command can be compared (docs/cost-model.md,
 * "TCG and icount").  Under icount each figure is the instructions the
 * mechanism executes (one ns each); under TCG it is host time.
 *
 *   bench=machine [rounds=<n>]
 *   result bench=machine sched=<s> cpus=<n> run=<i> rounds=<n> insn_ps=<p> lock_ns=<x> cr3_ns=<x>
 *          cr3_pages=8 timer_irq_ns=<x> self_ipi_ns=<x> ipi_idle_ns=<x> ipi_busy_ns=<x> status=ok
 *
 * Each figure is the median of 11 batches (the IPIs and the timer: of their
 * samples), so that a host's preemption of a TCG vCPU does not decide it.
 *   insn_ps       one instruction of a dec/jnz loop, in picoseconds (the
 *                 unit of every cost= charge: kernel/chan_cost.c burns such
 *                 a loop)
 *   lock_ns       a lock-prefixed increment, minus a plain one
 *   cr3_ns        a CR3 write (of the value it holds) and the first touch of
 *                 8 pages after it, minus the 8 touches without it
 *   timer_irq_ns  one timer interrupt (entry, the scheduler tick, exit):
 *                 the gap it leaves in a loop reading the TSC (median of 21)
 *   self_ipi_ns   a reschedule IPI to this CPU until its handler ran
 *   ipi_idle_ns   ... to an idle (halted) CPU: HLT and wake-up included
 *   ipi_busy_ns   ... to a CPU running a task (a spinning one of ours)
 * The IPI figures are NA with one CPU, under vsmp (its IPIs are the
 * dispatcher's, vsmp_ipi_ns) and when an IPI was not seen within 10 ms
 * (icount starves a halted vCPU while another spins: tools/qemu-run.sh).
 * Run it with cost=none: an era model charges the IPI handler.
 */
#include "bench.h"
#include "latrec.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/cpu.h"
#include "../kernel/smp.h"
#include "../kernel/time.h"
#include "../kernel/x86.h"
#include "../kernel/sched_core.h"
#include "../kernel/machine/machine.h"
#include "../kernel/mem.h"

#define CR3_PAGES 8
#define IPI_TIMEOUT_NS (10 * NSEC_PER_MSEC)

enum { KEY_ROUNDS };
static const struct cmdline_key machine_keys[] = {
    [KEY_ROUNDS] = CMDLINE_KEY_UINT("rounds", 2000, 10, 100000, "repetitions of each mechanism"),
};

static uint32_t rounds;
static uint8_t pages[CR3_PAGES][PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static volatile uint32_t counter;

static void machine_setup(void) { rounds = cmdline_key_uint(&machine_keys[KEY_ROUNDS]); }

static inline uint64_t now_ns(void) { return cycles_to_ns(rdtsc()); }

static inline void loop(uint32_t n)
{
    if (n)
        __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static uint64_t time_loop(uint32_t n)
{
    uint64_t t0 = now_ns();
    loop(n);
    return now_ns() - t0;
}

static uint64_t time_inc(uint32_t n, bool locked)
{
    uint64_t t0 = now_ns();
    if (locked)
        for (uint32_t i = 0; i < n; i++)
            __asm__ volatile("lock incl %0" : "+m"(counter) : : "memory");
    else
        for (uint32_t i = 0; i < n; i++)
            __asm__ volatile("incl %0" : "+m"(counter) : : "memory");
    return now_ns() - t0;
}

static uint64_t time_cr3(uint32_t n, bool write)
{
    uint32_t cr3 = read_cr3();
    uint64_t t0 = now_ns();
    for (uint32_t i = 0; i < n; i++) {
        if (write)
            __asm__ volatile("mov %0, %%cr3" : : "r"(cr3) : "memory");
        for (int p = 0; p < CR3_PAGES; p++)
            (void)*(volatile uint8_t *)&pages[p][(i * 64) % PAGE_SIZE];
    }
    return now_ns() - t0;
}

#define BATCHES 11

/* The median of BATCHES timings of fn(n, arg): the host's preemptions of a
 * TCG vCPU land in a few batches, not in the median. */
static uint64_t median_of(uint64_t (*fn)(uint32_t, bool), uint32_t n, bool arg)
{
    uint64_t t[BATCHES];
    for (int i = 0; i < BATCHES; i++)
        t[i] = fn(n, arg);
    latrec_sort(t, BATCHES);
    return t[BATCHES / 2];
}

static uint64_t time_loop2(uint32_t n, bool unused)
{
    (void)unused;
    return time_loop(n);
}

/*
 * The timer interrupt: spin reading the TSC with interrupts on; a gap in
 * the readings during which this CPU's tick count advanced is one timer
 * interrupt (entry, timer_tick, exit).  The median of `want` such gaps.
 */
static uint64_t time_timer_irq(int want)
{
    uint64_t gaps[64];
    int n = 0;
    if (want > 64)
        want = 64;
    struct cpu *c = this_cpu();             /* interrupts on, but this task is the only one here */
    uint64_t prev = now_ns(), ticks = c->stats.ticks, start = prev, biggest = 0;
    while (n < want && prev - start < 2 * NSEC_PER_SEC) {
        uint64_t t = now_ns();
        if (c->stats.ticks != ticks) {
            ticks = c->stats.ticks;
            gaps[n++] = t - prev;           /* the reading before the tick and the one after */
        } else if (t - prev > biggest) {
            biggest = t - prev;
        }
        prev = t;
        watchdog_touch();
    }
    if (!n)
        return 0;
    latrec_sort(gaps, n);
    return gaps[n / 2];
}

/* "x.y" of num/den (tenths), or NA */
static const char *tenths(char *buf, uint64_t num, uint64_t den)
{
    if (!den)
        return "NA";
    return fmt_fixed(buf, num, den, 1);
}

static volatile int spin_stop, spinning;

static void spinner_main(void *arg)
{
    (void)arg;
    spinning = 1;
    while (!spin_stop) {
        cpu_relax();
        watchdog_touch();
    }
    spinning = 0;
}

/* n reschedule IPIs to cpu (interrupts on): the median ns from the send to
 * the handler's count; 0 when one was not seen within IPI_TIMEOUT_NS. */
static uint64_t time_ipis(int cpu, uint32_t n, bool want_idle)
{
    static uint64_t lat[200];
    if (n > 200)
        n = 200;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t settle = now_ns();
        /* let an idle target halt again, a busy one run its task */
        while (now_ns() - settle < 20 * NSEC_PER_USEC)
            cpu_relax();
        if (want_idle && cpus[cpu].curr != cpus[cpu].idle)
            return 0;
        volatile uint64_t *seen = &cpus[cpu].stats.resched_ipis;
        uint64_t before = *seen;
        uint64_t t0 = now_ns();
        lapic_send_ipi(cpus[cpu].apic_id, VECTOR_RESCHEDULE);
        while (*seen == before) {
            if (now_ns() - t0 > IPI_TIMEOUT_NS)
                return 0;
            cpu_relax();
        }
        lat[i] = now_ns() - t0;
    }
    latrec_sort(lat, n);
    return lat[n / 2];
}

static int machine_run(int run_index)
{
    char line[512], a[24], bb[24], c[24], d[24], e[24], f[24];
    uint32_t n = rounds * 100;

    uint32_t b = n / BATCHES, r = rounds / BATCHES ? rounds / BATCHES : 1;
    unsigned long fl = irq_save();
    uint64_t t_loop = median_of(time_loop2, b, false);
    uint64_t t_lock = median_of(time_inc, b, true), t_inc = median_of(time_inc, b, false);
    uint64_t t_cr3 = median_of(time_cr3, r, true), t_touch = median_of(time_cr3, r, false);
    irq_restore(fl);
    uint64_t t_timer = time_timer_irq(21);

    uint64_t self_ipi = 0, ipi_idle = 0, ipi_busy = 0;
    int me = this_cpu_id();
    if (!machine_vsmp()) {              /* real IPIs: vsmp's are a latency it adds (vsmp_ipi_ns) */
        task_set_affinity(current_task(), CPU_BIT(me));
        self_ipi = time_ipis(me, MIN(rounds, 200u), false);
        int other = -1;
        for (int i = 0; i < ncpus_online && other < 0; i++)
            if (i != me && (bench_cpus() & CPU_BIT(i)))
                other = i;
        if (other >= 0) {
            ipi_idle = time_ipis(other, MIN(rounds, 200u), true);
            struct task_attr attr = TASK_ATTR_DEFAULT;
            attr.name = "machine-spin";
            attr.cpus_allowed = CPU_BIT(other);
            spin_stop = 0;
            struct task *t = task_create(spinner_main, NULL, &attr);
            if (t) {
                uint64_t t0 = now_ns();
                while (!spinning && now_ns() - t0 < 100 * NSEC_PER_MSEC)
                    task_yield();
                if (spinning)
                    ipi_busy = time_ipis(other, MIN(rounds, 200u), false);
                spin_stop = 1;
                task_wait(t);
            }
        }
        task_set_affinity(current_task(), bench_cpus());
    }

    int len = bench_result_begin(line, sizeof(line), "machine", run_index);
    snprintf(line + len, sizeof(line) - len,
             " rounds=%u insn_ps=%llu lock_ns=%s cr3_ns=%s cr3_pages=%d timer_irq_ns=%s self_ipi_ns=%s "
             "ipi_idle_ns=%s ipi_busy_ns=%s status=ok",
             rounds, (unsigned long long)(t_loop * 1000 / (2ull * b)),
             tenths(a, t_lock > t_inc ? t_lock - t_inc : 0, b), tenths(bb, t_cr3 > t_touch ? t_cr3 - t_touch : 0, r),
             CR3_PAGES, t_timer ? tenths(c, t_timer, 1) : "NA", self_ipi ? tenths(f, self_ipi, 1) : "NA",
             ipi_idle ? tenths(d, ipi_idle, 1) : "NA", ipi_busy ? tenths(e, ipi_busy, 1) : "NA");
    kprintf("%s\n", line);
    return EXIT_OK;
}

static const struct bench machine_bench = {
    .name = "machine",
    .summary = "what the accelerator charges for an instruction, a locked op, a CR3 write, a timer interrupt, an IPI",
    BENCH_KEYS(machine_keys),
    .in_default_suite = false,
    .setup = machine_setup,
    .run = machine_run,
};
BENCH(machine_bench);
