/*
 * Physical memory.  A bitmap with one bit per 4 KiB page (set = in use) covers
 * memory up to the highest usable address in the multiboot map; pages outside
 * the usable regions, below 1 MiB and under the kernel image stay set.
 * Single pages (task stacks, pipe buffers) are found from a moving hint, so
 * creating 20,000 tasks stays linear.
 *
 * The heap serves small objects from power-of-two size classes carved out of
 * pages; anything over 2 KiB gets whole pages.  An 8-byte header before each
 * object records its class (or page count) for kfree.  A freed object stays
 * on its class's free list, so the heap keeps the pages it grew to, until a
 * page allocation fails: then the pages whose objects are all free go back
 * (heap_reap), as Linux's slab gives its free slabs back under memory
 * pressure (2.4.18 mm/vmscan.c: try_to_free_pages_zone() -> shrink_caches()
 * -> mm/slab.c kmem_cache_reap(); 2.6.0's slab also from its periodic
 * cache_reap()).  Without it, what one big run left in the free lists (a
 * maxgroups attempt's skbs) made the next run fail early.
 */
#include "mem.h"
#include "lib.h"
#include "spinlock.h"

#define IMAGE_PAD_STR1(x) #x
#define IMAGE_PAD_STR(x) IMAGE_PAD_STR1(x)

#define MAX_PHYS (0xfec00000ull)   /* below the APIC and BIOS area */
#define BITS 32
#define ALIGN_UP_WORD(a) (((a) + BITS * PAGE_SIZE - 1) & ~(uintptr_t)(BITS * PAGE_SIZE - 1))

static uint32_t *bitmap;
static uint32_t max_pfn, free_pages, usable_pages, hint;
static uint16_t *reap_count;       /* heap_reap's free objects per page, from pfn reap_base on; 0 between reaps */
static uint32_t reap_base;
static spinlock_t page_lock = SPINLOCK_INIT("pages");

/* Test builds whose image is longer by never-used bytes, to check that
 * where the image ends does not reach a figure (docs/vsmp.md, "What else
 * moves a figure"): CFLAGS_EXTRA='-DIMAGE_PAD_TEXT=4096' (text: everything
 * after it moves too) or '-DIMAGE_PAD_BSS=4096'. */
#ifdef IMAGE_PAD_TEXT
__asm__(".pushsection .text\n\t.skip " IMAGE_PAD_STR(IMAGE_PAD_TEXT) ", 0x90\n\t.popsection");
#endif
#ifdef IMAGE_PAD_BSS
static uint8_t image_pad[IMAGE_PAD_BSS] __attribute__((used));
#endif

static bool test_bit(uint32_t pfn) { return bitmap[pfn / BITS] & (1u << (pfn % BITS)); }
static void set_bit(uint32_t pfn) { bitmap[pfn / BITS] |= 1u << (pfn % BITS); }
static void clear_bit(uint32_t pfn) { bitmap[pfn / BITS] &= ~(1u << (pfn % BITS)); }

void mem_init(const struct mem_region *usable, int n, uintptr_t kernel_end)
{
    uint64_t top = 0;
    for (int i = 0; i < n; i++)
        top = MAX(top, MIN(usable[i].base + usable[i].length, MAX_PHYS));
    max_pfn = (uint32_t)(top / PAGE_SIZE);
    /* The bitmap itself goes right after the kernel image. */
    bitmap = (uint32_t *)((kernel_end + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1));
    uint32_t words = (max_pfn + BITS - 1) / BITS;
    memset(bitmap, 0xff, words * 4);
    /* heap_reap's counters follow, one per page from the first page after them
     * (heap pages are never below it): 2 bytes a page. */
    reap_count = (uint16_t *)(bitmap + words);
    uintptr_t first_free = (uintptr_t)reap_count;
    for (;;) {
        uint32_t base = (uint32_t)((first_free + PAGE_SIZE - 1) / PAGE_SIZE);
        uintptr_t end = (uintptr_t)(reap_count + (max_pfn > base ? max_pfn - base : 0));
        end = (end + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1);
        if (end <= (uintptr_t)base * PAGE_SIZE) {
            reap_base = base;
            first_free = (uintptr_t)base * PAGE_SIZE;
            break;
        }
        first_free = end;
    }
    memset(reap_count, 0, first_free - (uintptr_t)reap_count);
    /* The free pages start at a bitmap word (32 pages, 128 KiB): what
     * page_alloc_noreap's scan costs depends on where the used pages fall
     * within its words, so a start that moved with the image's end or the
     * memory size (the bitmap's and the counters' size) moved every figure
     * of a vsmp or icount boot (docs/vsmp.md, "What else moves a figure").
     * The pages of the gap stay in use. */
    first_free = ALIGN_UP_WORD(first_free);
    for (int i = 0; i < n; i++) {
        uint64_t start = (usable[i].base + PAGE_SIZE - 1) / PAGE_SIZE;
        uint64_t end = MIN(usable[i].base + usable[i].length, MAX_PHYS) / PAGE_SIZE;
        for (uint64_t pfn = start; pfn < end; pfn++) {
            if (pfn * PAGE_SIZE < 0x100000 || pfn * PAGE_SIZE < first_free)
                continue;
            clear_bit((uint32_t)pfn);
            free_pages++;
        }
    }
    usable_pages = free_pages + (uint32_t)((first_free - 0x100000) / PAGE_SIZE);
    hint = (uint32_t)(first_free / PAGE_SIZE);
}

static bool pfn_run_free(uint32_t pfn, int npages)
{
    for (int i = 0; i < npages; i++)
        if (pfn + i >= max_pfn || test_bit(pfn + i))
            return false;
    return true;
}

static void *page_alloc_noreap(int npages)
{
    if (npages <= 0)
        return NULL;
    unsigned long f = spin_lock_irqsave(&page_lock);
    void *result = NULL;
    if ((uint32_t)npages <= free_pages) {
        /* Two passes: from the hint to the end, then from the start. */
        for (int pass = 0; pass < 2 && !result; pass++) {
            uint32_t pfn = pass == 0 ? hint : 0, end = pass == 0 ? max_pfn : hint;
            while (pfn < end) {
                if ((pfn % BITS) == 0 && bitmap[pfn / BITS] == 0xffffffffu) {
                    pfn += BITS;
                    continue;
                }
                if (pfn_run_free(pfn, npages)) {
                    for (int i = 0; i < npages; i++)
                        set_bit(pfn + i);
                    free_pages -= npages;
                    hint = pfn + npages;
                    result = (void *)(uintptr_t)(pfn * PAGE_SIZE);
                    break;
                }
                pfn++;
            }
        }
    }
    spin_unlock_irqrestore(&page_lock, f);
    return result;
}

void page_free(void *p, int npages)
{
    uint32_t pfn = (uint32_t)((uintptr_t)p / PAGE_SIZE);
    unsigned long f = spin_lock_irqsave(&page_lock);
    for (int i = 0; i < npages; i++) {
        if (!test_bit(pfn + i))
            panic("page_free: page 0x%x is not allocated", (pfn + i) * PAGE_SIZE);
        clear_bit(pfn + i);
    }
    free_pages += npages;
    if (pfn < hint)
        hint = pfn;
    spin_unlock_irqrestore(&page_lock, f);
}

uint32_t mem_usable_mib(void) { return usable_pages / (1024 * 1024 / PAGE_SIZE); }
uint32_t mem_free_pages(void) { return free_pages; }

/* ---- heap ---- */

static uint32_t heap_reap_locked(void);
static uint32_t reaps, reaped_pages;

#define HEADER 8
#define NCLASSES 8                 /* 16 .. 2048 bytes including the header */
#define LARGE_FLAG 0x80000000u

struct free_object {
    struct free_object *next;
};

static struct free_object *free_lists[NCLASSES];
static spinlock_t heap_lock = SPINLOCK_INIT("heap");

/* A page allocation that fails gets what the heap can give back, then tries once more. */
/* npages pages at a multiple of align pages (the 2.4 task layout:
 * kernel/sched_class.h SCHED_LAYOUT_LINUX24); not on any hot path, so a
 * plain scan, and page_alloc keeps its own. */
void *page_alloc_aligned(int npages, int align_pages)
{
    if (npages <= 0 || align_pages <= 0)
        return NULL;
    for (int attempt = 0; attempt < 2; attempt++) {
        unsigned long f = spin_lock_irqsave(&page_lock);
        void *result = NULL;
        for (uint32_t pfn = 0; pfn + (uint32_t)npages <= max_pfn; pfn += (uint32_t)align_pages)
            if (pfn_run_free(pfn, npages)) {
                for (int i = 0; i < npages; i++)
                    set_bit(pfn + i);
                free_pages -= npages;
                result = (void *)(uintptr_t)(pfn * PAGE_SIZE);
                break;
            }
        spin_unlock_irqrestore(&page_lock, f);
        if (result || attempt)
            return result;
        f = spin_lock_irqsave(&heap_lock);
        uint32_t freed = heap_reap_locked();
        spin_unlock_irqrestore(&heap_lock, f);
        if (!freed)
            return NULL;
    }
    return NULL;
}

void *page_alloc(int npages)
{
    void *p = page_alloc_noreap(npages);
    if (p || npages <= 0)
        return p;
    unsigned long f = spin_lock_irqsave(&heap_lock);
    uint32_t freed = heap_reap_locked();
    spin_unlock_irqrestore(&heap_lock, f);
    return freed ? page_alloc_noreap(npages) : NULL;
}

static int size_class(size_t total)
{
    for (int c = 0; c < NCLASSES; c++)
        if (total <= (16u << c))
            return c;
    return -1;
}

void *kmalloc(size_t n)
{
    size_t total = n + HEADER;
    int c = size_class(total);
    uint32_t *obj;
    if (c < 0) {
        int npages = (int)((total + PAGE_SIZE - 1) / PAGE_SIZE);
        obj = page_alloc(npages);
        if (!obj)
            return NULL;
        obj[0] = LARGE_FLAG | (uint32_t)npages;
        return (char *)obj + HEADER;
    }
    unsigned long f = spin_lock_irqsave(&heap_lock);
    if (!free_lists[c]) {
        char *page = page_alloc_noreap(1);
        if (!page && heap_reap_locked())
            page = page_alloc_noreap(1);
        if (!page) {
            spin_unlock_irqrestore(&heap_lock, f);
            return NULL;
        }
        size_t size = 16u << c;
        for (size_t off = 0; off + size <= PAGE_SIZE; off += size) {
            struct free_object *o = (struct free_object *)(page + off);
            o->next = free_lists[c];
            free_lists[c] = o;
        }
    }
    obj = (uint32_t *)free_lists[c];
    free_lists[c] = free_lists[c]->next;
    spin_unlock_irqrestore(&heap_lock, f);
    obj[0] = (uint32_t)c;
    return (char *)obj + HEADER;
}

void *kzalloc(size_t n)
{
    void *p = kmalloc(n);
    if (p)
        memset(p, 0, n);
    return p;
}

void kfree(void *p)
{
    if (!p)
        return;
    uint32_t *obj = (uint32_t *)((char *)p - HEADER);
    if (obj[0] & LARGE_FLAG) {
        page_free(obj, (int)(obj[0] & ~LARGE_FLAG));
        return;
    }
    uint32_t c = obj[0];
    if (c >= NCLASSES)
        panic("kfree: bad heap header 0x%x at %p", c, p);
    unsigned long f = spin_lock_irqsave(&heap_lock);
    struct free_object *o = (struct free_object *)obj;
    o->next = free_lists[c];
    free_lists[c] = o;
    spin_unlock_irqrestore(&heap_lock, f);
}

static uint32_t page_of(const void *p) { return (uint32_t)((uintptr_t)p / PAGE_SIZE) - reap_base; }

/*
 * Give back every heap page whose objects are all on the free lists; the
 * heap lock is held.  Counts each page's free objects, unlinks the objects
 * of the pages that are wholly free (the last one unlinked frees the page),
 * and clears the counts again.  Linear in the free objects; it runs only
 * when a page allocation has failed.  Returns the pages freed.
 */
static uint32_t heap_reap_locked(void)
{
    uint32_t freed = 0;
    for (int c = 0; c < NCLASSES; c++) {
        uint32_t per_page = PAGE_SIZE / (16u << c);
        for (struct free_object *o = free_lists[c]; o; o = o->next)
            reap_count[page_of(o)]++;
        struct free_object **link = &free_lists[c];
        while (*link) {
            struct free_object *o = *link;
            uint32_t i = page_of(o);
            if (reap_count[i] < per_page) {
                reap_count[i] = 0;
                link = &o->next;
                continue;
            }
            *link = o->next;                /* a wholly free page: unlink all its objects */
            if (++reap_count[i] == 2 * per_page) {
                reap_count[i] = 0;
                page_free((void *)((uintptr_t)o & ~(uintptr_t)(PAGE_SIZE - 1)), 1);
                freed++;
            }
        }
    }
    reaps++;
    reaped_pages += freed;
    return freed;
}

void mem_heap_reap_stats(uint32_t *nreaps, uint32_t *pages)
{
    *nreaps = reaps;
    *pages = reaped_pages;
}
