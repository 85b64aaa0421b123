/*
 * bench=hackbench and bench=maxgroups: Rusty Russell's hackbench (lkml, 11
 * Dec 2001) and its rt-tests descendant.
 *
 * One group = fds receivers, each reading its own channel (an AF_UNIX
 * socket pair, kernel/unix_sock.h, or a pipe with ipc=pipe), and fds
 * senders; every sender writes loops messages of datasize bytes to every
 * receiver of its group, one write() per message.  A receiver reads one
 * message per read call, as hackbench's receiver does
 * (read(in_fd, data + done, DATASIZE - done) until done == DATASIZE).  As in
 * the original, all tasks are created first and wait at a start barrier;
 * the clock starts when the last one is ready and, as in hackbench's main
 * ("Reap them all": wait() for every child, then gettimeofday), stops when
 * the main task has reaped every task: the exit and reaping of the 2 x fds
 * x groups tasks is part of the time.  (The moment the last receiver read
 * its last message is on the chanstat line, last_read_s.)  In process mode
 * every task has its own address-space id, in thread mode a group shares
 * one.
 *
 * Every message carries its sender and a per-receiver sequence number and a
 * payload derived from both (msg.h): a receiver checks every byte and the
 * order of each sender's messages, so a lost, duplicated, reordered or
 * corrupt message gives status=error.  The last sender of a group closes
 * its receivers' channels (the last close of a socket or pipe end), so a
 * missing message shows up as an early EOF rather than a hang; a receiver
 * closes its own socket when it is done, as its exit would.
 *
 * Out of memory while creating tasks, stacks or channels (or while a pipe
 * allocates its ring, or a socket an skb) stops the run cleanly: the barrier
 * is released with an abort flag, every channel is shut down, every task that
 * was started is reaped and everything is freed; the result line says
 * status=oom and tasks_started=<n>, and the exit code is EXIT_OOM.
 *
 * bench=maxgroups repeats hackbench with more and more groups (doubling from
 * step=, then climbing from the last success in strides of step, 2 steps, 4
 * steps..., down to step) until a run fails for lack of memory, like the
 * seed's "max groups before out of resource" table (which climbed by 25).
 * Two things of its own keep a failed attempt cheap, and neither touches
 * what is measured (every task waits at the barrier before a run starts,
 * whatever the order they got there): each group's tasks reach the barrier
 * before the next group is created (run_settle), and a run that fails
 * while being created lets its tasks go one at a time (run_reap).  Without
 * them, thousands of tasks runnable at once made goodness's run-queue scan
 * quadratic: 48-64 s of host time to wind up one failed attempt of 14,500
 * tasks (1 CPU, TCG), 0.3 s now.  The heap gives its free pages back when
 * memory runs out (kernel/mem.c), so an attempt does not fail for what the
 * one before it left behind.
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/x86.h"
#include "../kernel/mem.h"

#define HB_MAX_GROUPS 100000u
#define HB_MAX_FDS 1000u
#define HB_MAX_LOOPS 1000000u

enum { IPC_PIPE = 0, IPC_SOCKET = 1 };
static const char *const ipc_names[] = { "pipe", "socket", NULL };

struct hb_config {
    uint32_t loops, datasize, fds, pipe_size;
    int mode, ipc;
    uint32_t corrupt, drop;       /* test aids: message number of sender 0 -> receiver 0 of group 0 */
};

/* A receiver's channel: a pipe, or the two ends of a socket pair. */
struct hb_chan {
    struct pipe *pipe;            /* ipc=pipe */
    struct unix_sock *rx, *tx;    /* ipc=socket: the receiver reads rx, the senders write tx */
};

struct hb_group {
    volatile int senders_left;    /* the last sender to finish closes the channels */
    struct hb_chan in[];          /* fds receive channels */
};

struct hb_task {
    struct hb_group *group;
    uint32_t group_index, index;
    uint32_t *next_seq;           /* receivers: next sequence number expected from each sender */
    char *buf;                    /* one message */
};

/* One run at a time: the workloads run one after another. */
static struct {
    struct run run;
    struct hb_config cfg;
    volatile int receivers_done;
} hb;

struct hb_outcome {
    int status;
    uint32_t groups, tasks_started, cpus_used;
    uint64_t elapsed_ns;          /* start barrier to the last task reaped (hackbench's Time:) */
    uint64_t last_read_ns;        /* start barrier to the last receiver's last read */
    uint64_t messages;
    char why[96];
};

/* Check one message; false after run_abort. */
static bool hb_check(struct hb_task *t, const char *buf, uint32_t got)
{
    const struct hb_config *c = &hb.cfg;
    uint32_t sender, seq;
    if (!msg_check(buf, c->datasize, &sender, &seq)) {
        kprintf("hackbench: group %u receiver %u: corrupt message after %u good ones\n", t->group_index, t->index,
                got);
        run_abort(&hb.run, RUN_ERROR, "corrupt_message");
        return false;
    }
    if (sender >= c->fds || seq != t->next_seq[sender]) {
        kprintf("hackbench: group %u receiver %u: sender %u sent message %u, expected %u\n", t->group_index,
                t->index, sender, seq, sender < c->fds ? t->next_seq[sender] : 0);
        run_abort(&hb.run, RUN_ERROR, "message_out_of_sequence");
        return false;
    }
    t->next_seq[sender]++;
    return true;
}

static inline int hb_read(const struct hb_chan *ch, void *buf, uint32_t n)
{
    return ch->pipe ? pipe_read(ch->pipe, buf, n) : unix_recv(ch->rx, buf, n, 0);
}

static inline int hb_write(const struct hb_chan *ch, const void *buf, uint32_t n)
{
    return ch->pipe ? pipe_write(ch->pipe, buf, n) : unix_send(ch->tx, buf, n);
}

/* hackbench's receiver: num_packets reads of one message, each read asking
 * for the rest of the message (DATASIZE - done). */
static void hb_receiver(void *arg)
{
    struct hb_task *t = arg;
    struct run *r = &hb.run;
    const struct hb_config *c = &hb.cfg;
    const struct hb_chan *ch = &t->group->in[t->index];
    if (run_wait_start(r)) {
        uint32_t total = c->fds * c->loops, got = 0;
        while (got < total) {
            uint32_t done = 0;
            int n = 0;
            while (done < c->datasize && (n = hb_read(ch, t->buf + done, c->datasize - done)) > 0)
                done += (uint32_t)n;
            if (n <= 0) {
                if (n < 0) {
                    run_pipe_failure(r, n, "read_failed");
                } else if (!run_aborted(r)) {   /* after an abort, senders stop early: no news */
                    kprintf("hackbench: group %u receiver %u: end of stream after %u of %u messages\n",
                            t->group_index, t->index, got, total);
                    run_abort(r, RUN_ERROR, "lost_message");
                }
                break;
            }
            if (!hb_check(t, t->buf, got))
                break;
            got++;
        }
        if (got == total) {
            atomic_add_return(&hb.receivers_done, 1);
            run_done(r);
        }
    }
    if (ch->rx)
        unix_close(ch->rx);             /* the receiver's exit closes its socket */
    run_task_end(r);
}

static void hb_sender(void *arg)
{
    struct hb_task *t = arg;
    struct run *r = &hb.run;
    const struct hb_config *c = &hb.cfg;
    struct hb_group *g = t->group;
    bool faulty = t->group_index == 0 && t->index == 0;
    if (run_wait_start(r)) {
        for (uint32_t i = 0; i < c->loops && !run_aborted(r); i++) {
            msg_fill(t->buf, c->datasize, t->index, i);
            for (uint32_t k = 0; k < c->fds; k++) {
                bool corrupt = faulty && k == 0 && i + 1 == c->corrupt;
                if (faulty && k == 0 && i + 1 == c->drop)
                    continue;
                if (corrupt)
                    t->buf[c->datasize - 1] ^= 0x40;
                int n = hb_write(&g->in[k], t->buf, c->datasize);
                if (corrupt)
                    t->buf[c->datasize - 1] ^= 0x40;
                if (n != (int)c->datasize) {
                    if (n == PIPE_ENOMEM && g->in[k].tx)
                        run_abort(r, RUN_OOM, "skb");   /* a socket's skb, not a pipe's ring */
                    else
                        run_pipe_failure(r, n, "write_failed");
                    goto out;
                }
            }
        }
    }
out:
    if (atomic_add_return(&g->senders_left, -1) == 0)
        for (uint32_t k = 0; k < c->fds; k++) {
            if (g->in[k].pipe)
                pipe_close_write(g->in[k].pipe);
            else
                unix_close(g->in[k].tx);
        }
    run_task_end(r);
}

/* Create one group; false (after run_abort) when memory ran out. */
static bool hb_create_group(struct run *r, const struct hb_config *c, uint32_t gi)
{
    struct hb_group *g = run_zalloc(r, sizeof(*g) + c->fds * sizeof(struct hb_chan));
    if (!g) {
        run_abort(r, RUN_OOM, "group");
        return false;
    }
    g->senders_left = (int)c->fds;
    int mm = c->mode == MODE_THREAD ? new_mm_id() : -1;
    for (uint32_t k = 0; k < c->fds; k++) {
        /* The receiver's channel first, as hackbench creates it before forking the receiver. */
        if (c->ipc == IPC_SOCKET) {
            struct unix_pair *pair = run_socketpair(r);
            if (!pair) {
                run_abort(r, RUN_OOM, "socketpair");
                return false;
            }
            g->in[k].rx = pair->sk[0];    /* the receiver reads fds[0]; senders write fds[1] */
            g->in[k].tx = pair->sk[1];
        } else if (!(g->in[k].pipe = run_pipe(r, c->pipe_size))) {
            run_abort(r, RUN_OOM, "pipe");
            return false;
        }
        struct hb_task *t = run_zalloc(r, sizeof(*t) + c->fds * sizeof(uint32_t) + c->datasize);
        if (!t) {
            run_abort(r, RUN_OOM, "task_state");
            return false;
        }
        t->group = g;
        t->group_index = gi;
        t->index = k;
        t->next_seq = (uint32_t *)(t + 1);
        t->buf = (char *)(t->next_seq + c->fds);
        if (!run_spawn(r, hb_receiver, t, "hb-receiver", mm)) {
            run_abort(r, RUN_OOM, "task_create");
            return false;
        }
    }
    for (uint32_t k = 0; k < c->fds; k++) {
        struct hb_task *t = run_zalloc(r, sizeof(*t) + c->datasize);
        if (!t) {
            run_abort(r, RUN_OOM, "task_state");
            return false;
        }
        t->group = g;
        t->group_index = gi;
        t->index = k;
        t->buf = (char *)(t + 1);
        if (!run_spawn(r, hb_sender, t, "hb-sender", mm)) {
            run_abort(r, RUN_OOM, "task_create");
            return false;
        }
    }
    return true;
}

/* settle: each group's tasks wait at the barrier before the next group is
 * created (maxgroups; see maxgroups_run). */
static void hackbench_once(const struct hb_config *c, uint32_t groups, bool settle, struct hb_outcome *out)
{
    struct run *r = &hb.run;
    hb.cfg = *c;
    hb.receivers_done = 0;
    uint32_t ntasks = groups * 2 * c->fds;
    uint32_t npipes = c->ipc == IPC_PIPE ? groups * c->fds : 0;
    uint32_t npairs = c->ipc == IPC_SOCKET ? groups * c->fds : 0;
    if (run_init(r, "hackbench", (int)ntasks, (int)npipes) == 0 && run_init_pairs(r, (int)npairs) == 0) {
        r->pending = (int)(groups * c->fds);
        for (uint32_t g = 0; g < groups; g++)
            if (!hb_create_group(r, c, g))
                break;
            else if (settle)
                run_settle(r);
        if (!run_aborted(r))
            run_start(r);
        run_reap(r);
    }
    out->groups = groups;
    out->tasks_started = (uint32_t)r->ntasks;
    out->cpus_used = r->cpus_used;
    out->elapsed_ns = run_reaped_ns(r);
    out->last_read_ns = run_elapsed_ns(r);
    out->messages = (uint64_t)hb.receivers_done * c->fds * c->loops;
    out->status = run_free(r);
    strlcpy(out->why, r->why, sizeof(out->why));
}

/* ---- the keys ---- */

/* Keys hackbench and maxgroups share: the same block, at offset *_SHARED in both tables (read_config). */
enum { K_LOOPS, K_DATASIZE, K_FDS, K_MODE, K_IPC, K_PIPE_SIZE, K_SHARED };
#define HB_SHARED_KEYS(base)                                                                                \
    [base + K_DATASIZE] = CMDLINE_KEY_UINT("datasize", 100, MSG_MIN_SIZE, PIPE_MAX_SIZE,                    \
                                           "bytes per message (ipc=pipe: at most pipe_size; ipc=socket: at "   \
                                           "most one skb, SKB_MAX_ALLOC of sock_model)"),                  \
    [base + K_FDS] = CMDLINE_KEY_UINT("fds", 20, 1, HB_MAX_FDS, "receivers and senders per group"),       \
    [base + K_MODE] = MSG_KEY_MODE,                                                                         \
    [base + K_IPC] = CMDLINE_KEY_CHOICE("ipc", "socket", ipc_names, "each receiver's channel"),            \
    [base + K_PIPE_SIZE] = MSG_KEY_PIPE_SIZE

enum { HB_GROUPS, HB_SHARED, HB_CORRUPT = HB_SHARED + K_SHARED, HB_DROP };
static const struct cmdline_key hackbench_keys[] = {
    [HB_GROUPS] = CMDLINE_KEY_UINT_LIST("groups", "10", "4", 1, HB_MAX_GROUPS, CMDLINE_MAX_LIST,
                                        "groups, or a list of group counts run one after another"),
    [HB_SHARED + K_LOOPS] = CMDLINE_KEY_UINT_SUITE("loops", 100, 50, 1, HB_MAX_LOOPS,
                                                   "messages from each sender to each receiver of its group"),
    HB_SHARED_KEYS(HB_SHARED),
    [HB_CORRUPT] = CMDLINE_KEY_UINT("corrupt", 0, 0, HB_MAX_LOOPS,
                                    "test aid: flip a byte of this message of sender 0 to receiver 0 "
                                    "(0: off; at most loops)"),
    [HB_DROP] = CMDLINE_KEY_UINT("drop", 0, 0, HB_MAX_LOOPS,
                                 "test aid: skip this message of sender 0 to receiver 0 (0: off; at most loops)"),
};

enum { MG_STEP, MG_LIMIT, MG_SHARED };
static const struct cmdline_key maxgroups_keys[] = {
    [MG_STEP] = CMDLINE_KEY_UINT("step", 25, 1, HB_MAX_GROUPS, "first attempt and resolution, in groups"),
    [MG_LIMIT] = CMDLINE_KEY_UINT("limit", 2000, 1, HB_MAX_GROUPS, "largest attempt, in groups (at least step)"),
    [MG_SHARED + K_LOOPS] = CMDLINE_KEY_UINT("loops", 10, 1, HB_MAX_LOOPS,
                                             "messages from each sender to each receiver of its group"),
    HB_SHARED_KEYS(MG_SHARED),
};

/* The channel and message keys, from a block laid out as HB_SHARED_KEYS. */
static void read_config(struct hb_config *c, const struct cmdline_key *k)
{
    c->pipe_size = cmdline_key_uint(&k[K_PIPE_SIZE]);
    c->loops = cmdline_key_uint(&k[K_LOOPS]);
    c->fds = cmdline_key_uint(&k[K_FDS]);
    c->datasize = cmdline_key_uint(&k[K_DATASIZE]);
    c->mode = cmdline_key_choice(&k[K_MODE]);
    c->ipc = cmdline_key_choice(&k[K_IPC]);
    /* A message must arrive whole: a pipe write up to its size is atomic, a
     * stream socket send is one skb only up to SKB_MAX_ALLOC (larger ones go
     * in pieces that other senders' skbs may come between). */
    if (c->ipc == IPC_PIPE && c->datasize > c->pipe_size)
        cmdline_error("datasize", "larger than pipe_size: a message must fit the pipe to be written atomically");
    if (c->ipc == IPC_SOCKET && c->datasize > unix_model_params()->skb_max_alloc) {
        char why[120];
        snprintf(why, sizeof(why), "larger than one skb (SKB_MAX_ALLOC %u under sock_model=%s): messages would interleave",
                 unix_model_params()->skb_max_alloc, unix_model_params()->name);
        cmdline_error("datasize", why);
    }
    c->corrupt = c->drop = 0;
}

/* ---- bench=hackbench ---- */

static struct hb_config hb_cmdline;
static uint32_t hb_groups[CMDLINE_MAX_LIST];
static int hb_ngroups;

/* A test aid names one of the loops messages (or 0). */
static uint32_t read_fault_key(const struct cmdline_key *k, uint32_t loops)
{
    uint32_t n = cmdline_key_uint(k);
    if (n > loops)
        cmdline_range_error(k->name, n, 0, loops);
    return n;
}

/* Defaults: rt-tests hackbench (10 groups, 100 loops); the short suite uses 4 groups of 50. */
static void hackbench_setup(void)
{
    read_config(&hb_cmdline, &hackbench_keys[HB_SHARED]);
    hb_cmdline.corrupt = read_fault_key(&hackbench_keys[HB_CORRUPT], hb_cmdline.loops);
    hb_cmdline.drop = read_fault_key(&hackbench_keys[HB_DROP], hb_cmdline.loops);
    hb_ngroups = cmdline_key_uint_list(&hackbench_keys[HB_GROUPS], hb_groups, CMDLINE_MAX_LIST);
}

static int format_config(char *buf, size_t size, const struct hb_config *c)
{
    int n = snprintf(buf, size, " loops=%u datasize=%u fds=%u mode=%s ipc=%s pipe_size=%u", c->loops, c->datasize,
                     c->fds, mode_names[c->mode], ipc_names[c->ipc], c->pipe_size);
    return n + bench_channel_params(buf + n, size - (size_t)n);
}

static int hackbench_run(int run_index)
{
    const struct hb_config *c = &hb_cmdline;
    for (int i = 0; i < hb_ngroups; i++) {
        uint32_t groups = hb_groups[i];
        kprintf("Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n"
                "Each sender will pass %u messages of %u bytes\n",
                mode_names[c->mode], groups, 2 * c->fds, groups * 2 * c->fds, c->loops, c->datasize);
        struct hb_outcome o;
        hackbench_once(c, groups, false, &o);
        static char line[400];
        char num[32];
        int n = bench_result_begin(line, sizeof(line), "hackbench", run_index);
        n += snprintf(line + n, sizeof(line) - n, " groups=%u", groups);
        n += format_config(line + n, sizeof(line) - n, c);
        n += snprintf(line + n, sizeof(line) - n, " tasks_started=%u messages=%llu cpus_used=0x%x", o.tasks_started,
                      (unsigned long long)o.messages, o.cpus_used);
        if (o.status == RUN_OK) {
            /* hackbench's own line, milliseconds truncated as it prints them
             * ("%lu.%03lu", tv_usec / 1000); the result keeps microseconds (a run
             * of a few ms quantised to 1 ms makes every stddev 0). */
            uint64_t ms = o.elapsed_ns / NSEC_PER_MSEC;
            kprintf("Time: %llu.%03llu\n", (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000));
            fmt_fixed(num, o.elapsed_ns, NSEC_PER_SEC, 6);
            snprintf(line + n, sizeof(line) - n, " time_s=%s status=ok", num);
        } else {
            snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(o.status), o.why);
        }
        kprintf("%s\n", line);
        char extra[64];
        fmt_fixed(num, o.last_read_ns, NSEC_PER_SEC, 6);
        snprintf(extra, sizeof(extra), " groups=%u last_read_s=%s", groups, num);
        run_print_chanstat(&hb.run, run_index, extra);
        if (o.status != RUN_OK)
            return run_exit_code(o.status);
    }
    return EXIT_OK;
}

static const struct bench hackbench_bench = {
    .name = "hackbench",
    .summary = "groups of senders and receivers over sockets or pipes (Russell 2001, rt-tests)",
    BENCH_KEYS(hackbench_keys),
    .in_default_suite = true,
    .setup = hackbench_setup,
    .run = hackbench_run,
};
BENCH(hackbench_bench);

/* ---- bench=maxgroups ---- */

static struct hb_config mg_config;
static uint32_t mg_step, mg_limit;

static void maxgroups_setup(void)
{
    read_config(&mg_config, &maxgroups_keys[MG_SHARED]);
    mg_step = cmdline_key_uint(&maxgroups_keys[MG_STEP]);
    mg_limit = cmdline_key_uint(&maxgroups_keys[MG_LIMIT]);
    if (mg_limit < mg_step)
        cmdline_error("limit", "smaller than step");
}

/* One attempt; prints a progress line.  Returns the status. */
static int mg_attempt(uint32_t groups, int *attempts)
{
    struct hb_outcome o;
    hackbench_once(&mg_config, groups, true, &o);
    (*attempts)++;
    char num[32];
    fmt_fixed(num, o.elapsed_ns, NSEC_PER_SEC, 3);
    /* free_kib: free page memory after the attempt; it drops once while the heap's
     * object caches grow, then stays put if failed attempts free what they took. */
    uint32_t free_kib = mem_free_pages() * (PAGE_SIZE / 1024);
    if (o.status == RUN_OK)
        kprintf("maxgroups: groups=%u tasks_started=%u status=ok time_s=%s free_kib=%u\n", groups, o.tasks_started,
                num, free_kib);
    else
        kprintf("maxgroups: groups=%u tasks_started=%u status=%s reason=%s free_kib=%u\n", groups, o.tasks_started,
                run_status_name(o.status), o.why, free_kib);
    return o.status;
}

static int maxgroups_run(int run_index)
{
    uint32_t ok = 0, failed = 0, groups = mg_step;
    int attempts = 0, status = RUN_OK;
    /* Doubling until the first failure (or the limit)... */
    for (;;) {
        status = mg_attempt(groups, &attempts);
        if (status == RUN_OK) {
            ok = groups;
            if (groups >= mg_limit)
                break;
            groups = MIN(groups * 2, mg_limit);
        } else {
            failed = groups;
            break;
        }
    }
    /* ...then up from the last success, step, 2 steps, 4 steps... below the
     * first failure (bisecting where the next stride would reach it), and
     * after each failure up again from step: the attempts that fail land
     * next to the limit.  A failure far above it is the dearest attempt
     * (a run that ran out of skbs half-way, then all its tasks woken to
     * exit): goodness, 1 CPU, 128 MiB, limit 200: plain bisection tried
     * 300, 250 and 225 (79 of the boot's 111 s); this tries 225. */
    uint32_t stride = mg_step;
    while (status == RUN_OOM && failed - ok > mg_step) {
        uint32_t next = ok + stride;
        if (next >= failed)
            next = ok + (failed - ok) / mg_step / 2 * mg_step;
        if (next <= ok)
            next = ok + mg_step;
        status = mg_attempt(next, &attempts);
        if (status == RUN_OK) {
            ok = next;
            stride *= 2;
            status = RUN_OOM;
        } else if (status == RUN_OOM) {
            failed = next;
            stride = mg_step;
        }
    }
    static char line[400];
    int n = bench_result_begin(line, sizeof(line), "maxgroups", run_index);
    n += snprintf(line + n, sizeof(line) - n, " step=%u limit=%u", mg_step, mg_limit);
    n += format_config(line + n, sizeof(line) - n, &mg_config);
    n += snprintf(line + n, sizeof(line) - n, " attempts=%d max_groups=%u", attempts, ok);
    if (failed)
        n += snprintf(line + n, sizeof(line) - n, " first_failure=%u", failed);
    else
        n += snprintf(line + n, sizeof(line) - n, " first_failure=none");
    /* Running out of memory is the expected end; anything else is an error. */
    bool error = status == RUN_ERROR;
    snprintf(line + n, sizeof(line) - n, " status=%s", error ? "error" : "ok");
    kprintf("%s\n", line);
    return error ? EXIT_ERROR : EXIT_OK;
}

static const struct bench maxgroups_bench = {
    .name = "maxgroups",
    .summary = "hackbench with more and more groups until memory runs out (seed: max groups)",
    BENCH_KEYS(maxgroups_keys),
    .in_default_suite = false,
    .setup = maxgroups_setup,
    .run = maxgroups_run,
};
BENCH(maxgroups_bench);
