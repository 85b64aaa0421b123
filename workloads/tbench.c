/*
 * bench=tbench: Andrew Tridgell's tbench (dbench's network half), on socket
 * pairs instead of TCP over loopback.
 *
 * clients=N client/server task pairs, each pair joined by one socket pair.
 * A client replays a request/response mix modelled on dbench's NetBench
 * load (client_plain.txt of dbench 2.0, 2002, the generation the seed's
 * tbench 192 ran) with the packet sizes of dbench 1.x/2.x sockio.c:
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
 * (shares and ReadX/WriteX sizes counted from the 122,877 operations of
 * client_plain.txt, rounded to a 200-operation deck; the deck is shuffled
 * once with a fixed seed and each client starts at its own offset.)
 *
 * Every request starts with its length (4 bytes, as tbench_srv expects),
 * the reply length, a sequence number and a header check; the server reads
 * the request, checks it and answers with the requested number of bytes.
 * All payload bytes follow a pattern derived from (client, sequence), and
 * both sides check every byte.  Messages longer than the pipe are sent in
 * 4 KiB pieces, like a TCP stream.
 *
 * The run lasts seconds=; clients stop at the first operation boundary
 * after that, and the clock stops when the last client has finished its
 * last operation.  Metric mb_per_s: ReadX + WriteX payload bytes per second
 * in 10^6 bytes, as dbench counts them; max_latency_ms: the slowest
 * request/reply exchange.
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/mem.h"
#include "../kernel/task.h"
#include "../kernel/time.h"

#define TB_MAX_CLIENTS 10000u

enum { KEY_CLIENTS, KEY_SECONDS, KEY_PIPE_SIZE };
static const struct cmdline_key tbench_keys[] = {
    [KEY_CLIENTS] = CMDLINE_KEY_UINT_LIST("clients", "4", NULL, 1, TB_MAX_CLIENTS, CMDLINE_MAX_LIST,
                                          "client/server pairs, or a list of counts run one after another"),
    [KEY_SECONDS] = CMDLINE_KEY_UINT_SUITE("seconds", 3, 1, 1, 86400, "how long the clients send requests"),
    [KEY_PIPE_SIZE] = MSG_KEY_PIPE_SIZE,
};
#define TB_CHUNK 4096u            /* piece size for long messages; also each task's buffer */
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
static uint32_t tb_seconds, tb_pipe_size;

struct tb_pair {
    struct socketpair sp;         /* the client uses end 0, the server end 1 */
    uint32_t index;
    char *client_buf, *server_buf;
    uint64_t bytes, max_latency_ns;
    uint32_t ops;
};

static struct {
    struct run run;
    volatile int stop;
} tb;

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
 * Send a message of total bytes on end `end`: the first hdr_bytes come from
 * hdr, the rest is the pattern seeded with seed (word index = byte offset / 4).
 */
static bool send_message(struct pipe *out, char *buf, const uint32_t *hdr, uint32_t hdr_bytes, uint32_t total,
                         uint32_t seed)
{
    for (uint32_t off = 0; off < total;) {
        uint32_t len = MIN(TB_CHUNK, total - off), start = 0;
        if (off == 0) {
            memcpy(buf, hdr, hdr_bytes);
            start = hdr_bytes;
        }
        pattern_fill(buf + start, len - start, seed, (off + start) / 4);
        int n = pipe_write(out, buf, len);
        if (n != (int)len) {
            run_pipe_failure(&tb.run, n, "write_failed");
            return false;
        }
        off += len;
    }
    return true;
}

/* Receive and check bytes [from, total) of a message whose pattern has seed. */
static bool receive_pattern(struct pipe *in, char *buf, uint32_t from, uint32_t total, uint32_t seed)
{
    while (from < total) {
        uint32_t len = MIN(TB_CHUNK, total - from);
        int n = pipe_read_full(in, buf, len);
        if (n != (int)len) {
            run_pipe_failure(&tb.run, n < 0 ? n : PIPE_EPIPE, "short_message");
            return false;
        }
        if (!pattern_check(buf, len, seed, from / 4)) {
            run_abort(&tb.run, RUN_ERROR, "corrupt_payload");
            return false;
        }
        from += len;
    }
    return true;
}

static void tb_client(void *arg)
{
    struct tb_pair *p = arg;
    struct run *r = &tb.run;
    struct pipe *out = p->sp.rx[1], *in = p->sp.rx[0];
    if (run_wait_start(r)) {
        uint32_t pos = p->index * 53 % TB_DECK;
        for (uint32_t seq = 0; !tb.stop && !run_aborted(r); seq++) {
            const struct tb_op *op = &tb_deck[pos];
            pos = pos + 1 == TB_DECK ? 0 : pos + 1;
            uint64_t t0 = clock_ns();
            uint32_t hdr[4] = { op->send - 4, op->recv - 4, seq, 0 };
            hdr[3] = request_check(hdr[0], hdr[1], seq, p->index);
            if (!send_message(out, p->client_buf, hdr, TB_REQUEST_HEADER, op->send,
                              pattern_seed(p->index, seq, 'Q')))
                break;
            uint32_t reply_len = 0;
            int n = pipe_read_full(in, &reply_len, sizeof(reply_len));
            if (n != (int)sizeof(reply_len)) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "no_reply");
                break;
            }
            if (reply_len != op->recv - 4) {
                kprintf("tbench: client %u: reply of %u bytes, expected %u\n", p->index, reply_len, op->recv - 4);
                run_abort(r, RUN_ERROR, "lost_sync");
                break;
            }
            if (!receive_pattern(in, p->client_buf, 4, op->recv, pattern_seed(p->index, seq, 'R')))
                break;
            p->bytes += op->payload;
            p->ops++;
            uint64_t latency = clock_ns() - t0;
            if (latency > p->max_latency_ns)
                p->max_latency_ns = latency;
        }
        run_done(r);
    }
    socket_close(&p->sp, 0);        /* the server reads end of file and exits */
    run_task_end(r);
}

static void tb_server(void *arg)
{
    struct tb_pair *p = arg;
    struct run *r = &tb.run;
    struct pipe *out = p->sp.rx[0], *in = p->sp.rx[1];
    if (run_wait_start(r)) {
        for (uint32_t seq = 0; !run_aborted(r); seq++) {
            uint32_t hdr[4];
            int n = pipe_read_full(in, hdr, sizeof(uint32_t));
            if (n == 0)
                break;                          /* the client closed its end */
            if (n == (int)sizeof(uint32_t))
                n = pipe_read_full(in, hdr + 1, TB_REQUEST_HEADER - sizeof(uint32_t));
            if (n != (int)(TB_REQUEST_HEADER - sizeof(uint32_t))) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "short_request");
                break;
            }
            if (hdr[2] != seq || hdr[3] != request_check(hdr[0], hdr[1], hdr[2], p->index) ||
                hdr[0] + 4 < TB_REQUEST_HEADER || hdr[1] > (1u << 20)) {
                kprintf("tbench: server %u: bad request header (seq %u, expected %u)\n", p->index, hdr[2], seq);
                run_abort(r, RUN_ERROR, "corrupt_request");
                break;
            }
            if (!receive_pattern(in, p->server_buf, TB_REQUEST_HEADER, hdr[0] + 4, pattern_seed(p->index, seq, 'Q')))
                break;
            uint32_t reply_hdr = hdr[1];
            if (!send_message(out, p->server_buf, &reply_hdr, sizeof(reply_hdr), hdr[1] + 4,
                              pattern_seed(p->index, seq, 'R')))
                break;
        }
    }
    socket_close(&p->sp, 1);
    run_task_end(r);
}

static void tbench_setup(void)
{
    tb_nclients = cmdline_key_uint_list(&tbench_keys[KEY_CLIENTS], tb_clients, CMDLINE_MAX_LIST);
    tb_seconds = cmdline_key_uint(&tbench_keys[KEY_SECONDS]);
    tb_pipe_size = cmdline_key_uint(&tbench_keys[KEY_PIPE_SIZE]);
    build_deck();
}

static int tbench_once(uint32_t clients, int run_index)
{
    struct run *r = &tb.run;
    struct tb_pair *pairs = NULL;
    tb.stop = 0;
    if (run_init(r, "tbench", (int)(2 * clients), (int)(2 * clients)) == 0) {
        r->pending = (int)clients;
        pairs = run_zalloc(r, clients * sizeof(*pairs));
        if (!pairs)
            run_abort(r, RUN_OOM, "pair_state");
        for (uint32_t i = 0; i < clients && !run_aborted(r); i++) {
            struct tb_pair *p = &pairs[i];
            p->index = i;
            if (run_socketpair(r, &p->sp, tb_pipe_size) != 0)
                run_abort(r, RUN_OOM, "socketpair");
            else if (!(p->client_buf = run_zalloc(r, TB_CHUNK)) || !(p->server_buf = run_zalloc(r, TB_CHUNK)))
                run_abort(r, RUN_OOM, "buffer");
            else if (!run_spawn(r, tb_server, p, "tbench-server", -1) || !run_spawn(r, tb_client, p, "tbench", -1))
                run_abort(r, RUN_OOM, "task_create");
        }
        if (!run_aborted(r)) {
            run_start(r);
            task_sleep_ns((uint64_t)tb_seconds * NSEC_PER_SEC);
            tb.stop = 1;
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

    static char line[360];
    char mbs[32], lat[32], secs[32];
    int n = bench_result_begin(line, sizeof(line), "tbench", run_index);
    n += snprintf(line + n, sizeof(line) - n, " clients=%u seconds=%u pipe_size=%u tasks_started=%d cpus_used=0x%x",
                  clients, tb_seconds, tb_pipe_size, tasks, cpus_used);
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
    .summary = "client/server pairs replaying a NetBench-like request mix over socket pairs (tbench)",
    BENCH_KEYS(tbench_keys),
    .in_default_suite = true,
    .setup = tbench_setup,
    .run = tbench_run,
};
BENCH(tbench_bench);
