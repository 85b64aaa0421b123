/*
 * kernel/rbtree.h - a generic intrusive red-black tree.
 *
 * The tree is "intrusive" in the way Linux's lib/rbtree.c is: the caller
 * embeds a struct rb_node in its own object and gets the object back with
 * rb_entry() (container_of).  The library never allocates and never compares
 * keys itself: ordered insertion takes a less() callback (rb_add), or the
 * caller walks down the tree itself and calls rb_link_node() +
 * rb_insert_color(), as Linux 2.6 callers did.
 *
 * Equal keys: rb_add() descends to the right when !less(new, node), so a
 * node goes after every node that compares equal to it.  Nodes with equal
 * keys therefore stay in insertion order, which is what CFS relies on
 * (Linux 2.6.24 kernel/sched_fair.c __enqueue_entity: "Nodes with the same
 * key stay together", the newcomer to the right).
 *
 * struct rb_root_cached also remembers the leftmost node, so the smallest
 * element is found in O(1) (Linux 2.6.24 kept it by hand in
 * cfs_rq->rb_leftmost; later kernels moved it into rb_root_cached).
 *
 * rb_check() verifies every red-black invariant (the root is black, a red
 * node has no red child, every path from a node to its leaves has the same
 * number of black nodes, parent pointers agree with child pointers) and the
 * ordering; the unit tests (tests/host/test_rbtree.c) run it after every
 * operation.  It is iterative, so it is safe on a 4 KiB kernel stack.
 *
 * Builds for the freestanding 32-bit kernel and for the host tests; needs
 * nothing but kernel/types.h.  Not thread safe: the caller locks.
 */
#ifndef KERNEL_RBTREE_H
#define KERNEL_RBTREE_H

#include "types.h"

#define RB_RED 0
#define RB_BLACK 1

struct rb_node {
    struct rb_node *parent;
    struct rb_node *left;
    struct rb_node *right;
    int color;                    /* RB_RED or RB_BLACK */
};

struct rb_root {
    struct rb_node *node;         /* NULL when the tree is empty */
};

struct rb_root_cached {
    struct rb_root root;
    struct rb_node *leftmost;     /* the first node in order, NULL when empty */
};

#define RB_ROOT { NULL }
#define RB_ROOT_CACHED { { NULL }, NULL }

#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/* Ordering for rb_add(): true when a sorts strictly before b. */
typedef bool (*rb_less_fn)(const struct rb_node *a, const struct rb_node *b);

static inline void rb_root_init(struct rb_root *root) { root->node = NULL; }
static inline void rb_root_cached_init(struct rb_root_cached *root)
{
    root->root.node = NULL;
    root->leftmost = NULL;
}
static inline bool rb_empty(const struct rb_root *root) { return root->node == NULL; }
static inline bool rb_empty_cached(const struct rb_root_cached *root) { return root->root.node == NULL; }

/* Hang node (not yet in any tree) at *link, a child slot of parent (NULL for the root slot). */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent, struct rb_node **link)
{
    node->parent = parent;
    node->left = node->right = NULL;
    node->color = RB_RED;
    *link = node;
}

/* Rebalance after rb_link_node(): restores the invariants around the new red node. */
void rb_insert_color(struct rb_node *node, struct rb_root *root);

/* Insert in order; equal keys go to the right of those already there. */
void rb_add(struct rb_node *node, struct rb_root *root, rb_less_fn less);
/* Same, keeping the leftmost cache; returns true when node became the leftmost. */
bool rb_add_cached(struct rb_node *node, struct rb_root_cached *root, rb_less_fn less);

/* Remove node (which must be in root's tree). */
void rb_erase(struct rb_node *node, struct rb_root *root);
void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root);

/* In-order navigation; NULL at either end. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
static inline struct rb_node *rb_first_cached(const struct rb_root_cached *root) { return root->leftmost; }

/* Checks every invariant and the order (less may be NULL to skip the order
 * check).  Returns NULL when the tree is valid, else a short description of
 * the first problem found.  *count (if not NULL) receives the node count and
 * *black_height the number of black nodes on every root-to-leaf path. */
const char *rb_check(const struct rb_root *root, rb_less_fn less, int *count, int *black_height);
/* rb_check() plus: the cached leftmost is the first node. */
const char *rb_check_cached(const struct rb_root_cached *root, rb_less_fn less, int *count, int *black_height);

#endif
