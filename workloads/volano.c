/*
 * bench=volano: a model of VolanoMark (Volano LLC's chat-server benchmark,
 * the "scheduling anomaly" of the seed 003 thread: "sender/receiver timing
 * on loopback affects scheduling decisions").  VolanoMark runs a chat
 * server and a client JVM: rooms of 20 users, each user a TCP connection
 * over loopback served by Java threads; every message a user sends goes to
 * the server, which sends it to the room's other 19 users.  Here:
 *
 *   rooms=R, 20 users per room, messages=M per user, datasize bytes each
 *   (about 100, VolanoMark's default message is a short chat line).
 *   Each user is one connection (an AF_UNIX socket pair standing for the
 *   loopback TCP connection, its send buffers set to TCP's 16 KiB,
 *   sockbuf=) with four tasks:
 *     client sender    sends its M messages on the client end;
 *     server receiver  reads them from the server end and hands each to the
 *                      room's 19 other server senders, through each one's
 *                      queue (a pipe: a plain wake-up per hand-off);
 *     server sender    takes 19 x M messages from its queue and sends them
 *                      on the server end to its client;
 *     client receiver  reads the 19 x M messages of the room's others.
 *   The client tasks share one address space and the server tasks another
 *   (the two JVMs' threads).
 *
 * Every message is checked: its header and payload (msg.h), its sender in
 * the room and not the receiver, and the sequence of each sender in order;
 * a client receiver must end with exactly M from each of its 19 room
 * mates.  Counts: sent R x 20 x M, relayed and received R x 20 x 19 x M.
 *
 * Metric: messages_per_s, messages received by the clients per second
 * (VolanoMark's "message throughput"), from the start barrier to the last
 * task's end.  What it drops: TCP/IP, Java (its thread scheduling,
 * garbage collection, object serialisation), VolanoMark's connection
 * set-up and its timing of each client; docs/workloads.md#benchvolano.
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"

#define VOLANO_USERS 20
#define VOLANO_MAX_DATASIZE 1024

enum { KEY_ROOMS, KEY_MESSAGES, KEY_DATASIZE, KEY_SOCKBUF, KEY_CORRUPT, KEY_DROP };
static const struct cmdline_key volano_keys[] = {
    [KEY_ROOMS] = CMDLINE_KEY_UINT("rooms", 1, 1, 1000, "chat rooms of 20 users (4 tasks per user)"),
    [KEY_MESSAGES] = CMDLINE_KEY_UINT("messages", 100, 1, 1000000, "messages each user sends"),
    [KEY_DATASIZE] = CMDLINE_KEY_UINT("datasize", 100, MSG_MIN_SIZE, VOLANO_MAX_DATASIZE, "bytes per message"),
    [KEY_SOCKBUF] = CMDLINE_KEY_UINT("sockbuf", 16384, 2048, 1048576,
                                     "send buffer of each connection's sockets (TCP's 16 KiB tcp_wmem default)"),
    [KEY_CORRUPT] = CMDLINE_KEY_UINT("corrupt", 0, 0, 1000000,
                                     "test aid: flip a byte of this message (1-based) of user 0 (0: off; at most messages)"),
    [KEY_DROP] = CMDLINE_KEY_UINT("drop", 0, 0, 1000000,
                                  "test aid: user 0 skips this message (1-based; 0: off; at most messages)"),
};

static uint32_t vo_rooms, vo_messages, vo_datasize, vo_sockbuf, vo_corrupt, vo_drop;

struct vuser {
    uint32_t id;                  /* global user number: room * 20 + index */
    struct unix_pair *conn;       /* sk[0] client end, sk[1] server end */
    struct pipe *queue;           /* the server sender's queue */
};

static struct {
    struct run run;
    struct vuser *users;
    volatile uint32_t sent, relayed, received;
} vo;

static inline uint32_t room_of(uint32_t id) { return id / VOLANO_USERS; }

static void client_sender(void *arg)
{
    struct vuser *u = arg;
    struct run *r = &vo.run;
    char buf[VOLANO_MAX_DATASIZE];
    if (run_wait_start(r)) {
        for (uint32_t seq = 0; seq < vo_messages && !run_aborted(r); seq++) {
            if (u->id == 0 && seq + 1 == vo_drop)
                continue;
            msg_fill(buf, vo_datasize, u->id, seq);
            if (u->id == 0 && seq + 1 == vo_corrupt)
                buf[vo_datasize - 1] ^= 0x5a;
            int n = unix_send(u->conn->sk[0], buf, vo_datasize);
            if (n != (int)vo_datasize) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "client_send_failed");
                break;
            }
            atomic_add_return((volatile int *)&vo.sent, 1);
        }
        run_done(r);
    }
    run_task_end(r);
}

static void server_receiver(void *arg)
{
    struct vuser *u = arg;
    struct run *r = &vo.run;
    char buf[VOLANO_MAX_DATASIZE];
    uint32_t first = room_of(u->id) * VOLANO_USERS;
    if (run_wait_start(r)) {
        for (uint32_t seq = 0; seq < vo_messages && !run_aborted(r); seq++) {
            int n = unix_recv(u->conn->sk[1], buf, vo_datasize, UNIX_WAITALL);
            if (n != (int)vo_datasize) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "server_lost_message");
                break;
            }
            uint32_t from, s;
            if (!msg_check(buf, vo_datasize, &from, &s) || from != u->id || s != seq) {
                kprintf("volano: server of user %u: corrupt or out-of-order message (seq %u)\n", u->id, seq);
                run_abort(r, RUN_ERROR, "server_corrupt_message");
                break;
            }
            for (uint32_t k = first; k < first + VOLANO_USERS; k++) {
                if (k == u->id)
                    continue;
                n = pipe_write(vo.users[k].queue, buf, vo_datasize);
                if (n != (int)vo_datasize) {
                    run_pipe_failure(r, n, "handoff_failed");
                    break;
                }
            }
        }
        run_done(r);
    }
    run_task_end(r);
}

static void server_sender(void *arg)
{
    struct vuser *u = arg;
    struct run *r = &vo.run;
    char buf[VOLANO_MAX_DATASIZE];
    uint32_t total = (VOLANO_USERS - 1) * vo_messages;
    if (run_wait_start(r)) {
        for (uint32_t i = 0; i < total && !run_aborted(r); i++) {
            int n = pipe_read_full(u->queue, buf, vo_datasize);
            if (n != (int)vo_datasize) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "handoff_lost");
                break;
            }
            n = unix_send(u->conn->sk[1], buf, vo_datasize);
            if (n != (int)vo_datasize) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "server_send_failed");
                break;
            }
            atomic_add_return((volatile int *)&vo.relayed, 1);
        }
        run_done(r);
    }
    run_task_end(r);
}

static void client_receiver(void *arg)
{
    struct vuser *u = arg;
    struct run *r = &vo.run;
    char buf[VOLANO_MAX_DATASIZE];
    uint32_t next[VOLANO_USERS];
    uint32_t first = room_of(u->id) * VOLANO_USERS, total = (VOLANO_USERS - 1) * vo_messages;
    memset(next, 0, sizeof(next));
    if (run_wait_start(r)) {
        uint32_t got = 0;
        for (; got < total && !run_aborted(r); got++) {
            int n = unix_recv(u->conn->sk[0], buf, vo_datasize, UNIX_WAITALL);
            if (n != (int)vo_datasize) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "client_lost_message");
                break;
            }
            uint32_t from, seq;
            if (!msg_check(buf, vo_datasize, &from, &seq)) {
                kprintf("volano: user %u received a corrupt message\n", u->id);
                run_abort(r, RUN_ERROR, "corrupt_message");
                break;
            }
            if (from < first || from >= first + VOLANO_USERS || from == u->id || seq != next[from - first]) {
                kprintf("volano: user %u got message %u of user %u (expected %u from room %u)\n", u->id, seq, from,
                        from >= first && from < first + VOLANO_USERS ? next[from - first] : 0, room_of(u->id));
                run_abort(r, RUN_ERROR, from == u->id ? "own_message_echoed" : "wrong_room_or_order");
                break;
            }
            next[from - first]++;
            atomic_add_return((volatile int *)&vo.received, 1);
        }
        for (uint32_t k = 0; k < VOLANO_USERS && got == total && !run_aborted(r); k++)
            if (first + k != u->id && next[k] != vo_messages) {
                kprintf("volano: user %u got %u messages of user %u, not %u\n", u->id, next[k], first + k, vo_messages);
                run_abort(r, RUN_ERROR, "message_count");
            }
        run_done(r);
    }
    run_task_end(r);
}

static void volano_setup(void)
{
    vo_rooms = cmdline_key_uint(&volano_keys[KEY_ROOMS]);
    vo_messages = cmdline_key_uint(&volano_keys[KEY_MESSAGES]);
    vo_datasize = cmdline_key_uint(&volano_keys[KEY_DATASIZE]);
    vo_sockbuf = cmdline_key_uint(&volano_keys[KEY_SOCKBUF]);
    vo_corrupt = cmdline_key_uint(&volano_keys[KEY_CORRUPT]);
    vo_drop = cmdline_key_uint(&volano_keys[KEY_DROP]);
    if (vo_corrupt > vo_messages)
        cmdline_error("corrupt", "more than messages");
    if (vo_drop > vo_messages)
        cmdline_error("drop", "more than messages");
}

static int volano_run(int run_index)
{
    struct run *r = &vo.run;
    uint32_t nusers = vo_rooms * VOLANO_USERS;
    vo.sent = vo.relayed = vo.received = 0;
    if (run_init(r, "volano", (int)nusers * 4, (int)nusers) == 0 && run_init_pairs(r, (int)nusers) == 0) {
        int client_mm = new_mm_id(), server_mm = new_mm_id();
        r->pending = (int)nusers * 4;
        if (!(vo.users = run_zalloc(r, nusers * sizeof(*vo.users))))
            run_abort(r, RUN_OOM, "users");
        for (uint32_t i = 0; i < nusers && !run_aborted(r); i++) {
            struct vuser *u = &vo.users[i];
            u->id = i;
            if (!(u->conn = run_socketpair(r))) {
                run_abort(r, RUN_OOM, "socketpair");
                break;
            }
            unix_set_sndbuf(u->conn->sk[0], vo_sockbuf);
            unix_set_sndbuf(u->conn->sk[1], vo_sockbuf);
            unix_pair_model_tcp(u->conn);      /* a TCP connection over loopback: cost=era2003 charges its TCP work */
            if (!(u->queue = run_pipe(r, PIPE_DEFAULT_SIZE)))
                run_abort(r, RUN_OOM, "pipe");
        }
        for (uint32_t i = 0; i < nusers && !run_aborted(r); i++) {
            struct vuser *u = &vo.users[i];
            if (!run_spawn(r, server_sender, u, "vol-ssend", server_mm) ||
                !run_spawn(r, server_receiver, u, "vol-srecv", server_mm) ||
                !run_spawn(r, client_receiver, u, "vol-crecv", client_mm) ||
                !run_spawn(r, client_sender, u, "vol-csend", client_mm))
                run_abort(r, RUN_OOM, "task_create");
        }
        if (!run_aborted(r))
            run_start(r);
        run_reap(r);
    }
    int tasks = r->ntasks;
    uint32_t cpus_used = r->cpus_used;
    uint64_t ns = run_elapsed_ns(r);
    uint32_t sent = vo.sent, relayed = vo.relayed, received = vo.received;
    int status = run_free(r);
    uint64_t want_sent = (uint64_t)nusers * vo_messages, want_recv = want_sent * (VOLANO_USERS - 1);
    if (status == RUN_OK && (sent != want_sent || relayed != want_recv || received != want_recv)) {
        kprintf("volano: sent %u (want %llu), relayed %u, received %u (want %llu)\n", sent,
                (unsigned long long)want_sent, relayed, received, (unsigned long long)want_recv);
        status = RUN_ERROR;
        strlcpy(r->why, "message_count", sizeof(r->why));
    }

    static char line[400];
    int n = bench_result_begin(line, sizeof(line), "volano", run_index);
    n += snprintf(line + n, sizeof(line) - n, " rooms=%u messages=%u datasize=%u sockbuf=%u", vo_rooms, vo_messages,
                  vo_datasize, vo_sockbuf);
    n += bench_channel_params(line + n, sizeof(line) - n);
    n += snprintf(line + n, sizeof(line) - n, " tasks_started=%d sent=%u received=%u cpus_used=0x%x", tasks, sent,
                  received, cpus_used);
    if (status == RUN_OK) {
        char secs[32];
        fmt_fixed(secs, ns, NSEC_PER_SEC, 3);
        uint64_t per_s = ns ? (uint64_t)received * NSEC_PER_SEC / ns : 0;
        snprintf(line + n, sizeof(line) - n, " time_s=%s messages_per_s=%llu status=ok", secs,
                 (unsigned long long)per_s);
    } else {
        snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(status), r->why);
    }
    kprintf("%s\n", line);
    run_print_chanstat(r, run_index, NULL);
    return run_exit_code(status);
}

static const struct bench volano_bench = {
    .name = "volano",
    .summary = "VolanoMark-like chat rooms: 20 users a room, 4 tasks a user, each message relayed to 19 others",
    BENCH_KEYS(volano_keys),
    .in_default_suite = false,
    .setup = volano_setup,
    .run = volano_run,
};
BENCH(volano_bench);
