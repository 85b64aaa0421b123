/* Wait queues (see wait.h for the protocol). */
#include "wait.h"
#include "sched_core.h"

void waitqueue_init(struct waitqueue *wq, const char *name)
{
    spin_lock_init(&wq->lock, name);
    list_init(&wq->waiters);
}

__switch_path void prepare_to_wait(struct waitqueue *wq, struct waiter *w)
{
    struct task *self = current_task();
    unsigned long f = spin_lock_irqsave(&wq->lock);
    if (!w->queued) {
        w->task = self;
        w->queued = true;
        list_add_tail(&w->entry, &wq->waiters);
    }
    self->state = TASK_SLEEPING;
    spin_unlock_irqrestore(&wq->lock, f);
}

__switch_path void finish_wait(struct waitqueue *wq, struct waiter *w)
{
    struct task *self = current_task();
    unsigned long f = spin_lock_irqsave(&wq->lock);
    self->state = TASK_RUNNING;
    if (w->queued)
        list_del(&w->entry);
    w->queued = false;
    spin_unlock_irqrestore(&wq->lock, f);
}

__switch_path static int wake(struct waitqueue *wq, int flags, bool only_one)
{
    int woken = 0;
    unsigned long f = spin_lock_irqsave(&wq->lock);
    struct list_head *pos;
    list_for_each(pos, &wq->waiters) {
        struct waiter *w = list_entry(pos, struct waiter, entry);
        if (wake_up_task(w->task, flags)) {
            woken++;
            if (only_one)
                break;
        }
    }
    spin_unlock_irqrestore(&wq->lock, f);
    return woken;
}

int wake_up(struct waitqueue *wq) { return wake(wq, 0, false); }
int wake_up_one(struct waitqueue *wq) { return wake(wq, 0, true); }
int wake_up_sync(struct waitqueue *wq) { return wake(wq, WAKE_SYNC, false); }
