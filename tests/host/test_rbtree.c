/*
 * Host tests of kernel/rbtree.c: ordered insertion, erase, the cached
 * leftmost node, in-order navigation, equal keys sorting to the right (what
 * CFS needs), the invariant checker itself (it must catch broken trees), and
 * thousands of random inserts and erases checked against a simple reference
 * model with every invariant verified after each operation.  The random
 * sequence comes from a fixed-seed xorshift generator, so a failure repeats.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../../kernel/rbtree.h"

struct item {
    struct rb_node node;
    int key;
    int seq;          /* insertion order, to check the order of equal keys */
    bool in_tree;
};

static bool item_less(const struct rb_node *a, const struct rb_node *b)
{
    return rb_entry(a, struct item, node)->key < rb_entry(b, struct item, node)->key;
}

static struct item *item_of(struct rb_node *n) { return n ? rb_entry(n, struct item, node) : NULL; }

static uint64_t rng_state;
static uint32_t rng(void)
{
    /* xorshift64*, Marsaglia / Vigna: fixed seed, same sequence every run. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static void assert_valid(const struct rb_root_cached *root, int expected_count)
{
    int count, height;
    const char *why = rb_check_cached(root, item_less, &count, &height);
    if (why)
        fail_msg("invalid tree: %s", why);
    assert_int_equal(count, expected_count);
    /* Height bound: black height >= log2(n+1)/2, i.e. 2^(2*bh) > n. */
    if (count > 0)
        assert_true((1ll << (2 * height)) > count);
}

static void test_empty_tree(void **state)
{
    struct rb_root_cached root = RB_ROOT_CACHED;
    assert_true(rb_empty_cached(&root));
    assert_null(rb_first(&root.root));
    assert_null(rb_last(&root.root));
    assert_null(rb_first_cached(&root));
    assert_valid(&root, 0);
}

static void test_insert_in_order_and_navigate(void **state)
{
    static struct item items[1000];
    struct rb_root_cached root = RB_ROOT_CACHED;
    /* Ascending keys: the worst case for an unbalanced tree. */
    for (int i = 0; i < 1000; i++) {
        items[i].key = i;
        bool leftmost = rb_add_cached(&items[i].node, &root, item_less);
        assert_int_equal(leftmost, i == 0);
        assert_valid(&root, i + 1);
    }
    int i = 0;
    for (struct rb_node *n = rb_first(&root.root); n; n = rb_next(n))
        assert_int_equal(item_of(n)->key, i++);
    assert_int_equal(i, 1000);
    for (struct rb_node *n = rb_last(&root.root); n; n = rb_prev(n))
        assert_int_equal(item_of(n)->key, --i);
    assert_int_equal(i, 0);
    assert_int_equal(item_of(rb_first_cached(&root))->key, 0);
    assert_int_equal(item_of(rb_last(&root.root))->key, 999);
}

static void test_descending_insert_moves_leftmost(void **state)
{
    static struct item items[500];
    struct rb_root_cached root = RB_ROOT_CACHED;
    for (int i = 0; i < 500; i++) {
        items[i].key = 1000 - i;
        assert_true(rb_add_cached(&items[i].node, &root, item_less));   /* every one is a new minimum */
        assert_ptr_equal(rb_first_cached(&root), &items[i].node);
    }
    assert_valid(&root, 500);
    /* Erasing the leftmost hands the cache to the next smallest. */
    for (int i = 499; i >= 0; i--) {
        assert_ptr_equal(rb_first_cached(&root), &items[i].node);
        rb_erase_cached(&items[i].node, &root);
        assert_valid(&root, i);
    }
    assert_true(rb_empty_cached(&root));
    assert_null(rb_first_cached(&root));
}

static void test_equal_keys_sort_to_the_right(void **state)
{
    /* Keys 0..4, each inserted 20 times in a shuffled order: equal keys must
     * come out in the order they went in (each newcomer to the right). */
    static struct item items[100];
    struct rb_root_cached root = RB_ROOT_CACHED;
    rng_state = 0x1234567;
    int seq_of_key[5] = { 0 };
    for (int i = 0; i < 100; i++) {
        items[i].key = (int)(rng() % 5);
        items[i].seq = seq_of_key[items[i].key]++;
        bool leftmost = rb_add_cached(&items[i].node, &root, item_less);
        /* A duplicate of the current minimum never becomes the leftmost. */
        if (leftmost)
            for (int j = 0; j < i; j++)
                assert_true(items[j].key > items[i].key);
    }
    assert_valid(&root, 100);
    int last_key = -1, last_seq = -1;
    for (struct rb_node *n = rb_first(&root.root); n; n = rb_next(n)) {
        struct item *it = item_of(n);
        if (it->key == last_key)
            assert_int_equal(it->seq, last_seq + 1);
        else
            assert_int_equal(it->seq, 0);
        assert_true(it->key >= last_key);
        last_key = it->key;
        last_seq = it->seq;
    }
    /* The leftmost is the first-inserted of the smallest key. */
    struct item *first = item_of(rb_first_cached(&root));
    assert_int_equal(first->seq, 0);
    /* A node re-inserted with an unchanged key goes behind its equals (CFS requeue). */
    rb_erase_cached(&first->node, &root);
    rb_add_cached(&first->node, &root, item_less);
    struct item *after = item_of(rb_first_cached(&root));
    if (after != first) {
        assert_int_equal(after->key, first->key);
        assert_int_equal(after->seq, 1);
        struct rb_node *n = &after->node;
        while (rb_next(n) && item_of(rb_next(n))->key == first->key)
            n = rb_next(n);
        assert_ptr_equal(n, &first->node);
    }
    assert_valid(&root, 100);
}

static void test_erase_every_shape(void **state)
{
    /* For every position in a 64-node tree, build it and erase that node:
     * covers leaf, one-child, two-children, root and successor-is-child cases. */
    static struct item items[64];
    for (int victim = 0; victim < 64; victim++) {
        struct rb_root_cached root = RB_ROOT_CACHED;
        rng_state = 99 + victim;
        for (int i = 0; i < 64; i++) {
            items[i].key = (int)(rng() % 1000);
            rb_add_cached(&items[i].node, &root, item_less);
        }
        rb_erase_cached(&items[victim].node, &root);
        assert_valid(&root, 63);
        for (struct rb_node *n = rb_first(&root.root); n; n = rb_next(n))
            assert_ptr_not_equal(n, &items[victim].node);
    }
}

/* The checker must notice each kind of damage. */
static void test_checker_catches_broken_trees(void **state)
{
    static struct item items[15];
    struct rb_root_cached root = RB_ROOT_CACHED;
    for (int i = 0; i < 15; i++) {
        items[i].key = i;
        rb_add_cached(&items[i].node, &root, item_less);
    }
    assert_valid(&root, 15);
    struct rb_node *top = root.root.node;

    top->color = RB_RED;
    assert_non_null(rb_check(&root.root, item_less, NULL, NULL));        /* red root */
    top->color = RB_BLACK;

    /* Swap two keys: order broken, shape intact. */
    int k = items[3].key;
    items[3].key = items[9].key;
    items[9].key = k;
    assert_non_null(rb_check(&root.root, item_less, NULL, NULL));
    assert_null(rb_check(&root.root, NULL, NULL, NULL));                 /* no order check asked */
    items[9].key = items[3].key;
    items[3].key = k;
    assert_valid(&root, 15);

    /* Recolour one black node below the root red: paths through it lose a
     * black that its sibling's paths keep (and a red-red pair may appear). */
    struct rb_node *n = NULL;
    for (struct rb_node *x = rb_first(&root.root); x; x = rb_next(x))
        if (x != top && x->color == RB_BLACK) {
            n = x;
            break;
        }
    assert_non_null(n);
    n->color = RB_RED;
    assert_non_null(rb_check(&root.root, item_less, NULL, NULL));
    n->color = RB_BLACK;
    assert_valid(&root, 15);

    /* A wrong parent pointer. */
    struct rb_node *leaf = rb_first(&root.root);
    struct rb_node *saved = leaf->parent;
    leaf->parent = top->right;
    assert_non_null(rb_check(&root.root, item_less, NULL, NULL));
    leaf->parent = saved;

    /* A stale leftmost cache. */
    root.leftmost = rb_next(root.leftmost);
    assert_non_null(rb_check_cached(&root, item_less, NULL, NULL));
    root.leftmost = rb_first(&root.root);
    assert_valid(&root, 15);
}

/* Thousands of random inserts and erases against a reference model. */
static void test_random_operations_keep_invariants(void **state)
{
    enum { POOL = 400, OPS = 20000 };
    static struct item items[POOL];
    struct rb_root_cached root = RB_ROOT_CACHED;
    int in_tree = 0;
    rng_state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < POOL; i++)
        items[i].in_tree = false;
    for (int op = 0; op < OPS; op++) {
        struct item *it = &items[rng() % POOL];
        if (it->in_tree) {
            rb_erase_cached(&it->node, &root);
            it->in_tree = false;
            in_tree--;
        } else {
            it->key = (int)(rng() % 256);          /* small key range: many duplicates */
            rb_add_cached(&it->node, &root, item_less);
            it->in_tree = true;
            in_tree++;
        }
        /* Full check often at first, then every 16th operation (it is O(n log n)). */
        if (op < 4000 || op % 16 == 0)
            assert_valid(&root, in_tree);
        /* The cached leftmost always holds the smallest key in the model. */
        int min_key = 1 << 30;
        for (int i = 0; i < POOL; i++)
            if (items[i].in_tree && items[i].key < min_key)
                min_key = items[i].key;
        if (in_tree)
            assert_int_equal(item_of(rb_first_cached(&root))->key, min_key);
        else
            assert_null(rb_first_cached(&root));
    }
    /* Every node of the model is in the tree exactly once. */
    int seen = 0;
    for (struct rb_node *n = rb_first(&root.root); n; n = rb_next(n)) {
        assert_true(item_of(n)->in_tree);
        seen++;
    }
    assert_int_equal(seen, in_tree);
    /* Drain in random order. */
    for (int i = 0; i < POOL; i++) {
        int j = (int)(rng() % POOL);
        struct item *it = &items[(i + j) % POOL];
        if (it->in_tree) {
            rb_erase_cached(&it->node, &root);
            it->in_tree = false;
            in_tree--;
            assert_valid(&root, in_tree);
        }
    }
    for (int i = 0; i < POOL; i++)
        if (items[i].in_tree) {
            rb_erase_cached(&items[i].node, &root);
            in_tree--;
        }
    assert_int_equal(in_tree, 0);
    assert_true(rb_empty_cached(&root));
}

/* Caller-driven insertion (rb_link_node + rb_insert_color), as Linux 2.6 callers do. */
static void test_link_node_and_plain_root(void **state)
{
    static struct item items[300];
    struct rb_root root = RB_ROOT;
    rng_state = 42;
    for (int i = 0; i < 300; i++) {
        items[i].key = (int)(rng() % 10000);
        struct rb_node **link = &root.node, *parent = NULL;
        while (*link) {
            parent = *link;
            link = items[i].key < item_of(parent)->key ? &parent->left : &parent->right;
        }
        rb_link_node(&items[i].node, parent, link);
        rb_insert_color(&items[i].node, &root);
        const char *why = rb_check(&root, item_less, NULL, NULL);
        if (why)
            fail_msg("invalid tree after %d inserts: %s", i + 1, why);
    }
    for (int i = 0; i < 300; i += 2)
        rb_erase(&items[i].node, &root);
    int count;
    assert_null(rb_check(&root, item_less, &count, NULL));
    assert_int_equal(count, 150);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_tree),
        cmocka_unit_test(test_insert_in_order_and_navigate),
        cmocka_unit_test(test_descending_insert_moves_leftmost),
        cmocka_unit_test(test_equal_keys_sort_to_the_right),
        cmocka_unit_test(test_erase_every_shape),
        cmocka_unit_test(test_checker_catches_broken_trees),
        cmocka_unit_test(test_random_operations_keep_invariants),
        cmocka_unit_test(test_link_node_and_plain_root),
    };
    return cmocka_run_group_tests_name("rbtree", tests, NULL, NULL);
}
