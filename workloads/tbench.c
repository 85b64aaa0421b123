/*
 * bench=tbench: Andrew Tridgell's tbench (dbench's network half), on
 * AF_UNIX socket pairs (kernel/unix_sock.h) instead of TCP over loopback.
 *
 * clients=N client/server task pairs, each pair joined by one socket pair.
 * A client replays a request/response mix modelled on dbench's NetBench
 * load with the packet sizes of dbench 1.x/2.0 sockio.c:
 *
 *   operation     share   request          reply
 *   ReadX         53.5%   55               size + 4   (size: 512 2048 4096 ... 65471)
 *   WriteX        11.5%   51 + size        41
 *   NTCreateX     10%     111              69
 *   Close          8%     45               39
 *   QFILEINFO      6%     41               80
 *   QPATHINFO      5%     81               80
 *   FIND_FIRST     2.5%   81               200
 *   Unlink         1.5%   83               39
 *   QFSINFO        1%     41               80
 *   Flush / Rename 0.5%   41 / 101         39
 *
 * The load file modelled is dbench 2.0's client_plain.txt (2002, 122,877
 * operations: the shares and ReadX/WriteX sizes above were counted from it
 * and rounded to a 200-operation deck, shuffled once with a fixed seed;
 * each client starts at its own offset).  dbench 2.0's default,
 * client_oplocks.txt (62,477 operations, about 5.6 KB of payload per
 * operation against client_plain's 2.8 KB), is not modelled because its
 * operation counts are not available here; the seed's tbench post does not
 * say which file it ran.
 *
 * As dbench/tbench do, the work is fixed: every client replays the whole
 * load file (load_ops= operations, default the file's 122,877) and the
 * clock stops when the last client finishes.  Throughput is dbench 2.0's:
 * 1.0e-6 * (ReadX + WriteX payload bytes) / elapsed seconds (mb_per_s).
 * seconds=N instead runs for N seconds (clients stop at the first operation
 * boundary after that; the clock stops when the last client is done).
 *
 * Each operation is dbench's do_packets(send, recv): the client writes the
 * whole request in one write (its first word the length, as tbench_srv
 * expects; then the reply length, a sequence number and a header check),
 * reads the 4-byte reply header (read_sock) and the rest with MSG_WAITALL;
 * the server (tbench_srv's server(), one task per connection as it forks
 * one) reads 4 bytes, then the rest of the request, and writes the reply in
 * one write.  All payload bytes follow a pattern derived from (client,
 * sequence), and both sides check every byte.  max_latency_ms: the slowest
 * request/reply exchange.
 *
 * Each pair stands for a TCP connection (unix_pair_model_tcp): cost=era2003
 * charges its sends 2.4.18's TCP price over AF_UNIX's (kernel/chan_cost.c).
 * An experiment flag, off by default: -DTBENCH_OP_NS=N burns N instructions
 * per operation in the client (op_work, below).
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/mem.h"
#include "../kernel/task.h"
#include "../kernel/time.h"

#define TB_MAX_CLIENTS 10000u
#define TB_LOAD_OPS 122877u       /* operations in client_plain.txt: one whole replay */

enum { KEY_CLIENTS, KEY_LOAD_OPS, KEY_SECONDS };
static const struct cmdline_key tbench_keys[] = {
    [KEY_CLIENTS] = CMDLINE_KEY_UINT_LIST("clients", "4", NULL, 1, TB_MAX_CLIENTS, CMDLINE_MAX_LIST,
                                          "client/server pairs, or a list of counts run one after another"),
    [KEY_LOAD_OPS] = CMDLINE_KEY_UINT_SUITE("load_ops", TB_LOAD_OPS, 200, 1, 100000000,
                                            "operations each client replays (fixed work; default: all of "
                                            "client_plain.txt)"),
    [KEY_SECONDS] = CMDLINE_KEY_UINT("seconds", 0, 0, 86400,
                                     "0: fixed work (load_ops per client); N: send requests for N seconds instead"),
};
#define TB_BUF 65536u             /* each task's buffer: the largest request (51 + 65471) or reply (65475) */
#define TB_DECK 200u
#define TB_REQUEST_HEADER 16u     /* length, reply length, sequence, check */

enum tb_kind { READX, WRITEX, CREATEX, CLOSE, QFILEINFO, QPATHINFO, FINDFIRST, UNLINK, QFSINFO, FLUSH, RENAME };

/* Rows of the deck: kind, payload size (ReadX/WriteX), how many of the 200. */
static const struct {
    uint8_t kind;
    uint32_t size;
    uint8_t count;
} tb_mix[] = {
    { READX, 512, 46 },   { READX, 2048, 24 },   { READX, 4096, 5 },   { READX, 8192, 1 },
    { READX, 16384, 2 },  { READX, 65471, 3 },   { READX, 28, 26 },    { WRITEX, 512, 4 },
    { WRITEX, 2048, 3 },  { WRITEX, 4096, 1 },   { WRITEX, 16384, 1 }, { WRITEX, 65471, 3 },
    { WRITEX, 64, 11 },   { CREATEX, 0, 20 },    { CLOSE, 0, 16 },     { QFILEINFO, 0, 12 },
    { QPATHINFO, 0, 10 }, { FINDFIRST, 0, 5 },   { UNLINK, 0, 3 },     { QFSINFO, 0, 2 },
    { FLUSH, 0, 1 },      { RENAME, 0, 1 },
};

struct tb_op {
    uint32_t send, recv;          /* bytes on the wire, as in dbench's do_packets(send, recv) */
    uint32_t payload;             /* ReadX/WriteX bytes that count for throughput */
};

static struct tb_op tb_deck[TB_DECK];
static uint32_t tb_clients[CMDLINE_MAX_LIST];
static int tb_nclients;
static uint32_t tb_seconds, tb_load_ops;

struct tb_pair {
    struct unix_sock *client_sk, *server_sk;  /* the two ends of the pair */
    uint32_t index;
    char *client_buf, *server_buf;
    uint64_t bytes, max_latency_ns;
    uint64_t done_ns;           /* clock_ns() when it finished its operations */
    uint32_t ops;
};

static struct {
    struct run run;
    volatile int stop;
    struct tb_pair *pairs;
    uint32_t clients;
    int first_done;                      /* set by the first client to finish */
    uint32_t slowest_ops_at_first_done;  /* the fewest operations any client had done then */
    uint64_t ops_at_first_done;          /* all clients' operations then */
} tb;

/* The first client to finish notes how far the slowest one has got: fixed
 * work ends when the last client does, so a scheduler that lets some
 * clients fall behind pays for it in the tail (tbenchstat line). */
static void note_first_done(void)
{
    if (!__sync_bool_compare_and_swap(&tb.first_done, 0, 1))
        return;
    uint32_t slowest = UINT32_MAX;
    uint64_t all = 0;
    for (uint32_t i = 0; i < tb.clients; i++) {
        uint32_t ops = *(volatile uint32_t *)&tb.pairs[i].ops;
        slowest = MIN(slowest, ops);
        all += ops;
    }
    tb.slowest_ops_at_first_done = slowest;
    tb.ops_at_first_done = all;
}

static struct tb_op make_op(uint8_t kind, uint32_t size)
{
    switch (kind) {
    case READX: return (struct tb_op){ 55, size + 4, size };
    case WRITEX: return (struct tb_op){ 51 + size, 41, size };
    case CREATEX: return (struct tb_op){ 111, 69, 0 };
    case CLOSE: return (struct tb_op){ 45, 39, 0 };
    case QFILEINFO: return (struct tb_op){ 41, 80, 0 };
    case QPATHINFO: return (struct tb_op){ 41 + 40, 80, 0 };   /* 41 + a 40-character path */
    case FINDFIRST: return (struct tb_op){ 41 + 40, 200, 0 };
    case UNLINK: return (struct tb_op){ 83, 39, 0 };
    case QFSINFO: return (struct tb_op){ 41, 80, 0 };
    case FLUSH: return (struct tb_op){ 41, 39, 0 };
    default: return (struct tb_op){ 41 + 60, 39, 0 };        /* Rename: two 30-character names */
    }
}

static void build_deck(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ARRAY_SIZE(tb_mix); i++)
        for (uint32_t k = 0; k < tb_mix[i].count && n < TB_DECK; k++)
            tb_deck[n++] = make_op(tb_mix[i].kind, tb_mix[i].size);
    /* Fisher-Yates with a fixed xorshift seed: the same order on every boot. */
    uint32_t x = 2463534242u;
    for (uint32_t i = n - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint32_t j = x % (i + 1);
        struct tb_op t = tb_deck[i];
        tb_deck[i] = tb_deck[j];
        tb_deck[j] = t;
    }
}

static uint32_t request_check(uint32_t len, uint32_t reply_len, uint32_t seq, uint32_t client)
{
    return pattern_seed(len ^ 0x74626e63u, reply_len, seq) ^ client;
}

/*
 * write_sock: a message of total bytes in one write; the first hdr_bytes
 * (a multiple of 4) come from hdr, the rest is the pattern seeded with seed
 * (word index = byte offset / 4).
 */
static bool send_message(struct unix_sock *sk, char *buf, const uint32_t *hdr, uint32_t hdr_bytes, uint32_t total,
                         uint32_t seed)
{
    memcpy(buf, hdr, hdr_bytes);
    pattern_fill(buf + hdr_bytes, total - hdr_bytes, seed, hdr_bytes / 4);
    int n = unix_send(sk, buf, total);
    if (n != (int)total) {
        run_pipe_failure(&tb.run, n < 0 ? n : PIPE_EPIPE, "write_failed");
        return false;
    }
    return true;
}

/* read_sock (a read() loop until n bytes), or one MSG_WAITALL recv: the
 * bytes read, 0 at end of file, or a negative error. */
static int read_sock(struct unix_sock *sk, void *buf, uint32_t n, int flags)
{
    uint32_t got = 0;
    while (got < n) {
        int r = unix_recv(sk, (char *)buf + got, n - got, flags);
        if (r <= 0)
            return got ? (int)got : r;
        got += (uint32_t)r;
    }
    return (int)got;
}

/* Receive and check bytes [from, total) of a message whose pattern has seed. */
static bool receive_pattern(struct unix_sock *sk, char *buf, uint32_t from, uint32_t total, uint32_t seed, int flags)
{
    uint32_t len = total - from;
    int n = read_sock(sk, buf, len, flags);
    if (n != (int)len) {
        run_pipe_failure(&tb.run, n < 0 ? n : PIPE_EPIPE, "short_message");
        return false;
    }
    if (!pattern_check(buf, len, seed, from / 4)) {
        run_abort(&tb.run, RUN_ERROR, "corrupt_payload");
        return false;
    }
    return true;
}

/*
 * -DTBENCH_OP_NS=N, an experiment (docs/notebook/2026-12-06-seed003-tbench-lock-saturates.md):
 * N instructions of busy time per operation in the client, for the work an
 * operation cost on the era's machine that no cost= model charges (tbench's
 * own parsing of the load file, system calls, the rest of the TCP path).
 */
#ifdef TBENCH_OP_NS
#include "../kernel/chan_cost.h"
#endif
static inline void op_work(void)
{
#ifdef TBENCH_OP_NS
    cost_burn(TBENCH_OP_NS);
#endif
}

/* dbench's child loop: one do_packets per operation. */
static void tb_client(void *arg)
{
    struct tb_pair *p = arg;
    struct run *r = &tb.run;
    struct unix_sock *sk = p->client_sk;
    if (run_wait_start(r)) {
        uint32_t pos = p->index * 53 % TB_DECK;
        for (uint32_t seq = 0; !run_aborted(r) && (tb_seconds ? !tb.stop : seq < tb_load_ops); seq++) {
            const struct tb_op *op = &tb_deck[pos];
            pos = pos + 1 == TB_DECK ? 0 : pos + 1;
            uint64_t t0 = clock_ns();
            uint32_t hdr[4] = { op->send - 4, op->recv - 4, seq, 0 };
            hdr[3] = request_check(hdr[0], hdr[1], seq, p->index);
            if (!send_message(sk, p->client_buf, hdr, TB_REQUEST_HEADER, op->send, pattern_seed(p->index, seq, 'Q')))
                break;
            uint32_t reply_len = 0;
            int n = read_sock(sk, &reply_len, sizeof(reply_len), 0);
            if (n != (int)sizeof(reply_len)) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "no_reply");
                break;
            }
            if (reply_len != op->recv - 4) {
                kprintf("tbench: client %u: reply of %u bytes, expected %u\n", p->index, reply_len, op->recv - 4);
                run_abort(r, RUN_ERROR, "lost_sync");
                break;
            }
            if (!receive_pattern(sk, p->client_buf, 4, op->recv, pattern_seed(p->index, seq, 'R'), UNIX_WAITALL))
                break;
            op_work();
            p->bytes += op->payload;
            p->ops++;
            uint64_t latency = clock_ns() - t0;
            if (latency > p->max_latency_ns)
                p->max_latency_ns = latency;
        }
        p->done_ns = clock_ns();
        note_first_done();
        run_done(r);
    }
    unix_close(sk);                  /* the server reads end of file and exits */
    run_task_end(r);
}

/* tbench_srv's server(): read 4 bytes, then the rest of the request, reply. */
static void tb_server(void *arg)
{
    struct tb_pair *p = arg;
    struct run *r = &tb.run;
    struct unix_sock *sk = p->server_sk;
    if (run_wait_start(r)) {
        for (uint32_t seq = 0; !run_aborted(r); seq++) {
            uint32_t hdr[4];
            int n = read_sock(sk, hdr, sizeof(uint32_t), 0);
            if (n == 0)
                break;                          /* the client closed its end */
            if (n == (int)sizeof(uint32_t))
                n = read_sock(sk, hdr + 1, TB_REQUEST_HEADER - sizeof(uint32_t), 0);
            if (n != (int)(TB_REQUEST_HEADER - sizeof(uint32_t))) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "short_request");
                break;
            }
            if (hdr[2] != seq || hdr[3] != request_check(hdr[0], hdr[1], hdr[2], p->index) ||
                hdr[0] + 4 < TB_REQUEST_HEADER || hdr[0] + 4 > TB_BUF || hdr[1] + 4 > TB_BUF) {
                kprintf("tbench: server %u: bad request header (seq %u, expected %u)\n", p->index, hdr[2], seq);
                run_abort(r, RUN_ERROR, "corrupt_request");
                break;
            }
            if (!receive_pattern(sk, p->server_buf, TB_REQUEST_HEADER, hdr[0] + 4, pattern_seed(p->index, seq, 'Q'),
                                 0))
                break;
            uint32_t reply_hdr = hdr[1];
            if (!send_message(sk, p->server_buf, &reply_hdr, sizeof(reply_hdr), hdr[1] + 4,
                              pattern_seed(p->index, seq, 'R')))
                break;
        }
    }
    unix_close(sk);
    run_task_end(r);
}

static void tbench_setup(void)
{
    tb_nclients = cmdline_key_uint_list(&tbench_keys[KEY_CLIENTS], tb_clients, CMDLINE_MAX_LIST);
    tb_load_ops = cmdline_key_uint(&tbench_keys[KEY_LOAD_OPS]);
    tb_seconds = cmdline_key_uint(&tbench_keys[KEY_SECONDS]);
    build_deck();
}

/* When the clients finished (from the start, in seconds) and how far the
 * slowest had got when the first finished: how unevenly the scheduler
 * served them, which fixed work turns into a tail of few clients. */
static void print_done_spread(const struct run *r, const struct tb_pair *pairs, uint32_t clients, int run_index)
{
    uint64_t first = UINT64_MAX, last = 0, sum = 0;
    for (uint32_t i = 0; i < clients; i++) {
        uint64_t d = pairs[i].done_ns > r->t_start ? pairs[i].done_ns - r->t_start : 0;
        first = MIN(first, d);
        last = MAX(last, d);
        sum += d;
    }
    char f[32], m[32], l[32];
    fmt_fixed(f, first, NSEC_PER_SEC, 3);
    fmt_fixed(m, sum / clients, NSEC_PER_SEC, 3);
    fmt_fixed(l, last, NSEC_PER_SEC, 3);
    kprintf(PROTO_FORMAT(TBENCHSTAT), run_index, clients, tb_load_ops, f, m, l, tb.slowest_ops_at_first_done,
            (unsigned long long)tb.ops_at_first_done);
}

static int tbench_once(uint32_t clients, int run_index)
{
    struct run *r = &tb.run;
    struct tb_pair *pairs = NULL;
    tb.stop = 0;
    if (run_init(r, "tbench", (int)(2 * clients), 0) == 0 && run_init_pairs(r, (int)clients) == 0) {
        r->pending = (int)clients;
        pairs = run_zalloc(r, clients * sizeof(*pairs));
        tb.pairs = pairs;
        tb.clients = pairs ? clients : 0;
        tb.first_done = 0;
        if (!pairs)
            run_abort(r, RUN_OOM, "pair_state");
        for (uint32_t i = 0; i < clients && !run_aborted(r); i++) {
            struct tb_pair *p = &pairs[i];
            p->index = i;
            struct unix_pair *pair = run_socketpair(r);
            if (!pair) {
                run_abort(r, RUN_OOM, "socketpair");
                break;
            }
            unix_pair_model_tcp(pair);         /* a TCP connection over loopback: cost=era2003 charges its TCP work */
            p->client_sk = pair->sk[0];
            p->server_sk = pair->sk[1];
            if (!(p->client_buf = run_zalloc(r, TB_BUF)) || !(p->server_buf = run_zalloc(r, TB_BUF)))
                run_abort(r, RUN_OOM, "buffer");
            else if (!run_spawn(r, tb_server, p, "tbench-server", -1) || !run_spawn(r, tb_client, p, "tbench", -1))
                run_abort(r, RUN_OOM, "task_create");
        }
        if (!run_aborted(r)) {
            run_start(r);
            if (tb_seconds) {
                task_sleep_ns((uint64_t)tb_seconds * NSEC_PER_SEC);
                tb.stop = 1;
            }
        }
        run_reap(r);
    }
    uint64_t bytes = 0, max_latency = 0, ops = 0;
    for (uint32_t i = 0; pairs && i < clients; i++) {
        bytes += pairs[i].bytes;
        ops += pairs[i].ops;
        max_latency = MAX(max_latency, pairs[i].max_latency_ns);
    }
    int tasks = r->ntasks;
    uint32_t cpus_used = r->cpus_used;
    uint64_t ns = run_elapsed_ns(r);
    int status = run_free(r);

    static char line[480];
    char mbs[32], lat[32], secs[32];
    int n = bench_result_begin(line, sizeof(line), "tbench", run_index);
    n += snprintf(line + n, sizeof(line) - n, " clients=%u load=client_plain load_ops=%u seconds=%u", clients,
                  tb_load_ops, tb_seconds);
    n += bench_channel_params(line + n, sizeof(line) - n);
    n += snprintf(line + n, sizeof(line) - n, " tasks_started=%d cpus_used=0x%x", tasks, cpus_used);
    if (status == RUN_OK) {
        fmt_fixed(mbs, bytes * 1000, ns, 2);            /* bytes/ns * 1000 = 10^6 bytes/s */
        fmt_fixed(lat, max_latency, NSEC_PER_MSEC, 3);
        fmt_fixed(secs, ns, NSEC_PER_SEC, 3);
        kprintf("Throughput %s MB/sec  %u clients  %u procs  max_latency=%s ms\n", mbs, clients, 2 * clients, lat);
        snprintf(line + n, sizeof(line) - n, " ops=%llu bytes=%llu time_s=%s mb_per_s=%s max_latency_ms=%s status=ok",
                 (unsigned long long)ops, (unsigned long long)bytes, secs, mbs, lat);
    } else {
        snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(status), r->why);
    }
    kprintf("%s\n", line);
    if (status == RUN_OK && !tb_seconds)
        print_done_spread(r, pairs, clients, run_index);
    run_print_chanstat(r, run_index, NULL);
    return status;
}

static int tbench_run(int run_index)
{
    for (int i = 0; i < tb_nclients; i++) {
        int status = tbench_once(tb_clients[i], run_index);
        if (status != RUN_OK)
            return run_exit_code(status);
    }
    return EXIT_OK;
}

static const struct bench tbench_bench = {
    .name = "tbench",
    .summary = "client/server pairs replaying dbench 2.0 client_plain.txt's request mix over socket pairs (tbench)",
    BENCH_KEYS(tbench_keys),
    .in_default_suite = true,
    .setup = tbench_setup,
    .run = tbench_run,
};
BENCH(tbench_bench);
