/*
 * kernel/rbtree.c - red-black tree operations (see rbtree.h).
 *
 * The classic algorithm (Guibas and Sedgewick; the insert and delete fix-ups
 * as in Cormen et al., "Introduction to Algorithms", chapter 13) with NULL
 * leaves and an explicit parent pointer per node.  A red-black tree keeps
 *   1. every node red or black, the root black;
 *   2. no red node with a red child;
 *   3. the same number of black nodes on every path from a node down to a
 *      NULL leaf,
 * which bounds the height by 2*log2(n+1), so insert, erase and search are
 * O(log n) with at most three rotations per update.
 */
#include "rbtree.h"

static bool is_red(const struct rb_node *n) { return n && n->color == RB_RED; }
static bool is_black(const struct rb_node *n) { return !n || n->color == RB_BLACK; }

/* Make the slot that pointed to old (in parent, or the root) point to new. */
static void replace_child(struct rb_node *parent, struct rb_node *old, struct rb_node *new, struct rb_root *root)
{
    if (!parent)
        root->node = new;
    else if (parent->left == old)
        parent->left = new;
    else
        parent->right = new;
}

/*
 *      x                y
 *     / \              / \
 *    a   y     ->     x   c
 *       / \          / \
 *      b   c        a   b
 */
static void rotate_left(struct rb_node *x, struct rb_root *root)
{
    struct rb_node *y = x->right;
    x->right = y->left;
    if (y->left)
        y->left->parent = x;
    y->parent = x->parent;
    replace_child(x->parent, x, y, root);
    y->left = x;
    x->parent = y;
}

/* The mirror image of rotate_left. */
static void rotate_right(struct rb_node *x, struct rb_root *root)
{
    struct rb_node *y = x->left;
    x->left = y->right;
    if (y->right)
        y->right->parent = x;
    y->parent = x->parent;
    replace_child(x->parent, x, y, root);
    y->right = x;
    x->parent = y;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
    struct rb_node *parent;
    /* node is red; the only possible violation is a red parent (rule 2). */
    while ((parent = node->parent) && parent->color == RB_RED) {
        struct rb_node *gparent = parent->parent;   /* exists: a red node is never the root */
        if (parent == gparent->left) {
            struct rb_node *uncle = gparent->right;
            if (is_red(uncle)) {
                /* Recolour and move the problem two levels up. */
                parent->color = RB_BLACK;
                uncle->color = RB_BLACK;
                gparent->color = RB_RED;
                node = gparent;
                continue;
            }
            if (node == parent->right) {
                /* Inner grandchild: rotate it to the outside first. */
                rotate_left(parent, root);
                node = parent;
                parent = node->parent;
            }
            parent->color = RB_BLACK;
            gparent->color = RB_RED;
            rotate_right(gparent, root);
        } else {
            struct rb_node *uncle = gparent->left;
            if (is_red(uncle)) {
                parent->color = RB_BLACK;
                uncle->color = RB_BLACK;
                gparent->color = RB_RED;
                node = gparent;
                continue;
            }
            if (node == parent->left) {
                rotate_right(parent, root);
                node = parent;
                parent = node->parent;
            }
            parent->color = RB_BLACK;
            gparent->color = RB_RED;
            rotate_left(gparent, root);
        }
    }
    root->node->color = RB_BLACK;
}

/* Walk down to the insertion slot: right on ties, so equal keys keep insertion order. */
static bool link_in_order(struct rb_node *node, struct rb_root *root, rb_less_fn less)
{
    struct rb_node **link = &root->node, *parent = NULL;
    bool leftmost = true;
    while (*link) {
        parent = *link;
        if (less(node, parent)) {
            link = &parent->left;
        } else {
            link = &parent->right;
            leftmost = false;
        }
    }
    rb_link_node(node, parent, link);
    return leftmost;
}

void rb_add(struct rb_node *node, struct rb_root *root, rb_less_fn less)
{
    link_in_order(node, root, less);
    rb_insert_color(node, root);
}

bool rb_add_cached(struct rb_node *node, struct rb_root_cached *root, rb_less_fn less)
{
    bool leftmost = link_in_order(node, &root->root, less);
    if (leftmost)
        root->leftmost = node;
    rb_insert_color(node, &root->root);
    return leftmost;
}

/*
 * A black node was removed from below parent; x (maybe NULL) took its place
 * and is one black short on its side.  Push the deficit up or fix it with
 * rotations around the sibling.
 */
static void erase_fixup(struct rb_node *x, struct rb_node *parent, struct rb_root *root)
{
    while (x != root->node && is_black(x)) {
        if (x == parent->left) {
            struct rb_node *w = parent->right;    /* non-NULL: its side has a black to spare */
            if (is_red(w)) {
                w->color = RB_BLACK;
                parent->color = RB_RED;
                rotate_left(parent, root);
                w = parent->right;
            }
            if (is_black(w->left) && is_black(w->right)) {
                w->color = RB_RED;
                x = parent;
                parent = x->parent;
            } else {
                if (is_black(w->right)) {
                    w->left->color = RB_BLACK;
                    w->color = RB_RED;
                    rotate_right(w, root);
                    w = parent->right;
                }
                w->color = parent->color;
                parent->color = RB_BLACK;
                w->right->color = RB_BLACK;
                rotate_left(parent, root);
                x = root->node;
            }
        } else {
            struct rb_node *w = parent->left;
            if (is_red(w)) {
                w->color = RB_BLACK;
                parent->color = RB_RED;
                rotate_right(parent, root);
                w = parent->left;
            }
            if (is_black(w->left) && is_black(w->right)) {
                w->color = RB_RED;
                x = parent;
                parent = x->parent;
            } else {
                if (is_black(w->left)) {
                    w->right->color = RB_BLACK;
                    w->color = RB_RED;
                    rotate_left(w, root);
                    w = parent->left;
                }
                w->color = parent->color;
                parent->color = RB_BLACK;
                w->left->color = RB_BLACK;
                rotate_right(parent, root);
                x = root->node;
            }
        }
    }
    if (x)
        x->color = RB_BLACK;
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
    struct rb_node *child, *parent;
    int removed_color;

    if (node->left && node->right) {
        /* Two children: the in-order successor (leftmost of the right
         * subtree, which has no left child) takes node's place and colour;
         * the colour that disappears is the successor's own. */
        struct rb_node *succ = node->right;
        while (succ->left)
            succ = succ->left;
        child = succ->right;
        removed_color = succ->color;
        if (succ->parent == node) {
            parent = succ;                 /* child stays succ's right child */
        } else {
            parent = succ->parent;
            parent->left = child;          /* unhook succ from its old place */
            if (child)
                child->parent = parent;
            succ->right = node->right;
            node->right->parent = succ;
        }
        succ->left = node->left;
        node->left->parent = succ;
        succ->parent = node->parent;
        succ->color = node->color;
        replace_child(node->parent, node, succ, root);
    } else {
        /* At most one child: splice node out. */
        child = node->left ? node->left : node->right;
        parent = node->parent;
        removed_color = node->color;
        if (child)
            child->parent = parent;
        replace_child(parent, node, child, root);
    }
    if (removed_color == RB_BLACK)
        erase_fixup(child, parent, root);
    node->parent = node->left = node->right = NULL;
}

void rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
    if (root->leftmost == node)
        root->leftmost = rb_next(node);
    rb_erase(node, &root->root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
    struct rb_node *n = root->node;
    if (!n)
        return NULL;
    while (n->left)
        n = n->left;
    return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
    struct rb_node *n = root->node;
    if (!n)
        return NULL;
    while (n->right)
        n = n->right;
    return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
    if (node->right) {
        /* The leftmost node of the right subtree. */
        node = node->right;
        while (node->left)
            node = node->left;
        return (struct rb_node *)node;
    }
    /* Otherwise the first ancestor that we are in the left subtree of. */
    struct rb_node *parent;
    while ((parent = node->parent) && node == parent->right)
        node = parent;
    return parent;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
    if (node->left) {
        node = node->left;
        while (node->right)
            node = node->right;
        return (struct rb_node *)node;
    }
    struct rb_node *parent;
    while ((parent = node->parent) && node == parent->left)
        node = parent;
    return parent;
}

/* Black nodes from n up to the root, n included. */
static int blacks_to_root(const struct rb_node *n)
{
    int blacks = 0;
    for (; n; n = n->parent)
        if (n->color == RB_BLACK)
            blacks++;
    return blacks;
}

const char *rb_check(const struct rb_root *root, rb_less_fn less, int *count, int *black_height)
{
    int n = 0, height = -1;
    if (count)
        *count = 0;
    if (black_height)
        *black_height = 0;
    if (!root->node)
        return NULL;
    if (root->node->parent)
        return "root has a parent";
    if (root->node->color != RB_BLACK)
        return "root is not black";
    /* In-order walk: O(n log n) with the black count per leaf, no recursion. */
    const struct rb_node *prev = NULL;
    for (const struct rb_node *x = rb_first(root); x; x = rb_next(x)) {
        if (++n > (1 << 30))
            return "cycle in the tree";
        if (x->color != RB_RED && x->color != RB_BLACK)
            return "node colour is neither red nor black";
        if (x->left && x->left->parent != x)
            return "left child's parent pointer is wrong";
        if (x->right && x->right->parent != x)
            return "right child's parent pointer is wrong";
        if (x->parent && x->parent->left != x && x->parent->right != x)
            return "node is not a child of its parent";
        if (x->color == RB_RED && (is_red(x->left) || is_red(x->right)))
            return "red node has a red child";
        if (!x->left || !x->right) {
            /* x borders a NULL leaf: every such path must count the same blacks. */
            int blacks = blacks_to_root(x);
            if (height < 0)
                height = blacks;
            else if (blacks != height)
                return "black height differs between paths";
        }
        if (less && prev && less(x, prev))
            return "nodes are out of order";
        prev = x;
    }
    if (count)
        *count = n;
    if (black_height)
        *black_height = height;
    return NULL;
}

const char *rb_check_cached(const struct rb_root_cached *root, rb_less_fn less, int *count, int *black_height)
{
    const char *why = rb_check(&root->root, less, count, black_height);
    if (why)
        return why;
    if (root->leftmost != rb_first(&root->root))
        return "cached leftmost is not the first node";
    return NULL;
}
