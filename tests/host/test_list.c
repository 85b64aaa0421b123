/* Host tests of the intrusive list (kernel/list.h) that every run queue and wait queue is built on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../../kernel/list.h"

struct item {
    int value;
    struct list_head node;
};

static int collect(struct list_head *h, int *out)
{
    int n = 0;
    struct list_head *pos;
    list_for_each(pos, h)
        out[n++] = list_entry(pos, struct item, node)->value;
    return n;
}

static void test_add_head_tail_and_order(void **state)
{
    struct list_head h;
    list_init(&h);
    assert_true(list_empty(&h));
    struct item it[4] = { { 1, { 0, 0 } }, { 2, { 0, 0 } }, { 3, { 0, 0 } }, { 4, { 0, 0 } } };
    list_add_tail(&it[0].node, &h);   /* 1 */
    list_add_tail(&it[1].node, &h);   /* 1 2 */
    list_add(&it[2].node, &h);        /* 3 1 2  (head insertion, as 2.4's add_to_runqueue) */
    list_add_tail(&it[3].node, &h);   /* 3 1 2 4 */
    int v[8];
    assert_int_equal(collect(&h, v), 4);
    assert_int_equal(v[0], 3);
    assert_int_equal(v[1], 1);
    assert_int_equal(v[2], 2);
    assert_int_equal(v[3], 4);
    assert_ptr_equal(list_first_entry(&h, struct item, node), &it[2]);
    assert_ptr_equal(list_last_entry(&h, struct item, node), &it[3]);
}

static void test_del_and_move(void **state)
{
    struct list_head h;
    list_init(&h);
    struct item it[3] = { { 1, { 0, 0 } }, { 2, { 0, 0 } }, { 3, { 0, 0 } } };
    for (int i = 0; i < 3; i++)
        list_add_tail(&it[i].node, &h);
    list_move_tail(&it[0].node, &h);  /* 2 3 1: round robin */
    int v[4];
    collect(&h, v);
    assert_int_equal(v[0], 2);
    assert_int_equal(v[2], 1);
    list_del(&it[1].node);
    assert_false(list_linked(&it[1].node));
    assert_int_equal(collect(&h, v), 2);
    struct list_head *pos, *tmp;
    list_for_each_safe(pos, tmp, &h)
        list_del(pos);
    assert_true(list_empty(&h));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_head_tail_and_order),
        cmocka_unit_test(test_del_and_move),
    };
    return cmocka_run_group_tests_name("list", tests, NULL, NULL);
}
