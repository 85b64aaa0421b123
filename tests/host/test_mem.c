/*
 * Host tests of the page allocator and heap (kernel/mem.c) over a fake
 * physical memory: an arena mapped below 2 GiB (MAP_32BIT) so that its
 * addresses fit the kernel's 32-bit physical address arithmetic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "../../kernel/mem.h"

#define ARENA_PAGES 1024           /* 4 MiB of "RAM" */

static char *arena;

static int setup(void **state)
{
    arena = mmap(NULL, (ARENA_PAGES + 1) * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
                 -1, 0);
    if (arena == MAP_FAILED)
        return -1;
    arena = (char *)(((uintptr_t)arena + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1));
    /* One usable region; the "kernel" ends at the arena's start, so the bitmap lands in its first page. */
    struct mem_region r = { (uintptr_t)arena, (uint64_t)ARENA_PAGES * PAGE_SIZE };
    mem_init(&r, 1, (uintptr_t)arena);
    return 0;
}

static void test_pages_are_distinct_and_freed(void **state)
{
    uint32_t free0 = mem_free_pages();
    /* The bitmap (one bit per page from address 0 up) and heap_reap's counters (2 bytes a page
     * from the arena on) take the arena's first pages, and the free pages begin at the next
     * bitmap word (32 pages): up to 31 more. */
    assert_true(free0 >= ARENA_PAGES - 17 - 31 && free0 < ARENA_PAGES);
    void *pages[64];
    for (int i = 0; i < 64; i++) {
        pages[i] = page_alloc(1);
        if (i == 0)   /* the first free page: a bitmap word's first, wherever the image ended */
            assert_int_equal((uintptr_t)pages[0] % (32 * PAGE_SIZE), 0);
        assert_non_null(pages[i]);
        assert_int_equal((uintptr_t)pages[i] % PAGE_SIZE, 0);
        assert_true((char *)pages[i] >= arena && (char *)pages[i] < arena + ARENA_PAGES * PAGE_SIZE);
        memset(pages[i], i, PAGE_SIZE);   /* would corrupt a neighbour if pages overlapped */
    }
    for (int i = 0; i < 64; i++)
        assert_int_equal(((unsigned char *)pages[i])[PAGE_SIZE - 1], i);
    assert_int_equal(mem_free_pages(), free0 - 64);
    for (int i = 0; i < 64; i++)
        page_free(pages[i], 1);
    assert_int_equal(mem_free_pages(), free0);
}

static void test_exhaustion_returns_null(void **state)
{
    uint32_t free0 = mem_free_pages();
    void *big = page_alloc((int)free0 + 1);
    assert_null(big);                                    /* more than exists: NULL, no crash */
    void *all = page_alloc((int)free0);
    assert_non_null(all);
    assert_null(page_alloc(1));
    assert_null(kmalloc(100));                           /* the heap needs a page it cannot get */
    page_free(all, (int)free0);
    assert_int_equal(mem_free_pages(), free0);
}

static void test_contiguous_runs_skip_holes(void **state)
{
    void *a = page_alloc(1), *b = page_alloc(1), *c = page_alloc(1);
    page_free(b, 1);                                     /* a one-page hole */
    void *run = page_alloc(3);
    assert_non_null(run);
    assert_ptr_not_equal(run, b);                        /* a 3-page run cannot start in the hole */
    void *again = page_alloc(1);
    assert_non_null(again);
    assert_true((char *)again < (char *)run || (char *)again >= (char *)run + 3 * PAGE_SIZE);
    page_free(a, 1);
    page_free(again, 1);
    page_free(c, 1);
    page_free(run, 3);
}

static void test_heap_classes_and_large(void **state)
{
    uint32_t free0 = mem_free_pages();
    char *small[100];
    for (int i = 0; i < 100; i++) {
        small[i] = kmalloc((size_t)(i * 20 + 1));
        assert_non_null(small[i]);
        assert_int_equal((uintptr_t)small[i] % 8, 0);
        memset(small[i], 0xa5, (size_t)(i * 20 + 1));
    }
    char *large = kzalloc(3 * PAGE_SIZE);
    assert_non_null(large);
    for (int i = 0; i < 3 * PAGE_SIZE; i++)
        assert_int_equal(large[i], 0);
    kfree(large);
    for (int i = 0; i < 100; i++)
        kfree(small[i]);
    kfree(NULL);
    /* Freed objects are reused: the same allocations need no new pages. */
    uint32_t after_first = mem_free_pages();
    for (int i = 0; i < 100; i++)
        small[i] = kmalloc((size_t)(i * 20 + 1));
    assert_int_equal(mem_free_pages(), after_first);
    for (int i = 0; i < 100; i++)
        kfree(small[i]);
    assert_true(after_first <= free0);
}

/* The heap keeps the pages it grew to until a page allocation fails; then
 * the pages whose objects are all free go back, and the others stay. */
static void test_free_heap_pages_go_back_when_pages_run_out(void **state)
{
    enum { N = 2048, PER_PAGE = PAGE_SIZE / 128 };   /* kmalloc(100): the 128-byte class */
    static unsigned char *objs[N];
    uint32_t reaps0, reaped0;
    mem_heap_reap_stats(&reaps0, &reaped0);
    uint32_t free0 = mem_free_pages();
    for (int i = 0; i < N; i++) {
        objs[i] = kmalloc(100);
        assert_non_null(objs[i]);
        memset(objs[i], i & 0xff, 100);
    }
    uint32_t grown = free0 - mem_free_pages();
    assert_true(grown >= N / PER_PAGE - 4);            /* earlier tests left a few free objects */
    /* Keep one object in every other page's worth of allocations. */
    int live_pages = 0;
    for (int i = 0; i < N; i++) {
        if (i % (2 * PER_PAGE) == 0)
            live_pages++;
        else
            kfree(objs[i]);
    }
    assert_int_equal(mem_free_pages(), free0 - grown);    /* freeing objects gives no page back */
    uint32_t rest = mem_free_pages();
    void *all = page_alloc((int)rest);
    assert_non_null(all);
    void *one = page_alloc(1);                            /* only the heap can give it */
    assert_non_null(one);
    uint32_t reaps, reaped;
    mem_heap_reap_stats(&reaps, &reaped);
    assert_int_equal(reaps, reaps0 + 1);
    assert_true(reaped - reaped0 >= grown - (uint32_t)live_pages);
    for (int i = 0; i < N; i += 2 * PER_PAGE)             /* the live objects are untouched */
        for (int k = 0; k < 100; k++)
            assert_int_equal(objs[i][k], i & 0xff);
    /* The kept pages still serve the class: no page is free, and these fit. */
    unsigned char *again[PER_PAGE - 1];
    for (int i = 0; i < PER_PAGE - 1; i++)
        assert_non_null(again[i] = kmalloc(100));
    for (int i = 0; i < PER_PAGE - 1; i++)
        kfree(again[i]);
    page_free(one, 1);
    page_free(all, (int)rest);
    for (int i = 0; i < N; i += 2 * PER_PAGE)
        kfree(objs[i]);
    /* Nothing to give back: a failed allocation stays a failure. */
    assert_null(page_alloc((int)mem_free_pages() + 1000));
}

static void test_double_free_panics(void **state)
{
    void *p = page_alloc(1);
    page_free(p, 1);
    host_console_clear();
    assert_int_equal(host_expect_exit(page_free(p, 1)), 2);
    assert_non_null(strstr(host_console, "is not allocated"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages_are_distinct_and_freed),
        cmocka_unit_test(test_exhaustion_returns_null),
        cmocka_unit_test(test_contiguous_runs_skip_holes),
        cmocka_unit_test(test_heap_classes_and_large),
        cmocka_unit_test(test_free_heap_pages_go_back_when_pages_run_out),
        cmocka_unit_test(test_double_free_panics),
    };
    return cmocka_run_group_tests_name("mem", tests, setup, NULL);
}
