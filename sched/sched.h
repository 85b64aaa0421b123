/*
 * sched/sched.h - the one interface every scheduler implements, and the only
 * header a scheduler needs.
 *
 * The scheduler core (kernel/sched_core.c) owns tasks, CPUs, run-queue
 * locks, context switches, wake-ups and accounting.  Policy lives in a
 * scheduler: one file under sched/ that defines
 *
 *     const struct sched_class scheduler = { .name = "...", ... };
 *
 * The Makefile compiles exactly one of them into a kernel (make SCHED=<name>),
 * and the host unit tests compile the same file against the same core
 * (tests/host/), so a scheduler is tested under the protocol it runs under.
 * The model is FreeBSD's sys/sched.h (one interface, kern/sched_4bsd.c and
 * sched_ule.c behind it) and Linux's struct sched_class / sched_ext_ops.
 * sched/simple.c is the smallest complete scheduler and the template for a
 * new one (docs/new-scheduler.md).
 *
 * Locking
 *   The core keeps one run-queue lock per CPU, or one lock shared by every
 *   CPU when the scheduler sets SCHED_SHARED_RUNQUEUE (Linux 2.4's single
 *   runqueue_lock).  sched_rq_lock(cpu) is that lock.  The core takes
 *   run-queue locks with interrupts disabled; lock order is wait-queue lock
 *   -> task-list lock -> run-queue lock(s), two run-queue locks in address
 *   order (sched_double_lock, sched_double_lock_balance).  Each hook below
 *   says which lock the core holds when it calls it, and the core checks it
 *   with checks=1 on the command line (the tests boot with it; off, each
 *   check is a NOP: kernel/sched_env.h); a scheduler may assert the same in
 *   its own helpers (sched_assert_locked, on in every boot).
 *
 *   A CPU's run-queue lock is held across its context switch, so while you
 *   hold it no task is half switched on that CPU.  A runnable task stays
 *   "queued" from enqueue() to dequeue(), including while it runs; whether
 *   the running task is physically kept in your queue is your business (O(1)
 *   keeps it in its array, CFS takes it out of the tree).
 *   sched_task_running(p) says whether p is on a CPU right now: never pick or
 *   move such a task for another CPU.
 *
 * Time
 *   sched_clock_ns() is a monotonic nanosecond clock (TSC based).  The tick
 *   runs at HZ (kernel/config.h, default 1000); sched_jiffies() counts ticks
 *   since boot.  A scheduler that models a kernel with a different HZ (2.4
 *   used 100) converts explicitly (sched/linux24.h).
 *
 * Per-task state
 *   struct task has SCHED_PRIVATE_WORDS 64-bit words reserved for the
 *   scheduler: declare your own struct and use SCHED_TASK(p, struct yours),
 *   which checks at compile time that it fits; sched_task_of() goes back
 *   from a member of it to the task.  Keep everything else static in your
 *   file.
 *
 * The hooks, one by one (who calls each and which lock is held), and the
 * services of the core are in kernel/sched_class.h, which this header
 * includes.  Hooks marked (optional) there may be left out; the core then
 * does what is said there.  A missing mandatory hook is reported at boot
 * ("error: sched/<name>.c: hook <hook> is missing", exit 1).
 */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include "../kernel/sched_class.h"

#endif
