/*
 * bench=aim7: a model of the AIM Independent Resource Benchmark, Suite VII
 * (OSDL's re-aim-7 release), with its "shared" workfile: the "Multiuser
 * Shared System Mix" that the seed 003 thread names as the workload where
 * MQ was said to beat O(1) ("AIM on large CPU count machines").
 *
 * Sources: osdl-aim-7/data/workfile.shared (1.2, 1/22/96: 53 tests, 780
 * hits) and osdl-aim-7/src/driver.c (the copy in davidlohr/areaim):
 *   - each test's share of a user's jobs: load = hits / total_hits x
 *     procs_per_user, rounded half up, and at least 1 when not 0
 *     (driver.c's "round off to int, run each test at least once");
 *     procs_per_user is jobs= (driver.c's default 100: 97 jobs per user
 *     for "shared");
 *   - every user runs its own jobs in a random order (driver.c picks at
 *     random among the tests with work left, seeded from the child's pid);
 *     here a Fisher-Yates shuffle seeded from seed= and the user number;
 *   - jobs per minute: tpm = procs_per_user / real_time x 60 x users,
 *     i.e. N x jobs x 60 / elapsed (driver.c: processes_per_second * 60.0 *
 *     runnum);
 *   - the Job Timing Index from the users' own elapsed times: std_dev =
 *     sqrt((sumsq - sum^2 / n) / n), cov = std_dev / mean, jti = (int)cov >
 *     1.0 ? 0 : (1 - cov) x 100 (100 with one user) -- driver.c's formula,
 *     its (int) cast included.
 *
 * The tests, as modelled (an in-kernel task runs each as a function call):
 *   compute (add_*, mul_*, div_* for double/float/int/long/short,
 *     array_rtns, matrix_rtns, new_raph, num_rtns_1, series_1, sieve,
 *     sort_rtns_1, string_rtns, trig_rtns, misc_rtns_1, jmp_test):
 *     an integer loop of work= x 20,000 iterations, its operation by kind
 *     (add, multiply, divide, or a mixed table walk).  No floating point:
 *     this kernel does not save FPU state across switches.
 *   memory (mem_rtns_1, mem_rtns_2, ram_copy): 8 copies of a 16 KiB buffer.
 *   allocator (brk_test, page_test, shared_memory, and creat_clo,
 *     link_test, dir_rtns_1 for lack of a file system): 64 allocations and
 *     frees of 256 bytes (page_test: 8 pages).
 *   fork/exit (fork_test; exec_test also copies 16 KiB for the new image;
 *     shell_rtns_1 runs three in a row): create a task that does a short
 *     compute loop, and reap it.
 *   IPC, a two-task ping-pong with a helper task created for the job and
 *     reaped after it: pipe_cpy over a pipe pair (4 KiB blocks, 16 round
 *     trips), stream_pipe, dgram_pipe, tcp_test, udp_test over a socket
 *     pair (1 KiB, 512, 1 KiB, 512 bytes, 16 round trips), signal_test
 *     through a wait queue (16 round trips).
 *   disk (disk_cp, disk_rd, disk_rr, disk_rw, disk_src, disk_wrt,
 *     sync_disk_cp, sync_disk_rw, sync_disk_wrt: 150 of the 780 hits):
 *     disk=sleep (default) a fixed blocking sleep of disk_ms= (sync_*:
 *     twice that); disk=drop leaves them out and renormalises the others
 *     over the remaining 630 hits.
 * Every ping-pong message is checked (msg.h); a lost or corrupt one is
 * status=error.  Out of memory (a user, a helper, a channel) is status=oom.
 *
 * Result line per users= value: jobs (all users' total), time_s,
 * jobs_per_min, jti; after the sweep an "aim7: peak" line with the peak
 * jobs per minute and its users count.
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/mem.h"
#include "../kernel/task.h"
#include "../kernel/time.h"
#include "../kernel/wait.h"

#define AIM_MAX_USERS 2000
#define AIM_MAX_JOBS 10000
#define AIM_PINGPONGS 16

enum aim_kind { K_ADD, K_MUL, K_DIV, K_MIX, K_MEM, K_ALLOC, K_PAGE, K_FORK, K_EXEC, K_SHELL,
                K_PIPE, K_SOCK, K_SIGNAL, K_DISK, K_SYNC_DISK };

struct aim_test {
    const char *name;
    uint16_t hits;
    uint8_t kind;
    uint16_t size;                /* IPC message bytes */
};

/* workfile.shared, in its order, with its hits. */
static const struct aim_test shared[] = {
    { "add_double", 30, K_ADD, 0 },   { "add_float", 30, K_ADD, 0 },      { "add_int", 30, K_ADD, 0 },
    { "add_long", 30, K_ADD, 0 },     { "add_short", 30, K_ADD, 0 },      { "array_rtns", 10, K_MIX, 0 },
    { "brk_test", 10, K_ALLOC, 0 },   { "creat_clo", 10, K_ALLOC, 0 },    { "dgram_pipe", 10, K_SOCK, 512 },
    { "dir_rtns_1", 10, K_ALLOC, 0 }, { "disk_cp", 20, K_DISK, 0 },       { "disk_rd", 20, K_DISK, 0 },
    { "disk_rr", 20, K_DISK, 0 },     { "disk_rw", 20, K_DISK, 0 },       { "disk_src", 20, K_DISK, 0 },
    { "disk_wrt", 20, K_DISK, 0 },    { "div_double", 10, K_DIV, 0 },     { "div_float", 10, K_DIV, 0 },
    { "div_int", 10, K_DIV, 0 },      { "div_long", 10, K_DIV, 0 },       { "div_short", 10, K_DIV, 0 },
    { "exec_test", 20, K_EXEC, 0 },   { "fork_test", 10, K_FORK, 0 },     { "jmp_test", 10, K_MIX, 0 },
    { "link_test", 10, K_ALLOC, 0 },  { "matrix_rtns", 10, K_MIX, 0 },    { "mem_rtns_1", 10, K_MEM, 0 },
    { "mem_rtns_2", 10, K_MEM, 0 },   { "misc_rtns_1", 10, K_MIX, 0 },    { "mul_double", 20, K_MUL, 0 },
    { "mul_float", 20, K_MUL, 0 },    { "mul_int", 20, K_MUL, 0 },        { "mul_long", 20, K_MUL, 0 },
    { "mul_short", 20, K_MUL, 0 },    { "new_raph", 10, K_MIX, 0 },       { "num_rtns_1", 10, K_MIX, 0 },
    { "page_test", 10, K_PAGE, 0 },   { "pipe_cpy", 10, K_PIPE, 4096 },   { "ram_copy", 10, K_MEM, 0 },
    { "series_1", 10, K_MIX, 0 },     { "shared_memory", 10, K_ALLOC, 0 }, { "shell_rtns_1", 20, K_SHELL, 0 },
    { "sieve", 10, K_MIX, 0 },        { "signal_test", 10, K_SIGNAL, 0 }, { "sort_rtns_1", 10, K_MIX, 0 },
    { "stream_pipe", 10, K_SOCK, 1024 }, { "string_rtns", 30, K_MIX, 0 }, { "sync_disk_cp", 10, K_SYNC_DISK, 0 },
    { "sync_disk_rw", 10, K_SYNC_DISK, 0 }, { "sync_disk_wrt", 10, K_SYNC_DISK, 0 }, { "tcp_test", 10, K_SOCK, 1024 },
    { "trig_rtns", 10, K_MIX, 0 },    { "udp_test", 10, K_SOCK, 512 },
};
#define NTESTS ((int)ARRAY_SIZE(shared))

static const char *const workfile_names[] = { "shared", NULL };
static const char *const disk_names[] = { "sleep", "drop", NULL };

enum { KEY_USERS, KEY_JOBS, KEY_WORKFILE, KEY_DISK, KEY_DISK_MS, KEY_WORK, KEY_SEED, KEY_CORRUPT };
static const struct cmdline_key aim_keys[] = {
    [KEY_USERS] = CMDLINE_KEY_UINT_LIST("users", "1,2,4,8", NULL, 1, AIM_MAX_USERS, CMDLINE_MAX_LIST,
                                        "simulated users (load points), run one after another"),
    [KEY_JOBS] = CMDLINE_KEY_UINT("jobs", 100, 1, AIM_MAX_JOBS,
                                  "driver.c's procs_per_user: each test gets hits / total x jobs of them (at least 1)"),
    [KEY_WORKFILE] = CMDLINE_KEY_CHOICE("workfile", "shared", workfile_names,
                                        "the job mix: shared (workfile.shared, 53 tests, 780 hits)"),
    [KEY_DISK] = CMDLINE_KEY_CHOICE("disk", "sleep", disk_names,
                                    "disk tests: sleep (a fixed blocking sleep) or drop (left out, weights renormalised)"),
    [KEY_DISK_MS] = CMDLINE_KEY_UINT("disk_ms", 5, 0, 10000, "with disk=sleep: ms a disk test sleeps (sync_disk_*: 2x)"),
    [KEY_WORK] = CMDLINE_KEY_UINT("work", 1, 1, 1000, "compute tests: this many x 20,000 loop iterations"),
    [KEY_SEED] = CMDLINE_KEY_UINT("seed", 1, 0, 4000000000u, "seed of every user's shuffle of its jobs"),
    [KEY_CORRUPT] = CMDLINE_KEY_UINT("corrupt", 0, 0, 1, "test aid: 1 corrupts user 0's first IPC message"),
};

static uint32_t aim_users[CMDLINE_MAX_LIST];
static int aim_nusers;
static uint32_t aim_jobs, aim_disk_ms, aim_work, aim_seed, aim_corrupt;
static int aim_disk;
static uint16_t aim_load[NTESTS];   /* jobs of each test per user */
static uint32_t aim_per_user;       /* their sum */

struct aim_user {
    uint32_t index;
    uint16_t *order;              /* test index of each job, shuffled */
    struct pipe *p[2];            /* pipe_cpy: to the helper, back */
    struct unix_pair *sock;       /* the socket tests */
    struct waitqueue wq;          /* signal_test */
    volatile int turn;
    uint32_t helper_rounds, helper_size;
    int helper_kind;
    uint64_t elapsed_ns;
    volatile uint32_t sink;       /* keeps the compute loops */
    char *buf, *hbuf;             /* the IPC messages, mine and the helper's (not on the small task stacks) */
};

static struct {
    struct run run;
    struct aim_user *users;
    volatile uint32_t jobs_done;
} aim;

/* ---------------------------------------------------------------- the tests */

static uint32_t compute(int kind, uint32_t iters, uint32_t x)
{
    uint32_t a = x | 1, b = 0x9e3779b9u;
    for (uint32_t i = 0; i < iters; i++) {
        switch (kind) {
        case K_ADD: a += b + i; break;
        case K_MUL: a = a * 2654435761u + i; break;
        case K_DIV: a = (a / (i % 7 + 1)) + b; break;
        default: a = (a << 5 | a >> 27) ^ (b + i * 31); break;
        }
    }
    return a;
}

static bool mem_test(struct aim_user *u)
{
    char *a = kmalloc(16384), *b = kmalloc(16384);
    bool ok = a && b;
    if (ok) {
        pattern_fill(a, 16384, u->index, 0);
        for (int i = 0; i < 8; i++)
            memcpy(i & 1 ? a : b, i & 1 ? b : a, 16384);
        ok = pattern_check(b, 16384, u->index, 0);   /* 8 copies end in b */
        if (!ok)
            run_abort(&aim.run, RUN_ERROR, "memory_copy_corrupt");
    } else {
        run_abort(&aim.run, RUN_OOM, "mem_test");
    }
    kfree(a);
    kfree(b);
    return ok;
}

static bool alloc_test(void)
{
    void *p[64];   /* 256 bytes of stack */
    for (int i = 0; i < 64; i++)
        if (!(p[i] = kmalloc(256))) {
            while (i--)
                kfree(p[i]);
            run_abort(&aim.run, RUN_OOM, "alloc_test");
            return false;
        }
    for (int i = 0; i < 64; i++)
        kfree(p[i]);
    return true;
}

static bool page_test(void)
{
    void *p = page_alloc(8);
    if (!p) {
        run_abort(&aim.run, RUN_OOM, "page_test");
        return false;
    }
    memset(p, 0x5a, 8 * PAGE_SIZE);
    page_free(p, 8);
    return true;
}

static void child_fn(void *arg)
{
    struct aim_user *u = arg;
    u->sink += compute(K_MIX, 2000, u->index);
}

/* fork + exit, as create + reap */
static bool fork_test(struct aim_user *u)
{
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = "aim-child";
    attr.cpus_allowed = bench_cpus();
    struct task *t = task_create(child_fn, u, &attr);
    if (!t) {
        run_abort(&aim.run, RUN_OOM, "fork_test");
        return false;
    }
    task_wait(t);
    return true;
}

/* The helper end of an IPC ping-pong: echoes every message back. */
static void ipc_helper(void *arg)
{
    struct aim_user *u = arg;
    struct run *r = &aim.run;
    char *buf = u->hbuf;
    for (uint32_t i = 0; i < u->helper_rounds && !run_aborted(r); i++) {
        int n;
        if (u->helper_kind == K_SIGNAL) {
            wait_event(u->wq, u->turn == 1);
            u->turn = 0;
            wake_up(&u->wq);
            continue;
        }
        if (u->helper_kind == K_PIPE)
            n = pipe_read_full(u->p[0], buf, u->helper_size);
        else
            n = unix_recv(u->sock->sk[1], buf, u->helper_size, UNIX_WAITALL);
        if (n != (int)u->helper_size) {
            run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "ipc_helper_lost");
            break;
        }
        if (u->helper_kind == K_PIPE)
            n = pipe_write(u->p[1], buf, u->helper_size);
        else
            n = unix_send(u->sock->sk[1], buf, u->helper_size);
        if (n != (int)u->helper_size) {
            run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "ipc_helper_send");
            break;
        }
    }
}

static bool ipc_test(struct aim_user *u, int kind, uint32_t size)
{
    struct run *r = &aim.run;
    char *buf = u->buf;
    u->helper_kind = kind;
    u->helper_rounds = AIM_PINGPONGS;
    u->helper_size = size;
    u->turn = 0;
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = "aim-ipc";
    attr.cpus_allowed = bench_cpus();
    struct task *t = task_create(ipc_helper, u, &attr);
    if (!t) {
        run_abort(r, RUN_OOM, "ipc_helper");
        return false;
    }
    bool ok = true;
    for (uint32_t i = 0; i < AIM_PINGPONGS && ok && !run_aborted(r); i++) {
        if (kind == K_SIGNAL) {
            u->turn = 1;
            wake_up(&u->wq);
            wait_event(u->wq, u->turn == 0);
            continue;
        }
        msg_fill(buf, size, u->index, i);
        if (aim_corrupt && u->index == 0 && i == 0)
            buf[size - 1] ^= 0x5a;
        int n = kind == K_PIPE ? pipe_write(u->p[0], buf, size) : unix_send(u->sock->sk[0], buf, size);
        if (n != (int)size) {
            run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "ipc_send");
            ok = false;
            break;
        }
        n = kind == K_PIPE ? pipe_read_full(u->p[1], buf, size) : unix_recv(u->sock->sk[0], buf, size, UNIX_WAITALL);
        uint32_t from, seq;
        if (n != (int)size) {
            run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "ipc_lost");
            ok = false;
        } else if (!msg_check(buf, size, &from, &seq) || from != u->index || seq != i) {
            kprintf("aim7: user %u: IPC message %u came back corrupt\n", u->index, i);
            run_abort(r, RUN_ERROR, "ipc_corrupt");
            ok = false;
        }
    }
    task_wait(t);
    return ok && !run_aborted(r);
}

static bool run_job(struct aim_user *u, int test)
{
    const struct aim_test *t = &shared[test];
    switch (t->kind) {
    case K_ADD: case K_MUL: case K_DIV: case K_MIX:
        u->sink += compute(t->kind, aim_work * 20000u, u->index + (uint32_t)test);
        return true;
    case K_MEM: return mem_test(u);
    case K_ALLOC: return alloc_test();
    case K_PAGE: return page_test();
    case K_FORK: return fork_test(u);
    case K_EXEC: return fork_test(u) && mem_test(u);
    case K_SHELL: return fork_test(u) && fork_test(u) && fork_test(u);
    case K_PIPE: case K_SOCK: case K_SIGNAL: return ipc_test(u, t->kind, t->size ? t->size : 8);
    case K_DISK: task_sleep_ns((uint64_t)aim_disk_ms * NSEC_PER_MSEC); return true;
    case K_SYNC_DISK: task_sleep_ns((uint64_t)aim_disk_ms * 2 * NSEC_PER_MSEC); return true;
    }
    return false;
}

static void aim_user_task(void *arg)
{
    struct aim_user *u = arg;
    struct run *r = &aim.run;
    if (run_wait_start(r)) {
        uint64_t t0 = clock_ns();
        for (uint32_t j = 0; j < aim_per_user && !run_aborted(r); j++) {
            if (!run_job(u, u->order[j]))
                break;
            atomic_add_return((volatile int *)&aim.jobs_done, 1);
        }
        u->elapsed_ns = clock_ns() - t0;
        run_done(r);
    }
    run_task_end(r);
}

/* ---------------------------------------------------------------- setup and runs */

static void aim_setup(void)
{
    aim_nusers = cmdline_key_uint_list(&aim_keys[KEY_USERS], aim_users, CMDLINE_MAX_LIST);
    aim_jobs = cmdline_key_uint(&aim_keys[KEY_JOBS]);
    aim_disk = cmdline_key_choice(&aim_keys[KEY_DISK]);
    aim_disk_ms = cmdline_key_uint(&aim_keys[KEY_DISK_MS]);
    aim_work = cmdline_key_uint(&aim_keys[KEY_WORK]);
    aim_seed = cmdline_key_uint(&aim_keys[KEY_SEED]);
    aim_corrupt = cmdline_key_uint(&aim_keys[KEY_CORRUPT]);
    (void)cmdline_key_choice(&aim_keys[KEY_WORKFILE]);
    uint32_t total = 0;
    for (int i = 0; i < NTESTS; i++)
        if (aim_disk == 0 || (shared[i].kind != K_DISK && shared[i].kind != K_SYNC_DISK))
            total += shared[i].hits;
    /* driver.c: new_load = hits / total_hits * procs_per_user, rounded half up, at least 1 */
    aim_per_user = 0;
    for (int i = 0; i < NTESTS; i++) {
        bool dropped = aim_disk == 1 && (shared[i].kind == K_DISK || shared[i].kind == K_SYNC_DISK);
        uint64_t num = (uint64_t)shared[i].hits * aim_jobs;   /* load = num / total */
        uint32_t load = dropped ? 0 : (uint32_t)(num / total);
        uint64_t rem = dropped ? 0 : num % total;
        if (!dropped && 2 * rem >= total)
            load++;
        else if (!dropped && rem && load == 0)
            load = 1;
        aim_load[i] = (uint16_t)load;
        aim_per_user += load;
    }
}

static uint64_t isqrt64(uint64_t v)
{
    uint64_t r = 0, bit = 1ull << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s ? *s : 0x2545f491u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static int aim_once(uint32_t nusers, int run_index, uint64_t *jpm_out)
{
    struct run *r = &aim.run;
    aim.jobs_done = 0;
    *jpm_out = 0;
    if (run_init(r, "aim7", (int)nusers, (int)nusers * 2) == 0 && run_init_pairs(r, (int)nusers) == 0) {
        r->pending = (int)nusers;
        if (!(aim.users = run_zalloc(r, nusers * sizeof(*aim.users))))
            run_abort(r, RUN_OOM, "users");
        for (uint32_t i = 0; i < nusers && !run_aborted(r); i++) {
            struct aim_user *u = &aim.users[i];
            u->index = i;
            waitqueue_init(&u->wq, "aim7 signal");
            if (!(u->order = run_zalloc(r, aim_per_user * sizeof(uint16_t))) || !(u->buf = run_zalloc(r, 4096)) ||
                !(u->hbuf = run_zalloc(r, 4096)) || !(u->p[0] = run_pipe(r, 8192)) ||
                !(u->p[1] = run_pipe(r, 8192)) || !(u->sock = run_socketpair(r))) {
                run_abort(r, RUN_OOM, "user_state");
                break;
            }
            uint32_t k = 0;
            for (int t = 0; t < NTESTS; t++)
                for (uint32_t c = 0; c < aim_load[t]; c++)
                    u->order[k++] = (uint16_t)t;
            uint32_t s = pattern_seed(aim_seed, i, 0x41494d37u);   /* "AIM7" */
            for (uint32_t j = aim_per_user; j > 1; j--) {          /* Fisher-Yates */
                uint32_t x = xorshift(&s) % j;
                uint16_t tmp = u->order[j - 1];
                u->order[j - 1] = u->order[x];
                u->order[x] = tmp;
            }
        }
        for (uint32_t i = 0; i < nusers && !run_aborted(r); i++)
            if (!run_spawn(r, aim_user_task, &aim.users[i], "aim-user", -1))
                run_abort(r, RUN_OOM, "task_create");
        if (!run_aborted(r))
            run_start(r);
        run_reap(r);
    }
    /* The Job Timing Index from each user's elapsed time (driver.c), in units of 100 us. */
    int jti = 100;
    if (aim.users && nusers > 1 && r->status == RUN_OK) {
        uint64_t sum = 0, var = 0;
        for (uint32_t i = 0; i < nusers; i++)
            sum += aim.users[i].elapsed_ns / 100000;
        uint64_t mean = sum / nusers;
        for (uint32_t i = 0; i < nusers; i++) {
            uint64_t x = aim.users[i].elapsed_ns / 100000, d = x > mean ? x - mean : mean - x;
            var += d * d;
        }
        var /= nusers;                               /* population variance, as driver.c's std_dev */
        uint64_t cov_e4 = mean ? isqrt64(var) * 10000 / mean : 0;   /* cov x 10^4 */
        /* jti = (int)cov > 1.0 ? 0.0 : (1 - cov) * 100.0, stored in an int */
        jti = cov_e4 / 10000 > 1 ? 0 : (int)(10000 - (int64_t)cov_e4) / 100;
    }
    int tasks = r->ntasks;
    uint32_t cpus_used = r->cpus_used, done = aim.jobs_done;
    uint64_t ns = run_elapsed_ns(r);
    aim.users = NULL;
    int status = run_free(r);
    uint64_t want = (uint64_t)nusers * aim_per_user;
    if (status == RUN_OK && done != want) {
        kprintf("aim7: %u jobs done, want %llu\n", done, (unsigned long long)want);
        status = RUN_ERROR;
        strlcpy(r->why, "job_count", sizeof(r->why));
    }
    static char line[400];
    int n = bench_result_begin(line, sizeof(line), "aim7", run_index);
    n += snprintf(line + n, sizeof(line) - n, " users=%u jobs=%u workfile=shared disk=%s disk_ms=%u work=%u seed=%u",
                  nusers, aim_jobs, disk_names[aim_disk], aim_disk_ms, aim_work, aim_seed);
    n += bench_channel_params(line + n, sizeof(line) - n);
    n += snprintf(line + n, sizeof(line) - n, " tasks_started=%d jobs_per_user=%u jobs_done=%u cpus_used=0x%x", tasks,
                  aim_per_user, done, cpus_used);
    if (status == RUN_OK) {
        char secs[32], jpm[32];
        fmt_fixed(secs, ns, NSEC_PER_SEC, 3);
        /* tpm = jobs / real_time * 60 * users, in hundredths */
        uint64_t jpm100 = ns ? want * 6000ull * NSEC_PER_SEC / ns : 0;
        fmt_fixed(jpm, jpm100, 100, 2);
        snprintf(line + n, sizeof(line) - n, " time_s=%s jobs_per_min=%s jti=%d status=ok", secs, jpm, jti);
        *jpm_out = jpm100;
    } else {
        snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(status), r->why);
    }
    kprintf("%s\n", line);
    run_print_chanstat(r, run_index, NULL);
    return status;
}

static int aim_run(int run_index)
{
    uint64_t peak = 0;
    uint32_t peak_users = 0;
    for (int i = 0; i < aim_nusers; i++) {
        uint64_t jpm;
        int status = aim_once(aim_users[i], run_index, &jpm);
        if (status != RUN_OK)
            return run_exit_code(status);
        if (jpm > peak) {
            peak = jpm;
            peak_users = aim_users[i];
        }
    }
    char p[32];
    fmt_fixed(p, peak, 100, 2);
    kprintf("aim7: run=%d peak_jobs_per_min=%s peak_users=%u\n", run_index, p, peak_users);
    return EXIT_OK;
}

static const struct bench aim_bench = {
    .name = "aim7",
    .summary = "AIM Suite VII shared workfile: users each run a seeded shuffle of the weighted job mix",
    BENCH_KEYS(aim_keys),
    .in_default_suite = false,
    .setup = aim_setup,
    .run = aim_run,
};
BENCH(aim_bench);
