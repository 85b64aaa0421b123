/*
 * In-kernel pipes: the channel of the pipe workloads (pipe-test, lat_ctx,
 * hackbench ipc=pipe), modelled on Linux 2.4.18 / 2.6.0 fs/pipe.c
 * (pipe_read, pipe_write, pipe_wait) and, for the wake-up rule only, on
 * 2.6.23/24's.  AF_UNIX socket pairs are kernel/unix_sock.h.
 *
 * A pipe is a bounded byte ring (PIPE_DEFAULT_SIZE = 4096 bytes, one page:
 * 2.4's PIPE_SIZE = PAGE_SIZE) with blocking read and write:
 *   - pipe_write() blocks until it has written everything.  A write of at
 *     most the ring size is atomic, as POSIX requires up to PIPE_BUF (2.4:
 *     "free = (count <= PIPE_BUF ? count : 1)"): its bytes are never
 *     interleaved with another writer's, so many senders can share one
 *     pipe (hackbench).  Larger writes go in pieces.
 *   - pipe_read() blocks until at least one byte is there (or every writer
 *     has closed) and returns what it could read, at most n bytes.  As in
 *     2.4 and 2.6 ("syscall merging"), a read that got less than n keeps
 *     waiting for more while a writer sleeps in pipe_write.
 *   - One wait list per pipe for readers and writers (2.4's PIPE_WAIT,
 *     2.6's pipe->wait), and every wake-up wakes every sleeper on it, as
 *     wake_up_interruptible does with non-exclusive waiters: a reader that
 *     frees room wakes all the blocked writers, and a writer's wake-up
 *     after its copy wakes the other blocked writers too, who find no room
 *     and sleep again.  That herd is Linux's, kept on purpose.  Woken
 *     waiters leave the list at once (2.6's autoremove_wake_function; 2.4
 *     left them until they ran, which wakes nobody twice either).
 *   - Which wake-ups are sync (WAKE_SYNC: "the waker is about to sleep")
 *     is the pipe_wake= kernel parameter (pipe_set_wake_rule):
 *       async  2.4.18 and 2.6.0: the wake-up at the end of pipe_write and
 *              pipe_read is a plain wake_up_interruptible ("Signal readers
 *              asynchronously that there is more data"); only the wake-up
 *              right before the caller sleeps is wake_up_interruptible_sync.
 *       sync   2.6.23/2.6.24: wake_up_interruptible_sync at the end too.
 *     In both, a caller that sleeps before it has moved any data wakes
 *     nobody first (2.6.0's do_wakeup).
 *   - The ring is allocated on the first write, not at creation, so 20,000
 *     idle tasks with a pipe each do not cost 4 KiB each.  It is freed by
 *     pipe_destroy().
 *   - Closing: pipe_close_write() gives readers EOF (0) once the ring is
 *     drained; pipe_close_read() makes writers fail with PIPE_EPIPE.
 *     pipe_shutdown() does both and wakes everybody (used to abort a run).
 *
 * Each pipe counts the tasks its wake-ups woke, sync and plain, and the
 * times a reader or writer slept; pipe_destroy() adds them to totals since
 * boot (pipe_get_stats), from which a run reports its own.
 *
 * Nothing here panics on lack of memory: creation returns NULL and a write
 * that cannot allocate the ring returns PIPE_ENOMEM.
 *
 * Deviations from 2.4/2.6.0 fs/pipe.c: the pipe is guarded by a spinlock,
 * not the inode semaphore PIPE_SEM (a writer that finds the pipe busy
 * spins instead of sleeping in down(); on one CPU without kernel
 * preemption the semaphore was never contended); before sleeping again
 * after a spurious wake-up 2.4's pipe_write repeated its sync wake-up,
 * here (as in 2.6.0) only data moved since the last wake-up is announced;
 * with pipe_wake=sync the pipe stays one page, whereas 2.6.11+ pipes hold
 * 16 pages (PIPE_BUFFERS) and 2.6.24's pipe_read wakes writers only when it
 * has emptied a whole page.
 */
#ifndef KERNEL_PIPE_H
#define KERNEL_PIPE_H

#include "types.h"

#define PIPE_DEFAULT_SIZE 4096u
#define PIPE_MIN_SIZE 16u
#define PIPE_MAX_SIZE (1024u * 1024u)

/* Error results (negative, as in Linux). */
#define PIPE_EPIPE (-32)    /* no reader any more */
#define PIPE_ENOMEM (-12)   /* the ring could not be allocated */
#define PIPE_ESHUTDOWN (-108) /* the pipe was shut down (run aborted) */

struct pipe;

/* A pipe with a ring of size bytes (PIPE_MIN_SIZE..PIPE_MAX_SIZE); NULL on OOM. */
struct pipe *pipe_create(uint32_t size);
/* Free it (and its ring).  Nobody may use it any more. */
void pipe_destroy(struct pipe *p);
/* Returns n, or PIPE_EPIPE / PIPE_ENOMEM / PIPE_ESHUTDOWN (nothing of a failed
 * atomic write was written; a failed large write may have written a prefix). */
int pipe_write(struct pipe *p, const void *buf, uint32_t n);
/* Returns 1..n bytes, 0 at end of file, or PIPE_ESHUTDOWN. */
int pipe_read(struct pipe *p, void *buf, uint32_t n);
/* Reads exactly n bytes unless EOF/shutdown comes first; returns the bytes read or PIPE_ESHUTDOWN. */
int pipe_read_full(struct pipe *p, void *buf, uint32_t n);
void pipe_close_write(struct pipe *p);
void pipe_close_read(struct pipe *p);
void pipe_shutdown(struct pipe *p);
uint32_t pipe_size(const struct pipe *p);
bool pipe_has_ring(const struct pipe *p);   /* the lazy ring has been allocated */

/* Statistics over all pipes since boot (racy sums, for reports).  The
 * wake-up and sleep counts are added when a pipe is destroyed. */
struct pipe_stats {
    uint32_t pipes_live;        /* created and not destroyed */
    uint32_t rings_live;        /* rings currently allocated */
    uint32_t ring_alloc_failures;
    uint64_t woken_sync;        /* tasks woken by a sync wake-up (WAKE_SYNC) */
    uint64_t woken_plain;       /* tasks woken by a plain wake-up */
    uint64_t reader_sleeps;     /* a pipe_read slept */
    uint64_t writer_sleeps;     /* a pipe_write slept */
};
void pipe_get_stats(struct pipe_stats *out);

/* The pipe_wake= rule, for every pipe (set once, before any run). */
enum pipe_wake_rule { PIPE_WAKE_ASYNC = 0, PIPE_WAKE_SYNC = 1 };
extern const char *const pipe_wake_names[];   /* "async", "sync" */
void pipe_set_wake_rule(int rule);
int pipe_wake_rule(void);

#endif
