/*
 * AF_UNIX SOCK_STREAM socket pairs, as Linux 2.4.18, 2.6.0 and 2.6.24 had
 * them: the channel of hackbench's socket mode and of tbench.
 *
 * Sources (stored copies: vanilla 2.4.17 and Red Hat 2.4.18-14, whose
 * net/unix/af_unix.c stream paths, net/core/sock.c and skbuff.h struct are
 * the same; 2.6.11; 2.6.24):
 *   net/unix/af_unix.c   unix_stream_sendmsg, unix_stream_recvmsg,
 *                        unix_stream_data_wait, unix_writable,
 *                        unix_write_space, unix_release_sock
 *   net/core/sock.c      sock_alloc_send_pskb, sock_wait_for_wmem,
 *                        sock_wfree, sock_def_readable, SK_WMEM_MAX (2.6.24)
 *   net/core/skbuff.c    alloc_skb: truesize = SKB_DATA_ALIGN(size) +
 *                        sizeof(struct sk_buff)
 *   include/linux/skbuff.h  SKB_DATA_ALIGN, SKB_MAX_ALLOC, SK_WMEM_MAX (2.4)
 *
 * The rules, each as the source has it:
 *   - A socket pair is two sockets; what one sends is queued, one skb per
 *     send chunk, on the other's receive queue.  An skb is charged to the
 *     SENDING socket: its truesize is added to the sender's wmem_alloc when
 *     it is allocated and taken off when the reader frees it (sock_wfree).
 *   - A sender may allocate an skb while wmem_alloc < sndbuf
 *     (sock_alloc_send_pskb), so the last skb may overshoot sndbuf; else it
 *     sleeps on its own socket's wait queue (sock_wait_for_wmem).
 *   - Each send chunk is at most min(sndbuf/2 - 64, SKB_MAX_ALLOC) bytes
 *     ("Keep two messages in the pipe so it schedules better").
 *   - Queuing an skb wakes the receiving socket's sleepers with a plain
 *     wake_up_interruptible (sock_def_readable): never sync, in 2.4 and 2.6.
 *   - Freeing an skb wakes the sending socket's sleepers only when the
 *     socket is writable again, i.e. (wmem_alloc << 2) <= sndbuf: at most a
 *     quarter of the send buffer in use (unix_writable / unix_write_space);
 *     the wake-up is plain in 2.4.18 and 2.6.0, wake_up_interruptible_sync
 *     in 2.6.24.  It is tried on every free once below the quarter.
 *   - One wait queue per socket (sk->sleep) holds its readers waiting for
 *     data and its writers waiting for memory, and every wake-up wakes all
 *     of them: a tbench client waiting for its reply is woken when the
 *     server frees the request (its socket became writable), finds no
 *     data, and sleeps again.  Linux's, kept.
 *   - A read returns what is queued, up to n bytes, gathering skbs but
 *     "never glue messages from different writers" (the credentials check
 *     of unix_stream_recvmsg); it sleeps only while it has nothing (or less
 *     than n with UNIX_WAITALL, MSG_WAITALL's target).
 *   - Closing a socket (unix_release_sock) shuts down both directions of
 *     its peer: the peer reads what is queued, then end of file, and its
 *     sends fail with PIPE_EPIPE; everybody sleeping on the peer is woken.
 *
 * sock_model= (unix_set_model) chooses the constants, i386 defconfig:
 *   model   sizeof(sk_buff)  SMP_CACHE_BYTES  sndbuf   SKB_MAX_ALLOC  write space
 *   2.4.18  144              32               65535    16320          plain
 *   2.6.0   152              32               65535    16224          plain
 *   2.6.24  156              128              105472   16128          sync
 * (table and derivations in unix_sock.c).  A 100-byte hackbench message
 * costs 272 / 280 / 284 bytes of truesize: 241 / 235 / 372 of them fit one
 * socket, and blocked senders are woken once the receiver has drained it to
 * 60 / 58 / 92.
 *
 * Every socket counts the tasks its wake-ups woke (sync and plain), its
 * sleeps (readers, writers), the skbs sent and the deepest queue seen;
 * unix_pair_destroy adds them to totals since boot (unix_get_stats).
 * Errors are the pipe's (pipe.h): PIPE_EPIPE, PIPE_ENOMEM, PIPE_ESHUTDOWN.
 */
#ifndef KERNEL_UNIX_SOCK_H
#define KERNEL_UNIX_SOCK_H

#include "types.h"
#include "pipe.h"

enum unix_model { UNIX_MODEL_2_4_18 = 0, UNIX_MODEL_2_6_0 = 1, UNIX_MODEL_2_6_24 = 2 };
extern const char *const unix_model_names[];     /* "2.4.18", "2.6.0", "2.6.24" */

struct unix_model_params {
    const char *name;
    uint32_t skb_struct;        /* sizeof(struct sk_buff), i386 */
    uint32_t cache_bytes;       /* SMP_CACHE_BYTES, for SKB_DATA_ALIGN */
    uint32_t sndbuf;            /* sk_sndbuf: sysctl_wmem_default */
    uint32_t skb_max_alloc;     /* SKB_MAX_ALLOC */
    bool write_space_sync;      /* unix_write_space uses wake_up_interruptible_sync */
};

/* The model for every socket (set once, before any run). */
void unix_set_model(int model);
int unix_model(void);
const struct unix_model_params *unix_model_params(void);
/* alloc_skb's truesize for size bytes of data under the current model. */
uint32_t unix_truesize(uint32_t size);

struct unix_sock;
struct unix_pair {
    struct unix_sock *sk[2];    /* sk[0] and sk[1] are each other's peer */
};

/* 0, or PIPE_ENOMEM (then nothing is left allocated). */
int unix_socketpair(struct unix_pair *pair);
/* The pair stands for a TCP connection over loopback (tbench's, VolanoMark's):
 * every skb either end sends also pays the cost model's TCP figure
 * (chan_cost_tcp; era2003 only, nothing under the other models).  Before
 * either end is used. */
void unix_pair_model_tcp(struct unix_pair *pair);
/* Free both sockets and every skb still queued.  Nobody may use them any more. */
void unix_pair_destroy(struct unix_pair *pair);

/* unix_stream_sendmsg: returns n, or a negative error when nothing was sent
 * (a failed send after some skbs were queued returns what was sent). */
int unix_send(struct unix_sock *sk, const void *buf, uint32_t n);
#define UNIX_WAITALL 0x1        /* MSG_WAITALL: wait for all n bytes */
/* unix_stream_recvmsg: returns 1..n bytes, 0 at end of file, or PIPE_ESHUTDOWN. */
int unix_recv(struct unix_sock *sk, void *buf, uint32_t n, int flags);
/* close(): the peer reads EOF after the queued data and its sends fail. */
void unix_close(struct unix_sock *sk);
/* Abort a run: both sockets of sk's pair fail every call with PIPE_ESHUTDOWN, everybody is woken. */
void unix_shutdown(struct unix_sock *sk);

/* Introspection, for tests and reports. */
uint32_t unix_wmem_alloc(const struct unix_sock *sk);    /* truesize of sk's skbs not yet freed */
uint32_t unix_queued_skbs(const struct unix_sock *sk);   /* skbs on sk's receive queue */
uint32_t unix_sndbuf(const struct unix_sock *sk);
/* SO_SNDBUF, before the socket's first send (at least 2048, SOCK_MIN_SNDBUF). */
void unix_set_sndbuf(struct unix_sock *sk, uint32_t bytes);
uint32_t unix_max_queued(const struct unix_sock *sk);    /* deepest receive queue so far, in skbs */
bool unix_writable(const struct unix_sock *sk);          /* (wmem_alloc << 2) <= sndbuf */

struct unix_stats {
    uint32_t socks_live;        /* created and not destroyed */
    uint32_t skbs_live;         /* allocated and not freed (queued or cached) */
    uint32_t skb_alloc_failures;
    /* Added when a pair is destroyed: */
    uint64_t woken_sync, woken_plain;       /* tasks woken by sync / plain wake-ups */
    uint64_t reader_sleeps, writer_sleeps;  /* a recv waited for data; a send waited for sndbuf */
    uint64_t skbs_sent;
    uint32_t max_queued;        /* the deepest receive queue any destroyed socket had, in skbs */
};
void unix_get_stats(struct unix_stats *out);

#endif
