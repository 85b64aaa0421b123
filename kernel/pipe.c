/*
 * In-kernel pipes (see pipe.h): a byte ring guarded by a spinlock, with one
 * wait queue for readers and one for writers.
 *
 * The protocol with the wait queues is the one of wait.h: a sleeper queues
 * itself and marks itself asleep under the queue's lock, then tests its
 * condition; a waker changes the ring under the pipe lock, releases it and
 * only then looks at the queue.  Both lock releases are locked instructions
 * (full barriers), so the waker's unlocked "anyone waiting?" test cannot
 * miss a sleeper that has not yet seen the new state (the same reasoning
 * as Linux's waitqueue_active() after a barrier).  Skipping the wait-queue
 * lock when nobody waits is what makes a pipe operation cheap.
 *
 * The lock is a plain spinlock (no interrupt masking): no interrupt handler
 * touches a pipe.
 */
#include "pipe.h"
#include "spinlock.h"
#include "wait.h"
#include "mem.h"
#include "lib.h"
#include "x86.h"
#include "sched_core.h"
#include "../sched/sched.h"

struct pipe {
    spinlock_t lock;
    char *ring;                   /* NULL until the first write */
    uint32_t size;                /* ring capacity in bytes */
    uint32_t head;                /* offset of the oldest byte */
    volatile uint32_t count;      /* bytes in the ring */
    volatile uint8_t write_closed;
    volatile uint8_t read_closed;
    volatile uint8_t shut;
    struct waitqueue readers;     /* wait for data, EOF or shutdown */
    struct waitqueue writers;     /* wait for space, no reader or shutdown */
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

/* Word copy: kernel memcpy is byte-wise (rep movsb), which TCG emulates a
 * byte at a time; pipes move most of the data of every workload. */
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
    waitqueue_init(&p->readers, "pipe readers");
    waitqueue_init(&p->writers, "pipe writers");
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
 * Wake every sleeper on wq and take it off the queue (it queues itself again
 * if it has to wait more), with WAKE_SYNC.  Called with no pipe lock held,
 * after a lock release (see the top of the file for why the unlocked test is
 * safe).
 */
static void wake_waiters(struct waitqueue *wq, int flags)
{
    if (list_empty(&wq->waiters))
        return;
    unsigned long f = spin_lock_irqsave(&wq->lock);
    struct list_head *pos, *tmp;
    list_for_each_safe(pos, tmp, &wq->waiters) {
        struct waiter *w = list_entry(pos, struct waiter, entry);
        wake_up_task(w->task, flags);
        list_del(&w->entry);
        w->queued = false;
    }
    spin_unlock_irqrestore(&wq->lock, f);
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

int pipe_write(struct pipe *p, const void *buf, uint32_t n)
{
    const char *src = buf;
    uint32_t done = 0;
    if (n == 0)
        return 0;
    if (!p->ring && !ensure_ring(p))
        return PIPE_ENOMEM;
    /* A write that fits the ring is atomic: wait for room for all of it. */
    bool atomic = n <= p->size;
    while (done < n) {
        uint32_t need = atomic ? n : 1;
        spin_lock(&p->lock);
        if (p->shut || p->read_closed) {
            int err = p->shut ? PIPE_ESHUTDOWN : PIPE_EPIPE;
            spin_unlock(&p->lock);
            return done && !p->shut ? (int)done : err;
        }
        uint32_t space = p->size - p->count;
        if (space >= need) {
            uint32_t chunk = MIN(space, n - done);
            ring_put(p, src + done, chunk);
            done += chunk;
            spin_unlock(&p->lock);
            wake_waiters(&p->readers, WAKE_SYNC);
            continue;
        }
        spin_unlock(&p->lock);
        wait_event(p->writers, p->size - p->count >= need || p->read_closed || p->shut);
    }
    return (int)n;
}

int pipe_read(struct pipe *p, void *buf, uint32_t n)
{
    if (n == 0)
        return 0;
    for (;;) {
        spin_lock(&p->lock);
        if (p->shut) {
            spin_unlock(&p->lock);
            return PIPE_ESHUTDOWN;
        }
        if (p->count) {
            uint32_t chunk = MIN(p->count, n);
            ring_get(p, buf, chunk);
            spin_unlock(&p->lock);
            wake_waiters(&p->writers, WAKE_SYNC);
            return (int)chunk;
        }
        bool eof = p->write_closed;
        spin_unlock(&p->lock);
        if (eof)
            return 0;
        wait_event(p->readers, p->count || p->write_closed || p->shut);
    }
}

int pipe_read_full(struct pipe *p, void *buf, uint32_t n)
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
    spin_unlock(&p->lock);
    wake_waiters(&p->readers, 0);
}

void pipe_close_read(struct pipe *p)
{
    spin_lock(&p->lock);
    p->read_closed = 1;
    spin_unlock(&p->lock);
    wake_waiters(&p->writers, 0);
}

void pipe_shutdown(struct pipe *p)
{
    spin_lock(&p->lock);
    p->shut = 1;
    p->write_closed = 1;
    p->read_closed = 1;
    spin_unlock(&p->lock);
    wake_waiters(&p->readers, 0);
    wake_waiters(&p->writers, 0);
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
