/*
 * In-kernel pipes (see pipe.h): a byte ring and two lists of sleeping tasks
 * (readers waiting for data, writers waiting for room), all guarded by one
 * spinlock per pipe.
 *
 * The sleeping protocol is the one of wait.h, with the pipe lock in the
 * role of the wait-queue lock: a task queues itself and marks itself
 * TASK_SLEEPING under the lock after finding it cannot proceed, and a
 * waker changes the ring and wakes the queued tasks under the same lock,
 * so no wake-up is lost.  Using one lock for the ring and the sleepers
 * (Linux's pipe_wait() likewise sleeps under the pipe's inode lock) halves
 * the lock traffic of a blocking pipe operation compared with a ring lock
 * plus a struct waitqueue; a pipe operation takes the lock once when it
 * does not block.  The lock order is pipe lock -> task wake_lock ->
 * run-queue lock, as for a wait queue.
 *
 * The lock is a plain spinlock (no interrupt masking): no interrupt handler
 * touches a pipe.
 */
#include "pipe.h"
#include "spinlock.h"
#include "mem.h"
#include "lib.h"
#include "x86.h"
#include "list.h"
#include "task.h"
#include "sched_core.h"
#include "wait.h"

/* A task sleeping on a pipe; lives on its stack. */
struct pipe_waiter {
    struct list_head entry;
    struct task *task;
    volatile bool queued;         /* cleared by the waker, as the last thing it touches */
};

struct pipe {
    spinlock_t lock;
    char *ring;                   /* NULL until the first write */
    uint32_t size;                /* ring capacity in bytes */
    uint32_t head;                /* offset of the oldest byte */
    volatile uint32_t count;      /* bytes in the ring */
    volatile uint8_t write_closed;
    volatile uint8_t read_closed;
    volatile uint8_t shut;
    struct list_head readers;     /* pipe_waiters waiting for data, EOF or shutdown */
    struct list_head writers;     /* pipe_waiters waiting for room, no reader or shutdown */
};

static volatile int pipes_live, rings_live, ring_alloc_failures;

/* Rings up to this size come from the heap; bigger ones are whole pages. */
#define HEAP_RING_MAX 2040u

static char *ring_alloc(uint32_t size)
{
    if (size <= HEAP_RING_MAX)
        return kmalloc(size);
    return page_alloc((int)((size + PAGE_SIZE - 1) / PAGE_SIZE));
}

static void ring_free(char *ring, uint32_t size)
{
    if (size <= HEAP_RING_MAX)
        kfree(ring);
    else
        page_free(ring, (int)((size + PAGE_SIZE - 1) / PAGE_SIZE));
}

/*
 * Word copy, unrolled.  The kernel's memcpy is rep movsb, and TCG runs a
 * rep-prefixed string instruction one iteration per translated block, so
 * plain moves are several times faster under QEMU; pipes move most of the
 * data of every workload.  (Kept out of gcc's loop-to-memcpy conversion.)
 */
static inline void copy(void *d, const void *s, uint32_t n)
{
    uint32_t words = n >> 2, bytes = n & 3;
    __asm__ volatile("rep movsl\n\tmovl %3, %%ecx\n\trep movsb"
                     : "+D"(d), "+S"(s), "+c"(words)
                     : "r"(bytes)
                     : "memory");
}

struct pipe *pipe_create(uint32_t size)
{
    if (size < PIPE_MIN_SIZE || size > PIPE_MAX_SIZE)
        return NULL;
    struct pipe *p = kzalloc(sizeof(*p));
    if (!p)
        return NULL;
    spin_lock_init(&p->lock, "pipe");
    list_init(&p->readers);
    list_init(&p->writers);
    p->size = size;
    atomic_add_return(&pipes_live, 1);
    return p;
}

void pipe_destroy(struct pipe *p)
{
    if (!p)
        return;
    if (p->ring) {
        ring_free(p->ring, p->size);
        atomic_add_return(&rings_live, -1);
    }
    atomic_add_return(&pipes_live, -1);
    kfree(p);
}

uint32_t pipe_size(const struct pipe *p) { return p->size; }
bool pipe_has_ring(const struct pipe *p) { return p->ring != NULL; }

void pipe_get_stats(struct pipe_stats *out)
{
    out->pipes_live = (uint32_t)pipes_live;
    out->rings_live = (uint32_t)rings_live;
    out->ring_alloc_failures = (uint32_t)ring_alloc_failures;
}

/*
 * Pipe lock held: wake every task on list and take it off the list (it
 * queues itself again if it still cannot proceed: Linux's
 * autoremove_wake_function), so a reader that frees room 40 times wakes the
 * blocked writers once.  The waiter is unlinked after its task is woken, and
 * w->queued cleared last: after that the waiter (on its task's stack) may be
 * gone.
 */
__switch_path static void wake_all(struct list_head *list, int flags)
{
    while (!list_empty(list)) {
        struct pipe_waiter *w = list_first_entry(list, struct pipe_waiter, entry);
        wake_up_task(w->task, flags);
        list_del(&w->entry);
        w->queued = false;
    }
}

/*
 * Pipe lock held: sleep on list until a waker takes us off it (or anything
 * else wakes us; callers re-check their condition).  Returns with the lock
 * held again and the waiter unlinked.
 */
__switch_path static void pipe_sleep(struct pipe *p, struct list_head *list)
{
    struct task *self = current_task();
    struct pipe_waiter w;
    w.task = self;
    w.queued = true;
    list_add_tail(&w.entry, list);
    self->state = TASK_SLEEPING;
    spin_unlock(&p->lock);
    schedule();
    spin_lock(&p->lock);
    if (w.queued) {
        list_del(&w.entry);
        w.queued = false;
    }
}

/* Install the ring on first use.  Allocated outside the pipe lock. */
static bool ensure_ring(struct pipe *p)
{
    char *ring = ring_alloc(p->size);
    if (!ring) {
        atomic_add_return(&ring_alloc_failures, 1);
        return false;
    }
    spin_lock(&p->lock);
    if (!p->ring) {
        p->ring = ring;
        ring = NULL;
    }
    spin_unlock(&p->lock);
    if (ring)
        ring_free(ring, p->size);     /* another writer was first */
    else
        atomic_add_return(&rings_live, 1);
    return true;
}

/* Lock held, n <= free space. */
static void ring_put(struct pipe *p, const char *src, uint32_t n)
{
    uint32_t tail = p->head + p->count;
    if (tail >= p->size)
        tail -= p->size;
    uint32_t first = MIN(n, p->size - tail);
    copy(p->ring + tail, src, first);
    if (n > first)
        copy(p->ring, src + first, n - first);
    p->count += n;
}

/* Lock held, n <= count. */
static void ring_get(struct pipe *p, char *dst, uint32_t n)
{
    uint32_t first = MIN(n, p->size - p->head);
    copy(dst, p->ring + p->head, first);
    if (n > first)
        copy(dst + first, p->ring, n - first);
    p->head += n;
    if (p->head >= p->size)
        p->head -= p->size;
    p->count -= n;
    if (p->count == 0)
        p->head = 0;            /* keep small messages contiguous: one copy each */
}

__switch_path int pipe_write(struct pipe *p, const void *buf, uint32_t n)
{
    const char *src = buf;
    uint32_t done = 0;
    int result = (int)n;
    if (n == 0)
        return 0;
    if (!p->ring && !ensure_ring(p))
        return PIPE_ENOMEM;
    /* A write that fits the ring is atomic: wait for room for all of it. */
    uint32_t need = n <= p->size ? n : 1;
    spin_lock(&p->lock);
    for (;;) {
        if (p->shut || p->read_closed) {
            result = p->shut ? PIPE_ESHUTDOWN : done ? (int)done : PIPE_EPIPE;
            break;
        }
        uint32_t space = p->size - p->count;
        if (space >= need) {
            uint32_t chunk = MIN(space, n - done);
            ring_put(p, src + done, chunk);
            done += chunk;
            wake_all(&p->readers, WAKE_SYNC);
            if (done == n)
                break;
            continue;
        }
        pipe_sleep(p, &p->writers);
    }
    spin_unlock(&p->lock);
    return result;
}

__switch_path int pipe_read(struct pipe *p, void *buf, uint32_t n)
{
    int result;
    if (n == 0)
        return 0;
    spin_lock(&p->lock);
    for (;;) {
        if (p->shut) {
            result = PIPE_ESHUTDOWN;
            break;
        }
        if (p->count) {
            uint32_t chunk = MIN(p->count, n);
            ring_get(p, buf, chunk);
            wake_all(&p->writers, WAKE_SYNC);
            result = (int)chunk;
            break;
        }
        if (p->write_closed) {
            result = 0;
            break;
        }
        pipe_sleep(p, &p->readers);
    }
    spin_unlock(&p->lock);
    return result;
}

__switch_path int pipe_read_full(struct pipe *p, void *buf, uint32_t n)
{
    char *dst = buf;
    uint32_t done = 0;
    while (done < n) {
        int r = pipe_read(p, dst + done, n - done);
        if (r < 0)
            return r;
        if (r == 0)
            break;
        done += (uint32_t)r;
    }
    return (int)done;
}

void pipe_close_write(struct pipe *p)
{
    spin_lock(&p->lock);
    p->write_closed = 1;
    wake_all(&p->readers, 0);
    spin_unlock(&p->lock);
}

void pipe_close_read(struct pipe *p)
{
    spin_lock(&p->lock);
    p->read_closed = 1;
    wake_all(&p->writers, 0);
    spin_unlock(&p->lock);
}

void pipe_shutdown(struct pipe *p)
{
    spin_lock(&p->lock);
    p->shut = 1;
    p->write_closed = 1;
    p->read_closed = 1;
    wake_all(&p->readers, 0);
    wake_all(&p->writers, 0);
    spin_unlock(&p->lock);
}

int socketpair_create(struct socketpair *sp, uint32_t size)
{
    sp->rx[0] = pipe_create(size);
    sp->rx[1] = sp->rx[0] ? pipe_create(size) : NULL;
    if (!sp->rx[1]) {
        pipe_destroy(sp->rx[0]);
        sp->rx[0] = NULL;
        return PIPE_ENOMEM;
    }
    return 0;
}

void socketpair_destroy(struct socketpair *sp)
{
    pipe_destroy(sp->rx[0]);
    pipe_destroy(sp->rx[1]);
    sp->rx[0] = sp->rx[1] = NULL;
}

void socket_close(struct socketpair *sp, int end)
{
    pipe_close_read(sp->rx[end]);
    pipe_close_write(sp->rx[end ^ 1]);
}
