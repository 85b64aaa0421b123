/* Starting the registered first task and ending the run (see init.h). */
#include "init.h"
#include "lib.h"
#include "task.h"
#include "sched_core.h"
#include "trace.h"

extern const struct init_task *const __start_init_task[], *const __stop_init_task[];

void init_task_start(void)
{
    int n = (int)(__stop_init_task - __start_init_task);
    if (n != 1)
        panic("boot: %d first tasks registered with KERNEL_INIT_TASK (need exactly one)", n);
    const struct init_task *init = __start_init_task[0];
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = init->name;
    if (!task_create(init->entry, NULL, &attr))
        panic("boot: cannot create the first task %s", init->name);
}

void kernel_finish(int code)
{
    trace_stop();                /* the workload is over: nothing after this is recorded */
    sched_print_stats();
    trace_finish();              /* the buffers, on their own channel, after the results */
    kprintf(PROTO_FORMAT(DONE), code);
    machine_exit(code);
}
