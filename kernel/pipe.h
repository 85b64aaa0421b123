/*
 * In-kernel pipes and socket pairs: the only channels the message-passing
 * workloads use, so that they run unchanged on every scheduler.
 *
 * A pipe is a bounded byte ring (PIPE_DEFAULT_SIZE = 4096 bytes, one page,
 * as in Linux 2.4's fs/pipe.c) with blocking read and write:
 *   - pipe_write() blocks until it has written everything.  A write of at
 *     most the ring size is atomic, as POSIX requires up to PIPE_BUF: its
 *     bytes are never interleaved with another writer's, so many senders
 *     can share one pipe (hackbench).  Larger writes go in pieces.
 *   - pipe_read() blocks until at least one byte is there (or every writer
 *     has closed) and returns what it could read, at most n bytes.
 *   - Every wake-up is a sync wake-up (WAKE_SYNC): the waker is about to
 *     block or to read/write again and sleep soon, as Linux 2.6's pipes
 *     assume (wake_up_interruptible_sync in pipe_read/pipe_write).  Woken
 *     waiters leave the queue at once (Linux's autoremove_wake_function), so
 *     a reader that frees space 40 times does not re-wake the same writers.
 *   - The ring is allocated on the first write, not at creation, so 20,000
 *     idle tasks with a pipe each do not cost 4 KiB each.  It is freed by
 *     pipe_destroy().
 *   - Closing: pipe_close_write() gives readers EOF (0) once the ring is
 *     drained; pipe_close_read() makes writers fail with PIPE_EPIPE.
 *     pipe_shutdown() does both and wakes everybody (used to abort a run).
 *
 * Nothing here panics on lack of memory: creation returns NULL and a write
 * that cannot allocate the ring returns PIPE_ENOMEM.
 *
 * A socket pair is two pipes, one per direction, like AF_UNIX socketpair():
 * end e reads what end e^1 writes.
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

/* Statistics over all pipes since boot (racy sums, for reports). */
struct pipe_stats {
    uint32_t pipes_live;        /* created and not destroyed */
    uint32_t rings_live;        /* rings currently allocated */
    uint32_t ring_alloc_failures;
};
void pipe_get_stats(struct pipe_stats *out);

struct socketpair {
    struct pipe *rx[2];         /* rx[e]: what end e reads */
};
/* 0, or PIPE_ENOMEM (then nothing is left allocated). */
int socketpair_create(struct socketpair *sp, uint32_t size);
void socketpair_destroy(struct socketpair *sp);
static inline int socket_write(struct socketpair *sp, int end, const void *buf, uint32_t n)
{
    return pipe_write(sp->rx[end ^ 1], buf, n);
}
static inline int socket_read(struct socketpair *sp, int end, void *buf, uint32_t n)
{
    return pipe_read(sp->rx[end], buf, n);
}
static inline int socket_read_full(struct socketpair *sp, int end, void *buf, uint32_t n)
{
    return pipe_read_full(sp->rx[end], buf, n);
}
/* Close one end: its peer reads EOF and its peer's writes fail. */
void socket_close(struct socketpair *sp, int end);

#endif
