/*
 * Wait queues: sleep until a condition holds, and wake sleepers.
 *
 *     wait_event(wq, cond);     // sleeps until cond is true
 *     ...set cond...; wake_up(&wq);
 *
 * The sleeper marks itself TASK_SLEEPING under the queue's lock before it
 * tests cond, and the waker wakes under the same lock after setting cond, so
 * no wake-up is lost.  wake_up_sync() tells the scheduler that the waker is
 * about to sleep (Linux's sync wake-up).  The channels decide when to give
 * that hint as the Linux they model did (kernel/pipe.h: 2.4.18/2.6.0 pipes
 * right before sleeping, 2.6.23/24 pipes always; kernel/unix_sock.h:
 * AF_UNIX stream sockets never, but for 2.6.24's writer wake-up).
 *
 * The WAKE_* flags say how a task is woken; the scheduler hears them in
 * select_cpu() (kernel/sched_class.h).
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include "types.h"
#include "list.h"
#include "spinlock.h"
#include "task.h"

#define WAKE_SYNC 0x1       /* the waker is about to sleep (Linux's sync wake-up) */
#define WAKE_NEW 0x2        /* first wake-up of a newly created task */
#define WAKE_IRQ 0x4        /* woken from interrupt context (a sleep timer) */

struct waitqueue {
    spinlock_t lock;
    struct list_head waiters;
};

struct waiter {
    struct list_head entry;
    struct task *task;
    bool queued;
};
#define WAITER_INIT { { NULL, NULL }, NULL, false }

void waitqueue_init(struct waitqueue *wq, const char *name);
void prepare_to_wait(struct waitqueue *wq, struct waiter *w);
void finish_wait(struct waitqueue *wq, struct waiter *w);
int wake_up(struct waitqueue *wq);          /* wakes every sleeper; returns how many */
int wake_up_one(struct waitqueue *wq);      /* wakes the first sleeper */
int wake_up_sync(struct waitqueue *wq);     /* every sleeper, waker is about to block */
void schedule(void);

#define wait_event(wq, cond)                  \
    do {                                      \
        struct waiter wait_entry_ = WAITER_INIT; \
        for (;;) {                            \
            prepare_to_wait(&(wq), &wait_entry_); \
            if (cond)                         \
                break;                        \
            schedule();                       \
        }                                     \
        finish_wait(&(wq), &wait_entry_);     \
    } while (0)

#endif
