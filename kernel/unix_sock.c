/*
 * AF_UNIX stream socket pairs (see unix_sock.h for the rules and sources).
 *
 * The constants, i386, each Linux version's defconfig unless said:
 *
 * sizeof(struct sk_buff), counted field by field (4-byte pointers, ints and
 * atomics; struct timeval and 2.6.24's ktime_t 8 bytes at 4-byte alignment):
 *   2.4.18 (2.4.17 vanilla and 2.4.18-14 include/linux/skbuff.h agree):
 *     next prev list sk 16, stamp 8, dev 4, h nh mac 12, dst 4, cb[48],
 *     len data_len csum 12, __unused cloned pkt_type ip_summed 4, priority
 *     4, users 4, protocol security 4, truesize 4, head data tail end 16,
 *     destructor 4: 144 (CONFIG_NETFILTER adds nfmark nfcache nfct: 156;
 *     CONFIG_NET_SCHED tc_index: +4; Red Hat's 2.4.18 configs have both:
 *     160).  2.4.17's arch/i386/defconfig has neither.
 *   2.6.0: the 2.5 layout (the 144 bytes above, truesize users head..end
 *     moved to the end) plus real_dev (bonding) and sp (the IPsec
 *     sec_path): 152.  No 2.6.0 tree was among the stored sources: this
 *     count joins the 2.5 skbuff.h that was (144, SK_WMEM_MAX 65535) with
 *     2.6.11's, which has real_dev and sp and again totals 152 without
 *     netfilter (it adds input_dev and mac_len but cb shrank to 40).
 *   2.6.24: next prev sk 12, tstamp 8, dev dst sp 12, cb[48], len data_len
 *     8, mac_len hdr_len 4, csum 4, priority 4, flag bytes 2, protocol 2,
 *     destructor 4, iif 4, queue_mapping 2 + hole 2
 *     (NETDEVICES_MULTIQUEUE=y), mark 4, transport network mac headers 12
 *     (pointers on 32-bit), tail end head data 16, truesize users 8: 156
 *     (no netfilter, no NET_SCHED in i386_defconfig).
 * SKB_DATA_ALIGN rounds up to SMP_CACHE_BYTES = L1_CACHE_BYTES =
 *   1 << CONFIG_X86_L1_CACHE_SHIFT: 5 for the Pentium III of 2.4's
 *   defconfig (used for 2.6.0 too, the era's OSDL servers being PIIIs is
 *   not known here; a 100-byte message rounds to 128 at 32, 64 or 128),
 *   7 for 2.6.24's i386_defconfig (X86_GENERIC).
 * sndbuf = sysctl_wmem_default: 2.4 SK_WMEM_MAX 65535 (skbuff.h; sock.c
 *   halves it only on machines with <= 16 MiB); 2.6.0 65535 (as 2.5's
 *   skbuff.h; assumed); 2.6.24 (sizeof(struct sk_buff) + 256) * 256 =
 *   105472 (net/core/sock.c _SK_MEM_OVERHEAD * _SK_MEM_PACKETS).
 * SKB_MAX_ALLOC = ((PAGE_SIZE << 2) - sizeof(struct skb_shared_info)) &
 *   ~(SMP_CACHE_BYTES - 1): shared info 2.4: dataref nr_frags frag_list 12
 *   + 6 frags of 8 = 60 -> 16320; 2.6.0: + tso_size tso_segs, 18 frags of 8
 *   = 160 -> 16224; 2.6.24: dataref 4, nr_frags gso_size gso_segs gso_type
 *   8, ip6_frag_id 4, frag_list 4, 18 frags of 12 = 236 -> 16128.
 *
 * Locking: one spinlock per socket guards its receive queue, its sleepers
 * (sk->sleep) and its shutdown state (Linux: the receive queue's lock,
 * unix_state_lock and the wait queue's lock).  wmem_alloc is atomic, as in
 * Linux: the reader uncharges the sender with one locked add and takes the
 * sender's lock only to wake its sleepers (unix_write_space's
 * waitqueue_active test, lockless).  A writer about to sleep re-tests
 * wmem_alloc after queueing itself, behind a full barrier, so the two
 * cannot miss each other.  A sender copies its data and queues the skb in
 * one critical section of the receiving socket (Linux copies first, then
 * takes unix_state_rlock(other) and the queue lock).  The lock order is
 * socket lock -> heap lock, socket lock -> task wake -> run-queue lock; no
 * code holds two socket locks.
 *
 * Memory: an skb is one heap object (a 20-byte header and the data).  A
 * freed skb stays on its receiving socket's free list, under that socket's
 * lock, for the next sender to it (small ones all, up to the deepest queue
 * the socket had; at most SKB_LARGE_KEEP large ones, of SKB_LARGE_CAP
 * bytes): 2.4's alloc_skb took its head from a per-CPU skb_head_pool and its
 * data from the slab's per-CPU arrays, never a global lock, and a global
 * heap lock per message (this kernel's kmalloc) made hackbench on 2 vCPUs
 * several times slower.  The lists are freed with the pair.  An skb costs
 * here what the model says only in truesize; the heap memory it takes is
 * smaller than Linux's (2.4: a 160-byte skbuff_head_cache object and a
 * kmalloc of SKB_DATA_ALIGN(size) + 60 bytes of shared info).
 */
#include "unix_sock.h"
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

static const struct unix_model_params models[] = {
    [UNIX_MODEL_2_4_18] = { "2.4.18", 144, 32, 65535, 16320, false },
    [UNIX_MODEL_2_6_0] = { "2.6.0", 152, 32, 65535, 16224, false },
    [UNIX_MODEL_2_6_24] = { "2.6.24", 156, 128, (156 + 256) * 256, 16128, true },
};
const char *const unix_model_names[] = { "2.4.18", "2.6.0", "2.6.24", NULL };
static int model = UNIX_MODEL_2_6_0;

void unix_set_model(int m)
{
    if (m >= 0 && m < (int)ARRAY_SIZE(models))
        model = m;
}
int unix_model(void) { return model; }
const struct unix_model_params *unix_model_params(void) { return &models[model]; }

uint32_t unix_truesize(uint32_t size)
{
    const struct unix_model_params *m = &models[model];
    return ((size + m->cache_bytes - 1) & ~(m->cache_bytes - 1)) + m->skb_struct;
}

#define RCV_SHUTDOWN 1
#define SEND_SHUTDOWN 2
#define SHUTDOWN_MASK 3

struct skb {
    struct skb *next;
    struct unix_sock *owner;      /* skb->sk: the sender, charged with the truesize */
    int creds;                    /* UNIXCREDS: the sender's pid */
    uint16_t size;                /* data bytes (skb_put) */
    uint16_t off;                 /* bytes already read (skb_pull) */
    uint16_t cap;                 /* data capacity of the allocation */
    uint16_t unused;
    char data[];
};
#ifndef HOST_TEST
STATIC_ASSERT(sizeof(struct skb) == 20, "skb header: 100 data bytes fit a 128-byte heap object");
#endif

struct unix_waiter {
    struct list_head entry;
    struct task *task;
    volatile bool queued;         /* cleared by the waker, as the last thing it touches */
};

struct unix_sock {
    spinlock_t lock;
    struct unix_sock *peer;
    struct skb *rq_head, *rq_tail;  /* receive_queue: what the peer sent */
    uint32_t rq_len;
    volatile int wmem_alloc;      /* truesize of our skbs not yet freed */
    uint32_t sndbuf;
    volatile uint8_t shutdown;    /* RCV_SHUTDOWN | SEND_SHUTDOWN */
    volatile uint8_t dead;        /* closed */
    volatile uint8_t shut;        /* aborted: every call fails */
    uint8_t tcp;                  /* stands for TCP over loopback: chan_cost_tcp per skb sent */
    struct list_head sleepers;    /* sk->sleep: readers and writers */
    struct skb *free_small, *free_large;  /* freed skbs, for the next sends to this socket */
    uint32_t nfree_large;
    /* Counted under the lock (or by the sole sender); added to the totals on destroy. */
    uint32_t woken[2];            /* [0] plain, [1] sync */
    uint32_t reader_sleeps, writer_sleeps, skbs_sent, max_queued;
};

/* Freed skbs stay with the receiving socket for its next sender (see the
 * header comment); large ones only a few. */
#define SKB_SMALL_CAP 1024u
#define SKB_LARGE_KEEP 2u
#define SKB_LARGE_CAP 16320u      /* the largest SKB_MAX_ALLOC: one size serves every large skb */

static volatile int socks_live, skbs_live, skb_alloc_failures;
static spinlock_t totals_lock = SPINLOCK_INIT("unix totals");
static uint64_t total_woken[2], total_reader_sleeps, total_writer_sleeps, total_skbs_sent;
static uint32_t total_max_queued;

/* Word copy: the kernel's memcpy is rep movsb, one iteration per translated
 * block under TCG (the same helper as pipe.c's; under CACHES=1 charged to
 * the memory model as ranges, memline's `skb.copied`). */
static inline void copy(void *d, const void *s, uint32_t n)
{
    uint32_t words = n >> 2, bytes = n & 3;
    __asm__ volatile(MACHINE_COPY_ASM("rep movsl", "movl %3, %%ecx", "rep movsb", "skb.copied")
                     : "+D"(d), "+S"(s), "+c"(words)
                     : "r"(bytes)
                     : "memory");
}

/* sk's lock held (sk: the receiving socket): an skb for size bytes, or NULL. */
static struct skb *skb_alloc(struct unix_sock *sk, uint32_t size)
{
    struct skb *skb = NULL, **from = size <= SKB_SMALL_CAP ? &sk->free_small : &sk->free_large;
    if (*from && (*from)->cap >= size) {
        skb = *from;
        *from = skb->next;
        if (from == &sk->free_large)
            sk->nfree_large--;
    }
    if (!skb) {
        skb = kmalloc(sizeof(*skb) + (size <= SKB_SMALL_CAP ? size : SKB_LARGE_CAP));
        if (!skb) {
            atomic_add_return(&skb_alloc_failures, 1);
            return NULL;
        }
        skb->cap = (uint16_t)(size <= SKB_SMALL_CAP ? size : SKB_LARGE_CAP);
    }
    atomic_add_return(&skbs_live, 1);
    skb->next = NULL;
    skb->size = (uint16_t)size;
    skb->off = 0;
    return skb;
}

/* sk's lock held (sk: the socket whose queue the skb was on). */
static void skb_free(struct unix_sock *sk, struct skb *skb)
{
    atomic_add_return(&skbs_live, -1);
    if (skb->cap <= SKB_SMALL_CAP) {
        skb->next = sk->free_small;
        sk->free_small = skb;
    } else if (sk->nfree_large < SKB_LARGE_KEEP) {
        skb->next = sk->free_large;
        sk->free_large = skb;
        sk->nfree_large++;
    } else {
        kfree(skb);
    }
}

static void free_list(struct skb *skb)
{
    while (skb) {
        struct skb *next = skb->next;
        kfree(skb);
        skb = next;
    }
}

/* Lock held: wake everybody on sk->sleep (wake_up_interruptible: no waiter is exclusive). */
__switch_path static void wake_sleepers_slow(struct unix_sock *sk, int flags)
{
    while (!list_empty(&sk->sleepers)) {
        struct unix_waiter *w = list_first_entry(&sk->sleepers, struct unix_waiter, entry);
        if (wake_up_task(w->task, flags))
            sk->woken[(flags & WAKE_SYNC) ? 1 : 0]++;
        list_del(&w->entry);
        w->queued = false;
    }
}

/* Most wake-ups find nobody asleep: test that inline. */
static inline __attribute__((always_inline)) void wake_sleepers(struct unix_sock *sk, int flags)
{
    if (!list_empty(&sk->sleepers))
        wake_sleepers_slow(sk, flags);
}

/* Lock held, waiter w queued and the task TASK_SLEEPING: sleep, return with the lock held again. */
__switch_path static void sleep_queued(struct unix_sock *sk, struct unix_waiter *w)
{
    spin_unlock(&sk->lock);
    schedule();
    spin_lock(&sk->lock);
    if (w->queued) {
        list_del(&w->entry);
        w->queued = false;
    }
}

__switch_path static void queue_self(struct unix_sock *sk, struct unix_waiter *w)
{
    w->task = current_task();
    w->queued = true;
    list_add_tail(&w->entry, &sk->sleepers);
    w->task->state = TASK_SLEEPING;
}

__switch_path static void unqueue_self(struct unix_sock *sk, struct unix_waiter *w)
{
    list_del(&w->entry);
    w->queued = false;
    w->task->state = TASK_RUNNING;
}

bool unix_writable(const struct unix_sock *sk) { return ((uint32_t)sk->wmem_alloc << 2) <= sk->sndbuf; }

/*
 * sock_wfree + unix_write_space: the reader freed one of sk's skbs.  No lock
 * held.  The waitqueue_active test is lockless, after the locked add (a
 * full barrier), as Linux's.
 */
__switch_path static void uncharge(struct unix_sock *sk, uint32_t truesize)
{
    atomic_add_return(&sk->wmem_alloc, -(int)truesize);
    if (!unix_writable(sk))
        return;
    if (*(struct list_head *volatile *)&sk->sleepers.next == &sk->sleepers)
        return;
    spin_lock(&sk->lock);
    wake_sleepers(sk, models[model].write_space_sync ? WAKE_SYNC : 0);
    spin_unlock(&sk->lock);
}

static struct unix_sock *sock_create(void)
{
    struct unix_sock *sk = kzalloc(sizeof(*sk));
    if (!sk)
        return NULL;
    spin_lock_init(&sk->lock, "unix sock");
    list_init(&sk->sleepers);
    sk->sndbuf = models[model].sndbuf;
    atomic_add_return(&socks_live, 1);
    return sk;
}

int unix_socketpair(struct unix_pair *pair)
{
    pair->sk[0] = sock_create();
    pair->sk[1] = pair->sk[0] ? sock_create() : NULL;
    if (!pair->sk[1]) {
        if (pair->sk[0]) {
            kfree(pair->sk[0]);
            atomic_add_return(&socks_live, -1);
        }
        pair->sk[0] = NULL;
        return PIPE_ENOMEM;
    }
    pair->sk[0]->peer = pair->sk[1];
    pair->sk[1]->peer = pair->sk[0];
    return 0;
}

void unix_pair_model_tcp(struct unix_pair *pair)
{
    pair->sk[0]->tcp = pair->sk[1]->tcp = 1;
}

static void fold_totals(struct unix_sock *sk)
{
    unsigned long f = spin_lock_irqsave(&totals_lock);
    total_woken[0] += sk->woken[0];
    total_woken[1] += sk->woken[1];
    total_reader_sleeps += sk->reader_sleeps;
    total_writer_sleeps += sk->writer_sleeps;
    total_skbs_sent += sk->skbs_sent;
    total_max_queued = MAX(total_max_queued, sk->max_queued);
    spin_unlock_irqrestore(&totals_lock, f);
}

void unix_pair_destroy(struct unix_pair *pair)
{
    for (int e = 0; e < 2; e++) {
        struct unix_sock *sk = pair->sk[e];
        if (!sk)
            continue;
        while (sk->rq_head) {
            struct skb *skb = sk->rq_head;
            sk->rq_head = skb->next;
            skb_free(sk, skb);
        }
        free_list(sk->free_small);
        free_list(sk->free_large);
        fold_totals(sk);
    }
    for (int e = 0; e < 2; e++) {
        if (pair->sk[e]) {
            kfree(pair->sk[e]);
            atomic_add_return(&socks_live, -1);
        }
        pair->sk[e] = NULL;
    }
}

/*
 * sock_alloc_send_pskb's wait: until wmem_alloc < sndbuf.  0, PIPE_EPIPE
 * (we shut down sending) or PIPE_ESHUTDOWN.
 */
__switch_path static int wait_for_wmem(struct unix_sock *sk)
{
    if (likely(!sk->shut && !(sk->shutdown & SEND_SHUTDOWN) && (uint32_t)sk->wmem_alloc < sk->sndbuf))
        return 0;
    int err = 0;
    spin_lock(&sk->lock);
    for (;;) {
        if (sk->shut) {
            err = PIPE_ESHUTDOWN;
            break;
        }
        if (sk->shutdown & SEND_SHUTDOWN) {
            err = PIPE_EPIPE;
            break;
        }
        if ((uint32_t)sk->wmem_alloc < sk->sndbuf)
            break;
        struct unix_waiter w;
        queue_self(sk, &w);
        __sync_synchronize();          /* pairs with uncharge: its add, then its look at the sleepers */
        if ((uint32_t)sk->wmem_alloc < sk->sndbuf) {
            unqueue_self(sk, &w);
            break;
        }
        sk->writer_sleeps++;
        sleep_queued(sk, &w);
    }
    spin_unlock(&sk->lock);
    return err;
}

/* unix_stream_sendmsg. */
__switch_path int unix_send(struct unix_sock *sk, const void *buf, uint32_t n)
{
    const char *src = buf;
    struct unix_sock *other = sk->peer;
    const struct unix_model_params *m = &models[model];
    /* "Keep two messages in the pipe so it schedules better", and at most SKB_MAX_ALLOC. */
    uint32_t max_chunk = MIN(sk->sndbuf / 2 - 64, m->skb_max_alloc);
    uint32_t sent = 0;
    int err = 0;
    int creds = current_task()->pid;
    uint32_t skbs = (n + max_chunk - 1) / max_chunk;
    chan_cost_sock(n, skbs);            /* cost=: the system call, copies, skbs; before any lock */
    if (sk->tcp)
        chan_cost_tcp(n, skbs);         /* cost=era2003: TCP/IP's work beyond AF_UNIX's, likewise */
    while (sent < n) {
        uint32_t size = MIN(n - sent, max_chunk);
        if ((err = wait_for_wmem(sk)) != 0)
            break;
        uint32_t truesize = unix_truesize(size);
        atomic_add_return(&sk->wmem_alloc, (int)truesize);     /* skb_set_owner_w */
        spin_lock(&other->lock);
        if (other->shut || sk->shut) {
            err = PIPE_ESHUTDOWN;
        } else if (other->dead || (other->shutdown & RCV_SHUTDOWN)) {
            err = PIPE_EPIPE;
        } else {
            struct skb *skb = skb_alloc(other, size);
            if (!skb) {
                err = PIPE_ENOMEM;
            } else {
                skb->owner = sk;
                skb->creds = creds;
                copy(skb->data, src + sent, size);
                if (other->rq_tail)
                    other->rq_tail->next = skb;
                else
                    other->rq_head = skb;
                other->rq_tail = skb;
                if (++other->rq_len > other->max_queued)
                    other->max_queued = other->rq_len;
                sk->skbs_sent++;
                wake_sleepers(other, 0);           /* sock_def_readable: plain */
            }
        }
        spin_unlock(&other->lock);
        if (err) {
            uncharge(sk, truesize);                /* kfree_skb of the unsent skb */
            break;
        }
        sent += size;
    }
    return sent ? (int)sent : err;
}

/* unix_stream_recvmsg (with unix_stream_data_wait). */
__switch_path int unix_recv(struct unix_sock *sk, void *buf, uint32_t n, int flags)
{
    char *dst = buf;
    uint32_t copied = 0, target = (flags & UNIX_WAITALL) ? n : 1;
    bool have_creds = false;
    int creds = 0, err = 0;
    if (n == 0)
        return 0;
    spin_lock(&sk->lock);
    while (copied < n) {
        if (sk->shut) {
            err = PIPE_ESHUTDOWN;
            break;
        }
        struct skb *skb = sk->rq_head;
        if (!skb) {
            if (copied >= target || (sk->shutdown & RCV_SHUTDOWN))
                break;
            struct unix_waiter w;
            queue_self(sk, &w);
            sk->reader_sleeps++;
            sleep_queued(sk, &w);
            continue;
        }
        /* Never glue messages from different writers. */
        if (have_creds && skb->creds != creds)
            break;
        creds = skb->creds;
        have_creds = true;
        uint32_t chunk = MIN((uint32_t)(skb->size - skb->off), n - copied);
        copy(dst + copied, skb->data + skb->off, chunk);
        copied += chunk;
        skb->off = (uint16_t)(skb->off + chunk);
        if (skb->off < skb->size)
            break;                                  /* put back: the rest stays at the head */
        sk->rq_head = skb->next;
        if (!sk->rq_head)
            sk->rq_tail = NULL;
        sk->rq_len--;
        struct unix_sock *owner = skb->owner;
        uint32_t truesize = unix_truesize(skb->size);
        skb_free(sk, skb);
        spin_unlock(&sk->lock);
        uncharge(owner, truesize);                  /* kfree_skb -> sock_wfree -> unix_write_space */
        spin_lock(&sk->lock);
    }
    spin_unlock(&sk->lock);
    chan_cost_sock(copied, 0);                      /* cost=: the system call and copies, after the lock */
    if (err && !copied)
        return err;
    return (int)copied;
}

/* unix_release_sock for a stream socket: shut the peer down, purge our queue. */
void unix_close(struct unix_sock *sk)
{
    struct unix_sock *other = sk->peer;
    spin_lock(&sk->lock);
    sk->shutdown = SHUTDOWN_MASK;
    sk->dead = 1;
    struct skb *purge = sk->rq_head;
    sk->rq_head = sk->rq_tail = NULL;
    sk->rq_len = 0;
    wake_sleepers(sk, 0);
    spin_unlock(&sk->lock);
    spin_lock(&other->lock);
    other->shutdown = SHUTDOWN_MASK;               /* no more writes, EOF after the queue */
    wake_sleepers(other, 0);                       /* sock_def_wakeup: wake_up_interruptible_all */
    spin_unlock(&other->lock);
    while (purge) {
        struct skb *skb = purge;
        purge = skb->next;
        struct unix_sock *owner = skb->owner;
        uint32_t truesize = unix_truesize(skb->size);
        spin_lock(&sk->lock);
        skb_free(sk, skb);
        spin_unlock(&sk->lock);
        uncharge(owner, truesize);
    }
}

void unix_shutdown(struct unix_sock *sk)
{
    struct unix_sock *both[2] = { sk, sk->peer };
    for (int i = 0; i < 2; i++) {
        spin_lock(&both[i]->lock);
        both[i]->shut = 1;
        wake_sleepers(both[i], 0);
        spin_unlock(&both[i]->lock);
    }
}

uint32_t unix_wmem_alloc(const struct unix_sock *sk) { return (uint32_t)sk->wmem_alloc; }
uint32_t unix_queued_skbs(const struct unix_sock *sk) { return sk->rq_len; }
uint32_t unix_sndbuf(const struct unix_sock *sk) { return sk->sndbuf; }
/* setsockopt(SO_SNDBUF) before any send (e.g. a TCP-sized buffer for a socket standing for TCP). */
void unix_set_sndbuf(struct unix_sock *sk, uint32_t bytes) { sk->sndbuf = bytes < 2048 ? 2048 : bytes; }
uint32_t unix_max_queued(const struct unix_sock *sk) { return sk->max_queued; }

void unix_get_stats(struct unix_stats *out)
{
    out->socks_live = (uint32_t)socks_live;
    out->skbs_live = (uint32_t)skbs_live;
    out->skb_alloc_failures = (uint32_t)skb_alloc_failures;
    unsigned long f = spin_lock_irqsave(&totals_lock);
    out->woken_plain = total_woken[0];
    out->woken_sync = total_woken[1];
    out->reader_sleeps = total_reader_sleeps;
    out->writer_sleeps = total_writer_sleeps;
    out->skbs_sent = total_skbs_sent;
    out->max_queued = total_max_queued;
    spin_unlock_irqrestore(&totals_lock, f);
}
