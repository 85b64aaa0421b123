/*
 * Shared pieces of the message-passing workloads (hackbench, pipe, lat_ctx,
 * tbench, maxgroups):
 *
 *   struct run     one measured run: the tasks and pipes it created, a start
 *                  barrier, timing, the worst status, and clean unwinding on
 *                  out-of-memory (abort the barrier, shut every pipe down,
 *                  reap every task, free everything);
 *   messages       fixed-size messages with a sender id, a sequence number
 *                  and a payload pattern derived from both, so that every
 *                  received byte can be checked;
 *   patterns       the same payload pattern for byte streams sent in chunks
 *                  (tbench);
 *   keys           table entries for the channel keys shared by several workloads;
 *   chanstat       what the run's pipes and sockets counted (wake-ups by
 *                  kind, sleeps), printed on a line of its own.
 *
 * A worker task's life:
 *     if (run_wait_start(r)) { ...work...; run_done(r) once its timed part ends; }
 *     run_task_end(r);   // always, last: records the CPUs it ran on
 * and the workload's main task:
 *     run_init; run_pipe/run_spawn...; (on NULL: run_abort(r, RUN_OOM, ...));
 *     run_start (unless aborted); run_reap; report; run_free.
 */
#ifndef WORKLOADS_MSG_H
#define WORKLOADS_MSG_H

#include "../kernel/types.h"
#include "../kernel/wait.h"
#include "../kernel/pipe.h"
#include "../kernel/unix_sock.h"
#include "../kernel/cmdline.h"

enum run_status { RUN_OK = 0, RUN_ERROR = 1, RUN_OOM = 2 };

struct run_alloc;

/* What the run's channels counted (deltas over the run; see run_print_chanstat). */
struct run_chanstat {
    uint64_t pipe_woken_sync, pipe_woken_plain, pipe_reader_sleeps, pipe_writer_sleeps;
    uint64_t sock_woken_sync, sock_woken_plain, sock_reader_sleeps, sock_writer_sleeps, sock_skbs;
    uint32_t sock_max_queued;     /* deepest receive queue of the run's sockets, in skbs */
};

struct run {
    const char *bench;
    /* Start barrier. */
    volatile int ready;           /* tasks waiting at the barrier */
    volatile int expected;        /* tasks created; set by run_settle and run_start (0 before) */
    volatile int go;              /* 0 wait, 1 start, -1 abort */
    struct waitqueue start_wq;    /* workers wait here for go */
    struct waitqueue main_wq;     /* the main task waits here for ready == expected */
    /* Outcome. */
    volatile int status;          /* enum run_status: the first failure wins */
    char why[96];                 /* what failed (no spaces: it goes into the result line) */
    volatile int pending;         /* timed tasks that have not called run_done */
    volatile uint32_t cpus_used;  /* union of the CPUs every task ran on */
    uint64_t t_start;
    uint64_t t_end;               /* written once, by the last run_done; read after run_reap */
    uint64_t t_reaped;            /* when run_reap had collected every task */
    /* What it owns. */
    struct task **tasks;
    int ntasks, max_tasks;
    struct pipe **pipes;
    int npipes, max_pipes;
    struct unix_pair *pairs;
    int npairs, max_pairs;
    struct run_alloc *allocs;
    /* Leak check: counts before the run. */
    int tasks_before;
    uint32_t pipes_before, rings_before, socks_before, skbs_before;
    /* Channel counters at the start; run_free turns them into the run's. */
    struct pipe_stats pipe_stats_before;
    struct unix_stats unix_stats_before;
    struct run_chanstat chan;
};

/* 0, or RUN_OOM when the bookkeeping arrays cannot be allocated.  max_pipes
 * counts pipes; socket pairs need room too: run_init_pairs. */
int run_init(struct run *r, const char *bench, int max_tasks, int max_pipes);
/* Room for max_pairs socket pairs (after run_init); 0 or RUN_OOM. */
int run_init_pairs(struct run *r, int max_pairs);
/* Memory owned by the run (zeroed), freed by run_free; NULL on OOM. */
void *run_zalloc(struct run *r, size_t n);
/* A pipe owned by the run; NULL on OOM (or when max_pipes is reached). */
struct pipe *run_pipe(struct run *r, uint32_t size);
/* An AF_UNIX socket pair owned by the run (kernel/unix_sock.h); NULL on OOM. */
struct unix_pair *run_socketpair(struct run *r);
/* A task restricted to bench_cpus(); mm -1 for its own address space.  NULL on OOM. */
struct task *run_spawn(struct run *r, void (*fn)(void *), void *arg, const char *name, int mm);
/* Main task: wait until every spawned task is at the barrier, start the clock, release them. */
void run_start(struct run *r);
/* Any task: record the failure (first one wins), release the barrier with
 * the abort flag and shut every pipe down so nobody stays blocked. */
void run_abort(struct run *r, int status, const char *why);
/* Main task: wait for every task to exit and collect them (as a parent's
 * wait() for each child); records t_reaped. */
void run_reap(struct run *r);
/* Main task, after run_reap: free pipes, sockets, memory and arrays; checks
 * that tasks, pipes, rings, sockets and skbs are back to their count before
 * the run (a leak turns the status into RUN_ERROR), and fills r->chan.
 * Returns the final status. */
int run_free(struct run *r);
/* After run_free: one line "chanstat bench=<b> run=<i><extra> pipe_woken_sync=..."
 * with the run's channel counters (extra: the run's parameters, " groups=10"). */
void run_print_chanstat(const struct run *r, int run_index, const char *extra);

/* Main task, while creating: wait until every task created so far waits at
 * the barrier (the first half of run_start). */
void run_settle(struct run *r);
/* Worker: wait at the barrier; false when the run was aborted (just return). */
bool run_wait_start(struct run *r);
/* Worker: its timed part is over; the last one stops the clock. */
void run_done(struct run *r);
/* Worker: last call before returning. */
void run_task_end(struct run *r);
bool run_aborted(const struct run *r);
/* From the start barrier to the last run_done. */
uint64_t run_elapsed_ns(const struct run *r);
/* From the start barrier to the end of run_reap. */
uint64_t run_reaped_ns(const struct run *r);
/* "ok", "error" or "oom", and the exit code for it. */
const char *run_status_name(int status);
int run_exit_code(int status);
/* Handles a failed pipe/socket operation result inside a worker: a shutdown
 * means someone else aborted; anything else aborts the run. */
void run_pipe_failure(struct run *r, int result, const char *what);

/* ---- patterns and messages ----
 *
 * Inline: hackbench checks every message, and under QEMU's TCG a function
 * call and return cost more than the few loads they save. */

/* Bytes [4*word, 4*word + n) of the stream seeded with seed: word k is
 * seed + k * PATTERN_STEP (little endian), so neighbouring words all differ. */
#define PATTERN_STEP 0x9e3779b9u

static inline uint32_t pattern_seed(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x85ebca6bu ^ b * 0xc2b2ae35u ^ c * 0x27d4eb2fu ^ 0x165667b1u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    return h;
}

__attribute__((optimize("no-tree-loop-distribute-patterns")))
static inline void pattern_fill(void *buf, uint32_t n, uint32_t seed, uint32_t word)
{
    uint32_t v = seed + word * PATTERN_STEP;
    uint32_t *w = buf;
    for (; n >= 16; n -= 16, w += 4, v += 4 * PATTERN_STEP) {
        w[0] = v;
        w[1] = v + PATTERN_STEP;
        w[2] = v + 2 * PATTERN_STEP;
        w[3] = v + 3 * PATTERN_STEP;
    }
    for (; n >= 4; n -= 4, v += PATTERN_STEP)
        *w++ = v;
    uint8_t *tail = (uint8_t *)w;
    for (uint32_t i = 0; i < n; i++)
        tail[i] = (uint8_t)(v >> (8 * i));
}

static inline bool pattern_check(const void *buf, uint32_t n, uint32_t seed, uint32_t word)
{
    uint32_t v = seed + word * PATTERN_STEP, diff = 0;
    const uint32_t *w = buf;
    for (; n >= 16; n -= 16, w += 4, v += 4 * PATTERN_STEP)
        diff |= (w[0] ^ v) | (w[1] ^ (v + PATTERN_STEP)) | (w[2] ^ (v + 2 * PATTERN_STEP)) |
                (w[3] ^ (v + 3 * PATTERN_STEP));
    for (; n >= 4; n -= 4, v += PATTERN_STEP)
        diff |= *w++ ^ v;
    const uint8_t *tail = (const uint8_t *)w;
    for (uint32_t i = 0; i < n; i++)
        diff |= tail[i] ^ (uint8_t)(v >> (8 * i));
    return diff == 0;
}

/* A message: seq (4 bytes), sender (2), header check (2), then the pattern
 * seeded from (sender, seq, size); the header check comes from the same hash. */
#define MSG_HEADER 8u
#define MSG_MIN_SIZE MSG_HEADER

struct msg_header {
    uint32_t seq;
    uint16_t sender;
    uint16_t check;
};
STATIC_ASSERT(sizeof(struct msg_header) == MSG_HEADER, "message header layout");

static inline uint16_t msg_header_check(uint32_t seed) { return (uint16_t)(seed ^ (seed >> 16) ^ 0x4d53); }

/* Write a message of size bytes from sender with sequence number seq. */
static inline void msg_fill(void *buf, uint32_t size, uint32_t sender, uint32_t seq)
{
    struct msg_header *h = buf;
    uint32_t seed = pattern_seed(sender, seq, size);
    h->seq = seq;
    h->sender = (uint16_t)sender;
    h->check = msg_header_check(seed);
    pattern_fill((char *)buf + MSG_HEADER, size - MSG_HEADER, seed, 0);
}

/* Check every byte; true and *sender, *seq when intact. */
static inline bool msg_check(const void *buf, uint32_t size, uint32_t *sender, uint32_t *seq)
{
    const struct msg_header *h = buf;
    uint32_t seed = pattern_seed(h->sender, h->seq, size);
    if (h->check != msg_header_check(seed) ||
        !pattern_check((const char *)buf + MSG_HEADER, size - MSG_HEADER, seed, 0))
        return false;
    *sender = h->sender;
    *seq = h->seq;
    return true;
}

/* ---- shared parameters ---- */

/* Table entries (struct cmdline_key) for the channel keys several workloads read. */
enum { MODE_PROCESS = 0, MODE_THREAD = 1 };
extern const char *const mode_names[];
#define MSG_KEY_PIPE_SIZE                                                                                   \
    CMDLINE_KEY_UINT("pipe_size", PIPE_DEFAULT_SIZE, PIPE_MIN_SIZE, PIPE_MAX_SIZE,                          \
                     "bytes in each pipe's ring (one page, as in Linux 2.4; pipes only, not sockets)")
#define MSG_KEY_MODE                                                                                        \
    CMDLINE_KEY_CHOICE("mode", "process", mode_names,                                                       \
                       "process: an address space per task; thread: one shared by the tasks of a group")

#endif
