/*
 * The first task, and the end of the run.
 *
 * The kernel does not know what its first task does: exactly one file of
 * the image registers the entry with KERNEL_INIT_TASK (today the workload
 * runner, workloads/runner.c), which puts a pointer into the .init_task
 * linker section.  kmain starts whatever is there; none, or more than one,
 * is a boot error (a panic naming the count).  That keeps kernel/ free of
 * any include of, or call into, workloads/.
 *
 * kernel_finish ends the run the same way for everybody: the schedstat
 * lines, "done: exit=<code>", and the exit code through QEMU's
 * isa-debug-exit port.
 */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

#include "types.h"

struct init_task {
    void (*entry)(void *);
    const char *name;             /* the task's name (panic and watchdog reports show it) */
};

#define KERNEL_INIT_TASK(fn, task_name)                                                              \
    static const struct init_task init_task_##fn = { fn, task_name };                                 \
    static const struct init_task *const init_task_entry_##fn __attribute__((used, section(".init_task"))) = \
        &init_task_##fn

void init_task_start(void);                          /* kmain: create the one registered first task */
void kernel_finish(int code) __attribute__((noreturn));

#endif
