/*
 * In-kernel pipes (see pipe.h): a byte ring and one list of sleeping tasks
 * (readers waiting for data and writers waiting for room: 2.4's PIPE_WAIT),
 * all guarded by one spinlock per pipe.
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
 *
 * pipe_read and pipe_write follow 2.6.0's fs/pipe.c (the 2.4.18 code has
 * the same wake-up points; see pipe.h): data moved sets do_wakeup; before
 * sleeping with do_wakeup set the caller wakes everybody with a sync
 * wake-up; at the end it wakes everybody again, plain (pipe_wake=async) or
 * sync (pipe_wake=sync).
 */
#include "pipe.h"
#include "chan_cost.h"
#include "spinlock.h"
#include "mem.h"
#include "lib.h"
#include "x86.h"
#include "list.h"
#include "task.h"
#include "sched_core.h"
#include "wait.h"
#include "machine/memhooks.h"

_Static_assert(WAKE_SYNC == 1, "wake_waiters indexes woken[] by WAKE_SYNC");

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
    uint32_t waiting_writers;     /* writers asleep in pipe_write (2.4's PIPE_WAITING_WRITERS) */
    struct list_head waiters;     /* every sleeper, readers and writers (2.4's PIPE_WAIT) */
    /* Counted under the lock; added to the totals by pipe_destroy. */
    uint32_t woken[2];            /* [0] plain, [1] sync: tasks a wake-up woke */
    uint32_t reader_sleeps, writer_sleeps;
};

static volatile int pipes_live, rings_live, ring_alloc_failures;
static int wake_rule = PIPE_WAKE_ASYNC;
const char *const pipe_wake_names[] = { "async", "sync", NULL };

/* Totals of the destroyed pipes' counters (64-bit: one lock, taken once per pipe). */
static spinlock_t totals_lock = SPINLOCK_INIT("pipe totals");
static uint64_t total_woken[2], total_reader_sleeps, total_writer_sleeps;

void pipe_set_wake_rule(int rule) { wake_rule = rule == PIPE_WAKE_SYNC ? PIPE_WAKE_SYNC : PIPE_WAKE_ASYNC; }
int pipe_wake_rule(void) { return wake_rule; }

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
 * Word copy: rep movsl for the whole words, then rep movsb for the 0-3
 * bytes left, where the kernel's memcpy is rep movsb throughout; pipes
 * move most of the data of every workload.  Inline asm, so gcc cannot turn
 * it back into a call to memcpy; under CACHES=1 the memory model sees it as
 * a read of the source and a write of the destination, both whole ranges
 * (MACHINE_COPY_ASM, kernel/machine/memhooks.h: memline's `pipe.copied`).
 */
static inline void copy(void *d, const void *s, uint32_t n)
{
    uint32_t words = n >> 2, bytes = n & 3;
    __asm__ volatile(MACHINE_COPY_ASM("rep movsl", "movl %3, %%ecx", "rep movsb", "pipe.copied")
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
    list_init(&p->waiters);
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
    unsigned long f = spin_lock_irqsave(&totals_lock);
    total_woken[0] += p->woken[0];
    total_woken[1] += p->woken[1];
    total_reader_sleeps += p->reader_sleeps;
    total_writer_sleeps += p->writer_sleeps;
    spin_unlock_irqrestore(&totals_lock, f);
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
    unsigned long f = spin_lock_irqsave(&totals_lock);
    out->woken_plain = total_woken[0];
    out->woken_sync = total_woken[1];
    out->reader_sleeps = total_reader_sleeps;
    out->writer_sleeps = total_writer_sleeps;
    spin_unlock_irqrestore(&totals_lock, f);
}

/*
 * Pipe lock held: wake every sleeper, readers and writers alike (2.4's
 * wake_up_interruptible on PIPE_WAIT; no waiter is exclusive), and take each
 * off the list (it queues itself again if it still cannot proceed: 2.6's
 * autoremove_wake_function).  The waiter is unlinked after its task is
 * woken, and w->queued cleared last: after that the waiter (on its task's
 * stack) may be gone.  Counts the tasks woken, by kind.  Inline, as
 * pipe_sleep is: as calls their prologues, epilogues and argument moves
 * were 66 instructions of a pipe round trip's 1,553 under icount.
 */
static inline __attribute__((always_inline)) void wake_waiters(struct pipe *p, int flags)
{
    struct list_head *list = &p->waiters;
    while (!list_empty(list)) {
        struct pipe_waiter *w = list_first_entry(list, struct pipe_waiter, entry);
        if (wake_up_task(w->task, flags))
            p->woken[flags & WAKE_SYNC]++;      /* [1]: sync (WAKE_SYNC is 1) */
        list_del(&w->entry);
        w->queued = false;
    }
}

/* Most wake-ups find nobody asleep: one test. */
static inline __attribute__((always_inline)) void wake_all(struct pipe *p, int flags)
{
    if (!list_empty(&p->waiters))
        wake_waiters(p, flags);
}

/* The wake-up at the end of a pipe_read or pipe_write that moved data. */
static inline int final_wake_flags(void) { return wake_rule == PIPE_WAKE_SYNC ? WAKE_SYNC : 0; }

/*
 * Pipe lock held: sleep on list until a waker takes us off it (or anything
 * else wakes us; callers re-check their condition).  Returns with the lock
 * held again and the waiter unlinked.
 */
static inline __attribute__((always_inline)) void pipe_sleep(struct pipe *p)
{
    struct list_head *list = &p->waiters;
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

/*
 * 2.6.0 pipe_write: wait for room for an atomic write (nothing moved yet,
 * so nobody is woken first), copy as much as fits; with more to write and
 * the ring full, wake everybody (sync: we are about to sleep) and sleep.
 * At the end, one more wake-up of everybody: plain or sync by pipe_wake=.
 */
__switch_path int pipe_write(struct pipe *p, const void *buf, uint32_t n)
{
    const char *src = buf;
    uint32_t done = 0;
    int result = (int)n;
    bool do_wakeup = false;
    if (n == 0)
        return 0;
    chan_cost_pipe(n);              /* cost=: the system call and copy_from_user, before the lock */
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
            do_wakeup = true;
            if (done == n)
                break;
            need = 1;               /* the rest of a large write goes in pieces */
            continue;
        }
        if (do_wakeup) {
            wake_all(p, WAKE_SYNC);
            do_wakeup = false;
        }
        p->waiting_writers++;
        p->writer_sleeps++;
        pipe_sleep(p);
        p->waiting_writers--;
    }
    if (do_wakeup)
        wake_all(p, final_wake_flags());
    spin_unlock(&p->lock);
    return result;
}

/*
 * 2.6.0 pipe_read: take what is there, up to n; with less than n, keep
 * waiting only while a writer sleeps in pipe_write ("syscall merging"),
 * waking everybody (sync) before each sleep once data was taken.  At the
 * end, wake everybody if data was taken: plain or sync by pipe_wake=.
 */
__switch_path int pipe_read(struct pipe *p, void *buf, uint32_t n)
{
    char *dst = buf;
    uint32_t done = 0;
    int result;
    bool do_wakeup = false;
    if (n == 0)
        return 0;
    spin_lock(&p->lock);
    for (;;) {
        if (p->shut) {
            result = PIPE_ESHUTDOWN;
            do_wakeup = false;
            break;
        }
        if (p->count) {
            uint32_t chunk = MIN(p->count, n - done);
            ring_get(p, dst + done, chunk);
            done += chunk;
            do_wakeup = true;
            if (done == n) {
                result = (int)done;
                break;
            }
        }
        /* The ring is empty and we want more. */
        if (p->write_closed || (done && !p->waiting_writers)) {
            result = (int)done;     /* 0: end of file */
            break;
        }
        if (do_wakeup)
            wake_all(p, WAKE_SYNC);     /* 2.6.0 does not clear do_wakeup here */
        p->reader_sleeps++;
        pipe_sleep(p);
    }
    if (do_wakeup)
        wake_all(p, final_wake_flags());
    spin_unlock(&p->lock);
    chan_cost_pipe(done);           /* cost=: the system call and copy_to_user, after the lock */
    return result;
}

__switch_path int pipe_read_full(struct pipe *p, void *buf, uint32_t n)
{
    /* Nearly always one read is all of it (a message written whole). */
    int first = pipe_read(p, buf, n);
    if (likely(first == (int)n) || first <= 0)
        return first;
    char *dst = buf;
    uint32_t done = (uint32_t)first;
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

/* 2.4 pipe_release: a plain wake_up_interruptible of everybody. */
void pipe_close_write(struct pipe *p)
{
    spin_lock(&p->lock);
    p->write_closed = 1;
    wake_all(p, 0);
    spin_unlock(&p->lock);
}

void pipe_close_read(struct pipe *p)
{
    spin_lock(&p->lock);
    p->read_closed = 1;
    wake_all(p, 0);
    spin_unlock(&p->lock);
}

void pipe_shutdown(struct pipe *p)
{
    spin_lock(&p->lock);
    p->shut = 1;
    p->write_closed = 1;
    p->read_closed = 1;
    wake_all(p, 0);
    spin_unlock(&p->lock);
}
