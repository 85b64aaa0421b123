/* Intrusive doubly linked circular list, in the style of Linux's <linux/list.h>. */
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include "types.h"

struct list_head {
    struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
static inline void list_init(struct list_head *h) { h->next = h->prev = h; }
static inline bool list_empty(const struct list_head *h) { return h->next == h; }

static inline void list_insert_between(struct list_head *n, struct list_head *prev, struct list_head *next)
{
    next->prev = n;
    n->next = next;
    n->prev = prev;
    prev->next = n;
}
/* Insert n right after h (at the head of a list). */
static inline void list_add(struct list_head *n, struct list_head *h) { list_insert_between(n, h, h->next); }
/* Insert n right before h (at the tail of a list headed by h). */
static inline void list_add_tail(struct list_head *n, struct list_head *h) { list_insert_between(n, h->prev, h); }
static inline void list_del(struct list_head *n)
{
    n->next->prev = n->prev;
    n->prev->next = n->next;
    n->next = n->prev = n;
}
static inline void list_move_tail(struct list_head *n, struct list_head *h) { list_del(n); list_add_tail(n, h); }
static inline bool list_linked(const struct list_head *n) { return n->next != n; }

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)
#define list_last_entry(h, type, member) list_entry((h)->prev, type, member)
#define list_for_each(pos, h) for (pos = (h)->next; pos != (h); pos = pos->next)
#define list_for_each_safe(pos, tmp, h) for (pos = (h)->next, tmp = pos->next; pos != (h); pos = tmp, tmp = pos->next)

#endif
